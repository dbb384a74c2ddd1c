/* report_conf.c: postgresql.conf lines a script can append or drop into
 * conf.d/, each commented with the figure it came from. Everything that is
 * not a setting is a comment, so the output is always a valid file; after
 * an error the settings are comments too. */
#include "config.h"

#include <string.h>
#include <time.h>

#include "probe/plan.h"
#include "report/report.h"

/* A comment line: newlines in the text (a path may hold one) must not end
 * the comment early and leave the rest as a setting. */
static void
put_comment(FILE *out, const char *prefix, const char *text)
{
	const char *p;

	fputs("# ", out);
	fputs(prefix, out);
	for (p = text; *p != '\0'; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
	fputc('\n', out);
}

void
report_conf(FILE *out, const struct report *r)
{
	const struct target_result *tr = &r->targets[0];
	const struct advice *a = &tr->advice;
	const struct method *method;
	const char *off;	/* "#" before a setting that must not take effect */
	char when[64], block[16], head[128], where[sizeof tr->storage.device.layers + 256];
	struct tm tm;
	size_t i;

	options_format_size(r->options->block_bytes, block, sizeof block);
	if (gmtime_r(&r->when, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(when, sizeof when, "unknown date");
	snprintf(head, sizeof head, "syncprobe %s, %s: ", PACKAGE_VERSION, when);
	put_comment(out, head, tr->path);
	report_storage_summary(&tr->storage, where, sizeof where);
	put_comment(out, "on ", where);
	/* A run cut short by an error or a signal gives figures from however
	 * many operations it had: a file dropped into conf.d must set nothing
	 * from them. */
	if (tr->failed) {
		put_comment(out, "", "the run stopped at an error, so these figures are not "
		    "advice: every setting below is commented out");
		put_comment(out, "stopped by an error: ", tr->error);
	} else if (r->interrupted_by != 0) {
		put_comment(out, "", "a signal ended the measuring early, so these figures "
		    "are not advice: every setting below is commented out");
	}
	off = tr->failed || r->interrupted_by != 0 ? "#" : "";

	if (!a->have_delay) {
		put_comment(out, "no advice: ", a->delay_reason);
		return;
	}
	/* The method the delay rests on: the advised one, or the server's
	 * own (--wal-sync-method), so the two lines always agree. */
	method = a->delay_method;
	if (a->wal_sync_method != NULL && method != a->wal_sync_method)
		fprintf(out, "# syncprobe would advise wal_sync_method = '%s'; "
		    "these lines keep the server's %s\n", a->wal_sync_method->name, method->name);
	else
		put_comment(out, "wal_sync_method: ", a->method_reason);
	fprintf(out, "%swal_sync_method = '%s'\t# %.1f us per %s write + flush\n",
	    off, method->name, a->basis_mean_usecs, block);
	if (a->delay_measured) {
		fprintf(out, "%scommit_delay = %ld\t\t# us: measured by -t %s\n",
		    off, a->commit_delay_usecs, plan_group_name(GROUP_GROUP));
		put_comment(out, "commit_delay: ", a->delay_reason);
		put_comment(out, "", a->rule_reason);
	} else {
		fprintf(out, "%scommit_delay = %ld\t\t# us: half of the %s flush interval (%.3f us)\n",
		    off, a->commit_delay_usecs, a->basis ? a->basis->spec.name : method->name,
		    a->basis_mean_usecs);
	}
	if (a->commit_siblings != DEFAULT_COMMIT_SIBLINGS) {
		fprintf(out, "%scommit_siblings = %u\n", off, a->commit_siblings);
		put_comment(out, "commit_siblings: ", a->siblings_reason);
	} else {
		fprintf(out, "#commit_siblings = %u\t\t# commit_delay waits only while this many "
		    "other transactions are active\n", DEFAULT_COMMIT_SIBLINGS);
	}
	for (i = 0; i < a->nwarnings; i++) {
		char prefix[64];

		snprintf(prefix, sizeof prefix, "warning [%s]: ", a->warnings[i].code);
		put_comment(out, prefix, a->warnings[i].message);
	}
}
