/* group_result.c: the group-commit experiment's figures, derived once from
 * what its cells counted, so that every report and the advice read the
 * same numbers. The noise of a comparison is the rounds' own: round k of
 * every cell of a client count ran within a second of the others. */
#include "config.h"

#include "group/group_result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/precision.h"
#include "probe/row.h"
#include "util/delay_grid.h"

static const char *const verdict_names[] = {
	[GROUP_SAME] = "same", [GROUP_BETTER] = "better", [GROUP_WORSE] = "worse",
	[GROUP_UNCLEAR] = "unclear"
};

const char *
group_verdict_name(enum group_verdict v)
{
	return verdict_names[v];
}

struct group_result *
group_result_new(const unsigned *clients, size_t nclients, const long *delays,
    size_t ndelays, unsigned rounds, unsigned extra)
{
	struct group_result *g;
	size_t i;

	if (nclients > UNITS_MAX_LIST || ndelays > GROUP_MAX_DELAYS)
		return NULL;
	if ((g = calloc(1, sizeof *g)) == NULL)
		return NULL;
	memcpy(g->clients, clients, nclients * sizeof *clients);
	memcpy(g->delays, delays, ndelays * sizeof *delays);
	g->nclients = nclients;
	g->ndelays = ndelays;
	g->delays_last = ndelays;
	g->rounds = rounds;
	g->cells = calloc(nclients * ndelays, sizeof *g->cells);
	if (g->cells == NULL) {
		free(g);
		return NULL;
	}
	g->ncells = nclients * ndelays;
	for (i = 0; i < g->ncells; i++) {
		struct group_cell *c = &g->cells[i];

		c->clients = clients[i / ndelays];
		c->delay_usecs = delays[i % ndelays];
		stats_init(&c->latency);
		c->slices = calloc((size_t)rounds + extra, sizeof *c->slices);
		c->nslices = rounds;
		c->room = rounds + extra;
		if (c->slices == NULL) {
			group_result_free(g);
			return NULL;
		}
	}
	return g;
}

void
group_result_free(struct group_result *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; g->cells != NULL && i < g->ncells; i++)
		free(g->cells[i].slices);
	free(g->cells);
	free(g);
}

struct group_cell *
group_cell_at(const struct group_result *g, size_t ci, size_t di)
{
	return &g->cells[ci * g->ndelays + di];
}

size_t
group_delays_at(const struct group_result *g, size_t ci)
{
	return ci + 1 == g->nclients ? g->delays_last : g->ndelays;
}

bool
group_result_cut(struct group_result *g, unsigned r, size_t at)
{
	size_t i;

	g->cut_short = true;
	for (i = 0; i < g->ncells; i++)
		g->cells[i].nslices = r + (i < at ? 1u : 0u);
	if (r > 0)
		return true;
	/* Round 0 measured the cells before `at`, in order. */
	g->nclients = (at + g->ndelays - 1) / g->ndelays;
	g->delays_last = at - (g->nclients ? g->nclients - 1 : 0) * g->ndelays;
	return at > 0;
}

size_t
group_rule_index(const struct group_result *g)
{
	long grid = delay_grid_nearest((double)g->rule_usecs);
	size_t i;

	for (i = 0; i < g->ndelays; i++)
		if (g->delays[i] == g->rule_usecs)
			return i;
	for (i = 0; !g->delays_given && i < g->ndelays; i++)
		if (g->delays[i] == grid && grid > 0)
			return i;
	return g->ndelays;
}

static double
slice_rate(const struct group_slice *s)
{
	return row_per_sec(s->commits, s->ns);
}

/* The figure is the ratio of a's commits/s to b's over the rounds they
 * both ran from round `from` on, each cell's commits and time summed: a
 * mean of per-round ratios is biased upward (Jensen) and is thrown by one
 * round in which b had few commits. The noise is the spread of the
 * rounds' log ratios, which is symmetric in a and b and unbiased for a
 * ratio: h, the half-width of their mean (t, Student's quantile for 95%
 * or 99% with n-1 degrees of freedom, times their standard error), is
 * reported as the percent e^h - 1. The verdict keeps its meaning, a
 * figure beyond +-noise: better when the sum ratio exceeds e^h (outside
 * the log interval), worse when it trails 1 by more than e^h - 1 (which
 * is outside it too, as 2 - e^h < e^-h). A round where either cell had no
 * commits counts in the sums but has no log ratio. */
