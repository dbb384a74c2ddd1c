/* test_group_advice.c: the group-commit experiment's figures (the paired
 * comparison against delay 0, best and pick per client count) and the
 * commit_delay and commit_siblings advised from them, on made-up cells. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "group/group_result.h"
#include "tap.h"
#include "util/delay_grid.h"
#include "words.h"

#define ROUNDS 5

/* Round k's deviation from a cell's rate, in units of its jitter: mean 0. */
static const double wobble[ROUNDS] = { 1.0, -1.0, 0.5, -0.5, 0.0 };

/* Cell (ci, di) ran at base * factor commits/s, each round off by jitter
 * (a fraction) times wobble[k + shift]; each flush took per_flush commits;
 * delayed: whether its flushes slept. */
static void
set_cell(struct group_result *g, size_t ci, size_t di, double base, double factor,
    double jitter, unsigned shift, double per_flush, bool delayed)
{
	struct group_cell *c = group_cell_at(g, ci, di);
	unsigned k;

	for (k = 0; k < c->nslices; k++) {
		double rate = base * factor * (1.0 + jitter * wobble[(k + shift) % ROUNDS]);
		struct group_slice *s = &c->slices[k];

		s->commits = (uint64_t)(rate + 0.5);
		s->flushes = (uint64_t)(rate / per_flush + 0.5);
		s->ns = 1000000000ULL;
		c->commits += s->commits;
		c->flushes += s->flushes;
		c->elapsed_ns += s->ns;
		stats_add(&c->latency, 100000);
	}
	c->delayed = delayed && di > 0 ? c->flushes / 2 : 0;
	c->flush_ns = c->flushes * 50000;
}

static const unsigned four_counts[] = { 1, 4, 16, 64 };
static const long six_delays[] = { 0, 12, 25, 49, 98, 196 };

/* A result where every cell runs at 10000 commits/s, 1% jitter; delays
 * sleep only at 16 and more clients (siblings 5). */
static struct group_result *
flat(const unsigned *counts, size_t n)
{
	struct group_result *g = group_result_new(counts, n, six_delays, 6, ROUNDS, 0);
	size_t ci, di;

	g->method = method_find("fdatasync");
	g->siblings = 5;
	g->rounds = ROUNDS;
	g->flush_usecs = 49.0;
	g->basis_usecs = 49.0;
	g->rule_usecs = 25;
	for (ci = 0; ci < n; ci++)
		for (di = 0; di < 6; di++)
			set_cell(g, ci, di, 10000.0, 1.0, 0.01, (unsigned)di, 1.0 + counts[ci] / 4.0,
			    counts[ci] > 5);
	return g;
}

/* Cell (ci, di) of g made factor times the base, its rounds off by jitter
 * (a fraction; 0: the usual 1%). */
static void
scale_jitter(struct group_result *g, size_t ci, size_t di, double factor, double jitter)
{
	struct group_cell *c = group_cell_at(g, ci, di);
	bool slept = c->delayed > 0;

	memset(c->slices, 0, c->nslices * sizeof *c->slices);
	c->commits = c->flushes = c->elapsed_ns = 0;
	stats_init(&c->latency);
	set_cell(g, ci, di, 10000.0, factor, jitter > 0.0 ? jitter : 0.01, (unsigned)di, 3.0,
	    slept);
}

/* Cell (ci, di) of g made factor times the base, steady. */
static void
scale(struct group_result *g, size_t ci, size_t di, double factor)
{
	scale_jitter(g, ci, di, factor, 0.0);
}

/* The figures of g, then the advice from them into a. */
static void
advise(struct group_result *g, struct advice *a)
{
	struct advice_input in;

	group_result_finish(g);
	memset(&in, 0, sizeof in);
	in.platform_default = method_find("fdatasync");
	advice_compute(NULL, 0, &in, a);
	advice_from_group(g, a);
}

/* Delay 0 had a slow first round: 100 commits, then 600 in each of four;
 * the cell 500 in each. Summed, both made 2500: 0%. The mean of the
 * rounds' ratios (5, then 5/6 four times) said +66.7%. */
static void
test_compare_sums(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct group_cell *zero = group_cell_at(g, 0, 0), *c = group_cell_at(g, 0, 1);
	double pct, noise;
	unsigned k;

	for (k = 0; k < ROUNDS; k++) {
		zero->slices[k].commits = k == 0 ? 100 : 600;
		c->slices[k].commits = 500;
		zero->slices[k].ns = c->slices[k].ns = 1000000000ULL;
	}
	ok(group_compare(c, zero, &pct, &noise) == GROUP_SAME,
	    "one slow round of delay 0: the same");
	is_near(pct, 0.0, 1e-9, "2500 commits against 2500: %+.4f%%, not the mean "
	    "ratio's +66.7%%", pct);
	/* Log ratios ln 5 and ln(5/6) x4: sd 0.8012992 (by hand). */
	is_near(noise, 170.41425, 1e-3, "noise from the log ratios: %.4f%%", noise);
	for (k = 0; k < ROUNDS; k++)
		zero->slices[k].commits = 370;
	for (k = 0; k < ROUNDS; k++)
		c->slices[k].commits = 205;
	ok(group_compare(c, zero, &pct, &noise) == GROUP_WORSE && noise == 0.0,
	    "205 against 370 each round: worse, no noise");
	is_near(pct, (205.0 / 370.0 - 1.0) * 100.0, 1e-9, "by %+.2f%%", pct);
	group_result_free(g);
}

