/* sweep.c: the plan, the shuffled repeats, and the advice. A setting whose
 * commit_siblings is at least the client count is never run: the server
 * sleeps only when at least commit_siblings other backends are active
 * (MinimumActiveBackends in xlog.c, PostgreSQL 15), and with C clients at
 * most C-1 others are: it is delay 0, a fact of the server. */
#include "config.h"

#include "pgbench/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/pgbench_run.h"
#include "probe/method.h"
#include "advice/settings.h"
#include "util/cleanup.h"
#include "util/delay_grid.h"
#include "util/platform.h"
#include "util/progress.h"
#include "util/random.h"

static void
add_setting(struct pgb_result *r, long delay, unsigned siblings, enum pgb_role role)
{
	size_t i = pgb_find_setting(r, delay, siblings);

	if (delay == 0)
		siblings = 0;
	if (i == r->nsettings) {
		if (r->nsettings == PGB_MAX_SETTINGS)
			return;
		r->settings[r->nsettings++] = (struct pgb_setting){ delay, siblings, 0 };
	}
	r->settings[i].roles |= 1u << role;
}

static int
by_delay(const void *a, const void *b)
{
	const struct pgb_setting *x = a, *y = b;

	if (x->delay_usecs != y->delay_usecs)
		return x->delay_usecs < y->delay_usecs ? -1 : 1;
	return x->siblings < y->siblings ? -1 : x->siblings > y->siblings;
}

/* The grid's round values nearest d/8, d/4, d/2 and d (util/delay_grid.h),
 * as -t group sweeps them, so that the advice, one of them, holds still
 * while d moves within a step; 2d, which lost on every disk measured,
 * would have made the default sweep longer than ten minutes. */
static size_t
delays_from_d(double d, long *out)
{
	static const double factors[] = { 0.125, 0.25, 0.5, 1.0 };

	return delay_grid_sweep(d, factors, sizeof factors / sizeof factors[0], out);
}

/* Whether the advice may choose setting s: 0, a delay swept, or -t group's
 * advice. The half rule's own value is measured beside them, but it
 * moves with d: an advice that could be it would change from run to run. */
static bool
advisable(const struct pgb_setting *s)
{
	return s->delay_usecs == 0 ||
	    (s->roles & ((1u << PGB_ROLE_SWEPT) | (1u << PGB_ROLE_GROUP))) != 0;
}

int
sweep_plan(const long *given, size_t ngiven, const unsigned *siblings, size_t nsiblings,
    struct pgb_result *r)
{
	long delays[UNITS_MAX_LIST];
	unsigned sibs[UNITS_MAX_LIST];
	size_t nd, ns, i, k, ci, si;
	bool defaults = ngiven == 0 && nsiblings == 0;

	if (ngiven > 0) {
		for (nd = 0, i = 0; i < ngiven; i++)
			if (given[i] != 0)
				delays[nd++] = given[i];
	} else
		nd = delays_from_d(r->d_usecs, delays);
	if (nsiblings > 0) {
		memcpy(sibs, siblings, nsiblings * sizeof sibs[0]);
		ns = nsiblings;
	} else {
		sibs[0] = r->group_ran && r->group_delay_usecs > 0 ? r->group_siblings :
		    DEFAULT_COMMIT_SIBLINGS;
		ns = 1;
	}
	r->nsettings = 0;
	add_setting(r, 0, 0, PGB_ROLE_ZERO);
	if (defaults)
		add_setting(r, advice_commit_delay(r->d_usecs), DEFAULT_COMMIT_SIBLINGS,
		    PGB_ROLE_RULE);
	for (i = 0; i < nd; i++)
		for (k = 0; k < ns; k++)
			add_setting(r, delays[i], sibs[k], PGB_ROLE_SWEPT);
	if (r->group_ran && defaults)
		add_setting(r, r->group_delay_usecs, r->group_siblings, PGB_ROLE_GROUP);
	qsort(r->settings, r->nsettings, sizeof r->settings[0], by_delay);
	/* The roles of the rule and of -t group, wherever they landed. */
	for (si = 0; si < r->nsettings; si++) {
		struct pgb_setting *s = &r->settings[si];

		if (s->delay_usecs == advice_commit_delay(r->d_usecs) &&
		    s->siblings == DEFAULT_COMMIT_SIBLINGS)
			s->roles |= 1u << PGB_ROLE_RULE;
		if (r->group_ran && s->delay_usecs == r->group_delay_usecs &&
		    (s->delay_usecs == 0 || s->siblings == r->group_siblings))
			s->roles |= 1u << PGB_ROLE_GROUP;
	}
	r->cells = calloc(r->nclients * r->nsettings, sizeof *r->cells);
	if (r->cells == NULL)
		return -1;
	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++) {
			struct pgb_cell *p = pgb_cell_at(r, ci, si);

			p->cell.clients = r->clients[ci];
			p->cell.delay_usecs = r->settings[si].delay_usecs;
			p->runs = r->settings[si].delay_usecs == 0 ||
			    r->settings[si].siblings < r->clients[ci];
			p->cell.slices = calloc(r->repeats + r->decide, sizeof *p->cell.slices);
			if (p->cell.slices == NULL)
				return -1;
		}
	for (ci = 0; ci < r->nclients; ci++)
		r->decided[ci] = (struct pgb_decided){ r->nsettings, 0 };
	return 0;
}

