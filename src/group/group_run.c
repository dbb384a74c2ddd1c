/* group_run.c: the group-commit experiment's sweep on one target: d, the
 * flush at one committer, then every cell (client count x commit_delay)
 * round after round, then the deciding rounds; each slice runs on the
 * pairs of committers and clients (group_slice.c, group_pair.c). */
#include "config.h"

#include "group/group_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group/group_commit.h"
#include "group/group_result.h"
#include "group/group_slice.h"
#include "probe/plan.h"
#include "util/cleanup.h"
#include "util/delay_grid.h"
#include "util/platform.h"

/* The default sweep: every value of the delay grid (util/delay_grid.h)
 * from the one at or below d/8 to the one nearest 2d; d/2 is PostgreSQL's
 * rule. d/8 reaches the gains a short delay makes at few clients on a disk
 * capped at N I/O a second (250 us at 8 clients, d = 2.14 ms); 4d, which
 * lost at every client count on every disk measured, made room for it.
 * Its low end at or below d/8, and no value between skipped: with each of
 * d/8 to 2d snapped to its nearest value, a d that moved from 2.6 to 2.9
 * ms between runs on that disk swept 500 us up instead of 250 us up, and
 * d/4 (725 us) skipped 500 us, the server's best there. */
#define SWEEP_LOW  0.125	/* x d */
#define SWEEP_HIGH 2.0		/* x d */

/* A cell's time: -s's, or without -s (adaptive rows, which a cell is
 * not) half a second, in --rounds slices; 24 cells at the defaults. */
static uint64_t
cell_ns(const struct options *o)
{
	return o->test_ns ? o->test_ns : GROUP_DEFAULT_CELL_NS;
}

/* A slice's time: its round's share of the cell's, and without -s at
 * least GROUP_SLICE_FLUSHES flushes with their delays. Where a flush takes
 * milliseconds (a disk capped at 1000 I/O a second: 2.7 ms) a tenth of a
 * second held a few dozen flushes, and the rounds' ratios to 0 scattered
 * by 16 to 36%: a delay the server measured at +15.5% with its ranges
 * apart (500 us at 8 clients) was called no different from 0 in three
 * runs of three. A fast disk's slices stay as they were. */
static uint64_t
slice_ns(const struct options *o, long delay_usecs, double d_usecs)
{
	uint64_t share = cell_ns(o) / o->rounds;
	double least_ns = (double)GROUP_SLICE_FLUSHES * ((double)delay_usecs + d_usecs) *
	    (double)NSEC_PER_USEC;

	if (o->test_ns != 0 || least_ns <= (double)share)
		return share;
	return (uint64_t)least_ns;
}

/* Round r's share of the time or of -n's operations, as run.c slices a
 * row; the warm-up lets every client's requests start flowing and covers
 * two delays and flushes. */
static void
plan_slice(const struct options *o, unsigned r, long delay_usecs, double d_usecs,
    struct slice_plan *plan)
{
	double cycle_ns = 2.0 * ((double)delay_usecs + d_usecs) * (double)NSEC_PER_USEC;

	plan->warm_ns = GROUP_WARMUP_NS + (uint64_t)cycle_ns;
	plan->ns = o->ops_per_test ? 0 : slice_ns(o, delay_usecs, d_usecs);
	plan->ops = o->ops_per_test / o->rounds + (r < o->ops_per_test % o->rounds ? 1 : 0);
	if (o->ops_per_test && plan->ops == 0)
		plan->ops = 1;
}

/* A slice at delay 0 and `clients` clients that no cell of the sweep
 * counts, in a cell of its own; its flushes and their time in *flushes
 * and *flush_ns. */
static enum exit_status
loose_slice(struct experiment *x, unsigned clients, double d_usecs, uint64_t *flushes,
    uint64_t *flush_ns, struct run_status *rs)
{
	struct group_cell *one = calloc(1, sizeof *one);
	struct slice_plan plan;
	enum exit_status rc;

	if (one == NULL)
		return group_fail(rs, "%s: out of memory", x->tf->file.path);
	stats_init(&one->latency);
	plan_slice(x->o, 0, 0, d_usecs, &plan);
	rc = group_slice_run(x, clients, 0, &plan, one, 0, rs);
	*flushes = one->flushes;
	*flush_ns = one->flush_ns;
	free(one);
	return rc;
}

/* d: the mean write + sync of a flush at one committer, delay 0, and the
 * number of flushes it rests on. */