/* Cell (ci, di) of g: ratio q[k] to a steady delay 0 of 10000 commits a
 * second in round k, for every round. */
static void
set_ratios(struct group_result *g, size_t ci, size_t di, const double *q)
{
	struct group_cell *zero = group_cell_at(g, ci, 0), *c = group_cell_at(g, ci, di);
	unsigned k;

	for (k = 0; k < ROUNDS; k++) {
		zero->slices[k].commits = 10000;
		zero->slices[k].ns = c->slices[k].ns = 1000000000ULL;
		c->slices[k].commits = (uint64_t)(10000 * q[k] + 0.5);
	}
}

/* A decided cell is judged on its deciding rounds alone (those from
 * g->rounds on), against the 99% half-width; one not decided on every
 * round, against the 95%. */
static void
test_decided(void)
{
	/* Log ratios' sd 0.0711 (by hand): noise 9.2% at 95%, 15.7% at 99%. */
	static const double between[ROUNDS] = { 1.10, 1.20, 1.00, 1.05, 1.15 };
	/* Two rounds of luck that made it the leader, then three at 0's rate
	 * or under it. */
	static const double lucky[ROUNDS] = { 1.50, 1.40, 1.00, 0.98, 0.99 };
	struct group_result *g = flat(four_counts, 4);
	struct group_cell *c = group_cell_at(g, 2, 1), *zero = group_cell_at(g, 2, 0);
	double pct, noise;

	set_ratios(g, 2, 1, between);
	g->rounds = 0;
	group_result_finish(g);
	ok(c->vs_zero == GROUP_BETTER && c->vs_zero_pct > c->noise_pct,
	    "+10%% over 5 rounds, not decided: better at 95%% (%+.1f%%, noise %.1f%%)",
	    c->vs_zero_pct, c->noise_pct);
	c->decided = ROUNDS;
	group_result_finish(g);
	ok(c->vs_zero == GROUP_SAME && c->noise_pct > 15.0 && c->noise_pct < 16.5,
	    "the same 5 rounds decided: within the 99%% half-width, the same (noise %.1f%%)",
	    c->noise_pct);

	set_ratios(g, 2, 1, lucky);
	g->rounds = 2;
	c->decided = 3;
	group_result_finish(g);
	ok(c->vs_zero != GROUP_BETTER && c->vs_zero_pct < 0.0,
	    "decided after 2 lucky rounds: judged on the 3 after them (%+.2f%%)",
	    c->vs_zero_pct);
	ok(group_compare(c, zero, &pct, &noise) == GROUP_SAME && pct > 10.0,
	    "over all 5 rounds the luck stays in the figure (%+.1f%%)", pct);
	ok(group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GAIN),
	    "with the lucky rounds it still leads");
	ok(!group_deciding_goes_on(c, zero, 2, GROUP_DECIDE_GAIN),
	    "on the deciding rounds its lead is gone: deciding ends");
	c->decided = 0;
	group_result_finish(g);
	ok(c->vs_zero_pct > 10.0, "not decided, all 5 rounds count (%+.1f%%)", c->vs_zero_pct);
	group_result_free(g);
}

