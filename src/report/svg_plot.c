/* svg_plot.c: scales, ticks, axes and series styles for the pictures (see
 * svg_plot.h). */
#include "config.h"

#include "report/svg_plot.h"

#include <math.h>
#include <string.h>

#define TICK_FONT     10.0	/* px */
#define TITLE_FONT    11.0
#define LINEAR_TICKS  5.0	/* about this many steps across a linear scale */
#define LABEL_DECADE  110.0	/* px a decade needs for 2 and 5 to be labelled */

/* Okabe & Ito's colours (2008) without the yellow, which is too light on
 * white: blue, orange, bluish green, reddish purple, sky blue, vermillion,
 * black; the first three, the most used, far apart in hue and lightness. */
static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"
};
static const char *const dashes[] = { NULL, "7 3", "2 2", "9 3 2 3" };

void
svg_scale_log(struct svg_scale *s, double min, double max, double floor_value)
{
	if (!(min > floor_value))
		min = floor_value;
	if (!(max > min))
		max = min;
	s->log = true;
	s->lo = pow(10.0, floor(log10(min)));
	s->hi = pow(10.0, ceil(log10(max)));
	if (s->hi <= s->lo)
		s->hi = s->lo * 10.0;
}

/* 1, 2 or 5 times a power of ten, near range / LINEAR_TICKS. */
static double
nice_step(double range)
{
	double raw = range / LINEAR_TICKS, mag = pow(10.0, floor(log10(raw))), norm = raw / mag;

	return (norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0) * mag;
}

void
svg_scale_linear(struct svg_scale *s, double min, double max, bool from_zero)
{
	double step;

	if (from_zero || !(min > 0.0))
		min = 0.0;
	if (!(max > min))
		max = min > 0.0 ? min * 1.1 : 1.0;
	step = nice_step(max - min);
	s->log = false;
	s->lo = floor(min / step) * step;
	s->hi = ceil(max / step) * step;
}

double
svg_scale_at(const struct svg_scale *s, double v)
{
	double f;

	if (s->log)
		f = v > s->lo ? (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) : 0.0;
	else
		f = (v - s->lo) / (s->hi - s->lo);
	if (!(f > 0.0))
		f = 0.0;
	if (f > 1.0)
		f = 1.0;
	return s->px_lo + f * (s->px_hi - s->px_lo);
}

static size_t
log_ticks(const struct svg_scale *s, double *ticks, bool *labelled, size_t max)
{
	static const double steps[] = { 1.0, 2.0, 5.0 };
	double decades = log10(s->hi) - log10(s->lo);
	bool minor_labels = fabs(s->px_hi - s->px_lo) / decades >= LABEL_DECADE;
	double d;
	size_t n = 0, k;

	for (d = s->lo; d <= s->hi * 1.0001 && n < max; d *= 10.0)
		for (k = 0; k < 3 && n < max; k++) {
			double v = d * steps[k];

			if (v > s->hi * 1.0001)
				break;
			ticks[n] = v;
			labelled[n++] = k == 0 || minor_labels;
		}
	return n;
}

size_t
svg_scale_ticks(const struct svg_scale *s, double *ticks, bool *labelled, size_t max)
{
	double step, v;
	size_t n = 0, i;

	if (s->log)
		return log_ticks(s, ticks, labelled, max);
	step = nice_step(s->hi - s->lo);
	for (i = 0; n < max; i++) {
		v = s->lo + (double)i * step;
		if (v > s->hi + step * 1e-6)
			break;
		ticks[n] = v;
		labelled[n++] = true;
	}
	return n;
}

/* A tick of ten million or more as "2.5e7": printf's "2.5e+07" reads as
 * a sum on an axis. Its mantissa to one decimal, rounded first, so that
 * 9.97e7 is "1e8". */
static void
exponent_label(double v, char *buf, size_t len)
{
	int e = (int)floor(log10(v));
	double m = round(v / pow(10.0, e) * 10.0) / 10.0;

	if (m >= 10.0) {
		m /= 10.0;
		e++;
	}
	snprintf(buf, len, "%ge%d", m, e);
}

