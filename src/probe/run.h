/* run.h: measure one target, in steps that whoever runs it takes in order:
 * run_open creates the test file (or, for segment rows alone, their
 * segment) and probes the storage under it; run_next_group measures the
 * next group of rows on it, round-robin in interleaved rounds;
 * run_close_test_file removes the test file once the rows and any
 * experiment on it (run_test_file) are done, and opens the segment rows'
 * own file; run_next_group measures those; run_close removes the last
 * file. The caller acts between the steps (prints a group as it ends,
 * runs the experiment): the probe calls nothing above it. Measuring only:
 * judging the rows is a later layer's step. */
#ifndef SYNCPROBE_RUN_H
#define SYNCPROBE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "probe/options.h"
#include "probe/plan.h"
#include "probe/row.h"
#include "probe/testfile.h"
#include "storage/storage.h"
#include "util/progress.h"
#include "util/status.h"

/* How a measuring step ended: an I/O error (failed, with the message) or a
 * stop signal (interrupted). The group-commit experiment hands one back. */
struct run_status {
	char error[REASON_LEN];
	bool failed;
	bool interrupted;
};

/* What measuring a target yields. */
struct run_result {
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
};

/* A target being measured: the steps' state. Its fields are run.c's. */
struct run {
	const struct options *o;
	struct run_result *res;
	struct progress *progress;
	size_t target_no;		/* this target's number, from 1 */
	size_t ntargets;		/* how many the run has */
	struct testfile tf;		/* the test file, while test_file_open */
	struct testfile seg;		/* the segment rows' file, while seg_open */
	bool test_file_open;
	bool seg_open;
	unsigned char *buf;
	uint64_t batch_below_ns;
	size_t seg_first;		/* the first segment row (nrows: none) */
	size_t next;			/* the first row not measured yet */
	size_t stop;			/* the end of the rows on the open file */
	enum exit_status rc;
};

/* Start measuring dir (or o->filename) into res: the rows of the plan,
 * the file they run on, the storage under it. The progress line (p) is
 * drawn for target target_no of ntargets. Returns STATUS_OK: the target
 * is ready (res->measured); STATUS_IO when memory ran out (error "PATH:
 * out of memory") or the device failed; STATUS_USAGE when the target
 * could not be used (error set). Not STATUS_OK: no further step. */
enum exit_status run_open(struct run *r, const struct options *o, const char *dir,
    struct progress *p, size_t target_no, size_t ntargets, struct run_result *res);

/* Measure the next group of rows on the open file: true with the rows
 * [*first, *last) it measured (after any cut for an error or a stop);
 * false when the file's rows are done, an I/O error stopped the run
 * (failed, error set) or a stop signal ended it (cleanup_stop_signal: the
 * rows that had no turn yet are cut, interrupted set). */
bool run_next_group(struct run *r, size_t *first, size_t *last);

/* The test file, for an experiment after the rows (plan.h: experiment),
 * or NULL when none was made (segment rows alone) or the run stopped. */
const struct testfile *run_test_file(const struct run *r);

/* The rows and the experiments on the test file are done, rc saying how
 * the experiments ended: remove the test file, then, when all went well,
 * open the segment rows' file (run_next_group measures them); else the
 * segment rows are cut. The run's status so far. */
enum exit_status run_close_test_file(struct run *r, enum exit_status rc);

/* Remove the segment rows' file and release the buffer: the run's status
 * (STATUS_OK; STATUS_IO with failed and error set when an I/O error
 * stopped it). A stop signal leaves STATUS_OK, interrupted set. */
enum exit_status run_close(struct run *r);

/* Release what run_open allocated in res. */
void run_free(struct run_result *res);

#endif