static void
test_compare(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct group_cell *zero = group_cell_at(g, 2, 0), *c = group_cell_at(g, 2, 3);
	enum group_verdict v;
	double pct, noise;

	scale(g, 2, 3, 1.10);
	v = group_compare(c, zero, &pct, &noise);
	ok(v == GROUP_BETTER && pct > 8.0 && pct < 12.0,
	    "10%% more commits/s, 1%% jitter: better (%+.2f%%, noise %.2f%%)", pct, noise);
	ok(group_compare(zero, c, &pct, &noise) == GROUP_WORSE, "and 0 against it: worse");
	ok(group_compare(zero, zero, &pct, &noise) == GROUP_SAME && pct == 0.0 && noise == 0.0,
	    "a cell against itself: the same, 0%%, no noise");
	ok(group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GAIN),
	    "better beyond noise: the lead holds, and deciding goes on to its last batch");
	ok(!group_deciding_goes_on(zero, c, 0, GROUP_DECIDE_GAIN),
	    "0 against it: worse, deciding ends");
	ok(!group_deciding_goes_on(zero, c, 0, GROUP_DECIDE_GAIN | GROUP_DECIDE_GUARD),
	    "and a loss beyond the noise settles a guard too");
	ok(!group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GUARD),
	    "a guard at +10%%, 1%% jitter: shown to cost under 3%%, deciding ends");
	ok(!group_deciding_goes_on(zero, zero, 0, GROUP_DECIDE_GAIN), "0 against itself: no lead");
	group_result_free(g);

	g = flat(four_counts, 4);
	zero = group_cell_at(g, 2, 0);
	c = group_cell_at(g, 2, 1);
	memset(c->slices, 0, ROUNDS * sizeof *c->slices);
	{
		/* Ratios 1.1, 1.2, 1.0, 1.0, 1.2 to a steady 0: mean 1.1, sd 0.1. */
		static const double q[ROUNDS] = { 1.1, 1.2, 1.0, 1.0, 1.2 };
		unsigned k;

		for (k = 0; k < ROUNDS; k++) {
			zero->slices[k].commits = 10000;
			zero->slices[k].ns = 1000000000ULL;
			c->slices[k].commits = (uint64_t)(10000 * q[k] + 0.5);
			c->slices[k].ns = 1000000000ULL;
		}
	}
	v = group_compare(c, zero, &pct, &noise);
	ok(v == GROUP_SAME, "ratios 1.1, 1.2, 1.0, 1.0, 1.2 over 5 rounds: within noise");
	/* The log ratios' sd is 0.0911797 (by hand): e^(t(4) sd / sqrt 5) - 1. */
	is_near(noise, 11.98518, 1e-4, "noise is e^(t(4) * sd(log ratio) / sqrt(5)) - 1: "
	    "%.4f%%", noise);
	is_near(pct, 10.0, 1e-9, "and the difference the ratio of the sums: %+.4f%%", pct);
	ok(group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GAIN),
	    "+10%% within noise: a lead more rounds can settle");
	ok(!group_deciding_goes_on(zero, c, 0, GROUP_DECIDE_GAIN),
	    "0 against it: no lead, nothing to settle");
	ok(group_deciding_goes_on(zero, c, 0, GROUP_DECIDE_GUARD),
	    "but as a guard, -9%% within noise: a loss more rounds can settle");
	ok(group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GUARD),
	    "a guard at +10%%, its noise too wide to show it costs under 3%%: it goes on");
	ok(group_deciding_goes_on(c, zero, 0, GROUP_DECIDE_GAIN | GROUP_DECIDE_GUARD) &&
	    group_deciding_goes_on(zero, c, 0, GROUP_DECIDE_GAIN | GROUP_DECIDE_GUARD),
	    "both roles: it goes on above 0 and below it");
	c->nslices = 1;
	ok(group_compare(c, zero, &pct, &noise) == GROUP_SAME && noise == 0.0,
	    "one round: no noise to judge by, so the same");
	c->nslices = ROUNDS;
	/* Two repeats, every run of the cell under every run of 0 (7000 and
	 * 9500 against 10000 and 12000): -25%, but t(1) makes the noise
	 * 118%. Not "the same": unclear, and a loss for the advice. */
	zero->slices[0].commits = 10000;
	zero->slices[1].commits = 12000;
	c->slices[0].commits = 7000;
	c->slices[1].commits = 9500;
	c->nslices = zero->nslices = 2;
	v = group_compare(c, zero, &pct, &noise);
	ok(v == GROUP_UNCLEAR && pct < -24.0 && noise > 100.0,
	    "two repeats, the ranges apart, the noise wider: unclear (%+.1f%%, noise %.1f%%)",
	    pct, noise);
	c->vs_zero = v;
	c->vs_zero_pct = pct;
	ok(group_cell_lost(c), "an unclear cell below 0 counts as lost");
	c->vs_zero_pct = -pct;
	ok(!group_cell_lost(c), "one above 0 does not");
	c->slices[1].commits = 10500;
	ok(group_compare(c, zero, &pct, &noise) == GROUP_SAME,
	    "the ranges overlapping (7000-10500 against 10000-12000): the same");
	group_result_free(g);
	test_compare_sums();
}

static void
test_finish(void)
{
	struct group_result *g = flat(four_counts, 4);
	size_t ci;

	for (ci = 0; ci < 4; ci++)
		scale(g, ci, 4, 1.3);
	group_result_finish(g);
	ok(g->best[0] == 0 && g->pick[0] == 0 && group_cell_at(g, 0, 4)->vs_zero == GROUP_SAME,
	    "1 client: the 98 us cell is fastest, yet it never slept: it is delay 0 "
	    "(the same as 0, neither best nor pick)");
	ok(g->best[2] == 4 && group_cell_at(g, 2, 4)->vs_zero == GROUP_BETTER &&
	    g->pick[2] == 4, "16 clients: 98 us is the best, better than 0, and the pick");
	ok(group_cell_at(g, 2, 0)->near_best == false && group_cell_at(g, 2, 4)->near_best,
	    "0 is not within noise of it; 98 us is");
	ok(group_cell_at(g, 2, 4)->commits_per_flush > 2.9 &&
	    group_cell_at(g, 2, 4)->commits_per_flush < 3.1, "commits per flush: %.3f",
	    group_cell_at(g, 2, 4)->commits_per_flush);
	group_result_free(g);
}

