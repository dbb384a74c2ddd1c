/* svg_plot.h: what every chart of the pictures shares: scales (a
 * logarithmic one for latencies in microseconds, a linear one for rates,
 * delays or time), their ticks and labelled axes with gridlines, and the
 * series' styles. A style is a colour of the Okabe-Ito palette (told apart
 * by readers with any common colour-vision deficiency) with a dash pattern
 * and a marker shape of its own, so that series stay apart in greyscale
 * too. A time-series picture (watch) draws on a linear time scale and a
 * logarithmic latency scale with the same calls. */
#ifndef SYNCPROBE_SVG_PLOT_H
#define SYNCPROBE_SVG_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/svg.h"

#define SVG_MAX_TICKS 64

struct svg_scale {
	bool log;
	double lo, hi;		/* the values at the two ends */
	double px_lo, px_hi;	/* where they land (px_hi < px_lo for a y axis) */
};

/* A logarithmic scale from the decade at or below min to the one at or
 * above max (min is raised to floor, so that 0 has a place). */
void svg_scale_log(struct svg_scale *s, double min, double max, double floor);

/* A linear scale over [min, max] widened to round ticks; from 0 when
 * from_zero. */
void svg_scale_linear(struct svg_scale *s, double min, double max, bool from_zero);

/* Where v lands, clamped to the scale's ends. */
double svg_scale_at(const struct svg_scale *s, double v);

/* The scale's ticks, ascending, into ticks[max]; each labelled or not (a
 * log scale's 2 and 5 between decades, where there is room): the count. */
size_t svg_scale_ticks(const struct svg_scale *s, double *ticks, bool *labelled, size_t max);

/* A tick's label: "0.5", "20", "1000", "1e+07". */
void svg_tick_label(double v, char *buf, size_t len);

/* Vertical gridlines from top to bottom at the x scale's ticks, their
 * labels under bottom, and title (with its unit) under those. The height
 * it takes under bottom. */
double svg_axis_x(FILE *out, const struct svg_scale *x, double top, double bottom,
    const char *title);

/* Horizontal gridlines from left to right at the y scale's ticks, their
 * labels left of left, and title above them, ending at the axis. */
void svg_axis_y(FILE *out, const struct svg_scale *y, double left, double right,
    const char *title);

struct svg_style {
	const char *colour;
	const char *dash;	/* the series' line, or NULL: solid */
	enum svg_shape shape;
};

/* The style of series i: distinct for every i below 140. */
void svg_style_of(size_t i, struct svg_style *out);

/* A variant of series i's style: its colour, with the dash pattern and
 * marker of another (variant 0: svg_style_of's). Lines of one client count
 * at several commit_siblings share a colour this way. */
void svg_style_variant(size_t i, size_t variant, struct svg_style *out);

/* A legend entry at (x, y) (the text's baseline), width px wide: a short
 * line in the style (line: with its dash pattern; else a box in its
 * colour), its marker, then text (cut to fit). */
void svg_legend_entry(FILE *out, double x, double y, const struct svg_style *st, bool line,
    double width, const char *text);

#endif
