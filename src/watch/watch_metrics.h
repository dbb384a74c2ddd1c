/* watch_metrics.h: watch's series in the Prometheus text format, written as
 * the probe's -F openmetrics writes its own (report/openmetrics.h): every
 * series labelled with the directory (target, the probe's label), the
 * method and the rate. Two sets: the summary at the end (-F openmetrics),
 * and the live set that --textfile keeps, cumulative since the start so
 * that rate() and histogram_quantile() work across scrapes. */
#ifndef SYNCPROBE_WATCH_METRICS_H
#define SYNCPROBE_WATCH_METRICS_H

#include <stddef.h>
#include <stdio.h>

#include "watch/watch_interval.h"
#include "watch/watch_result.h"

/* The summary: duration, operations, missed starts, stalls, the longest
 * operation, and the latency summary of the paced load and the burst. */
void watch_metrics_summary(FILE *out, const struct watch_setup *s,
    const struct watch_summary *sum);

/* The live set, after the intervals closed so far in t: the histogram
 * syncprobe_watch_operation_seconds, the counters of operations, missed
 * starts and stalls, and, when last is not NULL and ran an operation, its
 * p50, p99 and max as gauges. */
void watch_metrics_live(FILE *out, const struct watch_setup *s, const struct watch_tally *t,
    const struct watch_figures *last);

#endif
