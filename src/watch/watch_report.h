/* watch_report.h: watch's output as it goes, in each format: text lines
 * as vmstat and ioping print them, JSON Lines (one object per line: the
 * start, each interval, each stall, the summary) for a script to follow
 * live, and for openmetrics the summary alone. */
#ifndef SYNCPROBE_WATCH_REPORT_H
#define SYNCPROBE_WATCH_REPORT_H

#include <stdio.h>

#include "watch/watch_interval.h"
#include "watch/watch_plot.h"
#include "watch/watch_result.h"

#define WATCH_SCHEMA_VERSION 2

enum watch_format { WATCH_TEXT, WATCH_JSON, WATCH_OPENMETRICS };

/* The settings and the burst, then (text) the interval lines' heading. */
void watch_report_start(FILE *out, enum watch_format fmt, const struct watch_setup *s);

/* One closed interval. */
void watch_report_interval(FILE *out, enum watch_format fmt, const struct watch_setup *s,
    const struct watch_figures *f);

/* A stall, as soon as its operation ended. */
void watch_report_stall(FILE *out, enum watch_format fmt, const struct watch_stall *st);

/* The summary, the worst interval, the warnings and (text) the plot. */
void watch_report_end(FILE *out, enum watch_format fmt, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *plot);

#endif
