/* advice_group.c: commit_delay and commit_siblings from what -t group
 * measured, part of the advice (advice.h). Pure, like advice.c.
 *
 * A delay only where one beat 0 by more than the rounds' noise, 0
 * otherwise. The server has one commit_delay, and commit_siblings can
 * only keep it away from low concurrency: the delay sleeps only while at
 * least commit_siblings other transactions are active. So the delay is
 * chosen at the highest client count where one beat 0 (and lost at no
 * higher count, where siblings could not keep it off): of those that beat
 * 0 there, the one with the most commits/s, not the smallest within noise
 * (beside pgbench the smallest left most of the gain on the table where a
 * delay paid). commit_siblings is then the client count measured below
 * the lowest count where that delay gained with no loss on the way up, so
 * that it never sleeps where it did not gain; the counts in between were
 * not measured, and the advice says so. */
#include "config.h"

#include "advice/advice.h"

#include <stdio.h>
#include <string.h>

#include "group/group_result.h"
#include "probe/options.h"
#include "util/strbuf.h"

/* Whether delay di lost against 0 at no client count from ci on. */
static bool
no_loss_from(const struct group_result *g, size_t ci, size_t di)
{
	for (; ci < g->nclients; ci++)
		if (group_cell_lost(group_cell_at(g, ci, di)))
			return false;
	return true;
}

static bool
gained(const struct group_result *g, size_t ci, size_t di)
{
	return group_cell_at(g, ci, di)->vs_zero == GROUP_BETTER;
}

/* The delay for client count ci: of those that beat 0 there and lose at
 * no higher client count, the one with the most commits/s; 0 (none) when
 * none did. A delay that never slept is never better (group_result.c). */
static size_t
delay_at(const struct group_result *g, size_t ci)
{
	size_t di, pick = 0;

	for (di = 1; di < g->ndelays; di++)
		if (gained(g, ci, di) && no_loss_from(g, ci + 1, di) && (pick == 0 ||
		    group_cell_at(g, ci, di)->commits_per_sec >
		    group_cell_at(g, ci, pick)->commits_per_sec))
			pick = di;
	return pick;
}

/* The lowest client count the delay can be given from: going down from
 * ch, the lowest where di beat 0 with no loss on the way. Below it the
 * delay either lost or gained nothing, and commit_siblings keeps it off. */
static size_t
lowest_gain(const struct group_result *g, size_t ch, size_t di)
{
	size_t ci, low = ch;

	for (ci = ch; ci-- > 0;) {
		if (group_cell_lost(group_cell_at(g, ci, di)))
			break;
		if (gained(g, ci, di))
			low = ci;
	}
	return low;
}

static const char *
plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* "no sleep at 1 client, +12.0% at 16 (better), -1.0% at 64": delay di
 * against 0 from client count ci on. A cell that never slept ran as delay
 * 0 did: its difference from 0 is noise, never quoted as the delay's. */
static void
describe_from(struct strbuf *t, const struct group_result *g, size_t ci, size_t di)
{
	size_t i;

	for (i = ci; i < g->nclients; i++) {
		const struct group_cell *c = group_cell_at(g, i, di);
		const char *unit = i == ci ? (c->clients == 1 ? " client" : " clients") : "";

		if (group_cell_never_slept(c)) {
			strbuf_add(t, "%sno sleep at %u%s", i > ci ? ", " : "", c->clients, unit);
			continue;
		}
		strbuf_add(t, "%s%+.1f%% at %u%s", i > ci ? ", " : "", c->vs_zero_pct,
		    c->clients, unit);
		if (c->vs_zero != GROUP_SAME)
			strbuf_add(t, " (%s)", group_verdict_name(c->vs_zero));
	}
}

static void
describe_method(struct strbuf *t, const struct group_result *g)
{
	char span[64];

	group_client_span(g, span, sizeof span);
	strbuf_add(t, "measured by %s (%s, %s): ",
	    g->measured_by ? g->measured_by : "the group-commit experiment",
	    g->method ? g->method->name : "?", span);
}

/* Why no delay: nothing beat 0, or what did lost at more clients. */
static void
describe_zero(struct strbuf *t, const struct group_result *g)
{
	size_t ci, di;

	for (ci = 0; ci < g->nclients; ci++)
		for (di = 1; di < g->ndelays; di++)
			if (gained(g, ci, di)) {
				const struct group_cell *c = group_cell_at(g, ci, di);

				strbuf_add(t, "%ld us beat 0 by %+.1f%% at %u client%s, but every "
				    "delay that beat 0 loses at more clients, and commit_siblings "
				    "can only keep a delay away from fewer", c->delay_usecs,
				    c->vs_zero_pct, c->clients, plural(c->clients));
				return;
			}
	strbuf_add(t, "no delay beat 0 by more than the %s' noise at any client count",
	    g->rounds_are ? g->rounds_are : "rounds");
}

/* Whether a delay beat 0 at ch or above, yet loses at a higher count: then
 * the one chosen is the best only of those that do not. */
static bool
gain_lost_above(const struct group_result *g, size_t ch)
{
	size_t ci, di;

	for (ci = ch; ci < g->nclients; ci++)
		for (di = 1; di < g->ndelays; di++)
			if (gained(g, ci, di) && !no_loss_from(g, ci + 1, di))
				return true;
	return false;
}

