/* report_pgbench_svg.c: syncprobe pgbench -F svg (see report_pgbench_svg.h).
 * It reads only what the sweep keeps for every report (the settings, the
 * cells and their repeats, the advised setting): what it draws from them
 * is chosen in the few functions below the layout, so that a change in
 * what the sweep advises changes those alone. */
#include "config.h"

#include "report/report_pgbench_svg.h"

#include <limits.h>
#include <string.h>

#include "report/advice_words.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/svg_sweep.h"
#include "util/strbuf.h"

#define TEXT_WIDTH  (SVG_WIDTH - 2 * SVG_MARGIN)
#define LINE        15.0
#define LINE_LEN    (ADVICE_TEXT_LEN + 128)
#define MAX_LINES   6
#define MAX_SERIES  (UNITS_MAX_LIST * (UNITS_MAX_LIST + 2))	/* swept, rule, -t group */
#define MAX_MARKS   3
#define ZERO_ONLY   UINT_MAX	/* a series' siblings: no delay ran at its clients */

/* A line of the chart: a client count and one commit_siblings of the
 * delays swept with it. */
struct series {
	size_t ci;
	unsigned siblings;
	size_t variant;		/* its rank among its client count's lines */
};

struct picture {
	const struct pgb_result *r;
	size_t zero;			/* delay 0's setting */
	struct series series[MAX_SERIES];
	size_t nseries;
	bool several_siblings;
	struct svg_sweep_mark marks[MAX_MARKS];
	size_t nmarks;
};

/* Whether setting si is a point of series se: a delay with its siblings
 * that ran at its client count and has repeats. */
static bool
in_series(const struct picture *p, const struct series *se, size_t si)
{
	const struct pgb_cell *c = pgb_cell_at(p->r, se->ci, si);

	return p->r->settings[si].delay_usecs > 0 && p->r->settings[si].siblings == se->siblings &&
	    c->runs && c->cell.nslices > 0;
}

/* Series (ci, siblings) in its place: by client count, then siblings. */
static void
add_series(struct picture *p, size_t ci, unsigned siblings)
{
	struct series se = { ci, siblings, 0 };
	size_t i, at, si;

	for (i = 0; i < p->nseries; i++)
		if (p->series[i].ci == ci && p->series[i].siblings == siblings)
			return;
	/* A commit_siblings at or above the client count is delay 0 there. */
	for (si = 0; si < p->r->nsettings && !in_series(p, &se, si); si++)
		;
	if (si == p->r->nsettings || p->nseries == MAX_SERIES)
		return;
	for (at = p->nseries; at > 0 && p->series[at - 1].ci == ci &&
	    p->series[at - 1].siblings > siblings; at--)
		;
	memmove(&p->series[at + 1], &p->series[at], (p->nseries - at) * sizeof p->series[0]);
	p->series[at] = se;
	p->nseries++;
	for (i = at; i < p->nseries && p->series[i].ci == ci; i++)
		p->series[i].variant = i > 0 && p->series[i - 1].ci == ci ?
		    p->series[i - 1].variant + 1 : 0;
}

/* The marked delays: the half rule, -t group's advice, the sweep's. */
static void
add_mark(struct picture *p, const char *what, long delay, unsigned siblings)
{
	struct svg_sweep_mark *m = &p->marks[p->nmarks++];

	m->x = (double)delay;
	snprintf(m->label, sizeof m->label, "%s: %ld \xC2\xB5s, commit_siblings %u", what, delay,
	    siblings);
}

static void
choose(const struct pgb_result *r, struct picture *p)
{
	size_t ci, si;
	unsigned first = ZERO_ONLY;

	memset(p, 0, sizeof *p);
	p->r = r;
	p->zero = pgb_find_setting(r, 0, 0);
	for (ci = 0; ci < r->nclients; ci++) {
		size_t before = p->nseries;

		for (si = 0; si < r->nsettings; si++)
			if (r->settings[si].delay_usecs > 0)
				add_series(p, ci, r->settings[si].siblings);
		/* No delay ran here: delay 0's rate alone. */
		if (p->nseries == before && p->nseries < MAX_SERIES)
			p->series[p->nseries++] = (struct series){ ci, ZERO_ONLY, 0 };
	}
	for (si = 0; si < p->nseries; si++) {
		if (p->series[si].siblings == ZERO_ONLY)
			continue;
		if (first == ZERO_ONLY)
			first = p->series[si].siblings;
		else if (p->series[si].siblings != first)
			p->several_siblings = true;
	}
	add_mark(p, "half rule, d/2", advice_commit_delay(r->d_usecs), DEFAULT_COMMIT_SIBLINGS);
	if (r->group_ran)
		add_mark(p, "-t group's advice", r->group_delay_usecs, r->group_siblings);
	if (r->have_advice)
		add_mark(p, "the sweep's advice", r->advice.commit_delay_usecs,
		    r->advice.commit_siblings);
}

/* The setting of point i of series s: delay 0, then its delays. */
static size_t
point_setting(const struct picture *p, size_t s, size_t i)
{
	size_t si, n = 0;

	if (i == 0)
		return p->zero;
	for (si = 0; si < p->r->nsettings; si++)
		if (in_series(p, &p->series[s], si) && ++n == i)
			return si;
	return p->zero;
}

