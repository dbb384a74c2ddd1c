/* compare_svg.c: syncprobe compare -F svg: the saved runs as one picture,
 * the rows of every run on one log axis (svg_dist: a series, a colour, per
 * run and target), each bar's mean and its ops/sec against the first
 * run's as text, then each run's advice. The strings of a saved report
 * were escaped as it was read (compare.h); svg_put_text shows them as
 * they are. */
#include "config.h"

#include "report/compare.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/svg.h"
#include "report/svg_dist.h"
#include "util/strbuf.h"

#define TEXT_WIDTH (SVG_WIDTH - 2 * SVG_MARGIN)
#define LINE       15.0
#define LINE_LEN   1024
#define MAX_LINES  4

/* The keys' groups: where each starts in the layout's keys. */
struct picture {
	const struct compare_layout *l;
	size_t *first;		/* ngroups + 1 starts, the last nkeys */
	size_t ngroups;
};

static size_t
dist_group(const void *ctx, size_t g, char *title, size_t len)
{
	const struct picture *p = ctx;

	compare_group_title(p->l, p->l->keys[p->first[g]].group, title, len);
	return p->first[g + 1] - p->first[g];
}

static void
dist_row(const void *ctx, size_t g, size_t row, struct svg_dist_row *out)
{
	const struct picture *p = ctx;

	out->name = p->l->keys[p->first[g] + row].name;
	out->joined = false;
}

static void
dist_bar(const void *ctx, size_t g, size_t row, size_t series, struct svg_dist_bar *out)
{
	const struct picture *p = ctx;
	const struct compare_key *k = &p->l->keys[p->first[g] + row];
	const struct compare_row *cr = compare_find_row(p->l->cols[series].target, k);
	const struct compare_row *ref = compare_find_row(p->l->cols[0].target, k);
	char mean[16];
	double ratio;
	bool flagged;

	if (cr == NULL)
		return;		/* SVG_DIST_NONE */
	out->hollow = cr->direct;
	if (!cr->have_figures) {
		out->kind = strcmp(cr->status, "error") == 0 ? SVG_DIST_ERROR : SVG_DIST_NA;
		out->reason = cr->reason != NULL ? cr->reason : cr->status;
		return;
	}
	out->kind = SVG_DIST_FIGURES;
	out->mean = cr->mean_usecs;
	if (cr->have_latency) {
		out->min = cr->min_usecs;
		out->p50 = cr->p50_usecs;
		out->p99 = cr->p99_usecs;
		out->max = cr->max_usecs;
	} else {	/* the mean alone: a box of no width */
		out->min = out->p50 = out->p99 = out->max = cr->mean_usecs;
	}
	units_format_latency(cr->mean_usecs, LATENCY_FIGURE, mean, sizeof mean);
	if (series > 0 && compare_ratio(ref, cr, &ratio, &flagged))
		snprintf(out->tag, sizeof out->tag, "%-8s %.2fx%s", mean, ratio, flagged ? "*" : "");
	else
		snprintf(out->tag, sizeof out->tag, "%s", mean);
}

static void
dist_series(const void *ctx, size_t series, char *buf, size_t len)
{
	const struct picture *p = ctx;

	compare_column_name(&p->l->cols[series], buf, len);
}

/* Each run: its name, where its report came from, and each target. */
static double
draw_runs(FILE *out, const struct compare_run *runs, size_t n, double y)
{
	char line[LINE_LEN];
	size_t r, t;

	for (r = 0; r < n; r++) {
		compare_run_title(&runs[r], r, runs[r].file, line, sizeof line);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_bold_font,
		    TEXT_WIDTH, 16, LINE, MAX_LINES, line);
		compare_run_facts(&runs[r], runs[r].file, line, sizeof line);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 16, y + 11, &svg_muted_font,
		    TEXT_WIDTH - 16, 16, LINE, MAX_LINES, line);
		for (t = 0; t < runs[r].ntargets; t++) {
			compare_target_line(&runs[r], r, t, line, sizeof line);
			y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 16, y + 11,
			    &svg_text_font, TEXT_WIDTH - 16, 16, LINE, MAX_LINES, line);
		}
	}
	return y + 4;
}

/* Each column's advice and its warnings' codes, as compare's text ends. */
static double
draw_advice(FILE *out, const struct compare_layout *l, double y)
{
	char line[LINE_LEN];
	struct strbuf b;
	size_t c, w;

	svg_text(out, SVG_MARGIN, y + 16, &svg_head_font, "Advice");
	y += 24;
	for (c = 0; c < l->ncols; c++) {
		const struct compare_target *ct = l->cols[c].target;

		compare_advice_line(&l->cols[c], line, sizeof line);
		strbuf_resume(&b, line, sizeof line);
		if (ct->error != NULL)
			strbuf_add(&b, "; stopped by an error");
		for (w = 0; w < ct->nwarnings; w++)
			strbuf_add(&b, "%s%s", w ? ", " : "; warnings: ", ct->warnings[w].code);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 8, y + 11, &svg_text_font,
		    TEXT_WIDTH - 8, 16, LINE, MAX_LINES, line);
	}
	return y;
}

static double
draw(FILE *out, const struct compare_run *runs, size_t n, const struct picture *p)
{
	struct svg_dist d = { p, p->ngroups, p->l->ncols, "mean \xC2\xB5s, ratio", dist_group,
	    dist_row, dist_bar, dist_series };
	char line[128];
	double y = SVG_MARGIN;

	snprintf(line, sizeof line, "syncprobe %s: %zu saved run%s side by side", PACKAGE_VERSION,
	    n, n == 1 ? "" : "s");
	svg_text(out, SVG_MARGIN, y + 16, &svg_title_font, line);
	y = draw_runs(out, runs, n, y + 26);
	if (p->l->ncols > 1)
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_muted_font, TEXT_WIDTH,
		    0, LINE, MAX_LINES, "ratio: ops/sec against the first column's, higher is "
		    "faster; * where the difference is larger than the spread between the two "
		    "runs' rounds") + 6;
	if (p->ngroups > 0)
		y = svg_dist_draw(out, y, &d);
	if (p->l->ncols > 0)
		y = draw_advice(out, p->l, y);
	return y + SVG_MARGIN;
}

/* Where each group of keys starts. */
static size_t
group_starts(const struct compare_layout *l, size_t *first)
{
	size_t k, n = 0;

	for (k = 0; k < l->nkeys; k++)
		if (k == 0 || strcmp(l->keys[k].group, l->keys[k - 1].group) != 0)
			first[n++] = k;
	first[n] = l->nkeys;
	return n;
}

void
compare_svg(FILE *out, const struct compare_run *runs, size_t n)
{
	struct compare_layout l;
	struct picture p = { &l, NULL, 0 };
	char title[64];

	if (compare_layout_build(runs, n, &l) == 0 &&
	    (p.first = calloc(l.nkeys + 1, sizeof *p.first)) != NULL) {
		p.ngroups = group_starts(&l, p.first);
		snprintf(title, sizeof title, "syncprobe compare: %zu saved run%s", n,
		    n == 1 ? "" : "s");
		svg_begin(out, SVG_WIDTH, draw(NULL, runs, n, &p), title, "Saved syncprobe runs "
		    "side by side: the latency of each test row's operations on one logarithmic "
		    "axis in microseconds, a colour and a marker for each run: a box from p50 to "
		    "p99, whiskers to the min and the max, a marker at the mean; beside each, its "
		    "mean and its operations per second against the first run's.");
		draw(out, runs, n, &p);
		svg_end(out);
	}
	free(p.first);
	compare_layout_free(&l);
}