static void
describe_choice(struct strbuf *t, const struct group_result *g, size_t ch, size_t di)
{
	const struct group_cell *c = group_cell_at(g, ch, di);

	strbuf_add(t, "at %u client%s, the most at which a delay beat 0 beyond noise%s, "
	    "%ld us did with the most commits/s (%+.1f%%); against 0 it measured ",
	    c->clients, plural(c->clients), gain_lost_above(g, ch) ?
	    " and lost at no higher count" : "", c->delay_usecs, c->vs_zero_pct);
	describe_from(t, g, 0, di);
}

/* How many client counts from cl on delay di's verdict is v at. */
static unsigned
count_verdict(const struct group_result *g, size_t cl, size_t di, enum group_verdict v)
{
	unsigned n = 0;

	for (; cl < g->nclients; cl++)
		n += group_cell_at(g, cl, di)->vs_zero == v;
	return n;
}

/* "16 and 64": the client counts from cl on where delay di's verdict is v. */
static void
list_counts(struct strbuf *t, const struct group_result *g, size_t cl, size_t di,
    enum group_verdict v)
{
	unsigned n = 0, total = count_verdict(g, cl, di, v);

	for (; cl < g->nclients; cl++)
		if (group_cell_at(g, cl, di)->vs_zero == v) {
			n++;
			strbuf_add(t, "%s%u", n == 1 ? "" : n == total ? " and " : ", ",
			    g->clients[cl]);
		}
}

/* Where the delay applies with this commit_siblings, and only what was
 * measured there: with c clients at most c-1 others are active, so it
 * applies from siblings+1 clients on. */
static void
describe_siblings(struct strbuf *t, const struct group_result *g, size_t cl, size_t di,
    unsigned siblings)
{
	unsigned from = siblings + 1, first = g->clients[cl];

	strbuf_add(t, "the delay applies from %u client%s on (%u or more others active); "
	    "measured to gain at ", from, plural(from), siblings);
	list_counts(t, g, cl, di, GROUP_BETTER);
	if (count_verdict(g, cl, di, GROUP_SAME) > 0) {
		strbuf_add(t, ", no different from 0 at ");
		list_counts(t, g, cl, di, GROUP_SAME);
	}
	if (from + 1 == first)
		strbuf_add(t, "; not measured at %u clients", from);
	else if (from < first)
		strbuf_add(t, "; not measured from %u to %u clients", from, first - 1);
	if (siblings != g->siblings)
		strbuf_add(t, " (measured with commit_siblings %u)", g->siblings);
}

static void
describe_rule(struct strbuf *t, const struct group_result *g)
{
	size_t ri = group_rule_index(g);

	strbuf_add(t, "half the flush interval (%.3f us%s), PostgreSQL's rule, gives "
	    "%ld us", g->basis_usecs, g->basis_is_row ? ", the one-write row's mean" :
	    " at one committer", g->rule_usecs);
	if (ri == g->ndelays)
		strbuf_add(t, ", which --commit-delays did not include");
	else if (ri == 0)
		strbuf_add(t, ", the same as no delay");
	else if (g->delays[ri] != g->rule_usecs) {
		strbuf_add(t, "; the round value nearest it, %ld us, measured against 0 ",
		    g->delays[ri]);
		describe_from(t, g, 0, ri);
	} else {
		strbuf_add(t, "; against 0 it measured ");
		describe_from(t, g, 0, ri);
	}
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
	struct strbuf delay;

	if (a->basis == NULL) {
		a->commit_delay_usecs = a->rule_delay_usecs;
		strbuf_init(&delay, a->delay_reason, sizeof a->delay_reason);
		strbuf_add(&delay, "half of %.3f us, the mean flush at one committer in the "
		    "group-commit experiment", g->basis_usecs);
	}
	strbuf_resume(&delay, a->delay_reason, sizeof a->delay_reason);
	strbuf_add(&delay, "; the group-commit experiment was cut short by a signal, so "
	    "it measured no advice");
}

/* The answer at each client count (struct advice_count). */
static void
count_answers(const struct group_result *g, struct advice *a)
{
	size_t ci, di;

	a->ncounts = 0;
	for (ci = 0; ci < g->nclients; ci++) {
		struct advice_count *n = &a->counts[a->ncounts++];
		size_t best = 0;

		memset(n, 0, sizeof *n);
		n->clients = g->clients[ci];
		for (di = 1; di < group_delays_at(g, ci); di++) {
			const struct group_cell *c = group_cell_at(g, ci, di);

			n->any_worse |= group_cell_lost(c);
			if (gained(g, ci, di) && (best == 0 || c->commits_per_sec >
			    group_cell_at(g, ci, best)->commits_per_sec))
				best = di;
		}
		n->commit_delay_usecs = g->delays[best];
		n->vs_zero_pct = best ? group_cell_at(g, ci, best)->vs_zero_pct : 0.0;
	}
}

void
advice_from_group(const struct group_result *g, struct advice *a)
{
	struct strbuf delay, rule, siblings;
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
	strbuf_init(&delay, a->delay_reason, sizeof a->delay_reason);
	strbuf_init(&rule, a->rule_reason, sizeof a->rule_reason);
	strbuf_init(&siblings, a->siblings_reason, sizeof a->siblings_reason);
	describe_method(&delay, g);
	describe_rule(&rule, g);
	if (di == 0) {
		describe_zero(&delay, g);
		strbuf_add(&siblings, "the server's default: it changes nothing while "
		    "commit_delay is 0");
		return;
	}
	describe_choice(&delay, g, ch, di);
	{
		size_t cl = lowest_gain(g, ch, di);

		a->commit_siblings = siblings_for(g, cl);
		describe_siblings(&siblings, g, cl, di, a->commit_siblings);
	}
}
