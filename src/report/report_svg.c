/* report_svg.c: -F svg, the probe's report as a picture: where and when it
 * ran (host, each target's filesystem, device and cache mode), each test
 * group's rows as latency distributions on one log axis in microseconds
 * (svg_dist: a series per target, the paced row beside its back-to-back
 * one, the advised method marked), the group-commit experiment's commits/s
 * against commit_delay per client count (svg_sweep), and what to set. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "group/group_result.h"
#include "probe/plan.h"
#include "report/settings_words.h"
#include "report/report.h"
#include "report/svg.h"
#include "report/svg_dist.h"
#include "report/svg_sweep.h"
#include "util/cleanup.h"
#include "util/strbuf.h"

#define TEXT_WIDTH (SVG_WIDTH - 2 * SVG_MARGIN)
#define LINE       15.0	/* px a line of 11 px text takes */
#define DESC_LEN   8192
#define LINE_LEN   (4 * STORAGE_CHAIN_LEN + 64)
#define MAX_LINES  6	/* of a wrapped caption line: a path can be long */

/* The rows as the picture lays them out: by group, every target's rows
 * being the same plan (a target stopped by an error has fewer), and in
 * each group a paced row right after the back-to-back row it pairs with. */
struct layout {
	const struct report *r;
	size_t nrows;			/* the longest target's */
	size_t ngroups;
	size_t first[GROUP_COUNT];	/* each group's first place in order[] */
	size_t count[GROUP_COUNT];
	size_t order[PLAN_MAX_ROWS];	/* row indexes, in the picture's order */
	bool joined[PLAN_MAX_ROWS];	/* by place: a paced row after its pair */
};


/* Whether paced row p is the back-to-back row b at a steady pace: the same
 * writes, with the same sync, to the same file. */
static bool
pairs_with(const struct row_spec *p, const struct row_spec *b)
{
	return p->pace_per_sec > 0 && b->pace_per_sec == 0 && p->group == b->group &&
	    p->io == b->io && p->direct == b->direct && p->kind == b->kind &&
	    p->writes_per_op == b->writes_per_op && p->write_bytes == b->write_bytes &&
	    p->segment_bytes == b->segment_bytes;
}

/* The back-to-back row of group rows [first, last) that paced row i pairs
 * with, or last. */
static size_t
pair_of(const struct report *r, size_t first, size_t last, size_t i)
{
	size_t j;

	for (j = first; j < last; j++)
		if (pairs_with(&report_row_at(r, i)->spec, &report_row_at(r, j)->spec))
			return j;
	return last;
}

static void
lay_out_group(struct layout *l, size_t first, size_t last)
{
	const struct report *r = l->r;
	size_t i, k, at = l->first[l->ngroups];

	for (i = first; i < last; i++) {
		if (report_row_at(r, i)->spec.pace_per_sec > 0 && pair_of(r, first, last, i) != last)
			continue;	/* placed after its pair */
		l->joined[at] = false;
		l->order[at++] = i;
		for (k = first; k < last; k++)
			if (pair_of(r, first, last, k) == i) {
				l->joined[at] = true;
				l->order[at++] = k;
			}
	}
	l->count[l->ngroups] = at - l->first[l->ngroups];
	l->ngroups++;
}

static void
lay_out(const struct report *r, struct layout *l)
{
	size_t t, first = 0, last, placed = 0;

	memset(l, 0, sizeof *l);
	l->r = r;
	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].run.nrows > l->nrows)
			l->nrows = r->targets[t].run.nrows;
	if (l->nrows > PLAN_MAX_ROWS)
		l->nrows = PLAN_MAX_ROWS;
	while (first < l->nrows && l->ngroups < GROUP_COUNT) {
		for (last = first; last < l->nrows &&
		    report_row_at(r, last)->spec.group == report_row_at(r, first)->spec.group; last++)
			;
		l->first[l->ngroups] = placed;
		lay_out_group(l, first, last);
		placed += l->count[l->ngroups - 1];
		first = last;
	}
}

