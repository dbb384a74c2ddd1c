/* watch_svg.c: --svg's picture of a watch run (watch_svg.h). The time axis
 * is ticked at round wall-clock times (every 10 s, 15 min, 6 h...) so that
 * a stall can be read off against a server's log, which stamps the wall
 * clock; the points stand at the end of their intervals, as the lines'
 * stamps do. */
#include "config.h"

#include "watch/watch_svg.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe/options.h"
#include "probe/row.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/svg_plot.h"
#include "util/cleanup.h"
#include "util/units.h"
#include "watch/watch_clock.h"
#include "watch/watch_report.h"

#define TEXT_WIDTH    (SVG_WIDTH - 2 * SVG_MARGIN)
#define LINE          15.0	/* px a line of 11 px text takes */
#define MAX_LINES     4		/* of a wrapped caption line: a path can be long */
#define LINE_LEN      (PATH_MAX + 4 * STORAGE_CHAIN_LEN + 256)
#define DESC_LEN      (2 * LINE_LEN)
#define LEGEND_WIDTH  196.0
#define PLOT_LEFT     (SVG_MARGIN + 58.0)
#define PLOT_RIGHT    (SVG_WIDTH - SVG_MARGIN - LEGEND_WIDTH - 18.0)
#define LEGEND_X      (SVG_WIDTH - SVG_MARGIN - LEGEND_WIDTH)
#define PLOT_HEIGHT   300.0
#define LEGEND_LINE   17.0
#define KEY_LINE      13.0
#define INSET         6.0	/* px between the y axis and the run's start */
#define TIME_LABELS   6		/* at most this many time labels along the axis */
#define STALL_TICK    8.0	/* px: a stall's tick on the time axis */
#define MARKERS_UPTO  60	/* points: a marker on each; more: the lines alone */
#define FLOOR_USECS   0.1	/* the lowest a log axis of latencies goes */

enum figure { FIG_P50, FIG_P99, FIG_MAX, FIG_COUNT };

static const char *const figure_names[FIG_COUNT] = { "p50", "p99", "max" };
/* The stalls' colour: the palette's vermillion, which no series takes. */
#define STALL_STYLE 5

static const struct svg_font_style key_font = { SVG_SANS, 10.5, false, false, SVG_MUTED,
    SVG_START };
static const struct svg_font_style tick_font = { SVG_SANS, 10.0, false, false, NULL,
    SVG_MIDDLE };
static const struct svg_font_style date_font = { SVG_SANS, 9.5, false, false, SVG_MUTED,
    SVG_MIDDLE };
static const struct svg_font_style axis_font = { SVG_SANS, 11.0, false, false, NULL,
    SVG_MIDDLE };

/* Round steps of the wall clock between time labels, the least first. */
static const uint64_t time_steps_ns[] = {
	1 * NSEC_PER_MSEC, 2 * NSEC_PER_MSEC, 5 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC,
	20 * NSEC_PER_MSEC, 50 * NSEC_PER_MSEC, 100 * NSEC_PER_MSEC, 200 * NSEC_PER_MSEC,
	500 * NSEC_PER_MSEC,
	1 * NSEC_PER_SEC, 2 * NSEC_PER_SEC, 5 * NSEC_PER_SEC, 10 * NSEC_PER_SEC, 15 * NSEC_PER_SEC,
	30 * NSEC_PER_SEC, 60 * NSEC_PER_SEC, 120 * NSEC_PER_SEC, 300 * NSEC_PER_SEC,
	600 * NSEC_PER_SEC, 900 * NSEC_PER_SEC, 1800 * NSEC_PER_SEC, 3600 * NSEC_PER_SEC,
	7200 * NSEC_PER_SEC, 10800 * NSEC_PER_SEC, 21600 * NSEC_PER_SEC, 43200 * NSEC_PER_SEC,
	86400 * NSEC_PER_SEC, 172800 * NSEC_PER_SEC
};

/* Figure k of a point; 0 where it has none (no operation, or a point of
 * a cut-short interval's max alone). */
static double
figure_of(const struct watch_plot_point *pt, enum figure k)
{
	if (pt->ops == 0)
		return 0.0;
	return k == FIG_P50 ? pt->p50_usecs : k == FIG_P99 ? pt->p99_usecs : pt->max_usecs;
}

/* Where the run ends on the time axis: its last point's end. */
static uint64_t
run_end_ns(const struct watch_summary *sum, const struct watch_plot *p)
{
	uint64_t end = p->n > 0 ? p->points[p->n - 1].end_ns : 0;

	if (end == 0)
		end = (uint64_t)(sum->run_secs * (double)NSEC_PER_SEC);
	return end > 0 ? end : NSEC_PER_MSEC;
}

