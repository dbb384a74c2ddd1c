/* watch_result.h: what a watch run was and what it found: the settings and
 * the back-to-back burst of its method (struct watch_setup), each stall, and the summary
 * with its warnings, judged once from the tally and read by every format. */
#ifndef SYNCPROBE_WATCH_RESULT_H
#define SYNCPROBE_WATCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "advice/advice.h"
#include "probe/method.h"
#include "probe/options.h"
#include "storage/storage.h"
#include "util/units.h"
#include "watch/watch_interval.h"

/* CockroachDB stops a node whose disk sync takes longer than this
 * (storage.max_sync_duration). */
#define WATCH_FATAL_STALL_NS (20ULL * NSEC_PER_SEC)
#define WATCH_MAX_WARNINGS 4

/* Why the method watched is the one it is. */
enum watch_method_source {
	WATCH_METHOD_SERVER_DEFAULT,	/* PostgreSQL's default wal_sync_method here */
	WATCH_METHOD_OPTION		/* -m */
};

struct watch_setup {
	const char *path;		/* the directory as given */
	const char *textfile;		/* --textfile, or NULL */
	const char *host;		/* the node name, or NULL when unknown */
	const char *filesystem;		/* "ext4", or NULL when unknown */
	/* Where the target lives (the filesystem and the devices under it),
	 * or NULL when it could not be found out. */
	const struct storage_info *storage;
	const struct method *method;
	enum watch_method_source method_source;
	size_t block_bytes;
	uint64_t file_bytes;
	enum pattern pattern;
	uint64_t rate;			/* a second; 0: back to back */
	uint64_t for_ns;		/* 0: until stopped */
	uint64_t interval_ns;
	uint64_t stall_ns;
	int plot_width;			/* columns */
	uint64_t start_wall_ns;		/* when it started, ns since the epoch */
	struct watch_figures burst;	/* the back-to-back burst */
	double burst_secs;
};

/* An operation over --stall: when it started (from the run's start, and
 * by the wall clock) and how long it took. */
struct watch_stall {
	uint64_t start_ns;
	uint64_t ns;
	uint64_t wall_ns;		/* ns since the epoch; 0: unknown */
	bool new_date;			/* the first line of its UTC date */
};

/* A warning of watch's summary: its code (advice/warnings.h's list) and
 * its message, which watch writes itself. */
struct watch_warning {
	const char *code;
	char message[ADVICE_TEXT_LEN];
};

struct watch_summary {
	bool started;			/* the paced load began: there is a summary */
	bool failed;			/* an I/O error stopped it */
	int stopped_by;			/* the stop signal, or 0 */
	double elapsed_secs;		/* the whole run, burst included */
	double run_secs;		/* the paced load: the slots it covered */
	uint64_t end_wall_ns;		/* when it ended, ns since the epoch */
	struct watch_figures paced;	/* the whole paced load */
	uint64_t intervals;
	bool have_worst;
	struct watch_figures worst;	/* the interval with the highest p99 */
	uint64_t fatal_stalls;		/* over WATCH_FATAL_STALL_NS */
	struct watch_stall longest;	/* the longest stall; ns 0: none */
	double ratio;			/* paced mean / back-to-back mean; 0: unknown */
	struct watch_warning warnings[WATCH_MAX_WARNINGS];
	size_t nwarnings;
};

/* Count a stall as it happens. */
void watch_note_stall(struct watch_summary *s, const struct watch_stall *st);

/* The summary from the closed intervals, and its warnings. */
void watch_summarize(const struct watch_tally *t, const struct watch_setup *setup,
    struct watch_summary *s);


#endif
