/* group_result.h: what the group-commit experiment measured, one cell per
 * client count and commit_delay, and the figures derived from it once, in
 * group_result_finish(): commits/s, commits per flush, commit latency, the
 * rounds' spread, and whether a delay beat 0 by more than the noise of the
 * rounds. Pure: the unit tests and the report fixtures build cells. */
#ifndef SYNCPROBE_GROUP_RESULT_H
#define SYNCPROBE_GROUP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/method.h"
#include "probe/options.h"
#include "util/stats.h"

/* The rule for "beat 0": the ratio of a cell's commits/s to delay 0's,
 * commits and time summed over the rounds both ran, is off 1 by more than
 * the 95% confidence half-width of the rounds' log ratios (Student's t
 * with rounds-1 degrees of freedom times the standard error), as a
 * percent (group_compare). Round k of every cell of a client count ran
 * back to back, so the pairing cancels the drift they share. A delay that
 * never slept (the siblings gate never opened) is delay 0, whatever the
 * noise says. */
#define GROUP_MAX_DELAYS   (UNITS_MAX_LIST + 1)	/* 0 is always measured */

/* UNCLEAR: every round of one above every round of the other (their
 * ranges apart), yet the rounds too few or too spread for the paired
 * noise to call it: it is not called the same (two repeats can put a
 * setting 30% under 0 with the ranges apart and the noise wider still). */
enum group_verdict { GROUP_SAME, GROUP_BETTER, GROUP_WORSE, GROUP_UNCLEAR };

struct group_slice {
	uint64_t commits;
	uint64_t flushes;
	uint64_t ns;
};

struct group_cell {
	unsigned clients;
	long delay_usecs;
	uint64_t commits;	/* completed inside the measuring windows */
	uint64_t flushes;	/* flushes led by those commits */
	uint64_t delayed;	/* of them, flushes that slept commit_delay first */
	uint64_t flush_ns;	/* those flushes' writes and syncs, summed */
	uint64_t elapsed_ns;	/* the windows, summed */
	/* The CPU time its clients and committers spent in its slices, and
	 * the commits those slices completed, inside the windows or not:
	 * what the experiment's own commit costs, to set beside a server's. */
	uint64_t cpu_ns;
	uint64_t cpu_commits;
	struct stats latency;	/* a commit: request taken to record durable */
	/* One per round, then the deciding rounds: a slice with no time
	 * (ns 0) is one this cell did not run, which comparisons skip. */
	struct group_slice *slices;
	unsigned nslices;
	unsigned room;		/* the slices allocated */
	/* Deciding rounds run beside delay 0 after the rounds (group_run.c);
	 * for delay 0, all of them at its client count. */
	unsigned decided;

	/* Derived by group_result_finish(). */
	double commits_per_sec;
	double commits_per_flush;	/* 0 without flushes */
	double flush_usecs;		/* mean write + sync of a flush */
	double cpu_usecs;		/* CPU a commit; 0 without cpu_commits */
	double p50_usecs;
	double p99_usecs;
	double spread_pct;	/* relative standard deviation of the rounds' rates */
	double vs_zero_pct;	/* this / delay 0, rounds summed, minus 1, in % */
	double noise_pct;	/* its 95% confidence half-width, in % */
	enum group_verdict vs_zero;
	bool near_best;		/* not worse than the best delay at its client count */
};

struct group_result {
	const struct method *method;
	bool on_server;		/* the cells are the server's (syncprobe pgbench) */
	size_t page_bytes;
	size_t record_bytes;
	uint64_t txn_work_ns;
	unsigned siblings;
	unsigned rounds;
	unsigned decide;	/* paired rounds asked for deciding (--decide) */
	double flush_usecs;	/* a flush at one committer, delay 0 */
	uint64_t flush_count;	/* the flushes that rests on */
	/* d, the flush interval the sweep is made of: the mean of the
	 * advice's one-write basis row when there is one (so that d/2 is the
	 * rule's very value), else flush_usecs. */
	double basis_usecs;
	bool basis_is_row;
	bool direct;		/* written with direct I/O, as its basis row */
	long rule_usecs;	/* d/2, PostgreSQL's rule */
	bool delays_given;	/* --commit-delays, rather than from d */
	long delays[GROUP_MAX_DELAYS];	/* ascending, delays[0] == 0 */
	size_t ndelays;
	unsigned clients[UNITS_MAX_LIST];	/* ascending */
	size_t nclients;
	struct group_cell *cells;	/* nclients x ndelays, by client count */
	size_t ncells;		/* allocated: the client counts and delays asked for */

	/* A stop signal cut the sweep short (group_result_cut): nclients and
	 * the last client count's delays_last are what was measured. */
	bool cut_short;
	size_t delays_last;	/* the last client count's delays measured */

	/* Derived by group_result_finish(), per client count: the delay
	 * with the most commits/s, and the smallest within noise of it. */
	size_t best[UNITS_MAX_LIST];
	size_t pick[UNITS_MAX_LIST];
};

/* A result for these client counts and delays, rounds slices per cell and
 * room for extra ones after them (the deciding rounds), its figures zero;
 * NULL when out of memory. */
struct group_result *group_result_new(const unsigned *clients, size_t nclients,
    const long *delays, size_t ndelays, unsigned rounds, unsigned extra);
void group_result_free(struct group_result *g);

/* The cell of client count ci and delay di. */
struct group_cell *group_cell_at(const struct group_result *g, size_t ci, size_t di);

/* How many delays (from the first) were measured at client count ci:
 * ndelays, but fewer at the last client count of a sweep cut short. */
size_t group_delays_at(const struct group_result *g, size_t ci);

