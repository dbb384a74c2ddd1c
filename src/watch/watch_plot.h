/* watch_plot.h: the points of watch's pictures, p50, p99 and max against
 * time, and its stalls where they happened, with a small terminal plot of
 * p99 and max drawn from them (the --svg picture is watch_svg.h's). The
 * points and stalls are kept in fixed memory: when they fill up, each two
 * neighbours become one (the worse of their figures, the longer stall), so
 * an hour-long and a week-long run take the same space, and the plot shows
 * the worst of each stretch. */
#ifndef SYNCPROBE_WATCH_PLOT_H
#define SYNCPROBE_WATCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "watch/watch_interval.h"

#define WATCH_PLOT_POINTS 512	/* even: halving merges pairs */
#define WATCH_PLOT_STALLS 256	/* even, as the points */
#define WATCH_PLOT_MIN_WIDTH 40
#define WATCH_PLOT_HEIGHT    10	/* rows */
#define WATCH_PLOT_WIDTH     80	/* columns when stdout is no terminal */

struct watch_plot_point {
	uint64_t end_ns;	/* the end of its last interval */
	uint64_t ops;
	uint64_t stalls;
	/* Each the highest of its intervals': for p50 and p99, an upper bound
	 * of the figure of all their operations together. */
	double p50_usecs;
	double p99_usecs;
	double max_usecs;
};

/* A stall, or the longest of neighbouring stalls merged: when it started
 * (from the run's start) and how long it took. */
struct watch_plot_stall {
	uint64_t start_ns;
	uint64_t ns;
	uint64_t count;		/* the stalls it stands for */
};

struct watch_plot {
	struct watch_plot_point points[WATCH_PLOT_POINTS];
	size_t n;
	uint64_t per_point;	/* intervals in each point */
	uint64_t in_last;	/* intervals in the last point so far */
	struct watch_plot_stall stalls[WATCH_PLOT_STALLS];
	size_t nstalls;
	/* The wall clock at the run's start, from the first interval's
	 * stamp (ns since the epoch); 0: unknown. */
	uint64_t wall_zero_ns;
};

void watch_plot_init(struct watch_plot *p);

/* Add a closed interval. The last, when cut short (f->partial), adds
 * only its max to the point before it, if there is one. */
void watch_plot_add(struct watch_plot *p, const struct watch_figures *f);

/* Add a stall that started start_ns into the run and took ns. */
void watch_plot_add_stall(struct watch_plot *p, uint64_t start_ns, uint64_t ns);

/* Draw the plot in width columns (at least WATCH_PLOT_MIN_WIDTH) and
 * height rows: a log scale of microseconds on the left, time along the
 * bottom; '*' p99, '+' max, '#' both in one cell. Nothing when no
 * interval had an operation. */
void watch_plot_draw(FILE *out, const struct watch_plot *p, int width, int height);

#endif
