/* settings.h: the settings a run advises, each with its source and the
 * code and figures of its one-line reason (report/advice_words.c writes
 * it), and the contract of what may take effect. One list
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

/* Why a run has nothing to set, in detail: each is one of enum
 * nothing_to_set (settings_block), and the report words it. */
enum settings_block_why {
	BLOCK_NO_SYNC_ROW,	/* no one-write row: the delay's own reason */
	BLOCK_NOT_MEASURED,	/* only the rule or a default */
	BLOCK_NOT_DURABLE,	/* a warning says the figures are not of durable storage */
	BLOCK_MEASURING_STOPPED,	/* a signal ended the probe's measuring */
	BLOCK_NO_REPEAT,	/* syncprobe pgbench measured no whole repeat */
	BLOCK_SWEEP_STOPPED,	/* a signal ended syncprobe pgbench's sweep */
	BLOCK_RUN_FAILED,	/* the run stopped at an error */
};

/* The settings advised, in the order they are printed. */
enum setting_id {
	SETTING_WAL_SYNC_METHOD,
	SETTING_COMMIT_DELAY,
	SETTING_COMMIT_SIBLINGS,
};

/* Why a setting has its value: what its one-line reason says, which the
 * report words (report/advice_words.c) from the facts beside it. */
enum setting_reason {
	REASON_METHOD_MEASURED,		/* the advice's method, measured here */
	REASON_METHOD_GIVEN,		/* --wal-sync-method's, the advice the same or none */
	REASON_METHOD_GIVEN_ADVISED,	/* --wal-sync-method's; the advice another (advised) */
	REASON_METHOD_DEFAULT,		/* the default -t group flushed with, none ran */
	REASON_DELAY_NO_CELLS,		/* measured, but no cells to quote */
	REASON_DELAY_GAINS,		/* the delay beat 0 where gains say */
	REASON_DELAY_FROM_CELLS,	/* a delay, from the cells at the span */
	REASON_DELAY_NONE_BEAT,		/* 0: no delay beat 0 at the span */
	REASON_DELAY_ALL_LOST,		/* 0: each delay that beat 0 lost higher */
	REASON_DELAY_NONE,		/* 0, from the cells at the span */
	REASON_DELAY_RULE,		/* the half rule, untested */
	REASON_SIBLINGS,		/* the delay never sleeps at siblings clients or fewer */
};

/* A client count where the delay beat 0, and by how much. */
struct setting_gain {
	unsigned clients;
	double vs_zero_pct;
};

struct setting {
	enum setting_id id;
	const char *name;			/* "commit_delay", from the id */
	char value[64];				/* "fdatasync", "47" */
	bool is_name;			/* a name: postgresql.conf quotes it, JSON a string */
	enum setting_source source;
	enum setting_reason reason;	/* why this value */
	/* The facts its reason quotes (which a reason reads: settings.c). */
	double flush_usecs;		/* the flush a method or the rule rests on */
	size_t block_bytes;		/* that flush's write */
	struct method_facts method;	/* how the advice chose its method */
	const struct method *advised;	/* the method the advice would set */
	char flush_name[ROW_NAME_LEN];	/* the rule's flush: its row or method */
	long delay_usecs;
	bool sleep_overshoot;		/* a sleep of delay_usecs lasts much longer */
	double sleep_usecs;		/* how long it really lasts */
	unsigned clients_lo, clients_hi;	/* the client counts measured */
	struct setting_gain gains[UNITS_MAX_LIST];
	size_t ngains;
	unsigned siblings;
	bool no_gain_below;		/* the delay beat 0 at no count it is kept from */
};

struct settings {
	struct setting list[SETTINGS_MAX];	/* every setting derived */
	size_t n;
	/* Not NOTHING_NONE: no setting may take effect, and why (in detail,
	 * beside the stable code; the report words it). */
	enum nothing_to_set nothing;
	enum settings_block_why why;
	const char *warning;		/* BLOCK_NOT_DURABLE: the warning's code */
	struct delay_facts no_row;	/* BLOCK_NO_SYNC_ROW: the delay's facts */
};

/* Whether a setting from this source may take effect. */
bool settings_source_active(enum setting_source s);

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

/* Mark the run as having nothing to set, for why, unless it is so marked
 * already for a reason that comes first: an error, then a signal, then
 * figures not of durable storage. */
void settings_block(struct settings *set, enum settings_block_why why);

#endif