static void
test_advice_zero(void)
{
	static const char on_server[] = "measured by pgbench on the server (fdatasync, 1 to "
	    "64 clients): no delay beat 0 by more than the repeats' noise";
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);

	scale(g, 2, 2, 0.84);	/* the rule's 25 us: -16% at 16 clients */
	scale(g, 3, 2, 0.84);
	advise(g, a);
	ok(a->have_delay && a->delay_measured && a->commit_delay_usecs == 0,
	    "no delay beat 0: commit_delay 0");
	ok(a->commit_siblings == 5, "commit_siblings stays 5");
	ok(strstr(words_delay(a), "no delay beat 0") != NULL, "it says why: %s", words_delay(a));
	ok(strstr(words_rule(a), "25 us") != NULL && strstr(words_rule(a), "16 (worse)") != NULL,
	    "and what the rule's 25 us did: %s", words_rule(a));
	ok(a->basis == NULL && a->basis_mean_usecs == 49.0 && a->rule_delay_usecs == 25 &&
	    a->delay_method == method_find("fdatasync"),
	    "without a one-write row the experiment's flush is the basis, rule 25 us");
	/* The same cells measured on the server (syncprobe pgbench's). */
	g->on_server = true;
	memset(a, 0, sizeof *a);
	advise(g, a);
	ok(strncmp(words_delay(a), on_server, sizeof on_server - 1) == 0,
	    "on the server: measured by pgbench, over repeats: %s", words_delay(a));
	free(a);
	group_result_free(g);
}

/* A cell made factor times the base, its rounds off by jitter (0: 1%). */
struct scaled {
	size_t ci, di;
	double factor, jitter;
};

static const unsigned three_counts[] = { 1, 8, 32 };
static const unsigned gap_counts[] = { 1, 8, 16, 64 };
static const unsigned two_counts[] = { 8, 32 };
static const unsigned from_six[] = { 6, 32 };
static const unsigned from_seven[] = { 7, 32 };

#define MAX_SCALED 5

static const struct gain_case {
	const char *what;
	const unsigned *counts;
	size_t ncounts;
	struct scaled cells[MAX_SCALED];
	long delay;
	unsigned siblings;
	const char *said[3];	/* each in the delay's or the siblings' reason */
} gain_cases[] = {
	{ "16 clients: 49 us +20% (best), 25 us +18%, 12 us +5%: the most commits/s, "
	  "not the smallest within noise; siblings 5 from the 4 below", four_counts, 4,
	  { { 2, 3, 1.20, 0 }, { 2, 2, 1.18, 0 }, { 2, 1, 1.05, 0 } }, 49, 5,
	  { "+20.0% at 16 (better), +0.0% at 64", "applies from 6 clients on",
	    "measured to gain at 16, no different from 0 at 64; not measured from 6 to 15" } },
	{ "the issue's case: 49 us gains at 16 and 64", four_counts, 4,
	  { { 2, 3, 1.10, 0 }, { 3, 3, 1.12, 0 } }, 49, 5,
	  { "measured to gain at 16 and 64; not measured from 6 to 15 clients",
	    "at 64 clients, the most at which a delay beat 0 beyond noise, 49 us" } },
	{ "64: 196 us +30% but noisy (within noise of 0), 98 us +10% beyond it: 98 us",
	  four_counts, 4, { { 3, 5, 1.30, 0.6 }, { 3, 4, 1.10, 0 }, { 2, 4, 1.08, 0 } }, 98, 5,
	  { "98 us beat it by +10.0%", "measured to gain at 16 and 64" } },
	{ "16: 25 us the best; 64: 98 us the best, no different at 16: 98 us, kept from 16",
	  four_counts, 4, { { 2, 2, 1.15, 0 }, { 3, 4, 1.15, 0 }, { 3, 2, 1.05, 0 } }, 98, 16,
	  { "applies from 17 clients on", "not measured from 17 to 63 clients",
	    "(measured with commit_siblings 5)" } },
	{ "49 us gains at 8 and 64 but loses at 16: siblings keep it from 16, not from 8",
	  gap_counts, 4, { { 1, 3, 1.10, 0 }, { 2, 3, 0.90, 0 }, { 3, 3, 1.10, 0 } }, 49, 16,
	  { "-10.0% at 16 (worse)", "(16 or more others active); measured to gain at 64;" } },
	{ "8 clients: slept and lost; 32: 49 us gained: commit_siblings keeps it from 8",
	  three_counts, 3, { { 1, 3, 0.80, 0 }, { 2, 3, 1.14, 0 } }, 49, 8,
	  { "applies from 9 clients on", "-20.0% at 8 (worse), +14.0% at 32 (better)",
	    "not measured from 9 to 31 clients" } },
	{ "gains at the fewest clients measured: the experiment's siblings", two_counts, 2,
	  { { 0, 2, 1.10, 0 }, { 1, 2, 1.10, 0 } }, 25, 5,
	  { "measured to gain at 8 and 32; not measured from 6 to 7 clients" } },
	{ "fewest measured 7: one count not measured", from_seven, 2,
	  { { 0, 2, 1.10, 0 }, { 1, 2, 1.10, 0 } }, 25, 5,
	  { "not measured at 6 clients" } },
	{ "fewest measured 6: every count it applies at from 6 on measured", from_six, 2,
	  { { 0, 2, 1.10, 0 }, { 1, 2, 1.10, 0 } }, 25, 5,
	  { "measured to gain at 6 and 32" } },
	{ "16 clients: 25 us gains but loses at 64; 98 us gains and does not: 98 us",
	  four_counts, 4, { { 2, 2, 1.25, 0 }, { 3, 2, 0.85, 0 }, { 2, 4, 1.15, 0 } }, 98, 5,
	  { "and cost under 3% at every higher count" } },
	{ "every delay that gained at 16 loses at 64: 0", four_counts, 4,
	  { { 2, 2, 1.15, 0 }, { 3, 2, 0.85, 0 }, { 2, 4, 1.15, 0 }, { 3, 4, 0.85, 0 } }, 0, 5,
	  { "loses at more clients", "changes nothing while commit_delay is 0" } },
	{ "98 us gains at 16; -2% at 64 within a noise too wide to bound it: 0", four_counts, 4,
	  { { 2, 4, 1.15, 0 }, { 3, 4, 0.98, 0.06 } }, 0, 5,
	  { "or is not shown to cost under 3% there" } },
	{ "98 us gains at 16; -1% at 64, its noise narrow: held there, 98 us", four_counts, 4,
	  { { 2, 4, 1.15, 0 }, { 3, 4, 0.99, 0 } }, 98, 5,
	  { "-1.0% at 64", "no different from 0 at 64" } },
};