/* The commit_siblings the advice chooses at (the choice rule takes one):
 * -t group's advised one when it advised a delay, else the half rule's 5;
 * the first swept when that one is not in the sweep. */
static unsigned
advice_siblings(const struct pgb_result *r)
{
	unsigned sib = r->group_ran && r->group_delay_usecs > 0 ? r->group_siblings :
	    DEFAULT_COMMIT_SIBLINGS;
	size_t si;

	for (si = 0; si < r->nsettings; si++)
		if (r->settings[si].delay_usecs > 0 && r->settings[si].siblings == sib &&
		    advisable(&r->settings[si]))
			return sib;
	for (si = 0; si < r->nsettings; si++)
		if (r->settings[si].delay_usecs > 0 && advisable(&r->settings[si]))
			return r->settings[si].siblings;
	return sib;
}

/* Whether setting si is one the advice chooses among and runs at ci. */
static bool
candidate(const struct pgb_result *r, size_t ci, size_t si, unsigned sib)
{
	return r->settings[si].delay_usecs > 0 && r->settings[si].siblings == sib &&
	    advisable(&r->settings[si]) && pgb_cell_at(r, ci, si)->runs;
}

size_t
sweep_decide_runs_most(const struct pgb_result *r)
{
	unsigned sib = advice_siblings(r);
	size_t ci, si, n = 0;

	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++)
			if (candidate(r, ci, si, sib)) {
				n += 2 * (size_t)r->decide;
				break;
			}
	return n;
}

size_t
sweep_runs(const struct pgb_result *r)
{
	size_t ci, si, n = 0;

	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++)
			n += pgb_cell_at(r, ci, si)->runs;
	return n * r->repeats;
}