static enum exit_status
measure_flush(struct experiment *x, double *d_usecs, uint64_t *count,
    struct run_status *rs)
{
	uint64_t ns = 0;
	enum exit_status rc = loose_slice(x, 1, 0.0, count, &ns, rs);

	*d_usecs = *count ? row_usecs(round((double)ns / (double)*count)) : 0.0;
	return rc;
}

/* The delays to sweep: --commit-delays with 0 added, or 0 and the grid's
 * values nearest d/8 to 2d; ascending, no repeats. */
static size_t
sweep_delays(const struct options *o, double d_usecs, long *out)
{
	size_t i, n = 0;

	out[n++] = 0;
	if (o->ndelays > 0) {
		for (i = 0; i < o->ndelays; i++)
			if (o->commit_delays[i] != 0)
				out[n++] = o->commit_delays[i];
		return n;
	}
	return n + delay_grid_span(SWEEP_LOW * d_usecs, SWEEP_HIGH * d_usecs, out + n,
	    GROUP_MAX_DELAYS - n);
}

static void
show_progress(struct progress *p, const char *target, const struct options *o,
    const struct group_cell *c, double d_usecs, size_t left, size_t ncells)
{
	struct progress_line l;
	char label[80];

	snprintf(label, sizeof label, "%u clients, commit_delay %ld us",
	    c->clients, c->delay_usecs);
	memset(&l, 0, sizeof l);
	l.target = target;
	l.group = plan_group_name(GROUP_GROUP);
	l.group_no = l.ngroups = 1;
	l.row = label;
	l.nrows = ncells;
	l.row_no = ncells - left % ncells;
	/* The slices left, each taken as long as this cell's. */
	l.secs_left = o->ops_per_test ? -1.0 :
	    row_secs(left * slice_ns(o, c->delay_usecs, d_usecs));
	progress_show(p, &l);
}

/* A slice at delay 0 and `clients` clients that no cell counts, run where
 * the slices before ran at another client count. The first slice after
 * such a change runs slower than the ones after it, whichever cell it
 * is, and delay 0, first in each round, took that loss alone. On the
 * plain disk, --clients 8,32 --commit-delays 100 with 20 rounds of 100
 * ms, 100 us read +1.8 to +9.1% against 0 at 32 clients with 0 first in
 * each round, and -1.1 to -4.0% with 0 last (four runs each): the same
 * cells, the verdict turned by the order alone. With this slice first,
 * +0.5 to +7.0%. In the full sweep the delays "led" 0 by up to +8% at
 * 32 clients where the deciding rounds, which do not change the count,
 * put 100 us at -4.9 to +3.4% in six runs (2026-12-05). */
static enum exit_status
warm_count(struct experiment *x, unsigned clients, double d_usecs, struct run_status *rs)
{
	uint64_t flushes, ns;

	return loose_slice(x, clients, d_usecs, &flushes, &ns, rs);
}

/* Round r of cell (ci, di), after the slice that warms its client count
 * where the slice before ran at another count: at round 0, and in every
 * round with more than one count. */
static enum exit_status
sweep_slice(struct experiment *x, struct group_result *g, size_t ci, size_t di,
    unsigned r, size_t left, struct run_status *rs, struct progress *p)
{
	struct group_cell *c = group_cell_at(g, ci, di);
	struct slice_plan plan;
	enum exit_status rc;

	if (di == 0 && (r == 0 || g->nclients > 1)) {
		rc = warm_count(x, c->clients, g->basis_usecs, rs);
		if (rc != STATUS_OK || x->stopped)
			return rc;
	}
	show_progress(p, x->path, x->o, c, g->basis_usecs, left, g->nclients * g->ndelays);
	plan_slice(x->o, r, c->delay_usecs, g->basis_usecs, &plan);
	return group_slice_run(x, c->clients, c->delay_usecs, &plan, c, r, rs);
}

/* Every cell, round after round, so that drift lands on all of them. A
 * stop signal ends the sweep at the slice it cut: the cells keep the
 * rounds they completed (group_result_cut). */
static enum exit_status
sweep(struct experiment *x, struct group_result *g, struct run_status *rs,
    struct progress *p)
{
	size_t ci, di, left = (size_t)x->o->rounds * g->nclients * g->ndelays;
	enum exit_status rc;
	unsigned r;