/* Whether every phrase the case expects is in the delay's or siblings' reason. */
static bool
says_all(const struct gain_case *t, const struct advice *a)
{
	size_t k;

	for (k = 0; k < 3 && t->said[k] != NULL; k++)
		if (!strstr(words_delay(a), t->said[k]) && !strstr(words_siblings(a), t->said[k]))
			return false;
	return true;
}

static void
test_advice_gain(void)
{
	struct advice *a = calloc(1, sizeof *a);
	size_t i, k;

	for (i = 0; i < sizeof gain_cases / sizeof gain_cases[0]; i++) {
		const struct gain_case *t = &gain_cases[i];
		struct group_result *g = flat(t->counts, t->ncounts);

		for (k = 0; k < MAX_SCALED && t->cells[k].factor > 0.0; k++)
			scale_jitter(g, t->cells[k].ci, t->cells[k].di, t->cells[k].factor,
			    t->cells[k].jitter);
		advise(g, a);
		ok(a->commit_delay_usecs == t->delay && a->commit_siblings == t->siblings &&
		    says_all(t, a), "%s (%ld us, commit_siblings %u: %s; %s)", t->what,
		    a->commit_delay_usecs, a->commit_siblings, words_delay(a), words_siblings(a));
		group_result_free(g);
	}
	free(a);
}

/* At 16 clients 25 us beat 0 by 8% and 49 us by 12%, but 25 us ran its
 * rounds in a faster minute: its own commits/s are the higher. The advice
 * is the one that beat 0 by the most, paired with 0 round by round, and so
 * is the answer at 16 clients. */
static void
test_pick_by_gain(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);
	struct advice_input in;

	scale(g, 2, 2, 1.08);
	scale(g, 2, 3, 1.12);
	group_result_finish(g);
	group_cell_at(g, 2, 2)->commits_per_sec = 2.0 * group_cell_at(g, 2, 3)->commits_per_sec;
	memset(&in, 0, sizeof in);
	in.platform_default = method_find("fdatasync");
	advice_compute(NULL, 0, &in, a);
	advice_from_group(g, a);
	ok(a->commit_delay_usecs == 49 && strstr(words_delay(a), "49 us beat it by +12.0%") != NULL,
	    "the delay that beat 0 by the most, not the most commits/s: %ld us: %s",
	    a->commit_delay_usecs, words_delay(a));
	ok(a->ncounts == 4 && a->counts[2].commit_delay_usecs == 49 &&
	    a->counts[2].vs_zero_pct > 11.9 && a->counts[2].vs_zero_pct < 12.1,
	    "and the answer at 16 clients: %ld us, %+.1f%%",
	    a->ncounts == 4 ? a->counts[2].commit_delay_usecs : -1L,
	    a->ncounts == 4 ? a->counts[2].vs_zero_pct : 0.0);
	free(a);
	group_result_free(g);
}