static size_t
dist_group(const void *ctx, size_t g, char *title, size_t len)
{
	const struct layout *l = ctx;
	const struct row_result *row = report_row_at(l->r, l->order[l->first[g]]);

	plan_group_title(row->spec.group, l->r->options->block_bytes, title, len);
	return l->count[g];
}

static void
dist_row(const void *ctx, size_t g, size_t row, struct svg_dist_row *out)
{
	const struct layout *l = ctx;

	out->name = report_row_at(l->r, l->order[l->first[g] + row])->spec.name;
	out->joined = l->joined[l->first[g] + row];
}

/* Whether row is one the target's wal_sync_method advice names: that
 * method's one- and two-write rows, of the kind the advice rested on. */
static bool
is_advised(const struct target_result *tr, const struct row_result *row)
{
	const struct advice *a = &tr->advice;

	return a->wal_sync_method != NULL && (row == advice_find_row(tr->run.rows, tr->run.nrows,
	    GROUP_ONE, a->wal_sync_method, a->direct_basis) || row == advice_find_row(tr->run.rows,
	    tr->run.nrows, GROUP_TWO, a->wal_sync_method, a->direct_basis));
}

static void
dist_bar(const void *ctx, size_t g, size_t row, size_t series, struct svg_dist_bar *out)
{
	const struct layout *l = ctx;
	const struct target_result *tr = &l->r->targets[series];
	size_t index = l->order[l->first[g] + row];
	const struct row_result *res;
	char mean[SVG_DIST_TAG_LEN - sizeof " advised"];

	if (index >= tr->run.nrows)
		return;		/* SVG_DIST_NONE: the run stopped before it */
	res = &tr->run.rows[index];
	out->hollow = res->spec.direct;
	if (res->status != ROW_OK) {
		out->kind = res->status == ROW_ERROR ? SVG_DIST_ERROR : SVG_DIST_NA;
		out->reason = res->reason;
		return;
	}
	if (res->ops == 0)
		return;
	out->kind = SVG_DIST_FIGURES;
	out->min = row_usecs((double)res->total.min_ns);
	out->p50 = row_usecs(stats_percentile_ns(&res->total, 50.0));
	out->p99 = row_usecs(stats_percentile_ns(&res->total, 99.0));
	out->max = row_usecs((double)res->total.max_ns);
	out->mean = res->mean_usecs;
	out->tag_bold = is_advised(tr, res);
	units_format_latency(res->mean_usecs, LATENCY_FIGURE, mean, sizeof mean);
	snprintf(out->tag, sizeof out->tag, "%s%s", mean, out->tag_bold ? " advised" : "");
}

static void
dist_series(const void *ctx, size_t series, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "target %zu", series + 1);
}

/* The title, where and when, the run's settings, and each target. */
static double
draw_header(FILE *out, const struct report *r, double y)
{
	const struct options *o = r->options;
	char line[LINE_LEN], when[48], length[128], block[16], where[4 * STORAGE_CHAIN_LEN];
	size_t t;

	report_time(r->when, false, when, sizeof when);
	snprintf(line, sizeof line, "syncprobe %s on %s, %s", PACKAGE_VERSION, r->system.host,
	    when);
	svg_text_fit(out, SVG_MARGIN, y + 16, &svg_title_font, TEXT_WIDTH, line);
	y += 26;
	if (o->label != NULL) {
		snprintf(line, sizeof line, "label: %s", o->label);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_text_font, TEXT_WIDTH,
		    16, LINE, MAX_LINES, line);
	}
	report_test_length(o, length, sizeof length);
	units_format_size(o->block_bytes, block, sizeof block);
	snprintf(line, sizeof line, "%s, %u round%s%s%s%s", length, o->rounds,
	    o->rounds == 1 ? "" : "s", o->groups & PLAN_BLOCK_GROUPS ? ", " : "",
	    o->groups & PLAN_BLOCK_GROUPS ? block : "",
	    o->groups & PLAN_BLOCK_GROUPS ? " writes" : "");
	svg_text(out, SVG_MARGIN, y + 11, &svg_muted_font, line);
	y += LINE + 4;
	for (t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];

		if (report_several(r))
			snprintf(line, sizeof line, "target %zu: %s", t + 1, tr->run.path);
		else
			snprintf(line, sizeof line, "target: %s", tr->run.path);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 11, &svg_mono_font, TEXT_WIDTH,
		    16, LINE, MAX_LINES, line);
		report_storage_summary(&tr->run.storage, where, sizeof where);
		snprintf(line, sizeof line, "on %s", where);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 16, y + 11, &svg_text_font,
		    TEXT_WIDTH - 16, 16, LINE, MAX_LINES, line);
	}
	if (r->interrupted_by != 0) {
		snprintf(line, sizeof line, "Interrupted by %s: the figures measured until then.",
		    cleanup_signal_name(r->interrupted_by));
		svg_text(out, SVG_MARGIN, y + 11, &svg_text_font, line);
		y += LINE;
	}
	return y + 8;
}

