/* compare.h: syncprobe compare: saved JSON reports side by side, row by row, with
 * each run's ops/sec and mean, the ratio to the first run (flagged where
 * the difference is larger than the spread between the runs' own rounds),
 * and each run's advice and warnings. It reads files and touches no disk. */
#ifndef SYNCPROBE_COMPARE_H
#define SYNCPROBE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/json_read.h"
#include "util/names.h"
#include "util/units.h"

/* One operation a nanosecond, the clock's unit: more is no figure syncprobe
 * can have measured. */
#define COMPARE_MAX_OPS_PER_SEC ((double)NSEC_PER_SEC)
/* All the reports of one compare together, their escaped strings
 * included: at most this much text and this many JSON values, so that
 * memory stays bounded however many reports are given (about 160 MB at
 * the limit; a report is typically 100 kB and 5000 values). */
#define COMPARE_MAX_BYTES  (32u << 20)
#define COMPARE_MAX_VALUES (1u << 20)

/* One row of a saved report. Its strings are escaped (see compare_run). */
struct compare_row {
	const char *group;
	const char *name;
	const char *status;	/* "ok", "unsupported", "error" */
	const char *reason;	/* NULL when ok */
	bool have_figures;
	double ops_per_sec;
	double mean_usecs;
	bool direct;		/* written with O_DIRECT (false where the report does not say) */
	bool have_latency;	/* min, p50, p99 and max (absent: only the mean) */
	double min_usecs, p50_usecs, p99_usecs, max_usecs;
	size_t nslices;		/* rounds with a rate */
	double slice_min;	/* ops/sec of the slowest round */
	double slice_max;	/* and of the fastest */
};

struct compare_warning {
	const char *code;
	const char *message;
};

/* One verdict of a saved report (its targets[].verdicts[]): another
 * system's rule of thumb, judged (advice/verdict.h). */
struct compare_verdict {
	const char *code;	/* "etcd_sync_p99" */
	const char *result;	/* "pass", "fail", "too_few_ops", ... */
	bool have_value;
	double value_usecs;	/* the figure judged */
};

struct compare_target {
	const char *path;
	const char *error;	/* the I/O error that stopped it, or NULL */
	const char *filesystem, *device, *model, *write_cache, *layers;	/* NULL: unknown */
	struct compare_row *rows;
	size_t nrows;
	const char *wal_sync_method;	/* NULL: no advice */
	bool have_delay;
	double commit_delay;
	struct compare_warning *warnings;
	size_t nwarnings;
	struct compare_verdict *verdicts;	/* none in reports from before them */
	size_t nverdicts;
};

/* Every string read from a saved report is escaped for a terminal as it is
 * loaded (util/escape: ls -b style), so that nothing printed from one can
 * move the cursor, retitle the window or forge a line. Plain strings point
 * into the parsed document; escaped copies are the run's own. */
struct compare_run {
	const char *file;
	struct json_node *doc;	/* owns every plain string above */
	char **escaped;		/* the escaped copies */
	size_t nescaped, escaped_cap;
	struct json_budget *budget;	/* the escaped copies take from it; NULL: no bound */
	const char *version;
	const char *label, *host, *started_at;	/* NULL in reports older than them */
	bool interrupted;
	bool have_block;	/* block_bytes is known (null: no group wrote blocks) */
	double block_bytes;
	double rounds;
	struct compare_target *targets;
	size_t ntargets;
};

/* Read a parsed report into run (which takes no ownership of doc); 0, or
 * -1 with "WHERE: WHAT" in err, e.g. "targets[0].tests[2].name: missing". */
int compare_load(const struct json_node *doc, struct compare_run *run, char *err, size_t errlen);

/* Free what compare_load allocated (and run->doc). */
void compare_run_free(struct compare_run *run);

/* The latency in a saved report that syncprobe can have written: its
 * histogram's largest, 2^64 - 1 ns. */
#define COMPARE_MAX_USECS 1.8446744073709552e13

/* The verdicts of the columns cols[0, n) (one target of one run each,
 * named by names[]) side by side, a line a verdict code in the order
 * they first appear: each column's figure and result. Nothing when no
 * column has a verdict. (compare_verdicts.c) */
void compare_print_verdicts(FILE *out, const struct compare_target *const *cols,
    const char *const *names, size_t n);

/* A column of the tables and pictures: one target of one run. */
struct compare_column {
	const struct compare_run *run;
	size_t run_no;		/* from 1 */
	const struct compare_target *target;
	size_t target_no;	/* from 1 */
};

/* A row of the tables: a group and a row name, found in some run. */
struct compare_key {
	const char *group;
	const char *name;
};

/* The runs laid out: their columns, and every row key, grouped, in the
 * order they first appear. */
struct compare_layout {
	struct compare_column *cols;
	size_t ncols;
	struct compare_key *keys;
	size_t nkeys;
};

/* Lay runs[0, n) out; -1 when out of memory. Free with
 * compare_layout_free, either way. */
int compare_layout_build(const struct compare_run *runs, size_t n, struct compare_layout *l);
void compare_layout_free(struct compare_layout *l);

/* The row of ct with key k, or NULL. */
const struct compare_row *compare_find_row(const struct compare_target *ct,
    const struct compare_key *k);

/* "run 2", or "run 2.1" where the run has several targets. */
void compare_column_name(const struct compare_column *c, char *buf, size_t len);

/* row's ops/sec against ref's, and whether the difference is beyond the
 * spread between the two runs' rounds; false when either has no rate. */
bool compare_ratio(const struct compare_row *ref, const struct compare_row *row,
    double *ratio, bool *flagged);

/* The legend of run r (from 0), as the text and the picture show it:
 * its title, "run 1: LABEL" (its file where it has no label); its facts,
 * "FILE: host, time, syncprobe 0.1, 8kB writes, 5 rounds"; and a line for
 * its target t, "[run 1.2: ]PATH on ext4 (vda, ...)". file: the report's
 * file name as it is to be shown. */
void compare_run_title(const struct compare_run *run, size_t r, const char *file, char *buf,
    size_t len);
void compare_run_facts(const struct compare_run *run, const char *file, char *buf, size_t len);
void compare_target_line(const struct compare_run *run, size_t r, size_t t, char *buf,
    size_t len);

/* "run 2: wal_sync_method = 'fdatasync', commit_delay = 47": a column's
 * advice in a line. */
void compare_advice_line(const struct compare_column *c, char *buf, size_t len);

/* "ext4 (vda, write cache: write back)", from a saved target. */
void compare_storage_line(const struct compare_target *ct, char *buf, size_t len);

/* The heading of a group (its name where the report's sizes cannot say). */
void compare_group_title(const struct compare_layout *l, const char *group, char *buf,
    size_t len);

/* Print runs[0, n) side by side. */
void compare_print(FILE *out, const struct compare_run *runs, size_t n);

/* runs[0, n) as one SVG picture (compare_svg.c). */
void compare_svg(FILE *out, const struct compare_run *runs, size_t n);

/* A way to show saved runs, one row each (compare_formats.c): compare -F
 * NAME. */
struct compare_format {
	const char *name;
	void (*print)(FILE *out, const struct compare_run *runs, size_t n);
};

extern const struct compare_format compare_formats[];	/* the first is the default */
extern const struct name_list compare_format_names;

/* Read the reports at paths and show them with f; 0, or -1 with "PATH: WHY"
 * in err and nothing printed. */
int compare_files(FILE *out, const char *const *paths, size_t n, const struct compare_format *f,
    char *err, size_t errlen);

#endif
