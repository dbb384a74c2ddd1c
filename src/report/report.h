/* report.h: the report writers. They read results; they never measure. */
#ifndef SYNCPROBE_REPORT_H
#define SYNCPROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "advice/settings.h"
#include "util/names.h"
#include "probe/options.h"
#include "util/platform.h"
#include "target/target.h"

struct report {
	const struct options *options;
	const struct target_result *targets;
	size_t ntargets;
	time_t when;			/* when the run started */
	struct system_info system;	/* where it ran */
	double duration_secs;		/* from the start to the report; < 0: unknown */
	int interrupted_by;		/* the signal that ended the measuring early, or 0 */
};

/* A report printed as the run goes. The caller calls begin() once the
 * first target's test file is ready, target() as each target's is (its
 * storage probed), group() when a group's last round has ended (rows
 * [first, last) of target t), and end() after the last: together they
 * print exactly what write() prints at once. */
struct report_stream {
	void (*begin)(FILE *out, const struct report *r);
	void (*target)(FILE *out, const struct report *r, size_t t);
	void (*group)(FILE *out, const struct report *r, size_t t, size_t first, size_t last);
	void (*end)(FILE *out, const struct report *r);
};

/* A report format, one table row each: -F NAME writes the report with
 * write(), or, where it has a stream, as the run goes. A new format is one
 * row of report_formats plus its writer. */
/* What a format is, for code that must decide on it (the durability
 * verifier writes text or JSON of its own). */
enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_CONF, REPORT_OPENMETRICS, REPORT_SVG };

/* The names -F takes for the kinds that other commands write too (watch
 * writes these three its own way): spelled once. */
#define REPORT_NAME_TEXT        "text"
#define REPORT_NAME_JSON        "json"
#define REPORT_NAME_OPENMETRICS "openmetrics"

struct report_format {
	const char *name;
	void (*write)(FILE *out, const struct report *r);
	bool one_target;	/* settings for one server: refuse several targets */
	enum report_kind kind;
	const struct report_stream *stream;	/* NULL: one document at the end */
};

/* The JSON report's schema: what report_json.c writes (schema/
 * report.schema.json describes every key) and compare_load.c reads; an
 * incompatible change bumps it. Version 2: settings' block_bytes,
 * file_bytes, pattern, direct and methods are null where no chosen group
 * uses them (-t etcd alone). Version 3: names as the other commands'
 * documents spell them: a commit_delay is commit_delay_usecs (and the
 * group's commit_delays_usecs, best_, pick_ and rule_commit_delay_usecs),
 * a time in seconds secs, and a latency an object of microseconds named
 * for what it times (the sleep's usecs, a cell's commit_usecs), as a
 * row's usecs is. */
#define REPORT_SCHEMA_VERSION 3
/* The oldest version compare reads: a version 1 report is a version 2
 * report whose settings happen to be all set, so it reads as one; before
 * version 3 the advised commit_delay was "commit_delay". */
#define REPORT_SCHEMA_OLDEST_READ 1
#define REPORT_SCHEMA_DELAY_USECS 3	/* the first version with commit_delay_usecs */

extern const struct report_format report_formats[];	/* the first is the default */
extern const struct name_list report_format_names;

/* The format without -F (text). */
const struct report_format *report_format_default(void);

/* -F's value: 0, or -1 with "unknown value (choose text, json, ...)". */
int report_format_parse(const char *s, const struct report_format **out, char *err,
    size_t errlen);

void report_text(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);
void report_openmetrics(FILE *out, const struct report *r);
/* One SVG picture (report_svg.c). */
void report_svg(FILE *out, const struct report *r);

/* Pictures of other commands draw these as the probe's does: "What to
 * set" from y down (report_print_settings' lines: the settings that take
 * effect, then those derived and not set, or why nothing may be), the y
 * under it; and the answer at a client count of a sweep's advice (the
 * delay that paid there, 0 where none did), false where it has none. */
struct settings;
double report_svg_settings(FILE *out, const struct settings *set, double y);
bool report_svg_answer(const struct advice *a, unsigned clients, double *delay);
extern const struct report_stream report_text_stream;

/* Drive a stream's hooks over a finished report, in the order a run calls
 * them: what the stream prints at once. */
void report_replay(const struct report_stream *s, FILE *out, const struct report *r);

/* Whether the run has several targets (asked for or reported): the
 * reports number them and put them side by side. */
bool report_several(const struct report *r);

/* Row index of the run's plan (every target's rows are the same plan; a
 * target stopped by an error has fewer): the first target's that has it. */
const struct row_result *report_row_at(const struct report *r, size_t index);

/* The run's label: --label, or "host:path" (the paths joined with ","). */
void report_label(const struct report *r, char *buf, size_t len);

/* How long each test ran, in a few words: "200 ops per test", "1.5s per
 * test", or adaptive "each row until its mean is known to 2%, or its time
 * is up". */
void report_test_length(const struct options *o, char *buf, size_t len);

/* "2026-12-01 00:00 UTC" (human) or "2026-12-01T00:00:00Z" (ISO 8601). */
void report_time(time_t when, bool iso, char *buf, size_t len);

/* One target only: a server has one set of settings. */
void report_conf(FILE *out, const struct report *r);

/* "the half rule, untested: half of the 59.8 us fdatasync flush": a
 * setting's source and why, as every writer prints it; and the setting
 * itself as postgresql.conf takes it: "wal_sync_method = 'fdatasync'". */
void report_setting_comment(const struct setting *s, char *buf, size_t len);
void report_setting_line(FILE *out, const struct setting *s);

/* "What to set", for each measured target: the end of the text report. */
void report_what_to_set(FILE *out, const struct report *r);

/* The lines of a "What to set" block for the settings set: the active
 * ones, then those derived but not set, or "nothing: why"; one -F conf
 * setting, its comment above it, commented out itself unless active; and
 * JSON's what_to_set and nothing_to_set. A command that measures its own
 * settings (syncprobe pgbench, SOURCE_SERVER) prints them with these, as
 * the probe does. */
void report_print_settings(FILE *out, const struct settings *set);
void report_conf_setting(FILE *out, bool active, const struct setting *s);
struct json;
void report_settings_json(struct json *j, const struct settings *set);

/* "ext4 (vda, write cache: write back)": where a target lives, in one line. */
void report_storage_summary(const struct storage_info *st, char *buf, size_t len);

/* A latency in microseconds right-aligned in width columns, written as
 * every report writes a figure (units_format_latency, LATENCY_FIGURE); a
 * rate of operations per second (one decimal below 10000, exponent form
 * past eight digits). */
void report_put_usecs(FILE *out, int width, double us);
void report_put_rate(FILE *out, int width, double ops);

/* etcd's verdict (advice/verdict.h) in three sentences, each len bytes:
 * the answer on latency, the figures behind it, and the durability doubt
 * (either of the last two may be ""); 0 when the run has none. */
struct advice;
int report_etcd_verdict(const struct advice *a, char *answer, char *figures, char *doubt,
    size_t len);

/* "yes", "no" or "unknown" for a 1 / 0 / -1 fact. */
const char *report_tristate(int v);

#endif
