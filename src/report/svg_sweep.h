/* svg_sweep.h: commits/s against commit_delay, one line per series (a
 * client count, and a commit_siblings where several were swept): the
 * picture of -t group's cells and of syncprobe pgbench's. Each point with
 * the range of its rounds or repeats as a bar, filled where it differs
 * from delay 0 beyond the noise, hollow where not; each series' rate at
 * delay 0 as a dotted line across; the answer at each client count (the
 * delay that paid there) ringed; marked delays (the half rule, the
 * advice) as labelled vertical lines. The layout only: the callers say
 * what the series and marks are. */
#ifndef SYNCPROBE_SVG_SWEEP_H
#define SYNCPROBE_SVG_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_SWEEP_NAME_LEN 64
#define SVG_SWEEP_MARK_LEN 96

struct svg_sweep_point {
	double x;		/* commit_delay, us */
	double y;		/* commits/s */
	bool have_range;
	double lo, hi;		/* the rounds' (repeats') slowest and fastest */
	bool beyond;		/* differs from delay 0 beyond the noise */
};

struct svg_sweep_series {
	char name[SVG_SWEEP_NAME_LEN];
	size_t colour;		/* its style (svg_style_variant): by default the */
	size_t variant;		/* series' index and 0 */
	size_t npoints;		/* ascending x */
	bool have_zero;
	double zero_y;		/* its commits/s at delay 0 */
	/* The answer at its client count: the delay that paid there (0
	 * where none did), ringed. */
	bool have_answer;
	double answer_x;
};

struct svg_sweep_mark {
	double x;
	char label[SVG_SWEEP_MARK_LEN];
};

struct svg_sweep {
	const void *ctx;
	size_t nseries;
	size_t nmarks;
	const char *range_is;	/* the key's name for a bar: "the rounds' range" */
	void (*series)(const void *ctx, size_t s, struct svg_sweep_series *out);
	void (*point)(const void *ctx, size_t s, size_t i, struct svg_sweep_point *out);
	void (*mark)(const void *ctx, size_t m, struct svg_sweep_mark *out);
};

/* The chart from y down, with its legend and key at the right; the y
 * under it. NULL out: nothing drawn, the same y. */
double svg_sweep_draw(FILE *out, double y, const struct svg_sweep *sw);

#endif
