/* group_run.h: the group-commit experiment on one target (-t group). Each
 * committer process is served by its own client thread over a socketpair,
 * as pgbench's client talks to its backend; the committers share one log
 * (group_commit.c) on the target's test file. It measures d, the mean
 * flush at one committer, then every cell (client count x commit_delay)
 * in interleaved rounds, as the timed rows are measured. */
#ifndef SYNCPROBE_GROUP_RUN_H
#define SYNCPROBE_GROUP_RUN_H

#include "probe/method.h"
#include "probe/options.h"
#include "probe/run.h"
#include "util/progress.h"
#include "util/status.h"
#include "probe/testfile.h"

#define GROUP_WARMUP_NS   5000000ULL	/* before each window, plus two delays and flushes */
#define GROUP_DEFAULT_CELL_NS 500000000ULL	/* a cell's time without -s */
#define GROUP_SLICE_FLUSHES 100u	/* without -s, a slice lasts at least this many flushes */
#define GROUP_DECIDE_BATCHES 4u	/* at most this many --decide batches settle a close lead */

struct group_result;

/* What the experiment starts from, from the rows measured before it (the
 * judging step reads them: advice_flush_basis): the method to flush with,
 * and the flush interval of its row (0: none, the experiment measures
 * its own) and whether that row is direct; the target's path for the
 * progress line. */
struct group_basis {
	const struct method *method;
	double row_usecs;
	bool direct;
	const char *path;
};

/* Run the experiment on tf with basis->method, buffered, or with direct
 * I/O when its row is a direct one (--direct=on: d and the flushes it is
 * compared with are then of one kind); *out holds the
 * measured cells (the caller frees them with group_result_free; the rule's
 * commit_delay, rule_usecs, is the judging step's to fill). Returns
 * STATUS_OK, or STATUS_IO with rs->failed and rs->error set; a stop
 * signal sets rs->interrupted. */
enum exit_status group_run(const struct options *o, const struct group_basis *basis,
    const struct testfile *tf, struct progress *p, struct run_status *rs,
    struct group_result **out);

/* The test file the experiment needs: its log's ring of pages. */
uint64_t group_file_bytes(const struct options *o);

#endif
