/* svg_sweep.c: commits/s against commit_delay (see svg_sweep.h). The
 * marks' labels stand above the plot, a line each, so that they never
 * cover a point; the legend and the key stand at its right. */
#include "config.h"

#include "report/svg_sweep.h"

#include <math.h>
#include <string.h>

#include "report/svg.h"
#include "report/svg_plot.h"

#define LEGEND_WIDTH 196.0
#define PLOT_LEFT    (SVG_MARGIN + 58.0)
#define PLOT_RIGHT   (SVG_WIDTH - SVG_MARGIN - LEGEND_WIDTH - 18.0)
#define LEGEND_X     (SVG_WIDTH - SVG_MARGIN - LEGEND_WIDTH)
#define PLOT_HEIGHT  260.0
#define MARK_LINE    14.0	/* px a mark's label takes above the plot */
#define LEGEND_LINE  17.0
#define INSET        12.0	/* px between the axes and delay 0, the lowest rate */
#define SPREAD       3.0	/* px between series' bars at one delay */
#define MAX_MARKS    8

static const struct svg_font_style mark_font = { SVG_SANS, 11.0, false, false, NULL, SVG_START };
static const struct svg_font_style key_font = { SVG_SANS, 10.5, false, false, SVG_MUTED,
    SVG_START };

/* Series s, its style by default its index's. */
static void
get_series(const struct svg_sweep *sw, size_t s, struct svg_sweep_series *se,
    struct svg_style *st)
{
	memset(se, 0, sizeof *se);
	se->colour = s;
	sw->series(sw->ctx, s, se);
	svg_style_variant(se->colour, se->variant, st);
}

/* The range of every point, zero line and mark. */
static void
scales_of(const struct svg_sweep *sw, struct svg_scale *x, struct svg_scale *y)
{
	double xmax = 0.0, ylo = HUGE_VAL, yhi = 0.0;
	size_t s, i;

	for (s = 0; s < sw->nseries; s++) {
		struct svg_sweep_series se;
		struct svg_style st;

		get_series(sw, s, &se, &st);
		if (se.have_zero) {
			ylo = fmin(ylo, se.zero_y);
			yhi = fmax(yhi, se.zero_y);
		}
		for (i = 0; i < se.npoints; i++) {
			struct svg_sweep_point p;

			memset(&p, 0, sizeof p);
			sw->point(sw->ctx, s, i, &p);
			xmax = fmax(xmax, p.x);
			ylo = fmin(ylo, p.have_range ? fmin(p.lo, p.y) : p.y);
			yhi = fmax(yhi, p.have_range ? fmax(p.hi, p.y) : p.y);
		}
	}
	for (i = 0; i < sw->nmarks; i++) {
		struct svg_sweep_mark m;

		sw->mark(sw->ctx, i, &m);
		xmax = fmax(xmax, m.x);
	}
	if (ylo > yhi)
		ylo = yhi = 0.0;
	svg_scale_linear(x, 0.0, xmax, true);
	/* From 0 where the rates span much of it; else around them, so that
	 * a 5% difference shows. */
	svg_scale_linear(y, ylo, yhi, yhi - ylo > 0.5 * yhi);
}

/* The answer at a client count: a ring around its point. */
static void
draw_ring(FILE *out, double x, double y)
{
	svg_marker(out, SVG_CIRCLE, x, y, 8.0, "none", SVG_INK);
}

static void
draw_range(FILE *out, double px, const struct svg_scale *y, const struct svg_sweep_point *p,
    const struct svg_style *st)
{
	struct svg_stroke s = { st->colour, 1.3, NULL };
	double lo = svg_scale_at(y, p->lo), hi = svg_scale_at(y, p->hi);

	svg_line(out, px, lo, px, hi, &s);
	svg_line(out, px - 2.5, lo, px + 2.5, lo, &s);
	svg_line(out, px - 2.5, hi, px + 2.5, hi, &s);
}

/* Series s: its delay-0 line, its line, its bars, its markers. */
static void
draw_series(FILE *out, const struct svg_sweep *sw, size_t s, const struct svg_scale *x,
    const struct svg_scale *y)
{
	double px[SVG_MAX_TICKS], py[SVG_MAX_TICKS];
	double shift = ((double)s - (double)(sw->nseries - 1) / 2.0) * SPREAD;
	struct svg_sweep_series se;
	struct svg_style st;
	struct svg_stroke line, zero;
	size_t i, n = 0;

	get_series(sw, s, &se, &st);
	line = (struct svg_stroke){ st.colour, 2.0, st.dash };
	zero = (struct svg_stroke){ st.colour, 1.0, "1 3" };
	if (se.have_zero)
		svg_line(out, x->px_lo, svg_scale_at(y, se.zero_y), x->px_hi,
		    svg_scale_at(y, se.zero_y), &zero);
	/* The line in pieces of SVG_MAX_TICKS points, each joined to the next. */
	for (i = 0; i < se.npoints; i++) {
		struct svg_sweep_point p;

		memset(&p, 0, sizeof p);
		sw->point(sw->ctx, s, i, &p);
		if (n == SVG_MAX_TICKS) {
			svg_polyline(out, px, py, n, &line);
			px[0] = px[n - 1];
			py[0] = py[n - 1];
			n = 1;
		}
		px[n] = svg_scale_at(x, p.x) + shift;
		py[n++] = svg_scale_at(y, p.y);
	}
	svg_polyline(out, px, py, n, &line);
	for (i = 0; i < se.npoints; i++) {
		struct svg_sweep_point p;
		double at;

		memset(&p, 0, sizeof p);
		sw->point(sw->ctx, s, i, &p);
		at = svg_scale_at(x, p.x) + shift;
		if (p.have_range)
			draw_range(out, at, y, &p, &st);
		svg_marker(out, st.shape, at, svg_scale_at(y, p.y), 4.0,
		    p.beyond ? st.colour : NULL, st.colour);
		if (se.have_answer && p.x == se.answer_x)
			draw_ring(out, at, svg_scale_at(y, p.y));
	}
}