/* The latency scale: every figure drawn, the stalls and the reference. */
static void
latency_scale(const struct watch_setup *s, const struct watch_plot *p, struct svg_scale *y)
{
	double lo = HUGE_VAL, hi = 0.0, v;
	size_t i, k;

	for (i = 0; i < p->n; i++)
		for (k = 0; k < FIG_COUNT; k++)
			if ((v = figure_of(&p->points[i], (enum figure)k)) > 0.0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
	for (i = 0; i < p->nstalls; i++)
		hi = fmax(hi, row_usecs((double)p->stalls[i].ns));
	if (s->burst.ops > 0) {
		lo = fmin(lo, s->burst.p50_usecs);
		hi = fmax(hi, s->burst.p50_usecs);
	}
	if (lo > hi)
		lo = hi = 1000.0;
	svg_scale_log(y, fmin(lo, hi), hi, FLOOR_USECS);
}

/* The label of a wall-clock time, to the step's precision: "12:00:10",
 * "12:05" for whole minutes, "12:00:10.25" for fractions. */
static void
time_label(uint64_t wall_ns, uint64_t step_ns, char *buf, size_t len)
{
	char iso[40];
	int n = 8;

	watch_clock_iso(wall_ns, iso, sizeof iso);	/* 2026-12-01T12:00:10.123Z */
	if (step_ns % (60 * NSEC_PER_SEC) == 0)
		n = 5;
	else if (step_ns < NSEC_PER_SEC)
		n = step_ns % (100 * NSEC_PER_MSEC) == 0 ? 10 :
		    step_ns % (10 * NSEC_PER_MSEC) == 0 ? 11 : 12;
	snprintf(buf, len, "%.*s", n, iso + 11);
}

/* The least round step that puts at most TIME_LABELS labels on the run. */
static uint64_t
time_step(uint64_t end_ns)
{
	size_t i, n = sizeof time_steps_ns / sizeof time_steps_ns[0];

	for (i = 0; i < n - 1; i++)
		if (end_ns / time_steps_ns[i] < TIME_LABELS)
			break;
	return time_steps_ns[i];
}

/* The time axis: gridlines at round wall-clock times, their labels under
 * bottom, the date under the first and under each that starts a date,
 * and the axis' title. The height it takes under bottom. */
static double
time_axis(FILE *out, const struct svg_scale *x, uint64_t wall0, uint64_t end_ns,
    double top, double bottom)
{
	struct svg_stroke grid = { SVG_GRID, 1.0, NULL }, axis = { SVG_INK, 1.0, NULL };
	uint64_t step = time_step(end_ns), t, day = UINT64_MAX;
	char label[32], title[96], start[40];

	/* The first round time at or after the start. */
	for (t = (wall0 + step - 1) / step * step; t <= wall0 + end_ns; t += step) {
		double px = svg_scale_at(x, (double)(t - wall0));

		svg_line(out, px, top, px, bottom, &grid);
		svg_line(out, px, bottom, px, bottom + 4, &axis);
		time_label(t, step, label, sizeof label);
		svg_text(out, px, bottom + 15, &tick_font, label);
		if (watch_clock_new_date(&day, t) && wall0 != 0) {
			watch_clock_date(t, label, sizeof label);
			svg_text(out, px, bottom + 27, &date_font, label);
		}
	}
	svg_line(out, x->px_lo, bottom, x->px_hi, bottom, &axis);
	if (wall0 != 0) {
		watch_clock_iso_secs(wall0, start, sizeof start);
		snprintf(title, sizeof title, "wall-clock time, UTC (the run started %s)", start);
	} else {
		snprintf(title, sizeof title, "time, UTC (the start unknown)");
	}
	svg_text(out, (x->px_lo + x->px_hi) / 2, bottom + 44, &axis_font, title);
	return 52.0;
}

/* Series k's line, broken where a point has no such figure, and its
 * markers when the points are few enough to tell apart. */
static void
draw_series(FILE *out, const struct watch_plot *p, enum figure k, const struct svg_scale *x,
    const struct svg_scale *y)
{
	double px[WATCH_PLOT_POINTS], py[WATCH_PLOT_POINTS];
	struct svg_style st;
	struct svg_stroke line;
	size_t i, n = 0;
	double v;

	svg_style_of((size_t)k, &st);
	line = (struct svg_stroke){ st.colour, 1.6, st.dash };
	for (i = 0; i <= p->n; i++) {
		v = i < p->n ? figure_of(&p->points[i], k) : 0.0;
		if (v > 0.0) {
			px[n] = svg_scale_at(x, (double)p->points[i].end_ns);
			py[n++] = svg_scale_at(y, v);
			if (p->n <= MARKERS_UPTO)
				svg_marker(out, st.shape, px[n - 1], py[n - 1], 3.0, st.colour,
				    st.colour);
			continue;
		}
		if (n > 1)
			svg_polyline(out, px, py, n, &line);
		n = 0;
	}
}

/* Each stall: a tick on the time axis at its start, and a marker at its
 * start and length (on top of the lines: a stall is the news). */
static void
draw_stalls(FILE *out, const struct watch_plot *p, const struct svg_scale *x,
    const struct svg_scale *y, double bottom)
{
	struct svg_style st;
	struct svg_stroke tick;
	size_t i;

	svg_style_of(STALL_STYLE, &st);
	tick = (struct svg_stroke){ st.colour, 2.0, NULL };
	for (i = 0; i < p->nstalls; i++) {
		double px = svg_scale_at(x, (double)p->stalls[i].start_ns);

		svg_line(out, px, bottom - STALL_TICK, px, bottom, &tick);
		svg_marker(out, SVG_DOWN_TRIANGLE, px,
		    svg_scale_at(y, row_usecs((double)p->stalls[i].ns)), 5.0, st.colour, SVG_INK);
	}
}

/* The back-to-back burst's p50: a dotted line across. */
static void
draw_reference(FILE *out, const struct watch_setup *s, const struct svg_scale *x,
    const struct svg_scale *y)
{
	struct svg_stroke dotted = { SVG_INK, 1.2, "1 3" };
	double py;

	if (s->burst.ops == 0)
		return;
	py = svg_scale_at(y, s->burst.p50_usecs);
	svg_line(out, x->px_lo, py, PLOT_RIGHT, py, &dotted);
}

/* What a point is: one interval, or the worst of several. */
static void
point_is(const struct watch_setup *s, const struct watch_plot *p, char *buf, size_t len)
{
	char ivl[32];

	units_format_duration(s->interval_ns, ivl, sizeof ivl);
	if (p->per_point > 1)
		snprintf(buf, len, "A point: %llu intervals of %s, each figure the highest of "
		    "theirs (an upper bound of p50 and p99), at the end of the last.",
		    (unsigned long long)p->per_point, ivl);
	else
		snprintf(buf, len, "A point: an interval of %s, at its end.", ivl);
}

/* The series, the reference, the stalls and what a point is. The y under
 * it. */
static double
draw_legend(FILE *out, const struct watch_setup *s, const struct watch_plot *p, double y)
{
	struct svg_style st;
	struct svg_stroke dotted = { SVG_INK, 1.2, "1 3" }, stall;
	char line[256], v[32], limit[32];
	uint64_t count = 0;
	size_t k;

	for (k = 0; k < FIG_COUNT; k++) {
		svg_style_of(k, &st);
		svg_legend_entry(out, LEGEND_X, y, &st, true, LEGEND_WIDTH, figure_names[k]);
		y += LEGEND_LINE;
	}
	if (s->burst.ops > 0) {
		units_format_latency(s->burst.p50_usecs, LATENCY_READING, v, sizeof v);
		svg_line(out, LEGEND_X, y - 4, LEGEND_X + 26, y - 4, &dotted);
		snprintf(line, sizeof line, "back to back: p50 %s", v);
		svg_text_fit(out, LEGEND_X + 32, y, &svg_text_font, LEGEND_WIDTH - 32, line);
		y += LEGEND_LINE;
	}
	svg_style_of(STALL_STYLE, &st);
	stall = (struct svg_stroke){ st.colour, 2.0, NULL };
	svg_line(out, LEGEND_X + 3, y - 8, LEGEND_X + 3, y, &stall);
	svg_marker(out, SVG_DOWN_TRIANGLE, LEGEND_X + 13, y - 4, 5.0, st.colour, SVG_INK);
	for (k = 0; k < p->nstalls; k++)
		count += p->stalls[k].count;
	units_format_latency(row_usecs((double)s->stall_ns), LATENCY_READING, limit,
	    sizeof limit);
	if (count == 0)
		snprintf(line, sizeof line, "stalls over %s: none", limit);
	else
		snprintf(line, sizeof line, "stalls over %s: %llu", limit, (unsigned long long)count);
	svg_text_fit(out, LEGEND_X + 32, y, &svg_text_font, LEGEND_WIDTH - 32, line);
	y += LEGEND_LINE + 4;
	y += KEY_LINE * (double)svg_text_wrap(out, LEGEND_X, y, &key_font, LEGEND_WIDTH, 0,
	    KEY_LINE, 6, "a stall: a triangle at its start and its length, a tick on the time axis");
	if (count > p->nstalls)
		y += KEY_LINE * (double)svg_text_wrap(out, LEGEND_X, y, &key_font, LEGEND_WIDTH,
		    0, KEY_LINE, 6, "(neighbours merged: the longest shown)");
	point_is(s, p, line, sizeof line);
	y += 4 + KEY_LINE * (double)svg_text_wrap(out, LEGEND_X, y + 4, &key_font,
	    LEGEND_WIDTH, 0, KEY_LINE, 6, line);
	return y;
}

/* The chart from y down, its legend at the right; the y under it. */
static double
draw_chart(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *p, double y)
{
	struct svg_scale x, yv;
	uint64_t end = run_end_ns(sum, p);
	double top = y + 20.0, bottom, h;

	latency_scale(s, p, &yv);
	/* From the start to the end exactly: the ticks are the wall clock's. */
	x = (struct svg_scale){ false, 0.0, (double)end, PLOT_LEFT + INSET, PLOT_RIGHT };
	h = fmax(PLOT_HEIGHT, draw_legend(NULL, s, p, top + 11) - top);
	bottom = top + h;
	yv.px_lo = bottom;
	yv.px_hi = top;
	svg_axis_y(out, &yv, PLOT_LEFT, PLOT_RIGHT, "latency, \xC2\xB5s");
	bottom += time_axis(out, &x, p->wall_zero_ns, end, top, top + h);
	svg_rect(out, PLOT_LEFT, top, PLOT_RIGHT - PLOT_LEFT, h, NULL,
	    &(struct svg_stroke){ SVG_INK, 1.0, NULL });
	draw_reference(out, s, &x, &yv);
	/* p99 under max, dotted, where they meet (a few operations a
	 * point); p50 on top. */
	draw_series(out, p, FIG_P99, &x, &yv);
	draw_series(out, p, FIG_MAX, &x, &yv);
	draw_series(out, p, FIG_P50, &x, &yv);
	draw_stalls(out, p, &x, &yv, top + h);
	if (p->n == 0)
		svg_text(out, (PLOT_LEFT + PLOT_RIGHT) / 2, top + h / 2, &(struct svg_font_style){
		    SVG_SANS, 12.0, false, true, SVG_MUTED, SVG_MIDDLE }, "no interval ended");
	draw_legend(out, s, p, top + 11);
	return bottom;
}

/* "one 8kB write + fdatasync, overwrite (-m); 50 a second, a line every
 * 10 s, stalls over 1 s". */
static void
load_line(const struct watch_setup *s, char *buf, size_t len)
{
	char op[96], rate[48], ivl[32], stall[32];

	watch_describe_op(s, op, sizeof op);
	if (s->rate)
		snprintf(rate, sizeof rate, "%llu a second", (unsigned long long)s->rate);
	else
		snprintf(rate, sizeof rate, "back to back");
	units_format_duration(s->interval_ns, ivl, sizeof ivl);
	units_format_duration(s->stall_ns, stall, sizeof stall);
	snprintf(buf, len, "commit: %s, %s (%s); %s, a line every %s, stalls over %s", op,
	    options_pattern_name(s->pattern), s->method_source == WATCH_METHOD_OPTION ? "-m" :
	    "PostgreSQL's default wal_sync_method here", rate, ivl, stall);
}

/* Where the target lives: its filesystem and the devices under it. */
static void
where_line(const struct watch_setup *s, char *buf, size_t len)
{
	char where[4 * STORAGE_CHAIN_LEN];

	if (s->storage != NULL)
		report_storage_summary(s->storage, where, sizeof where);
	else
		snprintf(where, sizeof where, "%s", s->filesystem != NULL ? s->filesystem :
		    "an unknown filesystem");
	snprintf(buf, len, "on %s", where);
}

/* The title, where, what load, and when. */
static double
draw_header(FILE *out, const struct watch_setup *s, const struct watch_summary *sum, double y)
{
	char line[LINE_LEN], from[40], to[40];

	snprintf(line, sizeof line, "syncprobe watch %s%s%s: latency against time",
	    PACKAGE_VERSION, s->host != NULL ? " on " : "", s->host != NULL ? s->host : "");
	svg_text_fit(out, SVG_MARGIN, y + 16, &svg_title_font, TEXT_WIDTH, line);
	y += 26;
	snprintf(line, sizeof line, "target: %s", s->path);
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_mono_font, TEXT_WIDTH,
	    16, LINE, MAX_LINES, line);
	where_line(s, line, sizeof line);
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 16, y + 11, &svg_text_font,
	    TEXT_WIDTH - 16, 16, LINE, MAX_LINES, line);
	load_line(s, line, sizeof line);
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_text_font, TEXT_WIDTH,
	    16, LINE, MAX_LINES, line);
	watch_clock_iso_secs(s->start_wall_ns, from, sizeof from);
	watch_clock_iso_secs(sum->end_wall_ns, to, sizeof to);
	snprintf(line, sizeof line, "from %s to %s%s%s%s", from, to,
	    sum->stopped_by ? ", stopped by " : "",
	    sum->stopped_by ? cleanup_signal_name(sum->stopped_by) : "",
	    sum->failed ? "; an error stopped it: the figures measured until then" : "");
	svg_text(out, SVG_MARGIN, y + 11, &svg_muted_font, line);
	return y + LINE;
}

