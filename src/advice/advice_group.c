/* advice_group.c: commit_delay and commit_siblings from what -t group
 * measured, part of the advice (advice.h). Pure, like advice.c.
 *
 * A delay only where one beat 0 by more than the rounds' noise, 0
 * otherwise. The server has one commit_delay, and commit_siblings can
 * only keep it away from low concurrency: the delay sleeps only while at
 * least commit_siblings other transactions are active. So the delay is
 * chosen at the highest client count where one beat 0 (and is held at
 * every higher count, where siblings could not keep it off: shown to cost
 * under 3% there, group_cell_held): of those that beat 0 there, the
 * longest within noise of the one that beat it by the most
 * (choose_delay), not the smallest within noise (beside pgbench the
 * smallest left most of the gain on the table where a delay paid).
 * By the most against 0, paired round by round, not by its own commits/s:
 * cells decided in different batches ran at different times, and on the
 * plain disk one decided in a faster minute was chosen over one that beat
 * 0 by more (bench/README, 2026-12-06).
 * commit_siblings is then the client count measured below the lowest
 * count where that delay gained, held on the way up, so that it never
 * sleeps where it did not gain; the counts in between were not measured,
 * and the advice says so. */
#include "config.h"

#include "advice/advice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "group/group_result.h"
#include "probe/options.h"

/* Whether delay di is held (group_cell_held: shown to cost under 3%
 * against 0) at every client count from ci on. */
static bool
held_from(const struct group_result *g, size_t ci, size_t di)
{
	for (; ci < g->nclients; ci++)
		if (!group_cell_held(group_cell_at(g, ci, di)))
			return false;
	return true;
}

static bool
gained(const struct group_result *g, size_t ci, size_t di)
{
	return group_cell_at(g, ci, di)->vs_zero == GROUP_BETTER;
}

/* Whether delay di beat 0 by more than delay dj at client count ci (dj 0:
 * none yet). */
static bool
beat_zero_by_more(const struct group_result *g, size_t ci, size_t di, size_t dj)
{
	return dj == 0 ||
	    group_cell_at(g, ci, di)->vs_zero_pct > group_cell_at(g, ci, dj)->vs_zero_pct;
}

/* Whether delay di's figure against 0 at client count ci is within the
 * noise of best's: the two apart by no more than their noises together,
 * added in quadrature, as each was measured against 0 in rounds of its
 * own. */
static bool
within_noise_of(const struct group_result *g, size_t ci, size_t di, size_t best)
{
	const struct group_cell *c = group_cell_at(g, ci, di), *b = group_cell_at(g, ci, best);

	return b->vs_zero_pct - c->vs_zero_pct <= hypot(b->noise_pct, c->noise_pct);
}

/* Of the delays at client count ci that pass `eligible`, the one that beat
 * 0 by the most, or the longest within its noise: which of delays that
 * beat 0 alike reads highest is the rounds' chance. On the plain disk at
 * 32 clients, with every delay above 0 decided, 250 us beat 0 in eight
 * runs of eight (+4.9 to +7.9%), yet 25, 50 or 100 us read 0.1 to 1.2
 * points higher in three of them (+6.1 to +7.2%, noise 3.0 to 5.7%) and
 * became the advice (2026-12-06). Equal delays (none here) keep the larger
 * figure. 0 when none passes. */
static size_t
choose_delay(const struct group_result *g, size_t ci,
    bool (*eligible)(const struct group_result *, size_t, size_t))
{
	size_t di, best = 0, pick;

	for (di = 1; di < group_delays_at(g, ci); di++)
		if (eligible(g, ci, di) && beat_zero_by_more(g, ci, di, best))
			best = di;
	pick = best;
	for (di = 1; best != 0 && di < group_delays_at(g, ci); di++)
		if (eligible(g, ci, di) && within_noise_of(g, ci, di, best) &&
		    g->delays[di] > g->delays[pick])
			pick = di;
	return pick;
}

