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
#include "util/cleanup.h"
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

/* 0, d/4, d/2, d, 2d, rounded as the half rule rounds. */
static size_t
delays_from_d(double d, long *out)
{
	static const double factors[] = { 0.25, 0.5, 1.0, 2.0 };
	size_t i, n = 0;

	for (i = 0; i < sizeof factors / sizeof factors[0]; i++) {
		long v = advice_commit_delay(2.0 * factors[i] * d);

		if (v > 0 && (n == 0 || v > out[n - 1]))
			out[n++] = v;
	}
	return n;
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
			p->cell.slices = calloc(r->repeats, sizeof *p->cell.slices);
			if (p->cell.slices == NULL)
				return -1;
		}
	return 0;
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

static void
show(struct progress *p, const struct pgb_result *r, size_t done, size_t total,
    unsigned rep, unsigned clients, const struct pgb_setting *s)
{
	char row[96];
	struct progress_line l;

	snprintf(row, sizeof row, "%u clients, commit_delay %ld, siblings %u", clients,
	    s->delay_usecs, s->siblings);
	memset(&l, 0, sizeof l);
	l.target = r->dir;
	l.group = "pgbench";
	l.group_no = rep + 1;
	l.ngroups = r->repeats;
	l.row = row;
	l.row_no = done + 1;
	l.nrows = total;
	l.secs_left = (double)(total - done) * (r->secs + SWEEP_RUN_OVERHEAD_SECS);
	progress_show(p, &l);
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
	p->cell.slices[rep].ns = (uint64_t)((double)f.transactions / f.tps * 1e9);
	p->cell.slices[rep].flushes = f.wal_flushes;
	p->have_wal = f.have_wal;
	return 0;
}

int
sweep_run(struct cluster *c, struct pgb_result *r, const char *script,
    const char *builtin, bool have_wal,
    bool quiet, char *why, size_t len)
{
	size_t order[UNITS_MAX_LIST * PGB_MAX_SETTINGS];
	size_t ci, si, n, i, done = 0, total = sweep_runs(r);
	uint64_t state = random_seed();
	struct progress p;
	unsigned rep;
	int rc = 0;

	progress_init(&p, quiet);
	for (rep = 0; rep < r->repeats && rc == 0; rep++) {
		/* Client counts in order, so that a repeat's runs at one count
		 * are close in time: the pairing in group_compare then
		 * cancels the drift they share. */
		for (ci = 0; ci < r->nclients && rc == 0; ci++) {
			for (n = 0, si = 0; si < r->nsettings; si++)
				if (pgb_cell_at(r, ci, si)->runs)
					order[n++] = si;
			shuffle(order, n, &state);
			for (i = 0; i < n && rc == 0; i++) {
				if (cleanup_stop_signal() != 0)
					break;
				show(&p, r, done, total, rep, r->clients[ci],
				    &r->settings[order[i]]);
				rc = run_cell(c, r, ci, order[i], rep, script, builtin,
				    have_wal, why, len);
				done++;
			}
			if (cleanup_stop_signal() != 0)
				break;
		}
		if (cleanup_stop_signal() != 0) {
			r->cut_short = true;
			break;
		}
		if (rc == 0)
			r->repeats_done = rep + 1;
	}
	progress_clear(&p);
	if (rc == -1 && cleanup_stop_signal() != 0) {
		r->cut_short = true;
		rc = 0;
	}
	/* Only whole repeats count: each cell keeps the same repeats. */
	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++)
			pgb_cell_at(r, ci, si)->cell.nslices = r->repeats_done;
	return rc;
}

void
sweep_advise(struct pgb_result *r, const struct method *m)
{
	long delays[GROUP_MAX_DELAYS];
	unsigned sib = r->group_ran && r->group_delay_usecs > 0 ? r->group_siblings :
	    DEFAULT_COMMIT_SIBLINGS;
	size_t nd = 0, si, ci, di, idx[GROUP_MAX_DELAYS];
	struct group_result *g;
	unsigned k;

	r->have_advice = false;
	if (r->repeats_done == 0)
		return;
	/* The choice rule takes one commit_siblings: the sweep's advised
	 * one, else the first given. */
	{
		bool found = false;

		for (si = 0; si < r->nsettings; si++)
			found |= r->settings[si].delay_usecs > 0 && r->settings[si].siblings == sib;
		for (si = 0; !found && si < r->nsettings; si++)
			if (r->settings[si].delay_usecs > 0) {
				sib = r->settings[si].siblings;
				found = true;
			}
	}
	for (si = 0; si < r->nsettings && nd < GROUP_MAX_DELAYS; si++)
		if (r->settings[si].delay_usecs == 0 || r->settings[si].siblings == sib) {
			idx[nd] = si;
			delays[nd++] = r->settings[si].delay_usecs;
		}
	g = group_result_new(r->clients, r->nclients, delays, nd, r->repeats_done);
	if (g == NULL)
		return;
	g->method = m;
	g->siblings = sib;
	g->rounds = r->repeats_done;
	g->basis_usecs = r->d_usecs;
	g->basis_is_row = true;
	g->rule_usecs = advice_commit_delay(r->d_usecs);
	g->measured_by = "pgbench on the server";
	for (ci = 0; ci < r->nclients; ci++)
		for (di = 0; di < nd; di++) {
			const struct pgb_cell *p = pgb_cell_at(r, ci, idx[di]);
			struct group_cell *c = group_cell_at(g, ci, di);

			for (k = 0; k < r->repeats_done; k++) {
				c->slices[k] = p->cell.slices[k];
				c->commits += p->cell.slices[k].commits;
				c->elapsed_ns += p->cell.slices[k].ns;
				c->flushes += p->cell.slices[k].flushes;
			}
			/* A setting that cannot delay never slept: delay 0. */
			c->delayed = p->runs ? 1 : 0;
			if (!p->runs)
				memcpy(c->slices, pgb_cell_at(r, ci, idx[0])->cell.slices,
				    r->repeats_done * sizeof *c->slices);
		}
	group_result_finish(g);
	memset(&r->advice, 0, sizeof r->advice);
	r->advice.have_delay = true;
	r->advice.delay_method = m;
	r->advice.basis_mean_usecs = r->d_usecs;
	r->advice.rule_delay_usecs = g->rule_usecs;
	advice_from_group(g, &r->advice);
	r->have_advice = true;
	group_result_free(g);
}
