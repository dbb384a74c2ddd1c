/* report_conf.c: postgresql.conf lines a script can append or drop into
 * conf.d/, each commented with the figure it came from. Everything that is
 * not a setting is a comment, so the output is always a valid file; after
 * an error the settings are comments too. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/plan.h"
#include "report/advice_words.h"
#include "report/settings_words.h"
#include "report/warning_words.h"
#include "report/report.h"
#include "util/escape.h"

/* A comment line, its text escaped as the text report escapes it: a path
 * (or a device's model, a mount option) may hold a newline, which would
 * end the comment early and leave the rest as a setting, or an escape
 * sequence, which a terminal showing the file would obey. */
static void
put_comment(FILE *out, const char *prefix, const char *text)
{
	char *shown = escape_alloc(text);

	fputs("# ", out);
	fputs(prefix, out);
	fputs(shown != NULL ? shown : "(out of memory)", out);
	fputc('\n', out);
	free(shown);
}

void
report_conf_setting(FILE *out, bool active, const struct setting *s)
{
	char comment[SETTING_TEXT_LEN + 64], prefix[64];

	/* The comment goes above the line, never after it: the active lines
	 * are then only names and values, the same in every run that
	 * advises the same, while the figures in the comments vary. */
	snprintf(prefix, sizeof prefix, "%s: ", s->name);
	report_setting_comment(s, comment, sizeof comment);
	put_comment(out, prefix, comment);
	if (!active)
		fputc('#', out);
	report_setting_line(out, s);
	fputc('\n', out);
}

/* The advice's own sentences beside a setting: before it (the method's
 * reasoning) or after it (the experiment's). */
static void
put_setting_notes(FILE *out, const struct advice *a, const struct setting *s, bool before)
{
	struct words w;

	if (before && s->id == SETTING_WAL_SYNC_METHOD && s->source != SOURCE_GIVEN)
		put_comment(out, "wal_sync_method: ", advice_words_method(a, &w));
	if (before || !a->delay_measured)
		return;
	if (s->id == SETTING_COMMIT_DELAY) {
		put_comment(out, "commit_delay: ", advice_words_delay(a, &w));
		put_comment(out, "", advice_words_rule(a, &w));
	} else if (s->id == SETTING_COMMIT_SIBLINGS) {
		put_comment(out, "commit_siblings: ", advice_words_siblings(a, &w));
	}
}

void
report_conf(FILE *out, const struct report *r)
{
	const struct target_result *tr = &r->targets[0];
	const struct advice *a = &tr->advice;
	char when[64], head[128], where[sizeof tr->run.storage.device.layers + 256];
	const struct settings *set = &tr->to_set;
	struct words why;
	struct tm tm;
	size_t i;

	if (gmtime_r(&r->when, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(when, sizeof when, "unknown date");
	snprintf(head, sizeof head, "syncprobe %s, %s: ", PACKAGE_VERSION, when);
	put_comment(out, head, tr->run.path);
	/* The label says which run a saved file came from ("before the BBU"),
	 * as the text header says it. */
	if (r->options != NULL && r->options->label != NULL)
		put_comment(out, "label: ", r->options->label);
	report_storage_summary(&tr->run.storage, where, sizeof where);
	put_comment(out, "on ", where);
	/* Nothing may take effect (an error, a signal, figures of memory,
	 * nothing measured): a file dropped into conf.d must set nothing. */
	if (set->nothing != NOTHING_NONE && set->n > 0) {
		put_comment(out, settings_words_nothing(set, &why), ": every setting below is "
		    "commented out");
		if (tr->run.failed)
			put_comment(out, "stopped by an error: ", tr->run.error);
	}
	if (set->n == 0) {
		put_comment(out, "no advice: ", settings_words_nothing(set, &why));
		return;
	}
	for (i = 0; i < set->n; i++) {
		const struct setting *s = &set->list[i];

		put_setting_notes(out, a, s, true);
		report_conf_setting(out, settings_active(set, i), s);
		put_setting_notes(out, a, s, false);
	}
	if (a->commit_siblings == DEFAULT_COMMIT_SIBLINGS)
		fprintf(out, "# commit_siblings: commit_delay waits only while this many other "
		    "transactions are active\n#commit_siblings = %u\n", DEFAULT_COMMIT_SIBLINGS);
	for (i = 0; i < a->nwarnings; i++) {
		char prefix[64];
		struct words w;

		snprintf(prefix, sizeof prefix, "warning [%s]: ", a->warnings[i].code);
		put_comment(out, prefix, warning_words_message(&a->warnings[i], &w));
	}
}
