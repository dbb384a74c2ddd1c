/* watch_plot.h: a small terminal plot of p99 and max against time. The
 * points are kept in fixed memory: when they fill up, each two neighbours
 * become one (the worse of their figures), so an hour-long and a week-long
 * run take the same space, and the plot shows the worst of each stretch. */
#ifndef SYNCPROBE_WATCH_PLOT_H
#define SYNCPROBE_WATCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "watch/watch_interval.h"

#define WATCH_PLOT_POINTS 512	/* even: halving merges pairs */
#define WATCH_PLOT_MIN_WIDTH 40
#define WATCH_PLOT_HEIGHT    10	/* rows */
#define WATCH_PLOT_WIDTH     80	/* columns when stdout is no terminal */

struct watch_plot_point {
	uint64_t end_ns;	/* the end of its last interval */
	uint64_t ops;
	double p99_usecs;	/* the highest of its intervals' */
	double max_usecs;
};

struct watch_plot {
	struct watch_plot_point points[WATCH_PLOT_POINTS];
	size_t n;
	uint64_t per_point;	/* intervals in each point */
	uint64_t in_last;	/* intervals in the last point so far */
};

void watch_plot_init(struct watch_plot *p);

/* Add a closed interval. The last, when cut short (f->partial), adds
 * only its max to the point before it, if there is one. */
void watch_plot_add(struct watch_plot *p, const struct watch_figures *f);

/* Draw the plot in width columns (at least WATCH_PLOT_MIN_WIDTH) and
 * height rows: a log scale of microseconds on the left, time along the
 * bottom; '*' p99, '+' max, '#' both in one cell. Nothing when no
 * interval had an operation. */
void watch_plot_draw(FILE *out, const struct watch_plot *p, int width, int height);

#endif
