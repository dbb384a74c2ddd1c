/* watch_svg.h: --svg=FILE's picture of a whole watch run: p50, p99 and max
 * latency on a logarithmic axis in microseconds against wall-clock time
 * (UTC, as the lines stamp it), each stall marked at its start and its
 * length, the back-to-back burst's p50 as a reference line across, a
 * legend, and a caption with where it ran (host, target, filesystem and
 * device), the method and the rate. Drawn from the plot's points
 * (watch_plot.h), so that a week of intervals is at most
 * WATCH_PLOT_POINTS points and WATCH_PLOT_STALLS stalls. A pure function
 * of its arguments (golden files). */
#ifndef SYNCPROBE_WATCH_SVG_H
#define SYNCPROBE_WATCH_SVG_H

#include <stdio.h>

#include "watch/watch_plot.h"
#include "watch/watch_result.h"

/* The picture, one SVG document, into out. */
void watch_svg(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *p);

#endif
