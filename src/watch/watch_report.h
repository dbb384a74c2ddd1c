/* watch_report.h: watch's output as it goes, in each format: text lines
 * as vmstat and ioping print them, JSON Lines (one object per line: the
 * start, each interval, each stall, the summary) for a script to follow
 * live, and for openmetrics the summary alone. */
#ifndef SYNCPROBE_WATCH_REPORT_H
#define SYNCPROBE_WATCH_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/names.h"
#include "watch/watch_interval.h"
#include "watch/watch_plot.h"
#include "watch/watch_result.h"

/* -F json's schema (schema/watch.schema.json). Version 3: names as the
 * probe's report spells them: syncprobe_version, a latency an object of
 * microseconds (usecs: mean, min, p50, p90, p99, p999, max), a stall's
 * length duration_usecs. */
#define WATCH_SCHEMA_VERSION 3

/* watch's -F, one row a format, as the probe's report_formats: what it
 * writes at the start, at each interval's end, at a stall, and at the end
 * (NULL: nothing then; every format writes its end). */
struct watch_format {
	const char *name;
	void (*start)(FILE *out, const struct watch_setup *s);
	void (*interval)(FILE *out, const struct watch_setup *s, const struct watch_figures *f);
	void (*stall)(FILE *out, const struct watch_stall *st);
	void (*end)(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
	    const struct watch_plot *plot);
};

extern const struct watch_format watch_formats[];	/* the first is the default */
extern const struct name_list watch_format_names;

/* "one 8kB write + fdatasync", "one 8kB open_datasync write": the
 * operation watched. */
void watch_describe_op(const struct watch_setup *s, char *buf, size_t len);

/* The settings and the burst, then (text) the interval lines' heading. */
void watch_report_start(FILE *out, const struct watch_format *fmt, const struct watch_setup *s);

/* One closed interval. */
void watch_report_interval(FILE *out, const struct watch_format *fmt, const struct watch_setup *s,
    const struct watch_figures *f);

/* A stall, as soon as its operation ended. */
void watch_report_stall(FILE *out, const struct watch_format *fmt, const struct watch_stall *st);

/* The status line a terminal shows while an interval fills (on standard
 * error, util/progress.h), so that something shows before its line:
 * "12:00:04 interval 1: 213 operations, longest 1.20 ms; its line at
 * 12:00:10 UTC", now_wall_ns being the time now and end_wall_ns the
 * interval's end. */
void watch_report_status(char *buf, size_t len, uint64_t now_wall_ns,
    const struct watch_tally *t, uint64_t end_wall_ns);

/* The summary, the worst interval, the warnings and (text) the plot. */
void watch_report_end(FILE *out, const struct watch_format *fmt, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *plot);

#endif