static enum group_verdict
compare_rounds(const struct group_cell *a, const struct group_cell *b, unsigned from,
    double (*t)(unsigned), double *pct, double *noise)
{
	double sum = 0.0, sumsq = 0.0, mean, var;
	double a_lo = HUGE_VAL, a_hi = -HUGE_VAL, b_lo = HUGE_VAL, b_hi = -HUGE_VAL;
	uint64_t ca = 0, cb = 0, na = 0, nb = 0;
	unsigned k, n = 0;

	for (k = from; k < a->nslices && k < b->nslices; k++) {
		const struct group_slice *sa = &a->slices[k], *sb = &b->slices[k];
		double l;

		if (sa->ns == 0 || sb->ns == 0)
			continue;
		ca += sa->commits;
		na += sa->ns;
		cb += sb->commits;
		nb += sb->ns;
		if (sa->commits == 0 || sb->commits == 0)
			continue;
		l = log(slice_rate(sa) / slice_rate(sb));
		a_lo = fmin(a_lo, slice_rate(sa));
		a_hi = fmax(a_hi, slice_rate(sa));
		b_lo = fmin(b_lo, slice_rate(sb));
		b_hi = fmax(b_hi, slice_rate(sb));
		sum += l;
		sumsq += l * l;
		n++;
	}
	*pct = 0.0;
	*noise = 0.0;
	if (cb == 0)
		return GROUP_SAME;
	*pct = (row_per_sec(ca, na) / row_per_sec(cb, nb) - 1.0) * 100.0;
	if (n < 2)
		return GROUP_SAME;
	mean = sum / n;
	var = (sumsq - sum * mean) / (n - 1);
	*noise = expm1(t(n - 1) * sqrt(var > 0.0 ? var : 0.0) / sqrt((double)n)) * 100.0;
	if (*pct > *noise)
		return GROUP_BETTER;
	if (-*pct > *noise)
		return GROUP_WORSE;
	if (a_lo > b_hi || a_hi < b_lo)
		return GROUP_UNCLEAR;
	return GROUP_SAME;
}

enum group_verdict
group_compare(const struct group_cell *a, const struct group_cell *b,
    double *pct, double *noise)
{
	return compare_rounds(a, b, 0, precision_t95, pct, noise);
}

enum group_verdict
group_compare_decided(const struct group_cell *a, const struct group_cell *b,
    unsigned from, double *pct, double *noise)
{
	return compare_rounds(a, b, from, precision_t99, pct, noise);
}

/* A figure against 0 whose lower bound costs less than the margin. */
static bool
held(double pct, double noise)
{
	return pct - noise > -GROUP_HOLD_MARGIN_PCT;
}

bool
group_cell_held(const struct group_cell *c)
{
	return group_cell_never_slept(c) || held(c->vs_zero_pct, c->noise_pct);
}

bool
group_deciding_goes_on(const struct group_cell *delay, const struct group_cell *zero,
    unsigned from, unsigned roles)
{
	double pct, noise;

	if (group_compare_decided(delay, zero, from, &pct, &noise) == GROUP_WORSE)
		return false;
	return ((roles & GROUP_DECIDE_GAIN) && pct > 0.0) ||
	    ((roles & GROUP_DECIDE_GUARD) && !held(pct, noise));
}

unsigned
group_decide_roles(const struct group_result *g, size_t ci, size_t di)
{
	unsigned roles = 0;
	size_t cj;

	if (di == 0 || group_cell_never_slept(group_cell_at(g, ci, di)))
		return 0;
	if (!group_cell_lost(group_cell_at(g, ci, di)))
		roles |= GROUP_DECIDE_GAIN;
	for (cj = 0; cj < ci; cj++) {
		const struct group_cell *c = group_cell_at(g, cj, di);

		if (!group_cell_never_slept(c) && c->vs_zero_pct > 0.0)
			roles |= GROUP_DECIDE_GUARD;
	}
	return roles;
}