/* A stop signal came in round r (from 0) while the cell at index `at`
 * (cells in sweep order: by client count, then delay) was measured: that
 * slice and the cells after it in round r are not counted. Each cell keeps
 * the slices it completed; in round 0 the cells from `at` on were never
 * measured and are dropped. false when no cell is left. */
bool group_result_cut(struct group_result *g, unsigned r, size_t at);

/* The index of the delay that stands for the rule (d/2): the rule's own
 * value, or in a sweep from d the grid's value nearest it
 * (util/delay_grid.h); ndelays when neither was swept. */
size_t group_rule_index(const struct group_result *g);

/* Compare a with b over their rounds, paired: *pct is a's rate over b's,
 * commits and time summed over the rounds both ran, minus 1, in percent,
 * *noise the 95% confidence half-width of the rounds' log ratios, in
 * percent (e^h - 1).
 * BETTER when a beats b by more than the noise, WORSE when it trails by
 * more, else UNCLEAR when every round of one is above every round of the
 * other, else SAME (always with fewer than two rounds to pair). */
enum group_verdict group_compare(const struct group_cell *a, const struct group_cell *b,
    double *pct, double *noise);

/* The same over the rounds from `from` on, and against the 99% half-width:
 * how -t group judges a decided cell against 0, on its deciding rounds
 * alone. The rounds of the sweep chose it, as the leader or as beating 0,
 * from several delays; judged with them it kept the luck that chose it.
 * Judged again from the slices of 24 runs of -t group --clients 8,32 on
 * the plain disk (four builds, with and without the warm slice), where
 * pgbench measured no gain beyond its noise at 32 clients, the verdicts
 * over all the rounds at 95% advised a delay in 9, on the deciding rounds
 * alone at 95% in 3, at 99% in none; 18 runs so judged advised 0 in 16
 * (100/8 in two). The price, on a disk capped at 1000 I/O a second where
 * the server gains +9 to +12% with 250 us at 8 clients: the experiment
 * reads +4 to +7% there on its deciding rounds, and six runs of
 * --clients 8 advised 250 us in three, 0 in two and 500 us in one
 * (2026-12-05). */
enum group_verdict group_compare_decided(const struct group_cell *a,
    const struct group_cell *b, unsigned from, double *pct, double *noise);

/* Why a delay is decided at a client count (group_decide_roles): it did
 * not lose to 0 there after the rounds (group_cell_lost), and deciding
 * asks whether it leads (GROUP_DECIDE_GAIN); it was above 0 at a lower
 * count, and deciding asks whether it loses here, where commit_siblings
 * could not keep it off (GROUP_DECIDE_GUARD). Both, or 0: not decided.
 * Not only the leader, nor only a lead beyond the rounds' noise: on the
 * disk as it is, at 32 clients, five delays read +2 to +8% after the
 * rounds and one outlying round decided which of them went on, so that
 * the advice moved between 250, 100 and 25 us from run to run; and 250 us,
 * which beat 0 by 5 to 8% once decided in seven runs of eight, read
 * +0.0% (noise 12%) after the rounds of the eighth (2026-12-06). */
enum { GROUP_DECIDE_GAIN = 1u, GROUP_DECIDE_GUARD = 2u };

/* The roles of delay di at client count ci: none where it does not
 * sleep, nor for delay 0 (the figures group_result_finish derived). */
unsigned group_decide_roles(const struct group_result *g, size_t ci, size_t di);

/* Whether deciding a delay goes on after a batch of paired rounds, over
 * the deciding rounds so far (from round `from`; group_compare_decided):
 * never once it lost beyond the noise; in its GAIN role while it has more
 * commits a second than zero's, in its GUARD role until it is held
 * (group_cell_held's test on those rounds).
 * A gain beyond the noise does not end it early: only the last batch's
 * verdict counts (group_run.c). Nor does a loss within the noise end a
 * guard: on a disk capped at 1000 I/O a second, 250 and 500 us, which
 * beat 0 at 32 clients, read -6.2 and -3.9% at 64 against a noise of 9.6
 * and 8.0% after the one batch a lead gone allowed, "the same", and the
 * advice took 500 us, which the server measured at -23% there
 * (2026-12-06). */
bool group_deciding_goes_on(const struct group_cell *delay, const struct group_cell *zero,
    unsigned from, unsigned roles);

/* Whether the cell lost to delay 0: worse beyond noise, or below it with
 * the ranges apart (UNCLEAR): what the answer at each client count calls
 * a loss. The advice asks more of a delay where it sleeps without paying
 * (group_cell_held). */
bool group_cell_lost(const struct group_cell *c);

/* The most a delay may cost against 0, in percent, at a client count it
 * sleeps at without paying there, for the advice to take it. */
#define GROUP_HOLD_MARGIN_PCT 3.0

/* Whether the cell is shown to cost less than GROUP_HOLD_MARGIN_PCT
 * against delay 0: it never slept, or its figure less its noise is above
 * -3%. Not "lost" is no such showing: on a disk capped at 1000 I/O a
 * second, 250 and 1000 us, decided at 64 clients after they beat 0 at
 * fewer, read -3.1 and +0.0% there against a noise of 3.9 and 10.5%, "the
 * same", and the advice took them, which the server measured at -21 and
 * -16% there (2026-12-06).
 * A setting that a script applies unread has to have shown that it
 * costs little wherever it sleeps, not only that its loss was not seen. */
bool group_cell_held(const struct group_cell *c);

/* Whether the cell ran as delay 0 did: a delay whose flushes never slept
 * (the siblings gate never opened). Its figures against 0 are noise, not
 * an effect of the delay. */
bool group_cell_never_slept(const struct group_cell *c);

/* Compute every derived figure. */
void group_result_finish(struct group_result *g);

/* "better", "worse", "same". */
const char *group_verdict_name(enum group_verdict v);

#endif