/* The whole run's figures under the chart, as the summary gives them. */
static double
draw_summary(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    double y)
{
	char line[256], p50[32], p99[32], max[32], limit[32], longest[32], at[32];

	units_format_latency(sum->paced.p50_usecs, LATENCY_READING, p50, sizeof p50);
	units_format_latency(sum->paced.p99_usecs, LATENCY_READING, p99, sizeof p99);
	units_format_latency(sum->paced.max_usecs, LATENCY_READING, max, sizeof max);
	snprintf(line, sizeof line, "paced: %llu operations in %.1f s: p50 %s, p99 %s, max %s; "
	    "%llu missed starts", (unsigned long long)sum->paced.ops, sum->run_secs, p50, p99,
	    max, (unsigned long long)sum->paced.missed);
	svg_text_fit(out, SVG_MARGIN, y + 11, &svg_text_font, TEXT_WIDTH, line);
	y += LINE;
	units_format_latency(row_usecs((double)s->stall_ns), LATENCY_READING, limit,
	    sizeof limit);
	if (sum->paced.stalls == 0) {
		snprintf(line, sizeof line, "no stall over %s", limit);
	} else {
		units_format_latency(row_usecs((double)sum->longest.ns), LATENCY_READING, longest,
		    sizeof longest);
		watch_clock_iso(sum->longest.wall_ns, at, sizeof at);
		snprintf(line, sizeof line, "%llu stall%s over %s, the longest %s at %s",
		    (unsigned long long)sum->paced.stalls, sum->paced.stalls == 1 ? "" : "s",
		    limit, longest, at);
	}
	svg_text_fit(out, SVG_MARGIN, y + 11, &svg_text_font, TEXT_WIDTH, line);
	return y + LINE;
}

