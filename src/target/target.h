/* target.h: one target's whole run, as every command that probes runs it
 * (the probe command, syncprobe pgbench): measure its rows (probe/run.h),
 * run the experiment on its test file (group/), judge once (advice/), and
 * hand the finished result to whoever reports it. It calls the layers
 * below in order, as OpenBSD dd's main calls its steps, and none of them
 * calls back up: the caller takes the steps (target_next) and acts between
 * them, printing a group as it ends. */
#ifndef SYNCPROBE_TARGET_H
#define SYNCPROBE_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "advice/advice.h"
#include "advice/settings.h"
#include "probe/options.h"
#include "probe/run.h"
#include "probe/sleep.h"
#include "util/progress.h"
#include "util/status.h"

struct group_result;

struct target_result {
	struct run_result run;		/* the rows and the storage: what was measured */
	/* -t group's cells, or NULL (target_free frees them). */
	struct group_result *group;
	struct sleep_result sleep;	/* the real length of a commit_delay sleep */
	/* Judged once, from all of the above, when the run is done. */
	struct advice advice;
	struct settings to_set;		/* "What to set", every format's */
};

/* Where a target's run stands, after each step. */
enum target_step {
	TARGET_READY,		/* the test file exists and the storage is probed */
	TARGET_GROUP,		/* a group of rows ended: rows [first, last) */
	TARGET_EXPERIMENT,	/* the experiment (-t group) starts */
	TARGET_DONE,		/* measured and judged, or not usable: status says */
};

/* A target's run in progress. Read first, last and status; the rest is
 * target.c's. */
struct target_run {
	const struct options *o;
	struct target_result *tr;
	struct run probe;
	const char *dir;
	struct progress *progress;
	size_t target_no, ntargets;
	int phase;
	size_t first, last;		/* TARGET_GROUP's rows */
	/* TARGET_DONE: STATUS_OK; STATUS_IO when an I/O error stopped the run
	 * (measured, failed, error set) or memory ran out; STATUS_USAGE when
	 * the target could not be used (not measured, error set). */
	enum exit_status status;
};

/* Begin the run of dir (or o->filename), target target_no of ntargets,
 * drawing its progress on p; its result goes to tr. */
void target_begin(struct target_run *t, const struct options *o, const char *dir,
    struct progress *p, size_t target_no, size_t ntargets, struct target_result *tr);

/* Take the next step and say where the run stands. A stop signal
 * (cleanup_stop_signal) ends the measuring at the next operation: the
 * rows that had no turn yet are cut, interrupted is set, and the run is
 * judged as it stands. After TARGET_DONE, TARGET_DONE again. */
enum target_step target_next(struct target_run *t);

/* What to set (tr->to_set), from the advice judged, the experiment's
 * cells and the sleep measured: nothing may take effect from a run an
 * error or a signal cut short. The last step of judging a target. */
void target_settings(const struct options *o, struct target_result *tr);

/* A signal stopped the whole run after this target was judged: nothing
 * of it may be set. */
void target_stopped(struct target_result *tr);

/* Release what a target's run allocated, the experiment's cells
 * included. */
void target_free(struct target_result *tr);

#endif