/* Beat 0 at client count ci, and held at every higher one. A delay that
 * never slept is never better (group_result.c). */
static bool
gained_and_held(const struct group_result *g, size_t ci, size_t di)
{
	return gained(g, ci, di) && held_from(g, ci + 1, di);
}

/* The delay for client count ci: of those that beat 0 there and are held
 * at every higher client count, choose_delay's; 0 (none) when none did. */
static size_t
delay_at(const struct group_result *g, size_t ci)
{
	return choose_delay(g, ci, gained_and_held);
}

/* The lowest client count the delay can be given from: going down from
 * ch, the lowest where di beat 0, held on the way. Below it the delay
 * was not held or gained nothing, and commit_siblings keeps it off. */
static size_t
lowest_gain(const struct group_result *g, size_t ch, size_t di)
{
	size_t ci, low = ch;

	for (ci = ch; ci-- > 0;) {
		if (!group_cell_held(group_cell_at(g, ci, di)))
			break;
		if (gained(g, ci, di))
			low = ci;
	}
	return low;
}

/* Delay di against 0 at every client count, for the words: a cell that
 * never slept ran as delay 0 did, and the words never quote its
 * difference from 0 as the delay's. */
static void
keep_cells(const struct group_result *g, size_t di, struct advice_cell *out, size_t *n)
{
	size_t i;

	for (i = 0; i < g->nclients; i++) {
		const struct group_cell *c = group_cell_at(g, i, di);

		out[i].clients = c->clients;
		out[i].vs_zero_pct = c->vs_zero_pct;
		out[i].vs_zero = c->vs_zero;
		out[i].never_slept = group_cell_never_slept(c);
	}
	*n = g->nclients;
}

/* Who measured the cells, with what, at which client counts. */
static void
keep_measurer(const struct group_result *g, struct advice_measurer *by)
{
	by->on_server = g->on_server;
	by->method = g->method;
	by->clients_lo = g->clients[0];
	by->clients_hi = g->clients[g->nclients - 1];
}

/* Why no delay: nothing beat 0, or what did (the first such cell) was
 * not held at more clients. */
static void
note_zero(struct delay_facts *d, const struct group_result *g)
{
	size_t ci, di;

	d->basis = DELAY_NONE_BEAT_ZERO;
	for (ci = 0; ci < g->nclients; ci++)
		for (di = 1; di < g->ndelays; di++)
			if (gained(g, ci, di)) {
				const struct group_cell *c = group_cell_at(g, ci, di);

				d->basis = DELAY_GAINS_LOST;
				d->delay_usecs = c->delay_usecs;
				d->vs_zero_pct = c->vs_zero_pct;
				d->clients = c->clients;
				return;
			}
}

/* Whether a delay beat 0 at ch or above, yet is not held at a higher
 * count: then the one chosen is the best only of those that are. */
static bool
gain_unheld_above(const struct group_result *g, size_t ch)
{
	size_t ci, di;

	for (ci = ch; ci < g->nclients; ci++)
		for (di = 1; di < g->ndelays; di++)
			if (gained(g, ci, di) && !held_from(g, ci + 1, di))
				return true;
	return false;
}

static void
note_choice(struct delay_facts *d, const struct group_result *g, size_t ch, size_t di)
{
	const struct group_cell *c = group_cell_at(g, ch, di);

	d->basis = DELAY_CHOSEN;
	d->clients = c->clients;
	d->lost_above = gain_unheld_above(g, ch);
	d->delay_usecs = c->delay_usecs;
	d->vs_zero_pct = c->vs_zero_pct;
	keep_cells(g, di, d->cells, &d->ncells);
}