bool
group_cell_lost(const struct group_cell *c)
{
	return c->vs_zero == GROUP_WORSE || (c->vs_zero == GROUP_UNCLEAR && c->vs_zero_pct < 0);
}

/* The rounds' rates: relative standard deviation, in percent. */
static double
spread_pct(const struct group_cell *c)
{
	double sum = 0.0, sumsq = 0.0, mean, var;
	unsigned k, n = 0;

	for (k = 0; k < c->nslices; k++) {
		double r;

		if (c->slices[k].ns == 0)
			continue;
		r = slice_rate(&c->slices[k]);
		sum += r;
		sumsq += r * r;
		n++;
	}
	if (n < 2 || !(sum > 0.0))
		return 0.0;
	mean = sum / n;
	var = (sumsq - sum * mean) / (n - 1);
	return sqrt(var > 0.0 ? var : 0.0) / mean * 100.0;
}

static void
finish_cell(struct group_cell *c)
{
	c->commits_per_sec = row_per_sec(c->commits, c->elapsed_ns);
	c->commits_per_flush = c->flushes ? (double)c->commits / (double)c->flushes : 0.0;
	c->flush_usecs = c->flushes ? row_usecs(round((double)c->flush_ns / (double)c->flushes)) : 0.0;
	c->cpu_usecs = c->cpu_commits ?
	    row_usecs(round((double)c->cpu_ns / (double)c->cpu_commits)) : 0.0;
	c->p50_usecs = row_usecs(stats_percentile_ns(&c->latency, 50.0));
	c->p99_usecs = row_usecs(stats_percentile_ns(&c->latency, 99.0));
	c->spread_pct = spread_pct(c);
}

bool
group_cell_never_slept(const struct group_cell *c)
{
	return c->delay_usecs > 0 && c->delayed == 0;
}

/* Best and pick of client count ci, and every cell's verdict against 0.
 * A delay that never slept is delay 0 in effect: it is neither best nor
 * pick, and is within noise of the best as delay 0 is. */
static void
finish_client_count(struct group_result *g, size_t ci)
{
	const struct group_cell *zero = group_cell_at(g, ci, 0), *best;
	double pct, noise;
	size_t di, n = group_delays_at(g, ci);

	g->best[ci] = 0;
	for (di = 0; di < n; di++) {
		struct group_cell *c = group_cell_at(g, ci, di);

		if (c->decided > 0 && !g->on_server)
			c->vs_zero = group_compare_decided(c, zero, g->rounds, &c->vs_zero_pct,
			    &c->noise_pct);
		else
			c->vs_zero = group_compare(c, zero, &c->vs_zero_pct, &c->noise_pct);
		if (group_cell_never_slept(c))
			c->vs_zero = GROUP_SAME;	/* a difference is noise */
		else if (c->commits_per_sec > group_cell_at(g, ci, g->best[ci])->commits_per_sec)
			g->best[ci] = di;
	}
	best = group_cell_at(g, ci, g->best[ci]);
	g->pick[ci] = g->best[ci];
	for (di = n; di-- > 0;) {
		struct group_cell *c = group_cell_at(g, ci, di);

		c->near_best = c == best || group_compare(c, best, &pct, &noise) != GROUP_WORSE;
		if (c->near_best && !group_cell_never_slept(c))
			g->pick[ci] = di;
	}
	for (di = 1; di < n; di++) {
		struct group_cell *c = group_cell_at(g, ci, di);

		if (group_cell_never_slept(c))
			c->near_best = zero->near_best;
	}
}

void
group_result_finish(struct group_result *g)
{
	size_t i, n = g->nclients ? (g->nclients - 1) * g->ndelays + g->delays_last : 0;

	/* The cells measured: all but those a cut dropped. */
	for (i = 0; i < n; i++)
		finish_cell(&g->cells[i]);
	for (i = 0; i < g->nclients; i++)
		finish_client_count(g, i);
}
