/* settings.h: the settings a run advises, each with its source and its
 * one-line reason, and the contract of what may take effect. One list
 * feeds the text report's "What to set", -F conf's active lines and JSON's
 * what_to_set, so that the three never differ (tests compare them): a
 * setting is active only where this run measured it (the probe's rows,
 * -t group, or the server through syncprobe pgbench, or the user's own
 * --wal-sync-method); PostgreSQL's half rule and an uncompared default
 * are shown, never set. Pure: built from the advice, the experiment's
 * cells and the sleep measured, like the rest of the advice. */
#ifndef SYNCPROBE_SETTINGS_H
#define SYNCPROBE_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "advice/advice.h"
#include "probe/sleep.h"

struct group_result;

#define SETTINGS_MAX     3	/* one of each setting_id */
#define SETTING_TEXT_LEN ADVICE_TEXT_LEN

/* Where a setting's value comes from: what it rests on. */
enum setting_source {
	SOURCE_PROBE,		/* the probe's rows measured it here */
	SOURCE_GIVEN,		/* the user's own (--wal-sync-method) */
	SOURCE_GROUP,		/* measured by -t group */
	SOURCE_SERVER,		/* measured on the server by syncprobe pgbench */
	SOURCE_RULE,		/* PostgreSQL's half rule only, untested */
	SOURCE_DEFAULT,		/* the platform's default, not compared with others */
};

/* Why a run has nothing to set (the list may still show what was
 * derived, every line of it inactive). */
enum nothing_to_set {
	NOTHING_NONE,		/* something is set */
	NOTHING_NO_SYNC_ROW,	/* no PostgreSQL sync method was measured */
	NOTHING_NOT_MEASURED,	/* only the rule or a default: nothing measured */
	NOTHING_NOT_DURABLE,	/* the figures are not of durable storage */
	NOTHING_INTERRUPTED,	/* a signal ended the measuring early */
	NOTHING_FAILED,		/* an I/O error stopped the run */
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
	char value[64];				/* "fdatasync", "47" */
	bool is_name;			/* a name: postgresql.conf quotes it, JSON a string */
	enum setting_source source;
	char reason[SETTING_TEXT_LEN];	/* why this value, in one line */
};

struct settings {
	struct setting list[SETTINGS_MAX];	/* every setting derived */
	size_t n;
	/* Not NOTHING_NONE: no setting may take effect, and why (a sentence
	 * beside the stable code). */
	enum nothing_to_set nothing;
	char why[SETTING_TEXT_LEN];
};

/* Whether a setting from this source may take effect. */
bool settings_source_active(enum setting_source s);

/* What a source means, as "What to set" and -F conf say it: "measured
 * here", "the half rule, untested", "measured by -t group", ... */
const char *settings_source_text(enum setting_source s);

/* Stable codes for JSON: "probe", "given", "group", "server", "rule",
 * "default"; and "no_sync_row", "not_measured", "not_durable",
 * "interrupted", "failed" (NULL for NOTHING_NONE). */
const char *settings_source_code(enum setting_source s);
const char *settings_nothing_code(enum nothing_to_set n);

/* Whether setting i takes effect: its source is active and the run has
 * something to set. */
bool settings_active(const struct settings *set, size_t i);

/* The settings from the advice (with -t group's cells g, or NULL, and the
 * sleep measured for commit_delay, or NULL): wal_sync_method and
 * commit_delay, and commit_siblings where the advice is not the server's
 * default. block_bytes names the write size in the reasons. A warning
 * that the figures cannot be durable (warnings_not_durable) marks the
 * run NOTHING_NOT_DURABLE; a run whose every setting is derived, not
 * measured, NOTHING_NOT_MEASURED. */
void settings_from_advice(const struct advice *a, const struct group_result *g,
    const struct sleep_result *sleep, size_t block_bytes, struct settings *out);

/* Mark the run as having nothing to set, for why (a sentence), unless it
 * is so marked already for a reason that comes first: an error, then a
 * signal, then figures not of durable storage. */
void settings_block(struct settings *set, enum nothing_to_set n, const char *why);

#endif
