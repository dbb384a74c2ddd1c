/* svg_dist.h: latency distributions side by side on one logarithmic axis
 * in microseconds, the picture of the probe (a series per target) and of
 * compare (a series per saved run). Groups of rows, as the text report's
 * tables; in each row a bar per series: a box from p50 to p99, whiskers to
 * min and max, the mean as the series' marker; a box filled for buffered
 * I/O, hollow for direct I/O; a row that could not run says why. A short
 * text at the right of each bar (a figure, a ratio, "advised"). The layout
 * only: the callers say what each bar holds, as sidebyside.h's do. */
#ifndef SYNCPROBE_SVG_DIST_H
#define SYNCPROBE_SVG_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_DIST_TAG_LEN 32

enum svg_dist_kind {
	SVG_DIST_NONE,		/* no such row there: nothing drawn */
	SVG_DIST_FIGURES,
	SVG_DIST_NA,		/* could not run there: reason */
	SVG_DIST_ERROR		/* an I/O error stopped it there: reason */
};

struct svg_dist_bar {
	enum svg_dist_kind kind;
	double min, p50, p99, max, mean;	/* usecs */
	bool hollow;		/* direct I/O */
	const char *reason;	/* NA, ERROR */
	char tag[SVG_DIST_TAG_LEN];	/* at the right: "94.7", "1.08x*", "" */
	bool tag_bold;		/* "advised" */
};

struct svg_dist_row {
	const char *name;
	bool joined;		/* in the band of the row before: a pair (paced) */
};

struct svg_dist {
	const void *ctx;
	size_t ngroups;
	size_t nseries;
	const char *tag_head;	/* the head of the column of tags */
	/* Group g's title into title; its row count. */
	size_t (*group)(const void *ctx, size_t g, char *title, size_t len);
	void (*row)(const void *ctx, size_t g, size_t row, struct svg_dist_row *out);
	void (*bar)(const void *ctx, size_t g, size_t row, size_t series, struct svg_dist_bar *out);
	void (*series_name)(const void *ctx, size_t series, char *buf, size_t len);
};

/* The key (what a box, whisker and marker are; the series' legend), then
 * each group with its axis, from y down; the y under the last. NULL out:
 * nothing drawn, the same y. */
double svg_dist_draw(FILE *out, double y, const struct svg_dist *d);

#endif
