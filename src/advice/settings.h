/* settings.h: the settings a run advises, each with its one-line reason
 * and how sure it is. One list feeds both the text report's "What to set"
 * block and -F conf's active lines, so that the two never differ (a test
 * compares them). Pure: built from the advice, the experiment's cells
 * and the sleep measured, like the rest of the advice. */
#ifndef SYNCPROBE_SETTINGS_H
#define SYNCPROBE_SETTINGS_H

#include <stddef.h>

#include "advice/advice.h"
#include "probe/sleep.h"

struct group_result;

#define SETTINGS_MAX     3	/* one of each setting_id */
#define SETTING_TEXT_LEN ADVICE_TEXT_LEN

/* How sure a setting is: what its value rests on. */
enum setting_basis {
	SETTING_MEASURED,	/* the probe's rows measured it here */
	SETTING_GIVEN,		/* the user's own (--wal-sync-method) */
	SETTING_UNCOMPARED,	/* the platform's default, not compared with others */
	SETTING_RULE,		/* PostgreSQL's half rule, untested */
	SETTING_GROUP,		/* measured by -t group */
	/* Measured on the server by `syncprobe pgbench`: that command fills
	 * its own list with this basis and prints it with the same writers
	 * (report_print_settings, report_conf_setting in report.h); the
	 * probe never sets it. */
	SETTING_SERVER,
};

/* The settings advised, in the order they are printed. */
enum setting_id {
	SETTING_WAL_SYNC_METHOD,
	SETTING_COMMIT_DELAY,
	SETTING_COMMIT_SIBLINGS,
};

struct setting {
	enum setting_id id;
	const char *name;			/* "commit_delay", from the id */
	char value[64];				/* as postgresql.conf takes it: 'fdatasync', 47 */
	enum setting_basis basis;
	char reason[SETTING_TEXT_LEN];	/* why this value, in one line */
};

struct settings {
	struct setting list[SETTINGS_MAX];
	size_t n;
	char none[SETTING_TEXT_LEN];	/* n == 0: why nothing can be set */
	/* Non-empty: why none of the list may take effect (the figures are
	 * not of durable storage); "What to set" shows this instead of the
	 * list, and -F conf comments every setting out. */
	char off[SETTING_TEXT_LEN];
};

/* What a basis means, as "What to set" and -F conf say it: "the half
 * rule, untested", "measured by -t group", ... */
const char *settings_basis_text(enum setting_basis b);

/* The settings from the advice (with -t group's cells g, or NULL, and the
 * sleep measured for commit_delay, or NULL): wal_sync_method and
 * commit_delay, and commit_siblings where the advice is not the server's
 * default. block_bytes names the write size in the reasons. A warning
 * that the figures cannot be durable (warnings_not_durable) fills
 * out->off. */
void settings_from_advice(const struct advice *a, const struct group_result *g,
    const struct sleep_result *sleep, size_t block_bytes, struct settings *out);

#endif
