/* advice_group.c: commit_delay and commit_siblings from what -t group
 * measured, part of the advice (advice.h). Pure, like advice.c.
 *
 * Per client count the experiment knows the delay with the most commits/s
 * and the smallest delay within noise of it; where 0 is within noise of
 * the best, a delay gained nothing there. The server has one commit_delay,
 * and commit_siblings can only keep it away from low concurrency: the
 * delay sleeps only while at least commit_siblings other transactions are
 * active. So the advice is, at the lowest client count where 0 is not
 * within noise of the best, the smallest delay that is, unless it trails 0
 * at a higher client count (then the next one within noise of the best);
 * and commit_siblings so high that it does not apply below that count.
 * Where there is no such delay, the advice is 0. */
#include "config.h"

#include "advice/advice.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "group/group_result.h"
#include "probe/options.h"

/* An appending writer into a fixed buffer, cut short, never overrun. */
struct text {
	char *buf;
	size_t len;
	size_t used;
};

static void text_add(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
}

static void
text_init(struct text *t, char *buf, size_t len)
{
	t->buf = buf;
	t->len = len;
	t->used = 0;
	if (len > 0)
		buf[0] = '\0';
}

/* Whether delay di lost against 0 at no client count from ci on. */
static bool
no_loss_from(const struct group_result *g, size_t ci, size_t di)
{
	for (; ci < g->nclients; ci++)
		if (group_cell_at(g, ci, di)->vs_zero == GROUP_WORSE)
			return false;
	return true;
}

/* The delay for client count ci: the smallest within noise of the best
 * that loses nowhere above; 0 (none) when 0 is within noise of the best
 * there, or no delay qualifies. */
static size_t
delay_for(const struct group_result *g, size_t ci)
{
	size_t di;

	if (g->pick[ci] == 0)
		return 0;
	for (di = g->pick[ci]; di < g->ndelays; di++)
		if (group_cell_at(g, ci, di)->near_best && no_loss_from(g, ci + 1, di))
			return di;
	return 0;
}

static const char *
plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* "+12.0% at 16 clients (better), -1.0% at 64": delay di against 0 from
 * client count ci on. */
static void
describe_from(struct text *t, const struct group_result *g, size_t ci, size_t di)
{
	size_t i;

	for (i = ci; i < g->nclients; i++) {
		const struct group_cell *c = group_cell_at(g, i, di);

		text_add(t, "%s%+.1f%% at %u%s", i > ci ? ", " : "", c->vs_zero_pct,
		    c->clients, i == ci ? (c->clients == 1 ? " client" : " clients") : "");
		if (c->vs_zero != GROUP_SAME)
			text_add(t, " (%s)", group_verdict_name(c->vs_zero));
	}
}

static void
describe_method(struct text *t, const struct group_result *g)
{
	text_add(t, "measured by the group-commit experiment (%s, %u to %u clients): ",
	    g->method ? g->method->name : "?", g->clients[0], g->clients[g->nclients - 1]);
}

/* Why no delay: nothing beat 0, or what did lost at more clients. */
static void
describe_zero(struct text *t, const struct group_result *g)
{
	size_t ci;

	for (ci = 0; ci < g->nclients; ci++)
		if (g->pick[ci] != 0) {
			const struct group_cell *best = group_cell_at(g, ci, g->best[ci]);

			text_add(t, "%ld us gained %+.1f%% at %u client%s, but every delay "
			    "within noise of it there loses at more clients, and commit_siblings "
			    "can only keep a delay away from fewer", best->delay_usecs,
			    best->vs_zero_pct, best->clients, plural(best->clients));
			return;
		}
	text_add(t, "no delay beat 0 by more than the rounds' noise at any client count");
}

static void
describe_rule(struct text *t, const struct group_result *g)
{
	size_t ri = group_rule_index(g);

	text_add(t, "half the flush interval (%.3f us%s), PostgreSQL's rule, gives "
	    "%ld us", g->basis_usecs, g->basis_is_row ? ", the one-write row's mean" :
	    " at one committer", g->rule_usecs);
	if (ri == g->ndelays)
		text_add(t, ", which --commit-delays did not include");
	else if (ri == 0)
		text_add(t, ", the same as no delay");
	else {
		text_add(t, "; against 0 it measured ");
		describe_from(t, g, 0, ri);
	}
}

void
advice_from_group(const struct group_result *g, struct advice *a)
{
	struct text delay, rule, siblings;
	const struct group_cell *best;
	size_t ci, di = 0;

	for (ci = 0; ci < g->nclients; ci++)
		if ((di = delay_for(g, ci)) != 0)
			break;
	if (!a->have_delay) {
		/* No one-write row: the rule rests on the experiment's flush. */
		a->have_delay = true;
		a->delay_method = g->method;
		a->basis_mean_usecs = g->basis_usecs;
		a->rule_delay_usecs = g->rule_usecs;
	}
	a->delay_measured = true;
	a->commit_delay_usecs = g->delays[di];
	a->commit_siblings = DEFAULT_COMMIT_SIBLINGS;
	text_init(&delay, a->delay_reason, sizeof a->delay_reason);
	text_init(&rule, a->rule_reason, sizeof a->rule_reason);
	text_init(&siblings, a->siblings_reason, sizeof a->siblings_reason);
	describe_method(&delay, g);
	describe_rule(&rule, g);
	if (di == 0) {
		describe_zero(&delay, g);
		text_add(&siblings, "the server's default: it changes nothing while "
		    "commit_delay is 0");
		return;
	}
	best = group_cell_at(g, ci, g->best[ci]);
	text_add(&delay, "at %u client%s the most commits/s came with %ld us (%+.1f%%), and "
	    "%ld us is the smallest delay within noise of it%s; against 0 it measured ",
	    g->clients[ci], plural(g->clients[ci]), best->delay_usecs, best->vs_zero_pct,
	    g->delays[di], di == g->pick[ci] ? "" : " that loses at no higher client count");
	describe_from(&delay, g, ci, di);
	if (ci == 0) {
		a->commit_siblings = g->siblings;
		text_add(&siblings, "as in the experiment: the delay gained from the "
		    "fewest clients measured on");
		return;
	}
	/* With c clients at most c-1 others are active: commit_siblings of
	 * the count below keeps the delay from it and from fewer. */
	a->commit_siblings = g->siblings > g->clients[ci - 1] ? g->siblings : g->clients[ci - 1];
	text_add(&siblings, "so that the delay applies only from %u clients on, where it "
	    "gained: with %u or fewer clients, fewer than %u others are ever active",
	    g->clients[ci], g->clients[ci - 1], a->commit_siblings);
	if (a->commit_siblings != g->siblings)
		text_add(&siblings, " (the experiment ran with %u)", g->siblings);
}
