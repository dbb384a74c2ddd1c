/* run.h: measure one target: create the test file, run every planned row
 * group by group in interleaved rounds, remove the file. Measuring only:
 * judge.c turns the rows into advice and warnings. */
#ifndef SYNCPROBE_RUN_H
#define SYNCPROBE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probe/options.h"
#include "probe/plan.h"
#include "probe/result.h"
#include "util/progress.h"
#include "probe/row.h"
#include "probe/sleep.h"
#include "util/status.h"
#include "storage/storage.h"

struct group_result;
struct testfile;

struct target_result {
	const char *path;		/* as the user gave it */
	struct row_result *rows;
	size_t nrows;
	bool measured;			/* the rows ran (possibly up to an error) */
	bool failed;			/* an I/O error stopped the run */
	bool interrupted;		/* a signal ended the measuring early */
	bool have_fs_dev;
	dev_t fs_dev;			/* the target directory's st_dev */
	/* Why the target could not be used (not measured) or why its run
	 * stopped (failed): the one message main prints. */
	char error[REASON_LEN];
	struct storage_info storage;	/* where the target lives */
	struct sleep_result sleep;	/* the real length of a commit_delay sleep */
	/* -t group's cells, or NULL; whoever runs the experiment (the
	 * hook below) owns them and frees them (group_result_free). */
	struct group_result *group;
	struct advice advice;
};

/* Where a target stands in the run, and whom to tell how it goes: the
 * report streams from ready() (the test file exists and the storage is
 * probed) and group_done() (a group's last round has ended: rows [first,
 * last), after any cut for an error or a stop). Either may be NULL. */
struct run_hooks {
	struct progress *progress;
	size_t target_no;		/* this target's number, from 1 */
	size_t ntargets;		/* how many the run has */
	void (*ready)(void *ctx, struct target_result *tr);
	void (*group_done)(void *ctx, struct target_result *tr, size_t first, size_t last);
	void *ctx;
	/* Run the experiment group g (plan.h: experiment) on tf after the
	 * rows; NULL: experiments do not run. */
	enum exit_status (*experiment)(void *ctx, enum group g, const struct options *o,
	    const struct testfile *tf, struct target_result *tr, struct progress *p);
};

/* Measure dir (or o->filename). Returns STATUS_OK; STATUS_IO when an I/O
 * error stopped the run (measured, failed, error set) or memory ran out
 * (error "PATH: out of memory", measured or not); STATUS_USAGE when the
 * target could not be used (not measured, error set). A stop signal
 * (cleanup_stop_signal) ends the measuring at the next operation: the rows
 * that had no turn yet are cut, interrupted is set, STATUS_OK. */
enum exit_status run_target(const struct options *o, const char *dir,
    const struct run_hooks *h, struct target_result *tr);

/* Release what run_target allocated (not tr->group: its owner frees it). */
void run_free(struct target_result *tr);

#endif