/* The experiment of one target: a series per client count. */
struct group_sweep {
	const struct target_result *tr;
};

static void
sweep_series(const void *ctx, size_t s, struct svg_sweep_series *out)
{
	const struct group_result *g = ((const struct group_sweep *)ctx)->tr->group;

	const struct advice *a = &((const struct group_sweep *)ctx)->tr->advice;

	snprintf(out->name, sizeof out->name, "%u client%s", g->clients[s],
	    g->clients[s] == 1 ? "" : "s");
	out->npoints = group_delays_at(g, s);
	out->have_zero = out->npoints > 0;
	if (out->have_zero)
		out->zero_y = group_cell_at(g, s, 0)->commits_per_sec;
	out->have_answer = a->delay_measured &&
	    report_svg_answer(a, g->clients[s], &out->answer_x);
}

bool
report_svg_answer(const struct advice *a, unsigned clients, double *delay)
{
	size_t i;

	for (i = 0; i < a->ncounts; i++)
		if (a->counts[i].clients == clients) {
			*delay = (double)a->counts[i].commit_delay_usecs;
			return true;
		}
	return false;
}

static void
sweep_point(const void *ctx, size_t s, size_t i, struct svg_sweep_point *out)
{
	const struct group_result *g = ((const struct group_sweep *)ctx)->tr->group;
	const struct group_cell *c = group_cell_at(g, s, i);
	unsigned k;

	out->x = (double)c->delay_usecs;
	out->y = c->commits_per_sec;
	out->beyond = i > 0 && (c->vs_zero == GROUP_BETTER || c->vs_zero == GROUP_WORSE) &&
	    !group_cell_never_slept(c);
	for (k = 0; k < c->nslices; k++) {
		double rate;

		if (c->slices[k].ns == 0)
			continue;
		rate = row_per_sec(c->slices[k].commits, c->slices[k].ns);
		out->lo = out->have_range && out->lo < rate ? out->lo : rate;
		out->hi = out->have_range && out->hi > rate ? out->hi : rate;
		out->have_range = true;
	}
}

/* The half rule, and the advice where the experiment measured it. */
static void
sweep_mark(const void *ctx, size_t m, struct svg_sweep_mark *out)
{
	const struct target_result *tr = ((const struct group_sweep *)ctx)->tr;

	if (m == 0) {
		out->x = (double)tr->group->rule_usecs;
		snprintf(out->label, sizeof out->label, "half rule: d/2 = %ld \xC2\xB5s",
		    tr->group->rule_usecs);
	} else {
		out->x = (double)tr->advice.commit_delay_usecs;
		snprintf(out->label, sizeof out->label, "advised: commit_delay = %ld, "
		    "commit_siblings = %u", tr->advice.commit_delay_usecs, tr->advice.commit_siblings);
	}
}