void
svg_tick_label(double v, char *buf, size_t len)
{
	if (v >= 1e7)
		exponent_label(v, buf, len);
	else if (v >= 1.0 || v == 0.0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2g", v);
}

/* Gridlines at the scale's ticks across the plot, a tick mark outside it
 * and the labels beyond: along the x axis (gridlines from `from` down to
 * `to`, labels under `to`), or the y axis (from `from` right to `to`,
 * labels left of `from`). */
static void
draw_ticks(FILE *out, const struct svg_scale *s, bool along_x, double from, double to)
{
	struct svg_font_style tick = { SVG_SANS, TICK_FONT, false, false, NULL,
	    along_x ? SVG_MIDDLE : SVG_END };
	struct svg_stroke grid = { SVG_GRID, 1.0, NULL }, axis = { SVG_INK, 1.0, NULL };
	double ticks[SVG_MAX_TICKS];
	bool labelled[SVG_MAX_TICKS];
	size_t n = svg_scale_ticks(s, ticks, labelled, SVG_MAX_TICKS), i;
	char label[32];

	for (i = 0; i < n; i++) {
		double p = svg_scale_at(s, ticks[i]);

		svg_tick_label(ticks[i], label, sizeof label);
		if (along_x) {
			svg_line(out, p, from, p, to, &grid);
			svg_line(out, p, to, p, to + 4, &axis);
			if (labelled[i])
				svg_text(out, p, to + 15, &tick, label);
		} else {
			svg_line(out, from, p, to, p, &grid);
			svg_line(out, from - 4, p, from, p, &axis);
			if (labelled[i])
				svg_text(out, from - 6, p + 3.5, &tick, label);
		}
	}
}

double
svg_axis_x(FILE *out, const struct svg_scale *x, double top, double bottom, const char *title)
{
	struct svg_font_style head = { SVG_SANS, TITLE_FONT, false, false, NULL, SVG_MIDDLE };
	struct svg_stroke axis = { SVG_INK, 1.0, NULL };

	draw_ticks(out, x, true, top, bottom);
	svg_line(out, x->px_lo, bottom, x->px_hi, bottom, &axis);
	svg_text(out, (x->px_lo + x->px_hi) / 2, bottom + 31, &head, title);
	return 38.0;
}

void
svg_axis_y(FILE *out, const struct svg_scale *y, double left, double right, const char *title)
{
	struct svg_font_style head = { SVG_SANS, TITLE_FONT, false, false, NULL, SVG_END };
	struct svg_stroke axis = { SVG_INK, 1.0, NULL };

	draw_ticks(out, y, false, left, right);
	svg_line(out, left, y->px_lo, left, y->px_hi, &axis);
	svg_text(out, left - 6, y->px_hi - 7, &head, title);
}

void
svg_style_of(size_t i, struct svg_style *out)
{
	svg_style_variant(i, 0, out);
}

/* The k-th of the 20 pairs of a dash pattern and a shape; series i's
 * variant v takes pair i + 7v, so that series of distinct colours or
 * variants never share a pair up to the 20th. */
void
svg_style_variant(size_t i, size_t variant, struct svg_style *out)
{
	size_t colours = sizeof palette / sizeof palette[0], k = i + colours * variant;

	out->colour = palette[i % colours];
	out->dash = dashes[k % (sizeof dashes / sizeof dashes[0])];
	out->shape = (enum svg_shape)(k % SVG_SHAPE_COUNT);
}

void
svg_legend_entry(FILE *out, double x, double y, const struct svg_style *st, bool line,
    double width, const char *text)
{
	struct svg_font_style f = { SVG_SANS, 11.0, false, false, NULL, SVG_START };
	struct svg_stroke s = { st->colour, 2.0, st->dash };

	if (line)
		svg_line(out, x, y - 4, x + 26, y - 4, &s);
	else
		svg_rect(out, x + 5, y - 8, 16, 8, st->colour, NULL);
	svg_marker(out, st->shape, x + 13, y - 4, 3.5, line ? st->colour : NULL,
	    line ? st->colour : SVG_INK);
	svg_text_fit(out, x + 32, y, &f, width - 32, text);
}
