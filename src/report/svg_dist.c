/* svg_dist.c: latency distributions on one log axis (see svg_dist.h). One
 * scale for every group, so that a row of one group compares with a row
 * of another by eye; each group repeats the axis under its rows. */
#include "config.h"

#include "report/svg_dist.h"

#include <math.h>
#include <string.h>

#include "report/svg.h"
#include "report/svg_plot.h"

#define NAME_WIDTH  244.0	/* px: a row name of 36 characters */
#define TAG_WIDTH   100.0
#define PLOT_LEFT   (SVG_MARGIN + NAME_WIDTH + 12.0)
#define PLOT_RIGHT  (SVG_WIDTH - SVG_MARGIN - TAG_WIDTH - 14.0)
#define TAG_X       (SVG_WIDTH - SVG_MARGIN - TAG_WIDTH)
#define BAR_PITCH   13.0	/* px a bar takes, one under another */
#define BOX_HEIGHT  8.0
#define BAND_PAD    3.0		/* above and below a row's bars */
#define HEAD_HEIGHT 26.0	/* a group's title */
#define GROUP_GAP   14.0
#define KEY_HEIGHT  20.0	/* a line of the key */
#define LEGEND_STEP 210.0	/* px between series in the legend */
#define LOWEST_USECS 0.01	/* the log axis starts no lower (10 ns) */
#define TITLE_LEN   160
#define NAME_LEN    96
#define NOTE_LEN    640
#define AXIS_TITLE  "latency per operation, \xC2\xB5s (log scale)"

static const struct svg_font_style name_font = { SVG_MONO, 11.0, false, false, NULL, SVG_START };
static const struct svg_font_style tag_font = { SVG_MONO, 10.0, false, false, NULL, SVG_START };
static const struct svg_font_style key_font = { SVG_SANS, 11.0, false, false, NULL, SVG_START };
static const struct svg_font_style note_font = { SVG_SANS, 10.5, false, true, SVG_MUTED,
    SVG_START };

/* The lowest and highest latency of every bar, for the one scale. */
static void
range_of(const struct svg_dist *d, struct svg_scale *x)
{
	double lo = HUGE_VAL, hi = 0.0;
	size_t g, row, s, rows;
	char title[TITLE_LEN];

	for (g = 0; g < d->ngroups; g++) {
		rows = d->group(d->ctx, g, title, sizeof title);
		for (row = 0; row < rows; row++)
			for (s = 0; s < d->nseries; s++) {
				struct svg_dist_bar b;

				memset(&b, 0, sizeof b);
				d->bar(d->ctx, g, row, s, &b);
				if (b.kind != SVG_DIST_FIGURES)
					continue;
				lo = fmin(lo, fmin(b.min, b.mean));
				hi = fmax(hi, fmax(b.max, b.mean));
			}
	}
	if (lo > hi) {	/* nothing measured: an axis all the same */
		lo = 1.0;
		hi = 1000.0;
	}
	svg_scale_log(x, lo, hi, LOWEST_USECS);
	x->px_lo = PLOT_LEFT;
	x->px_hi = PLOT_RIGHT;
}

/* One bar whose row of the picture is centred on cy. */
static void
draw_figures(FILE *out, const struct svg_scale *x, double cy, const struct svg_style *st,
    const struct svg_dist_bar *b)
{
	struct svg_stroke whisker = { st->colour, 1.3, NULL }, box = { st->colour, 1.5, NULL };
	double xmin = svg_scale_at(x, b->min), xmax = svg_scale_at(x, b->max);
	double x50 = svg_scale_at(x, b->p50), x99 = svg_scale_at(x, b->p99);

	svg_line(out, xmin, cy, xmax, cy, &whisker);
	svg_line(out, xmin, cy - 3.5, xmin, cy + 3.5, &whisker);
	svg_line(out, xmax, cy - 3.5, xmax, cy + 3.5, &whisker);
	svg_rect(out, x50, cy - BOX_HEIGHT / 2, fmax(x99 - x50, 1.5), BOX_HEIGHT,
	    b->hollow ? "#ffffff" : st->colour, &box);
	svg_marker(out, st->shape, svg_scale_at(x, b->mean), cy, 3.3, NULL, SVG_INK);
}

static void
draw_bar(FILE *out, const struct svg_scale *x, double top, size_t s,
    const struct svg_dist_bar *b)
{
	double cy = top + BAR_PITCH / 2;
	struct svg_font_style tag = tag_font;
	struct svg_style st;
	/* Longer than a line holds: the rest is cut as it is drawn. */
	char note[NOTE_LEN];

	svg_style_of(s, &st);
	if (b->kind == SVG_DIST_FIGURES) {
		draw_figures(out, x, cy, &st, b);
	} else if (b->kind != SVG_DIST_NONE) {
		snprintf(note, sizeof note, "%s: %s", b->kind == SVG_DIST_ERROR ? "error" : "n/a",
		    b->reason != NULL ? b->reason : "");
		svg_text_fit(out, PLOT_LEFT + 4, cy + 3.5, &note_font, PLOT_RIGHT - PLOT_LEFT - 8,
		    note);
	}
	tag.bold = b->tag_bold;
	svg_text_fit(out, TAG_X, cy + 3.5, &tag, TAG_WIDTH, b->tag);
}