/* At 16 clients 25 us beat 0 by 9% and 98 us by 7%, within each other's
 * noise: the advice, and the answer at 16 clients, is the longer, 98 us.
 * With steadier rounds, 25 us at +12% and 98 us at +5% are apart beyond
 * their noise: 25 us. */
static void
test_pick_longest_within_noise(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);
	const struct group_cell *c25 = group_cell_at(g, 2, 2), *c98 = group_cell_at(g, 2, 4);

	scale_jitter(g, 2, 2, 1.09, 0.02);
	scale_jitter(g, 2, 4, 1.07, 0.02);
	advise(g, a);
	ok(c25->vs_zero == GROUP_BETTER && c98->vs_zero == GROUP_BETTER &&
	    c25->vs_zero_pct - c98->vs_zero_pct < hypot(c25->noise_pct, c98->noise_pct),
	    "25 us %+.1f%% +-%.1f%%, 98 us %+.1f%% +-%.1f%%: both beat 0, within noise",
	    c25->vs_zero_pct, c25->noise_pct, c98->vs_zero_pct, c98->noise_pct);
	ok(a->commit_delay_usecs == 98 && a->ncounts == 4 &&
	    a->counts[2].commit_delay_usecs == 98,
	    "the longer is the advice and the answer at 16 clients: %ld us, %ld us",
	    a->commit_delay_usecs, a->ncounts == 4 ? a->counts[2].commit_delay_usecs : -1L);
	ok(strstr(words_delay(a), "98 us beat it by +7.0%, the longest delay within "
	    "noise of the best there") != NULL, "and the words say so: %s", words_delay(a));
	memset(a, 0, sizeof *a);
	scale(g, 2, 2, 1.12);
	scale(g, 2, 4, 1.05);
	advise(g, a);
	ok(c25->vs_zero_pct - c98->vs_zero_pct > hypot(c25->noise_pct, c98->noise_pct) &&
	    a->commit_delay_usecs == 25 && a->counts[2].commit_delay_usecs == 25,
	    "25 us ahead beyond noise (%+.1f%% against %+.1f%%): 25 us",
	    c25->vs_zero_pct, c98->vs_zero_pct);
	free(a);
	group_result_free(g);
}

/* 1 and 4 clients never slept (siblings 5), yet ran 2.214 and 1.36 times
 * delay 0's rate by chance: the rule's line says they did not sleep, and
 * quotes no +121.4% as what the delay did. */
static void
test_no_sleep_not_quoted(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);

	scale(g, 0, 2, 2.214);
	scale(g, 1, 2, 1.36);
	scale(g, 2, 2, 1.10);
	advise(g, a);
	ok(strstr(words_rule(a), "no sleep at 1 client, no sleep at 4, +10.0% at 16 (better)")
	    != NULL && strstr(words_rule(a), "+121.4%") == NULL &&
	    strstr(words_rule(a), "+36.0%") == NULL,
	    "cells that never slept are not quoted against 0: %s", words_rule(a));
	ok(strstr(words_delay(a), "+121.4%") == NULL && strstr(words_delay(a), "+36.0%") == NULL,
	    "nor in the delay's reason: %s", words_delay(a));
	free(a);
	group_result_free(g);
}

static void
test_rule_not_swept(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);

	g->rule_usecs = 30;
	g->delays_given = true;
	advise(g, a);
	ok(group_rule_index(g) == g->ndelays && strstr(words_rule(a), "did not include") != NULL,
	    "a rule value outside --commit-delays is said to be: %s", words_rule(a));
	free(a);
	group_result_free(g);
}

/* A sweep cut short: the shape of what is left, and no measured advice. */
static void
test_cut_short(void)
{
	struct group_result *g = flat(four_counts, 4);
	struct advice *a = calloc(1, sizeof *a);
	bool left;

	/* Round 0, while cell 13 (16 clients, 12 us) ran: 1 and 4 clients
	 * whole, 16 clients delay 0 only, 64 clients nothing. */
	left = group_result_cut(g, 0, 13);
	ok(left && g->nclients == 3 && g->delays_last == 1 &&
	    group_delays_at(g, 0) == 6 && group_delays_at(g, 2) == 1 &&
	    group_cell_at(g, 2, 0)->nslices == 1 && g->cut_short,
	    "cut in round 0 at cell 13: 3 client counts, the last with 1 delay (%zu, %zu)",
	    g->nclients, g->delays_last);
	g->rule_usecs = 25;
	advise(g, a);
	ok(!a->delay_measured && a->commit_delay_usecs == 25 &&
	    strstr(words_delay(a), "cut short") != NULL,
	    "a sweep cut short advises the rule, and says why: %ld us, %s",
	    a->commit_delay_usecs, words_delay(a));
	group_result_free(g);
	g = flat(four_counts, 4);
	ok(group_result_cut(g, 0, 12) && g->nclients == 2 && g->delays_last == 6,
	    "cut in round 0 at the first cell of a client count: it is left out");
	group_result_free(g);
	g = flat(four_counts, 4);
	ok(!group_result_cut(g, 0, 0), "cut before the first cell: nothing left");
	group_result_free(g);
	g = flat(four_counts, 4);
	ok(group_result_cut(g, 2, 5) && g->nclients == 4 && group_cell_at(g, 0, 4)->nslices == 3 &&
	    group_cell_at(g, 0, 5)->nslices == 2 && group_cell_at(g, 3, 5)->nslices == 2,
	    "cut in round 2 at cell 5: every cell, with 3 rounds before it and 2 from it");
	group_result_free(g);
	free(a);
}