static void
chart_series(const void *ctx, size_t s, struct svg_sweep_series *out)
{
	const struct picture *p = ctx;
	const struct series *se = &p->series[s];
	const struct pgb_cell *z = pgb_cell_at(p->r, se->ci, p->zero);
	unsigned clients = p->r->clients[se->ci];
	struct strbuf b;
	size_t si;

	out->colour = se->ci;
	out->variant = se->variant;
	strbuf_init(&b, out->name, sizeof out->name);
	strbuf_add(&b, "%u client%s", clients, clients == 1 ? "" : "s");
	if (se->siblings == ZERO_ONLY)
		strbuf_add(&b, ", delay 0 only");
	else if (p->several_siblings)
		strbuf_add(&b, ", siblings %u", se->siblings);
	out->have_zero = z->cell.nslices > 0;
	out->zero_y = z->median_tps;
	/* The answer at its client count, on the line of the advised
	 * siblings (0's point: on the count's first line). */
	out->have_answer = p->r->have_advice &&
	    report_svg_answer(&p->r->advice, clients, &out->answer_x) &&
	    (out->answer_x == 0 ? se->variant == 0 :
	    se->siblings == p->r->advice.commit_siblings);
	out->npoints = out->have_zero ? 1 : 0;
	for (si = 0; si < p->r->nsettings && out->have_zero; si++)
		if (in_series(p, se, si))
			out->npoints++;
}

static void
chart_point(const void *ctx, size_t s, size_t i, struct svg_sweep_point *out)
{
	const struct picture *p = ctx;
	size_t si = point_setting(p, s, i);
	const struct pgb_cell *c = pgb_cell_at(p->r, p->series[s].ci, si);

	out->x = (double)p->r->settings[si].delay_usecs;
	out->y = c->median_tps;
	out->have_range = true;
	out->lo = c->min_tps;
	out->hi = c->max_tps;
	out->beyond = si != p->zero && (c->cell.vs_zero == GROUP_BETTER ||
	    c->cell.vs_zero == GROUP_WORSE);
}

static void
chart_mark(const void *ctx, size_t m, struct svg_sweep_mark *out)
{
	*out = ((const struct picture *)ctx)->marks[m];
}

static const char *
workload_text(enum pgb_workload w)
{
	return w == PGB_TPCB ? "pgbench's tpcb-like" : w == PGB_SCRIPT ? "the script given" :
	    "a one-row INSERT";
}

static double
draw_header(FILE *out, const struct pgb_result *r, double y)
{
	char line[LINE_LEN];

	snprintf(line, sizeof line, "syncprobe pgbench: %s", r->dir);
	svg_text_fit(out, SVG_MARGIN, y + 16, &svg_title_font, TEXT_WIDTH, line);
	y += 26;
	snprintf(line, sizeof line, "PostgreSQL %s (%s), run as %s; wal_sync_method = %s (%s); "
	    "flush d = %.1f \xC2\xB5s (one 8kB write and its sync); workload: %s, %u repeats of "
	    "%u s per setting, shuffled%s", r->server_version, r->bin_dir, r->user,
	    r->wal_sync_method, r->method_given ? "as given" : "the probe's advice", r->d_usecs,
	    workload_text(r->workload), r->repeats, r->secs,
	    r->cut_short ? "; stopped by a signal: the figures are what was measured" : "");
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_text_font, TEXT_WIDTH, 0,
	    LINE, MAX_LINES, line);
	svg_text(out, SVG_MARGIN, y + 30, &svg_head_font, "commits/s against commit_delay, a line "
	    "per client count: the median of the runs");
	return y + 34;
}

/* The sweep's advice and why, then What to set, as the text report ends. */
static double
draw_advice(FILE *out, const struct pgb_result *r, double y)
{
	char line[LINE_LEN];
	struct words w;

	svg_text(out, SVG_MARGIN, y + 16, &svg_head_font, "Advice");
	y += 24;
	if (!r->have_advice) {
		svg_text(out, SVG_MARGIN + 8, y + 11, &svg_text_font, "nothing: no whole repeat was "
		    "measured");
		y += LINE;
	} else {
		snprintf(line, sizeof line, "commit_delay = %ld, commit_siblings = %u",
		    r->advice.commit_delay_usecs, r->advice.commit_siblings);
		svg_text(out, SVG_MARGIN + 8, y + 11, &svg_mono_bold_font, line);
		y += LINE;
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 24, y + 11, &svg_muted_font,
		    TEXT_WIDTH - 24, 0, LINE, MAX_LINES, advice_words_delay(&r->advice, &w));
	}
	svg_text(out, SVG_MARGIN, y + 22, &svg_head_font, "What to set");
	return report_svg_settings(out, &r->to_set, y + 30);
}

static double
draw(FILE *out, const struct picture *p)
{
	struct svg_sweep sw = { p, p->nseries, p->nmarks, "the runs' range", chart_series,
	    chart_point, chart_mark };
	double y = draw_header(out, p->r, SVG_MARGIN);

	y = svg_sweep_draw(out, y, &sw) + 8;
	return draw_advice(out, p->r, y) + SVG_MARGIN;
}

void
report_pgbench_svg(FILE *out, const struct pgb_result *r)
{
	struct picture pic, *p = &pic;
	char title[LINE_LEN], desc[LINE_LEN];

	choose(r, p);
	snprintf(title, sizeof title, "syncprobe pgbench: commits/s against commit_delay in %s",
	    r->dir);
	snprintf(desc, sizeof desc, "PostgreSQL %s, %s, wal_sync_method %s: commits/s against "
	    "commit_delay in microseconds, a line per client count, each point the median of "
	    "its runs with their range as a bar, filled where it differs from delay 0 beyond "
	    "the noise; delay 0's rate dotted across; the half rule (%ld us)%s marked.",
	    r->server_version, workload_text(r->workload), r->wal_sync_method,
	    advice_commit_delay(r->d_usecs), r->have_advice ? " and the sweep's advice" : "");
	svg_begin(out, SVG_WIDTH, draw(NULL, p), title, desc);
	draw(out, p);
	svg_end(out);
}