/* What the rule (d/2) gave and how it fared among the delays measured. */
static void
note_rule(struct rule_facts *r, const struct group_result *g)
{
	size_t ri = group_rule_index(g);

	memset(r, 0, sizeof *r);
	r->basis_usecs = g->basis_usecs;
	r->basis_is_row = g->basis_is_row;
	r->rule_usecs = g->rule_usecs;
	if (ri == g->ndelays) {
		r->swept = RULE_NOT_SWEPT;
		return;
	}
	if (ri == 0) {
		r->swept = RULE_IS_ZERO;
		return;
	}
	r->swept = g->delays[ri] != g->rule_usecs ? RULE_NEAREST : RULE_EXACT;
	r->measured_usecs = g->delays[ri];
	keep_cells(g, ri, r->cells, &r->ncells);
}

/* commit_siblings for a delay given from client count cl on: the count
 * measured below it, so that the delay never sleeps there or below; never
 * less than the experiment's own, under which the gains were measured. */
static unsigned
siblings_for(const struct group_result *g, size_t cl)
{
	if (cl == 0 || g->clients[cl - 1] < g->siblings)
		return g->siblings;
	return g->clients[cl - 1];
}

/* A sweep cut short compared some delays at some client counts: not
 * enough to say which delay is best, or that none is. The rule stands,
 * and says why. */
static void
advise_rule_only(const struct group_result *g, struct advice *a)
{
	if (a->basis == NULL) {
		a->commit_delay_usecs = a->rule_delay_usecs;
		memset(&a->delay_why, 0, sizeof a->delay_why);
		a->delay_why.basis = DELAY_RULE_GROUP;
		a->delay_why.mean_usecs = g->basis_usecs;
	}
	a->delay_why.cut_short = true;
}

/* The answer at each client count (struct advice_count). */
static void
count_answers(const struct group_result *g, struct advice *a)
{
	size_t ci, di;

	a->ncounts = 0;
	for (ci = 0; ci < g->nclients; ci++) {
		struct advice_count *n = &a->counts[a->ncounts++];
		size_t best;

		memset(n, 0, sizeof *n);
		n->clients = g->clients[ci];
		for (di = 1; di < group_delays_at(g, ci); di++)
			n->any_worse |= group_cell_lost(group_cell_at(g, ci, di));
		best = choose_delay(g, ci, gained);
		n->commit_delay_usecs = g->delays[best];
		n->vs_zero_pct = best ? group_cell_at(g, ci, best)->vs_zero_pct : 0.0;
	}
}

void
advice_from_group(const struct group_result *g, struct advice *a)
{
	struct delay_facts *delay = &a->delay_why;
	struct siblings_facts *siblings = &a->siblings_why;
	size_t ch, di = 0;

	if (!a->have_delay) {
		/* No one-write row: the rule rests on the experiment's flush. */
		a->have_delay = true;
		a->delay_method = g->method;
		a->basis_mean_usecs = g->basis_usecs;
		a->rule_delay_usecs = g->rule_usecs;
	}
	if (g->cut_short) {
		advise_rule_only(g, a);
		return;
	}
	count_answers(g, a);
	for (ch = g->nclients; ch-- > 0;)
		if ((di = delay_at(g, ch)) != 0)
			break;
	a->delay_measured = true;
	a->commit_delay_usecs = g->delays[di];
	a->commit_siblings = DEFAULT_COMMIT_SIBLINGS;
	memset(delay, 0, sizeof *delay);
	memset(siblings, 0, sizeof *siblings);
	keep_measurer(g, &delay->by);
	note_rule(&a->rule_why, g);
	if (di == 0) {
		note_zero(delay, g);
		siblings->basis = SIBLINGS_NO_DELAY;
		siblings->siblings = DEFAULT_COMMIT_SIBLINGS;
		return;
	}
	note_choice(delay, g, ch, di);
	{
		size_t cl = lowest_gain(g, ch, di);

		a->commit_siblings = siblings_for(g, cl);
		siblings->basis = SIBLINGS_MEASURED;
		siblings->siblings = a->commit_siblings;
		siblings->experiment_siblings = g->siblings;
		siblings->from = cl;
	}
}