/* The grid: round values, the nearest on a log scale, and a sweep from d
 * that holds still while d moves within a step. */
static void
test_grid(void)
{
	static const double factors[] = { 0.125, 0.25, 0.5, 1.0, 2.0 };
	long a[5], b[5];
	size_t na, nb;

	ok(delay_grid_nearest(0.0) == 0 && delay_grid_nearest(-3.0) == 0 &&
	    delay_grid_nearest(0.3) == 1 && delay_grid_nearest(58.0) == 50 &&
	    delay_grid_nearest(71.0) == 100 && delay_grid_nearest(70.7) == 50 &&
	    delay_grid_nearest(267.0) == 250 && delay_grid_nearest(1e9) == 100000,
	    "the grid's nearest value, on a log scale (sqrt(50 x 100) = 70.71)");
	na = delay_grid_sweep(2140.0, factors, 5, a);
	ok(na == 5 && a[0] == 250 && a[1] == 500 && a[2] == 1000 && a[3] == 2500 &&
	    a[4] == 5000, "d = 2140 us: 250, 500, 1000, 2500, 5000 (d/8 is 268 us)");
	nb = delay_grid_sweep(2600.0, factors, 5, b);
	ok(nb == na && memcmp(a, b, na * sizeof a[0]) == 0,
	    "d 21%% longer, 2600 us: the same sweep, so the same advice can follow");
	na = delay_grid_sweep(300.0, factors, 5, a);
	ok(na == 4 && a[0] == 50 && a[1] == 100 && a[2] == 250 && a[3] == 500,
	    "d = 300 us: d/4 and d/2 round to one value, swept once (%zu)", na);
	ok(delay_grid_below(0.0) == 0 && delay_grid_below(0.5) == 1 &&
	    delay_grid_below(249.9) == 100 && delay_grid_below(250.0) == 250 &&
	    delay_grid_below(1e9) == 100000, "the grid's value at or below");
	/* -t group's span, d/8 to 2d: the low end at or below d/8, nothing
	 * between skipped. */
	na = delay_grid_span(2140.0 / 8, 2 * 2140.0, a, 6);
	nb = delay_grid_span(2900.0 / 8, 2 * 2900.0, b, 6);
	ok(na == 5 && nb == na && memcmp(a, b, na * sizeof a[0]) == 0 && a[0] == 250 &&
	    a[1] == 500 && a[4] == 5000,
	    "d = 2140 and 2900 us: one span, 250 to 5000 us (nearest d/8 would start at 500)");
	na = delay_grid_span(300.0 / 8, 600.0, a, 6);
	ok(na == 5 && a[0] == 25 && a[1] == 50 && a[2] == 100 && a[3] == 250 && a[4] == 500,
	    "d = 300 us: 25 to 500 us, each value once (%zu)", na);
	na = delay_grid_span(300.0 / 8, 600.0, a, 3);
	ok(na == 3 && a[2] == 100, "the span stops at the room it has");
	ok(delay_grid_span(0.0, 10.0, a, 6) == 0, "no span from 0");
}

