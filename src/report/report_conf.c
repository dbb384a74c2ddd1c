/* report_conf.c: postgresql.conf lines a script can append or drop into
 * conf.d/, each commented with the figure it came from. Everything that is
 * not a setting is a comment, so the output is always a valid file; after
 * an error the settings are comments too. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/plan.h"
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
report_conf_setting(FILE *out, const char *off, const struct setting *s)
{
	char comment[SETTING_TEXT_LEN + 64];

	report_setting_comment(s, comment, sizeof comment);
	fprintf(out, "%s%s = %s", off, s->name, s->value);
	fputs(strlen(s->name) < 15 ? "\t\t" : "\t", out);
	put_comment(out, "", comment);
}

/* The advice's own sentences beside a setting: before it (the method's
 * reasoning) or after it (the experiment's). */
static void
put_setting_notes(FILE *out, const struct advice *a, const struct setting *s, bool before)
{
	if (before && s->id == SETTING_WAL_SYNC_METHOD && s->basis != SETTING_GIVEN)
		put_comment(out, "wal_sync_method: ", a->method_reason);
	if (before || !a->delay_measured)
		return;
	if (s->id == SETTING_COMMIT_DELAY) {
		put_comment(out, "commit_delay: ", a->delay_reason);
		put_comment(out, "", a->rule_reason);
	} else if (s->id == SETTING_COMMIT_SIBLINGS) {
		put_comment(out, "commit_siblings: ", a->siblings_reason);
	}
}

void
report_conf(FILE *out, const struct report *r)
{
	const struct target_result *tr = &r->targets[0];
	const struct advice *a = &tr->advice;
	const char *off;	/* "#" before a setting that must not take effect */
	char when[64], head[128], where[sizeof tr->storage.device.layers + 256];
	char why_off[SETTING_TEXT_LEN];
	struct settings set;
	struct tm tm;
	bool active;
	size_t i;

	active = report_settings_of(r, tr, &set, why_off, sizeof why_off);
	if (gmtime_r(&r->when, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(when, sizeof when, "unknown date");
	snprintf(head, sizeof head, "syncprobe %s, %s: ", PACKAGE_VERSION, when);
	put_comment(out, head, tr->path);
	/* The label says which run a saved file came from ("before the BBU"),
	 * as the text header says it. */
	if (r->options != NULL && r->options->label != NULL)
		put_comment(out, "label: ", r->options->label);
	report_storage_summary(&tr->storage, where, sizeof where);
	put_comment(out, "on ", where);
	/* A run cut short by an error or a signal gives figures from however
	 * many operations it had: a file dropped into conf.d must set nothing
	 * from them. */
	if (!active) {
		put_comment(out, why_off, ": every setting below is commented out");
		if (tr->failed)
			put_comment(out, "stopped by an error: ", tr->error);
	}
	off = active ? "" : "#";
	if (set.n == 0) {
		put_comment(out, "no advice: ", set.none);
		return;
	}
	for (i = 0; i < set.n; i++) {
		const struct setting *s = &set.list[i];

		put_setting_notes(out, a, s, true);
		report_conf_setting(out, off, s);
		put_setting_notes(out, a, s, false);
	}
	if (a->commit_siblings == DEFAULT_COMMIT_SIBLINGS)
		fprintf(out, "#commit_siblings = %u\t\t# commit_delay waits only while this many "
		    "other transactions are active\n", DEFAULT_COMMIT_SIBLINGS);
	for (i = 0; i < a->nwarnings; i++) {
		char prefix[64];

		snprintf(prefix, sizeof prefix, "warning [%s]: ", a->warnings[i].code);
		put_comment(out, prefix, a->warnings[i].message);
	}
}