static double
draw_group(FILE *out, const struct report *r, size_t t, double y)
{
	const struct target_result *tr = &r->targets[t];
	const struct group_result *g = tr->group;
	struct group_sweep ctx = { tr };
	struct svg_sweep sw = { &ctx, g->nclients, tr->advice.delay_measured ? 2 : 1,
	    "the rounds' range", sweep_series, sweep_point, sweep_mark };
	char line[LINE_LEN], title[96], rec[16];

	plan_group_title(GROUP_GROUP, g->page_bytes, title, sizeof title);
	if (report_several(r))
		snprintf(line, sizeof line, "%s: target %zu", title, t + 1);
	else
		snprintf(line, sizeof line, "%s", title);
	svg_text_fit(out, SVG_MARGIN, y + 16, &svg_head_font, TEXT_WIDTH, line);
	units_format_size(g->record_bytes, rec, sizeof rec);
	snprintf(line, sizeof line, "commits/s against commit_delay, a line per client count: "
	    "%s, %s; %s records, commit_siblings %u, %u round%s; d = %.1f \xC2\xB5s%s",
	    g->method->name, g->direct ? "direct I/O" : "buffered", rec, g->siblings, g->rounds,
	    g->rounds == 1 ? "" : "s", g->basis_usecs,
	    g->cut_short ? "; cut short by a signal" : "");
	y += 24 + LINE * (double)svg_text_wrap(out, SVG_MARGIN, y + 35, &svg_text_font, TEXT_WIDTH,
	    0, LINE, MAX_LINES, line);
	return svg_sweep_draw(out, y, &sw) + 8;
}

/* One setting's line and its reason, wrapped: set, or derived and not
 * set (the half rule, an uncompared default), as "What to set" says it.
 * (Shared with syncprobe pgbench's picture: report_svg_settings.) */
static double
draw_setting(FILE *out, const struct setting *s, bool set, double y)
{
	char line[SETTING_TEXT_LEN + 80];

	snprintf(line, sizeof line, "%s%s = %s%s%s", set ? "" : "not set: ", s->name,
	    s->is_name ? "'" : "", s->value, s->is_name ? "'" : "");
	svg_text(out, SVG_MARGIN + 8, y + 11, set ? &svg_mono_bold_font : &svg_mono_font, line);
	report_setting_comment(s, line, sizeof line);
	return LINE + LINE * (double)svg_text_wrap(out, SVG_MARGIN + 24, y + 11 + LINE,
	    &svg_muted_font, TEXT_WIDTH - 24, 0, LINE, MAX_LINES, line);
}

double
report_svg_settings(FILE *out, const struct settings *set, double y)
{
	char line[SETTING_TEXT_LEN + 80];
	struct words w;
	size_t i;

	if (set->nothing != NOTHING_NONE) {
		snprintf(line, sizeof line, "nothing: %s", settings_words_nothing(set, &w));
		return y + LINE * (double)svg_text_wrap(out, SVG_MARGIN + 8, y + 11,
		    &svg_text_font, TEXT_WIDTH - 8, 0, LINE, MAX_LINES, line);
	}
	for (i = 0; i < set->n; i++)
		if (settings_active(set, i))
			y += draw_setting(out, &set->list[i], true, y);
	for (i = 0; i < set->n; i++)
		if (!settings_source_active(set->list[i].source))
			y += draw_setting(out, &set->list[i], false, y);
	return y;
}

/* A heading, "for target N" after it where there are several. */
static double
draw_heading(FILE *out, const struct report *r, size_t t, const char *what, double y)
{
	char line[96];

	if (report_several(r))
		snprintf(line, sizeof line, "%s for target %zu", what, t + 1);
	else
		snprintf(line, sizeof line, "%s", what);
	svg_text(out, SVG_MARGIN, y + 16, &svg_head_font, line);
	return y + 24;
}

/* etcd's verdict, as the text report's advice says it. */
static double
draw_etcd(FILE *out, const struct report *r, size_t t, double y)
{
	char answer[ADVICE_TEXT_LEN], figures[ADVICE_TEXT_LEN], doubt[ADVICE_TEXT_LEN];

	if (!report_etcd_verdict(&r->targets[t].advice, answer, figures, doubt, sizeof answer))
		return y;
	y = draw_heading(out, r, t, "etcd's verdict", y);
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 8, y + 11, &svg_text_font,
	    TEXT_WIDTH - 8, 16, LINE, MAX_LINES, answer);
	y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 24, y + 11, &svg_muted_font,
	    TEXT_WIDTH - 24, 0, LINE, MAX_LINES, figures);
	return y + LINE * (double)svg_text_wrap(out, SVG_MARGIN + 8, y + 11, &svg_text_font,
	    TEXT_WIDTH - 8, 16, LINE, MAX_LINES, doubt);
}