	for (r = 0; r < x->o->rounds; r++)
		for (ci = 0; ci < g->nclients; ci++)
			for (di = 0; di < g->ndelays; di++) {
				rc = sweep_slice(x, g, ci, di, r, left--, rs, p);
				if (rc != STATUS_OK)
					return rc;
				if (x->stopped) {
					if (!group_result_cut(g, r, ci * g->ndelays + di))
						x->nothing = true;
					return STATUS_OK;
				}
			}
	return STATUS_OK;
}

/* One paired round of deciding: the delay and 0 each into the same new
 * slice (group_compare pairs slice k with slice k), 0 first in every
 * other pair so that a drift the pair shares cancels in its ratio. Only
 * whole pairs count. */
static enum exit_status
decide_pair(struct experiment *x, struct group_result *g, struct group_cell *pair[2],
    unsigned k, size_t left, struct run_status *rs, struct progress *p)
{
	struct slice_plan plan;
	enum exit_status rc;
	unsigned idx = pair[0]->nslices, i;

	pair[0]->nslices = pair[1]->nslices = idx + 1;
	for (i = 0; i < 2; i++) {
		struct group_cell *c = pair[(i + k) % 2];

		show_progress(p, x->path, x->o, c, g->basis_usecs, 2 * left - i,
		    g->nclients * g->ndelays);
		plan_slice(x->o, idx, c->delay_usecs, g->basis_usecs, &plan);
		rc = group_slice_run(x, c->clients, c->delay_usecs, &plan, c, idx, rs);
		if (rc != STATUS_OK || x->stopped) {
			pair[0]->nslices = pair[1]->nslices = idx;
			return rc;
		}
	}
	pair[0]->decided++;
	pair[1]->decided++;
	return STATUS_OK;
}

/* Deciding a delay at client count ci: it and 0 run --decide more paired
 * rounds, back to back, up to GROUP_DECIDE_BATCHES batches of them, and
 * only the last verdict, over those rounds (group_compare_decided),
 * counts. On a disk capped at 1000 I/O a second a delay the server
 * measured at +7 to +15% at 8 clients led 0 by 5 to 8% against a noise
 * of 6 to 20% after ten rounds, and three runs advised 0, 0 and 250: a
 * call that close is settled by more rounds, not by a run's luck. A
 * loss ends it early, and so does the question it is decided for
 * answered (roles, group_deciding_goes_on): its lead gone, or at a higher
 * count, where it is a guard, the delay held there. A gain does not:
 * stopping at the first batch that read better kept the lucky batches.
 * On the plain disk at 32 clients, leads that could have stopped so read
 * +2 to +7% within a noise of 3 to 7% once judged over all 20 rounds
 * (2026-12-05). */
static enum exit_status
decide_cell(struct experiment *x, struct group_result *g, size_t ci, size_t di,
    unsigned roles, struct run_status *rs, struct progress *p)
{
	struct group_cell *pair[2] = { group_cell_at(g, ci, 0), group_cell_at(g, ci, di) };
	unsigned most = x->o->decide * GROUP_DECIDE_BATCHES, k;
	enum exit_status rc;

	for (k = 0; k < most; k++) {
		if (k > 0 && k % x->o->decide == 0 &&
		    !group_deciding_goes_on(pair[1], pair[0], g->rounds, roles))
			break;
		if (pair[0]->nslices >= pair[0]->room || pair[1]->nslices >= pair[1]->room)
			break;	/* sized for every delay decided: not reached */
		rc = decide_pair(x, g, pair, k, most - k, rs, p);
		if (rc != STATUS_OK || x->stopped)
			return rc;
	}
	return STATUS_OK;
}

/* Deciding, before anything becomes the advice: each delay that did not
 * lose to 0 at a client count after the rounds, at that count, and one
 * above 0 there at every higher count where it sleeps (the advice takes
 * a delay only where it is held at every higher count: group_cell_held).
 * A few short rounds called gains the server did not have, and flipped
 * between runs (a delay "better" by 9% in one run, "same" in the next);
 * judged over more, a leader by chance falls back, and a loss at more
 * clients shows. Not only the leader or a delay beyond the rounds' noise
 * is decided (group_decide_roles): otherwise one that read better in the
 * rounds alone became the advice undecided, and which delays went on
 * turned on one round. A count's deciding starts
 * after the slice that warms it (warm_count) where the slice before ran
 * at another count. Then the figures and verdicts are derived again: a
 * decided cell's against 0 over its deciding rounds alone. */
