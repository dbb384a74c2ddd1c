/* verdict.h: whether the disk is fast enough for another system's rule of
 * thumb, as stable codes. etcd's: the 99th percentile of its WAL's
 * fdatasync under 10 ms (its hardware guidance; Prometheus' alert fires on
 * the same figure), under 2 ms for a heavily loaded cluster (OpenShift's
 * guidance). The latency verdicts judge the figures only; the doubt that
 * the flushes are durable at all (a warning) is a code of its own beside
 * them, never folded into them: a cloud disk that says it rotates meets
 * etcd's rule however its cache is made. Pure rules over the rows and the
 * warnings already found. */
#ifndef SYNCPROBE_VERDICT_H
#define SYNCPROBE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "advice/advice.h"
#include "probe/row.h"

#define VERDICT_ETCD_USECS        10000.0	/* "fast enough for etcd" */
#define VERDICT_ETCD_HEAVY_USECS  2000.0	/* "... for a heavily loaded cluster" */
/* etcd logs "slow fdatasync" for a sync over this (wal.warnSyncDuration). */
#define VERDICT_ETCD_STALL_USECS  1000000.0
/* Fewer operations than these give no percentile to judge: a p99 of 99
 * operations is their maximum. */
#define VERDICT_MIN_OPS_P99       100u
#define VERDICT_MIN_OPS_P999      1000u

/* The result of a figure against a limit (0: none), over ops operations
 * of which the figure needs min_ops. A figure is under the limit only when
 * below it: a p99 of exactly 10 ms is not under 10 ms. */
enum verdict_result verdict_judge(double value_usecs, double limit_usecs, uint64_t ops,
    uint64_t min_ops);

/* "pass", "fail", "too_few_ops", "not_proven_durable", "measured", "not_run",
 * "no_doubt_found". */
const char *verdict_result_name(enum verdict_result r);

/* The warning of a (codes warnings_compute set) that says the flushes
 * may not reach durable storage, or NULL. */
const char *verdict_caution(const struct advice *a);

/* etcd's verdicts from the paced row of -t etcd, into a->verdicts (none
 * when the group did not run): the latency ones, and etcd_durability, the
 * doubt (not_proven_durable, with the warning as caution, or
 * no_doubt_found); after warnings_compute. */
void verdict_etcd(const struct row_result *rows, size_t n, struct advice *a);

/* The verdict of code in a, or NULL. */
const struct verdict *verdict_find(const struct advice *a, const char *code);

#endif
