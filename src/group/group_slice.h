/* group_slice.h: the group-commit experiment's pairs started and
 * stopped, and one slice run over them (group_slice.c). */
#ifndef SYNCPROBE_GROUP_SLICE_H
#define SYNCPROBE_GROUP_SLICE_H

#include <stdint.h>

#include "group/group_pair.h"
#include "group/group_result.h"
#include "probe/run.h"
#include "util/status.h"

#define GROUP_STACK_BYTES (256u * 1024u)	/* a client thread's */

/* How long a slice runs: a window of ns, or until ops commits (-n). */
struct slice_plan {
	uint64_t warm_ns;
	uint64_t ns;
	uint64_t ops;
};

/* Open the log file (x->tf, with x->method; direct when x->direct), make
 * the slice control and the pairs for the largest client count, and start
 * them. STATUS_OK, or STATUS_IO with rs set and everything released. */
enum exit_status group_slice_setup(struct experiment *x, struct run_status *rs);

/* Stop the pairs and release what setup made, however far it got; a
 * failing close of the log file is an I/O error. rc, or STATUS_IO. */
enum exit_status group_slice_teardown(struct experiment *x, struct run_status *rs,
    enum exit_status rc);

/* One slice of one cell: the first clients pairs, commit_delay
 * delay_usecs, the plan's window; its counts added to cell (and its slice
 * k, if any), unless a stop signal cut it (x->stopped). STATUS_OK, or
 * STATUS_IO with rs set when the log or a pair failed. */
enum exit_status group_slice_run(struct experiment *x, unsigned clients, long delay_usecs,
    const struct slice_plan *plan, struct group_cell *cell, unsigned k,
    struct run_status *rs);

#endif