static double
draw(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *p)
{
	double y = draw_header(out, s, sum, SVG_MARGIN);

	y = draw_chart(out, s, sum, p, y + 4);
	return draw_summary(out, s, sum, y + 4) + SVG_MARGIN;
}

/* What the picture shows, for <desc>: where and what, and what a point,
 * a marker and each line are. */
static void
describe(const struct watch_setup *s, const struct watch_plot *p, char *buf, size_t len)
{
	char where[LINE_LEN], load[512], point[256];
	size_t used;

	where_line(s, where, sizeof where);
	load_line(s, load, sizeof load);
	point_is(s, p, point, sizeof point);
	snprintf(buf, len, "syncprobe watch %s%s%s: %s %s; %s. p50, p99 and max latency of "
	    "each point on a logarithmic axis in microseconds against wall-clock time in UTC. ",
	    PACKAGE_VERSION, s->host != NULL ? " on " : "", s->host != NULL ? s->host : "",
	    s->path, where, load);
	used = strlen(buf);
	snprintf(buf + used, len - used, "%s Each stall (an operation over the stall limit) "
	    "marked by a line at its start and a triangle at its length; past %d stalls, "
	    "neighbours merged into the longest. The back-to-back burst at the start: its p50 "
	    "as a dotted line across.", point, WATCH_PLOT_STALLS);
}

void
watch_svg(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *p)
{
	char title[LINE_LEN], *desc = malloc(DESC_LEN);

	snprintf(title, sizeof title, "syncprobe watch: latency against time in %s%s%s", s->path,
	    s->host != NULL ? " on " : "", s->host != NULL ? s->host : "");
	if (desc != NULL)
		describe(s, p, desc, DESC_LEN);
	svg_begin(out, SVG_WIDTH, draw(NULL, s, sum, p), title, desc != NULL ? desc : "");
	free(desc);
	draw(out, s, sum, p);
	svg_end(out);
}