static enum exit_status
decide(struct experiment *x, struct group_result *g, struct run_status *rs,
    struct progress *p)
{
	unsigned want[UNITS_MAX_LIST][GROUP_MAX_DELAYS];
	enum exit_status rc = STATUS_OK;
	unsigned at = g->clients[g->nclients - 1];	/* the count the last slice ran at */
	size_t ci, di;

	if (x->o->decide == 0 || g->cut_short)
		return STATUS_OK;
	group_result_finish(g);
	/* Chosen before any deciding round changes the figures. */
	for (ci = 0; ci < g->nclients; ci++)
		for (di = 0; di < g->ndelays; di++)
			want[ci][di] = group_decide_roles(g, ci, di);
	for (ci = 0; ci < g->nclients && rc == STATUS_OK && !x->stopped; ci++)
		for (di = 1; di < g->ndelays && rc == STATUS_OK && !x->stopped; di++) {
			if (!want[ci][di])
				continue;
			if (g->clients[ci] != at) {
				at = g->clients[ci];
				rc = warm_count(x, at, g->basis_usecs, rs);
				if (rc != STATUS_OK || x->stopped)
					break;
			}
			rc = decide_cell(x, g, ci, di, want[ci][di], rs, p);
		}
	return rc;
}

uint64_t
group_file_bytes(const struct options *o)
{
	unsigned most = o->nclients ? o->clients[o->nclients - 1] : 1;

	return gc_ring_pages(o->block_bytes, o->record_bytes, most) * o->block_bytes;
}

enum exit_status
group_run(const struct options *o, const struct group_basis *basis, const struct testfile *tf,
    struct progress *p, struct run_status *rs, struct group_result **out)
{
	struct experiment *x = platform_shared_alloc(sizeof *x);
	struct group_result *g = NULL;
	long delays[GROUP_MAX_DELAYS];
	double flush_usecs = 0.0, row_usecs;
	uint64_t flushes = 0;
	enum exit_status rc;
	bool stopped, nothing;

	if (x == NULL) {
		group_fail(rs, "%s: %s", tf->file.path, strerror(errno));
		return STATUS_IO;
	}
	x->o = o;
	x->tf = tf;
	x->stop = cleanup_stop_flag();
	x->path = basis->path;
	x->method = basis->method;
	x->direct = basis->direct;
	row_usecs = basis->row_usecs;
	if ((rc = group_slice_setup(x, rs)) != STATUS_OK) {
		platform_shared_free(x, sizeof *x);
		return rc;
	}
	rc = measure_flush(x, &flush_usecs, &flushes, rs);
	if (rc == STATUS_OK && !x->stopped) {
		double d = row_usecs > 0.0 ? row_usecs : flush_usecs;
		size_t n = sweep_delays(o, d, delays);

		/* Room for the deciding rounds: delay 0's, beside every other
		 * delay decided at its client count. */
		g = group_result_new(o->clients, o->nclients, delays, n, o->rounds,
		    o->decide * GROUP_DECIDE_BATCHES * (unsigned)(n > 1 ? n - 1 : 1));
		if (g == NULL) {
			rc = group_fail(rs, "%s: out of memory", tf->file.path);
		} else {
			g->flush_usecs = flush_usecs;
			g->basis_usecs = d;
			g->basis_is_row = row_usecs > 0.0;
		}
	}
	if (rc == STATUS_OK && !x->stopped)
		rc = sweep(x, g, rs, p);
	if (rc == STATUS_OK && !x->stopped)
		rc = decide(x, g, rs, p);
	rc = group_slice_teardown(x, rs, rc);
	stopped = x->stopped;
	nothing = x->nothing;
	platform_shared_free(x, sizeof *x);
	if (stopped)
		rs->interrupted = true;
	/* Stopped before d, or before the first cell: nothing to report. */
	if (rc != STATUS_OK || (stopped && (g == NULL || nothing))) {
		group_result_free(g);
		return rc;
	}
	g->method = basis->method;
	g->direct = basis->direct;
	g->page_bytes = o->block_bytes;
	g->record_bytes = o->record_bytes;
	g->txn_work_ns = o->txn_work_ns;
	g->siblings = o->commit_siblings;
	g->decide = o->decide;
	g->flush_count = flushes;
	g->delays_given = o->ndelays > 0;
	group_result_finish(g);
	*out = g;
	return STATUS_OK;
}