/* The figures against 0 and the answer at each client count. */
static void
test_figures_and_counts(void)
{
	static const unsigned counts[] = { 8, 32, 64 };
	struct group_result *g = flat(counts, 3);
	struct advice *a = calloc(1, sizeof *a);

	scale(g, 0, 1, 1.12);		/* 8 clients: 12 us +12% */
	scale(g, 0, 2, 1.05);
	scale(g, 1, 4, 1.09);		/* 32 clients: 98 us +9% */
	scale(g, 2, 4, 0.85);		/* 64 clients: 98 us -15% */
	scale(g, 2, 1, 0.90);		/* and 12 us -10% */
	scale(g, 2, 2, 0.90);		/* and 25 us -10% */
	advise(g, a);
	ok(group_cell_at(g, 0, 1)->vs_zero_pct > group_cell_at(g, 0, 2)->vs_zero_pct &&
	    group_cell_at(g, 1, 4)->vs_zero == GROUP_BETTER &&
	    group_cell_at(g, 2, 4)->vs_zero == GROUP_WORSE,
	    "12 us above 25 us at 8 clients; 98 us better than 0 at 32, worse at 64");
	ok(a->ncounts == 3 && a->counts[0].clients == 8 && a->counts[0].commit_delay_usecs == 12 &&
	    a->counts[1].commit_delay_usecs == 98 && a->counts[2].commit_delay_usecs == 0 &&
	    a->counts[2].any_worse && !a->counts[0].any_worse,
	    "each count's answer: 12 us at 8, 98 us at 32, 0 at 64 where delays lost");
	ok(a->counts[0].vs_zero_pct > 11.0 && a->counts[0].vs_zero_pct < 13.0,
	    "and its figure against 0: %+.1f%%", a->counts[0].vs_zero_pct);
	ok(a->commit_delay_usecs == 0, "every delay that paid loses at 64: the advice is 0");
	free(a);
	group_result_free(g);
}

/* Which delays are decided: at a count where a delay did not lose to 0,
 * and, where it was above 0, at every higher count where it sleeps; not
 * one that lost, nor where no delay sleeps, nor 0 itself. */
static void
test_decides(void)
{
	static const unsigned counts[] = { 4, 32, 64 };
	struct group_result *g = flat(counts, 3);
	size_t di;

	scale(g, 1, 4, 1.09);		/* 32 clients: 98 us +9%, the leader */
	scale(g, 1, 2, 1.05);		/* and 25 us +5%: better, not the leader */
	scale_jitter(g, 1, 1, 1.02, 0.08);	/* and 12 us +2% within its noise */
	scale(g, 1, 5, 0.90);		/* and 196 us -10%: lost */
	for (di = 1; di < 6; di++)
		scale(g, 2, di, 0.90);	/* 64 clients: every delay -10% */
	group_result_finish(g);
	ok(group_cell_at(g, 1, 4)->vs_zero_pct > group_cell_at(g, 1, 2)->vs_zero_pct &&
	    group_cell_at(g, 1, 2)->vs_zero == GROUP_BETTER,
	    "at 32 clients 98 us beats 0 by the most and 25 us beats it too");
	ok(group_cell_at(g, 1, 1)->vs_zero == GROUP_SAME && group_cell_at(g, 1, 1)->vs_zero_pct > 0.0,
	    "and 12 us is above 0 within the noise: %+.1f%% +-%.1f%%",
	    group_cell_at(g, 1, 1)->vs_zero_pct, group_cell_at(g, 1, 1)->noise_pct);
	ok(group_decide_roles(g, 1, 1) == GROUP_DECIDE_GAIN &&
	    group_decide_roles(g, 2, 1) == GROUP_DECIDE_GUARD,
	    "12 us, above 0 within the noise: decided too, at 32 and 64");
	ok(group_decide_roles(g, 1, 4) == GROUP_DECIDE_GAIN &&
	    group_decide_roles(g, 2, 4) == GROUP_DECIDE_GUARD,
	    "the leader: decided at 32 clients for its lead, at 64 as a guard");
	ok(group_decide_roles(g, 1, 2) == GROUP_DECIDE_GAIN &&
	    group_decide_roles(g, 2, 2) == GROUP_DECIDE_GUARD,
	    "25 us, better without leading: decided too, at 32 and 64");
	ok(group_decide_roles(g, 1, 3) == GROUP_DECIDE_GAIN && group_decide_roles(g, 2, 3) == 0,
	    "49 us, level with 0: decided at 32 clients, not guarded at 64");
	ok(group_cell_at(g, 1, 5)->vs_zero == GROUP_WORSE && group_decide_roles(g, 1, 5) == 0 &&
	    group_decide_roles(g, 2, 5) == 0, "196 us, worse than 0: not decided");
	ok(group_decide_roles(g, 0, 4) == 0 && group_decide_roles(g, 0, 2) == 0,
	    "at 4 clients, where no delay sleeps (siblings 5): nothing decided");
	ok(group_decide_roles(g, 1, 0) == 0, "and never delay 0 itself");
	scale(g, 2, 4, 1.20);		/* 64 clients: 98 us +20% instead, the leader there */
	group_result_finish(g);
	ok(group_decide_roles(g, 2, 4) == (GROUP_DECIDE_GAIN | GROUP_DECIDE_GUARD),
	    "leading at 64 as at 32: both roles at 64");
	group_result_free(g);
}

int
main(void)
{
	test_compare();
	test_decided();
	test_finish();
	test_advice_zero();
	test_advice_gain();
	test_no_sleep_not_quoted();
	test_pick_by_gain();
	test_pick_longest_within_noise();
	test_rule_not_swept();
	test_cut_short();
	test_grid();
	test_figures_and_counts();
	test_decides();
	return tap_done();
}