/* The end of a target's part, as the text report's: What to set (where a
 * PostgreSQL group ran), etcd's verdict, and the warnings' codes (their
 * sentences are the text report's). */
static double
draw_advice(FILE *out, const struct report *r, size_t t, double y)
{
	const struct target_result *tr = &r->targets[t];
	char line[SETTING_TEXT_LEN + 80];
	struct strbuf b;
	size_t i;

	if (plan_has_postgres_groups(r->options->groups)) {
		y = draw_heading(out, r, t, "What to set", y);
		y = report_svg_settings(out, &tr->to_set, y);
	}
	y = draw_etcd(out, r, t, y);
	if (tr->advice.nwarnings > 0) {
		strbuf_init(&b, line, sizeof line);
		strbuf_add(&b, "warnings (the text report says each):");
		for (i = 0; i < tr->advice.nwarnings; i++)
			strbuf_add(&b, "%s %s", i ? "," : "", tr->advice.warnings[i].code);
		y += LINE * (double)svg_text_wrap(out, SVG_MARGIN + 8, y + 11, &svg_muted_font,
		    TEXT_WIDTH - 8, 16, LINE, MAX_LINES, line);
	}
	return y + 6;
}

/* The whole picture from the top: the y under it. */
static double
draw(FILE *out, const struct report *r)
{
	struct layout l;
	struct svg_dist d = { &l, 0, r->ntargets, "mean, \xC2\xB5s", dist_group, dist_row,
	    dist_bar, dist_series };
	double y = draw_header(out, r, SVG_MARGIN);
	size_t t;

	lay_out(r, &l);
	d.ngroups = l.ngroups;
	if (l.ngroups > 0)
		y = svg_dist_draw(out, y, &d);
	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].group != NULL && r->targets[t].group->nclients > 0)
			y = draw_group(out, r, t, y);
	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].run.measured)
			y = draw_advice(out, r, t, y);
	return y + SVG_MARGIN;
}

/* What the picture shows, for <desc>: its kinds of marks, where it ran and
 * what it advises. */
static void
describe(const struct report *r, char *buf, size_t len)
{
	char when[48], where[4 * STORAGE_CHAIN_LEN];
	struct strbuf b;
	size_t t;

	report_time(r->when, false, when, sizeof when);
	strbuf_init(&b, buf, len);
	strbuf_add(&b, "syncprobe %s on %s, %s. The latency of each test row's "
	    "operations on one logarithmic axis in microseconds: a box from p50 to p99, "
	    "whiskers to the min and the max, a marker at the mean; a filled box for buffered "
	    "I/O, a hollow one for direct I/O.", PACKAGE_VERSION, r->system.host, when);
	for (t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];

		report_storage_summary(&tr->run.storage, where, sizeof where);
		strbuf_add(&b, " Target %zu: %s on %s%s%s%s.", t + 1, tr->run.path,
		    where, tr->advice.wal_sync_method ? "; advised wal_sync_method " : "",
		    tr->advice.wal_sync_method ? tr->advice.wal_sync_method->name : "",
		    tr->group ? "; the group-commit experiment's commits/s against "
		    "commit_delay, a line per client count" : "");
	}
}

void
report_svg(FILE *out, const struct report *r)
{
	char title[LINE_LEN], when[48], *desc = malloc(DESC_LEN);

	report_time(r->when, false, when, sizeof when);
	snprintf(title, sizeof title, "syncprobe: latency per operation on %s, %s%s%s",
	    r->system.host, when, r->options->label ? ": " : "",
	    r->options->label ? r->options->label : "");
	if (desc != NULL)
		describe(r, desc, DESC_LEN);
	svg_begin(out, SVG_WIDTH, draw(NULL, r), title, desc != NULL ? desc : "");
	free(desc);
	draw(out, r);
	svg_end(out);
}