static double
row_height(const struct svg_dist *d)
{
	return (double)d->nseries * BAR_PITCH;
}

/* The height of group g's rows: each its bars, a band's padding around
 * each row that starts a band. */
static double
rows_height(const struct svg_dist *d, size_t g, size_t rows)
{
	double h = 0.0;
	size_t row;

	for (row = 0; row < rows; row++) {
		struct svg_dist_row r = { "", false };

		d->row(d->ctx, g, row, &r);
		h += row_height(d) + (row == 0 || !r.joined ? 2 * BAND_PAD : 0.0);
	}
	return h;
}

/* Every other band shaded, a band being a row and the rows joined to it. */
static void
draw_bands(FILE *out, const struct svg_dist *d, size_t g, size_t rows, double y)
{
	size_t row = 0, end, band = 0;
	double top = y, h;

	while (row < rows) {
		struct svg_dist_row r = { "", false };

		h = row_height(d) + 2 * BAND_PAD;
		for (end = row + 1; end < rows; end++) {
			d->row(d->ctx, g, end, &r);
			if (!r.joined)
				break;
			h += row_height(d);
		}
		if (band++ % 2 == 0)
			svg_rect(out, SVG_MARGIN, top, SVG_WIDTH - 2 * SVG_MARGIN, h, SVG_BAND, NULL);
		top += h;
		row = end;
	}
}

static double
draw_group(FILE *out, const struct svg_dist *d, const struct svg_scale *x, size_t g, double y)
{
	struct svg_font_style head = { SVG_SANS, 13.0, true, false, NULL, SVG_START };
	struct svg_font_style tag_head = { SVG_SANS, 10.0, false, false, SVG_MUTED, SVG_START };
	char title[TITLE_LEN];
	size_t rows = d->group(d->ctx, g, title, sizeof title), row, s;
	double top, h;

	svg_text_fit(out, SVG_MARGIN, y + 18, &head, TAG_X - SVG_MARGIN - 8, title);
	svg_text(out, TAG_X, y + 18, &tag_head, d->tag_head);
	top = y + HEAD_HEIGHT;
	h = rows_height(d, g, rows);
	draw_bands(out, d, g, rows, top);
	h += svg_axis_x(out, x, top, top + h, AXIS_TITLE);
	for (row = 0; row < rows; row++) {
		struct svg_dist_row r = { "", false };

		d->row(d->ctx, g, row, &r);
		if (row == 0 || !r.joined)
			top += BAND_PAD * (row == 0 ? 1 : 2);
		svg_text_fit(out, SVG_MARGIN + 4 + (r.joined ? 12 : 0), top + BAR_PITCH / 2 + 4,
		    &name_font, NAME_WIDTH - (r.joined ? 12 : 0), r.name);
		for (s = 0; s < d->nseries; s++) {
			struct svg_dist_bar b;

			memset(&b, 0, sizeof b);
			d->bar(d->ctx, g, row, s, &b);
			draw_bar(out, x, top, s, &b);
			top += BAR_PITCH;
		}
	}
	return HEAD_HEIGHT + h + GROUP_GAP;
}

/* What a bar's parts are, with a sample of each kind of box. */
static double
draw_key(FILE *out, const struct svg_dist *d, double y)
{
	static const struct svg_scale sample = { true, 1, 1000, 0, 90 };
	struct svg_dist_bar b = { SVG_DIST_FIGURES, 2, 10, 100, 600, 30, false, NULL, "", false };
	struct svg_style st;
	struct svg_scale at = sample;
	char name[NAME_LEN];
	size_t s;
	double lines = 1.0;

	svg_style_of(0, &st);
	at.px_lo += SVG_MARGIN + 4;
	at.px_hi += SVG_MARGIN + 4;
	draw_figures(out, &at, y + 10, &st, &b);
	svg_text(out, SVG_MARGIN + 104, y + 14, &key_font,
	    "box: p50 to p99; whiskers: min to max; marker: the mean");
	at.px_lo += 440;
	at.px_hi += 440;
	b.hollow = true;
	draw_figures(out, &at, y + 10, &st, &b);
	svg_text(out, SVG_MARGIN + 544, y + 14, &key_font, "hollow: direct I/O");
	if (d->nseries > 1)
		for (s = 0; s < d->nseries; s++) {
			double col = (double)(s % 4), line = (double)(s / 4);

			svg_style_of(s, &st);
			d->series_name(d->ctx, s, name, sizeof name);
			svg_legend_entry(out, SVG_MARGIN + 4 + col * LEGEND_STEP,
			    y + KEY_HEIGHT * (1 + line) + 14, &st, false, LEGEND_STEP - 8, name);
			lines = 2.0 + line;
		}
	return KEY_HEIGHT * lines + 8;
}

double
svg_dist_draw(FILE *out, double y, const struct svg_dist *d)
{
	struct svg_scale x;
	size_t g;

	range_of(d, &x);
	y += draw_key(out, d, y);
	for (g = 0; g < d->ngroups; g++)
		y += draw_group(out, d, &x, g, y);
	return y;
}
