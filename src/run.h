/* run.h: measure one target: create the test file, run every planned row
 * group by group in interleaved rounds, remove the file. Measuring only:
 * judge.c turns the rows into advice and warnings. */
#ifndef SYNCPROBE_RUN_H
#define SYNCPROBE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "advice.h"
#include "options.h"
#include "progress.h"
#include "row.h"
#include "sleep.h"
#include "status.h"
#include "storage.h"

struct group_result;

struct target_result {
	const char *path;		/* as the user gave it */
	struct row_result *rows;
	size_t nrows;
	bool measured;			/* the rows ran (possibly up to an error) */
	bool failed;			/* an I/O error stopped the run */
	/* Why the target could not be used (not measured) or why its run
	 * stopped (failed): the one message main prints. */
	char error[REASON_LEN];
	struct storage_info storage;	/* where the target lives */
	struct sleep_result sleep;	/* the real length of a commit_delay sleep */
	struct group_result *group;	/* -t group's cells, or NULL */
	struct advice advice;
};

/* Measure dir (or o->filename). Returns STATUS_OK; STATUS_IO when an I/O
 * error stopped the run (measured, failed, error set); STATUS_USAGE when
 * the target could not be used (not measured, error set). */
enum exit_status run_target(const struct options *o, const char *dir,
    struct progress *p, struct target_result *tr);

/* Release what run_target allocated. */
void run_free(struct target_result *tr);

#endif