static void
shuffle(size_t *v, size_t n, uint64_t *state)
{
	size_t i;

	for (i = n; i > 1; i--) {
		uint64_t x;
		size_t j, t;

		random_fill((unsigned char *)&x, sizeof x, state);
		j = (size_t)(x % i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Where the sweep is, for the progress line: runs done of those planned
 * (the deciding runs counted at their most until it is known which run). */
struct sweep_place {
	struct progress p;
	size_t done, total;
};

static void
show(struct sweep_place *at, const struct pgb_result *r, const char *phase,
    unsigned rep, unsigned nreps, unsigned clients, const struct pgb_setting *s)
{
	char row[96];
	struct progress_line l;

	snprintf(row, sizeof row, "%u clients, commit_delay %ld, siblings %u", clients,
	    s->delay_usecs, s->siblings);
	memset(&l, 0, sizeof l);
	l.target = r->dir;
	l.group = phase;
	l.group_no = rep + 1;
	l.ngroups = nreps;
	l.row = row;
	l.row_no = at->done + 1;
	l.nrows = at->total;
	l.secs_left = (double)(at->total - at->done) * (r->secs + SWEEP_RUN_OVERHEAD_SECS);
	progress_show(&at->p, &l);
}

/* One run into its cell's slice rep; how long the run took is pgbench's
 * own figure: transactions over tps, connections excluded. */
static int
run_cell(struct cluster *c, struct pgb_result *r, size_t ci, size_t si, unsigned rep,
    const char *script, const char *builtin, bool have_wal, char *why, size_t len)
{
	struct pgb_cell *p = pgb_cell_at(r, ci, si);
	const struct method *m = method_find(r->wal_sync_method);
	struct pgbench_run_spec s = { r->clients[ci], r->settings[si].delay_usecs,
		r->settings[si].siblings, r->secs, script, builtin, have_wal,
		m != NULL && m->open_flag != NULL };
	struct pgbench_figures f;

	if (pgbench_run(c, &s, &f, why, len) == -1)
		return -1;
	if (!(f.tps > 0.0) || f.transactions == 0) {
		snprintf(why, len, "pgbench: no transaction completed in %u s at %u clients",
		    r->secs, r->clients[ci]);
		return -1;
	}
	p->cell.slices[rep].commits = f.transactions;
	p->cell.slices[rep].ns = (uint64_t)((double)f.transactions / f.tps * (double)NSEC_PER_SEC);
	p->cell.slices[rep].flushes = f.wal_flushes;
	p->have_wal = f.have_wal;
	return 0;
}

/* The repeats: per repeat the client counts in order, so that a repeat's
 * runs at one count are close in time (the pairing in group_compare then
 * cancels the drift they share), the settings shuffled at each. */
static int
run_repeats(struct cluster *c, struct pgb_result *r, struct sweep_place *at,
    const char *script, const char *builtin, bool have_wal, char *why, size_t len)
{
	size_t order[UNITS_MAX_LIST * PGB_MAX_SETTINGS];
	size_t ci, si, n, i;
	uint64_t state = random_seed();
	unsigned rep;
	int rc = 0;

	for (rep = 0; rep < r->repeats && rc == 0; rep++) {
		for (ci = 0; ci < r->nclients && rc == 0; ci++) {
			for (n = 0, si = 0; si < r->nsettings; si++)
				if (pgb_cell_at(r, ci, si)->runs)
					order[n++] = si;
			shuffle(order, n, &state);
			for (i = 0; i < n && rc == 0; i++) {
				if (cleanup_stop_signal() != 0)
					return 0;
				show(at, r, "pgbench", rep, r->repeats, r->clients[ci],
				    &r->settings[order[i]]);
				rc = run_cell(c, r, ci, order[i], rep, script, builtin,
				    have_wal, why, len);
				at->done++;
			}
		}
		if (rc == 0 && cleanup_stop_signal() == 0)
			r->repeats_done = rep + 1;
	}
	return rc;
}

/* The delay that leads 0 at client count ci with the repeats unable to
 * tell them apart: of the settings the advice chooses among, the one most
 * above 0; nsettings when 0 leads or the leader is decided already. */
static size_t
undecided_leader(const struct pgb_result *r, size_t ci, unsigned sib)
{
	const struct group_cell *zero = &pgb_cell_at(r, ci, pgb_find_setting(r, 0, 0))->cell;
	size_t si, lead = r->nsettings;
	enum group_verdict v = GROUP_SAME;
	double most = 0.0, pct, noise;

	for (si = 0; si < r->nsettings; si++) {
		enum group_verdict here;

		if (!candidate(r, ci, si, sib))
			continue;
		here = group_compare(&pgb_cell_at(r, ci, si)->cell, zero, &pct, &noise);
		if (pct > most) {
			most = pct;
			lead = si;
			v = here;
		}
	}
	return v == GROUP_SAME || v == GROUP_UNCLEAR ? lead : r->nsettings;
}

/* Deciding: where a delay led 0 within the repeats' noise, it and 0 run
 * --decide more times each, back to back (0 first in every other pair, so
 * that a drift shared by the pair cancels in its ratio), into the slices
 * after the repeats'. A few repeats of a 10 s run could not see a gain of
 * 4 to 6% through a shared machine's noise (bench/README's history).
 * Only whole pairs count. */
static int
run_deciding(struct cluster *c, struct pgb_result *r, struct sweep_place *at,
    const char *script, const char *builtin, bool have_wal, char *why, size_t len)
{
	unsigned sib = advice_siblings(r), k;
	size_t ci, zero = pgb_find_setting(r, 0, 0);

	at->total = at->done;
	for (ci = 0; ci < r->nclients; ci++)
		if ((r->decided[ci].setting = undecided_leader(r, ci, sib)) != r->nsettings)
			at->total += 2 * (size_t)r->decide;
	for (ci = 0; ci < r->nclients; ci++) {
		struct pgb_decided *d = &r->decided[ci];

		for (k = 0; d->setting != r->nsettings && k < r->decide; k++) {
			size_t pair[2] = { zero, d->setting }, i;

			for (i = 0; i < 2; i++) {
				size_t si = pair[(i + k) % 2];

				if (cleanup_stop_signal() != 0)
					return 0;
				show(at, r, "deciding", k, r->decide, r->clients[ci],
				    &r->settings[si]);
				if (run_cell(c, r, ci, si, r->repeats_done + k, script, builtin,
				    have_wal, why, len) == -1)
					return -1;
				at->done++;
			}
			d->runs = k + 1;
			pgb_cell_at(r, ci, zero)->cell.nslices = r->repeats_done + d->runs;
			pgb_cell_at(r, ci, d->setting)->cell.nslices = r->repeats_done + d->runs;
		}
	}
	return 0;
}

int
sweep_run(struct cluster *c, struct pgb_result *r, const char *script,
    const char *builtin, bool have_wal,
    bool quiet, char *why, size_t len)
{
	struct sweep_place at = { .done = 0, .total = sweep_runs(r) + sweep_decide_runs_most(r) };
	size_t ci, si;
	int rc;

	progress_init(&at.p, quiet);
	rc = run_repeats(c, r, &at, script, builtin, have_wal, why, len);
	/* Only whole repeats count: each cell keeps the same repeats. */
	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++)
			pgb_cell_at(r, ci, si)->cell.nslices = r->repeats_done;
	if (rc == 0 && cleanup_stop_signal() == 0 && r->repeats_done > 0 && r->decide > 0)
		rc = run_deciding(c, r, &at, script, builtin, have_wal, why, len);
	progress_clear(&at.p);
	if (cleanup_stop_signal() != 0) {
		r->cut_short = true;
		rc = 0;
	}
	return rc;
}

void
sweep_advise(struct pgb_result *r, const struct method *m)
{
	long delays[GROUP_MAX_DELAYS];
	unsigned sib = advice_siblings(r), k;
	size_t nd = 0, si, ci, di, idx[GROUP_MAX_DELAYS];
	struct group_result *g;

	r->have_advice = false;
	if (r->repeats_done == 0)
		return;
	for (si = 0; si < r->nsettings && nd < GROUP_MAX_DELAYS; si++)
		if (advisable(&r->settings[si]) && (r->settings[si].delay_usecs == 0 ||
		    r->settings[si].siblings == sib)) {
			idx[nd] = si;
			delays[nd++] = r->settings[si].delay_usecs;
		}
	/* Room for the deciding runs, which the leader and 0 have beyond the
	 * repeats where one was decided: group_compare pairs run k with run k. */
	g = group_result_new(r->clients, r->nclients, delays, nd, r->repeats_done + r->decide, 0);
	if (g == NULL)
		return;
	g->method = m;
	g->siblings = sib;
	g->rounds = r->repeats_done;
	g->basis_usecs = r->d_usecs;
	g->basis_is_row = true;
	g->rule_usecs = advice_commit_delay(r->d_usecs);
	g->on_server = true;
	for (ci = 0; ci < r->nclients; ci++)
		for (di = 0; di < nd; di++) {
			const struct pgb_cell *p = pgb_cell_at(r, ci, idx[di]);
			struct group_cell *c = group_cell_at(g, ci, di);

			/* A setting that cannot delay never slept: delay 0. */
			c->delayed = p->runs ? 1 : 0;
			if (!p->runs)
				p = pgb_cell_at(r, ci, idx[0]);
			c->nslices = p->cell.nslices;
			for (k = 0; k < p->cell.nslices; k++) {
				c->slices[k] = p->cell.slices[k];
				if (c->delayed == 0)
					continue;	/* its figures are 0's */
				c->commits += p->cell.slices[k].commits;
				c->elapsed_ns += p->cell.slices[k].ns;
				c->flushes += p->cell.slices[k].flushes;
			}
		}
	group_result_finish(g);
	/* The probe's advice (the method, its warnings), its commit_delay
	 * then measured on the server. */
	r->advice = r->probe_advice;
	r->advice.have_delay = true;
	r->advice.delay_method = m;
	r->advice.basis = NULL;
	r->advice.basis_mean_usecs = r->d_usecs;
	r->advice.commit_delay_usecs = r->advice.rule_delay_usecs = g->rule_usecs;
	advice_from_group(g, &r->advice);
	r->have_advice = true;
	settings_from_advice(&r->advice, g, NULL, DEFAULT_BLOCK_BYTES, &r->to_set);
	group_result_free(g);
}

void
sweep_settings(struct pgb_result *r)
{
	if (!r->have_advice) {
		memset(&r->to_set, 0, sizeof r->to_set);
		settings_block(&r->to_set, BLOCK_NO_REPEAT);
	} else if (r->cut_short) {
		settings_block(&r->to_set, BLOCK_SWEEP_STOPPED);
	}
}
