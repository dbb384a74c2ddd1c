/* group_run.h: the group-commit experiment on one target (-t group). Each
 * committer thread is served by its own client thread over a socketpair,
 * as pgbench's client talks to its backend; the committers share one log
 * (group_commit.c) on the target's test file. It measures d, the mean
 * flush at one committer, then every cell (client count x commit_delay)
 * in interleaved rounds, as the timed rows are measured. */
#ifndef SYNCPROBE_GROUP_RUN_H
#define SYNCPROBE_GROUP_RUN_H

#include "probe/options.h"
#include "util/progress.h"
#include "util/status.h"
#include "probe/testfile.h"

#define GROUP_WARMUP_NS   5000000ULL	/* before each window, plus two delays and flushes */
#define GROUP_DEFAULT_CELL_NS 500000000ULL	/* a cell's time without -s */
#define GROUP_STACK_BYTES (256u * 1024u)

struct target_result;

/* Run the experiment on tf with the method the advice so far gives (or
 * --wal-sync-method), buffered; tr->group holds the result. Returns
 * STATUS_OK, or STATUS_IO with tr->failed and tr->error set. */
enum exit_status group_run(const struct options *o, const struct testfile *tf,
    struct target_result *tr, struct progress *p);

#endif