/* A mark: a dashed line through the plot up to its label's line. */
static void
draw_mark(FILE *out, const struct svg_sweep_mark *mk, const struct svg_scale *x,
    double label_y, double bottom)
{
	struct svg_stroke s = { SVG_INK, 1.2, "5 3" };
	struct svg_font_style f = mark_font;
	double px = svg_scale_at(x, mk->x), w = svg_text_width(mk->label, &f);

	svg_line(out, px, label_y - 4, px, bottom, &s);
	/* The label beside the line, on the side with room, on white: the
	 * lines of other marks may pass under it. */
	if (px + 6 + w > PLOT_RIGHT + 10) {
		f.anchor = SVG_END;
		svg_rect(out, px - 7 - w, label_y - 10, w + 4, 13, "#ffffff", NULL);
		svg_text(out, px - 5, label_y, &f, mk->label);
	} else {
		svg_rect(out, px + 3, label_y - 10, w + 4, 13, "#ffffff", NULL);
		svg_text(out, px + 5, label_y, &f, mk->label);
	}
}

/* The marks, the one at the least delay on the first line: a mark's line
 * then crosses only the lines of marks right of it, whose labels start
 * right of their own lines. */
static void
draw_marks(FILE *out, const struct svg_sweep *sw, const struct svg_scale *x, double y,
    double bottom)
{
	struct svg_sweep_mark marks[MAX_MARKS], t;
	size_t n = sw->nmarks < MAX_MARKS ? sw->nmarks : MAX_MARKS, i, j;

	for (i = 0; i < n; i++) {
		sw->mark(sw->ctx, i, &marks[i]);
		for (j = i; j > 0 && marks[j].x < marks[j - 1].x; j--) {
			t = marks[j];
			marks[j] = marks[j - 1];
			marks[j - 1] = t;
		}
	}
	for (i = 0; i < n; i++)
		draw_mark(out, &marks[i], x, y + (double)i * MARK_LINE, bottom);
}

/* The series' names, then what the marks of a point mean. */
static double
draw_legend(FILE *out, const struct svg_sweep *sw, double y)
{
	struct svg_sweep_series se;
	struct svg_style st;
	struct svg_stroke zero = { SVG_INK, 1.0, "1 3" };
	char range[96];
	size_t s;

	for (s = 0; s < sw->nseries; s++) {
		get_series(sw, s, &se, &st);
		svg_legend_entry(out, LEGEND_X, y, &st, true, LEGEND_WIDTH, se.name);
		y += LEGEND_LINE;
	}
	y += 6;
	svg_marker(out, SVG_CIRCLE, LEGEND_X + 5, y - 4, 4.0, SVG_INK, SVG_INK);
	svg_marker(out, SVG_CIRCLE, LEGEND_X + 17, y - 4, 4.0, NULL, SVG_INK);
	svg_text(out, LEGEND_X + 28, y, &key_font, "filled: beyond the noise");
	svg_text(out, LEGEND_X + 28, y + 13, &key_font, "against delay 0; hollow: not");
	y += 30;
	svg_line(out, LEGEND_X + 11, y - 9, LEGEND_X + 11, y + 1, &(struct svg_stroke){ SVG_INK,
	    1.3, NULL });
	snprintf(range, sizeof range, "bar: %s", sw->range_is);
	svg_text_fit(out, LEGEND_X + 28, y, &key_font, LEGEND_WIDTH - 28, range);
	y += 17;
	svg_line(out, LEGEND_X, y - 4, LEGEND_X + 22, y - 4, &zero);
	svg_text(out, LEGEND_X + 28, y, &key_font, "dotted: delay 0's rate");
	y += 19;
	draw_ring(out, LEGEND_X + 11, y - 4);
	svg_text(out, LEGEND_X + 28, y, &key_font, "ringed: what paid at that");
	svg_text(out, LEGEND_X + 28, y + 13, &key_font, "client count (0 where none did)");
	return y + 13;
}

double
svg_sweep_draw(FILE *out, double y, const struct svg_sweep *sw)
{
	struct svg_scale x, yv;
	size_t nmarks = sw->nmarks < MAX_MARKS ? sw->nmarks : MAX_MARKS, s;
	/* The marks' labels, then a line for the y axis' title. */
	double top = y + 34.0 + (double)nmarks * MARK_LINE, bottom, legend_end, h;

	scales_of(sw, &x, &yv);
	/* Tall enough for its legend. */
	legend_end = draw_legend(NULL, sw, top);
	h = fmax(PLOT_HEIGHT, legend_end - top);
	bottom = top + h;
	x.px_lo = PLOT_LEFT + INSET;
	x.px_hi = PLOT_RIGHT;
	yv.px_lo = bottom - INSET;
	yv.px_hi = top;
	svg_axis_y(out, &yv, PLOT_LEFT, PLOT_RIGHT, "commits/s");
	bottom += svg_axis_x(out, &x, top, bottom, "commit_delay, \xC2\xB5s");
	svg_rect(out, PLOT_LEFT, top, PLOT_RIGHT - PLOT_LEFT, h, NULL,
	    &(struct svg_stroke){ SVG_INK, 1.0, NULL });
	draw_marks(out, sw, &x, y + 22.0, top + h);
	for (s = 0; s < sw->nseries; s++)
		draw_series(out, sw, s, &x, &yv);
	draw_legend(out, sw, top);
	return bottom;
}
