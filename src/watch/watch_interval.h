/* watch_interval.h: what watch counts, as pure functions of clock
 * readings: the operations of each interval in a fixed histogram, the
 * starts each interval missed, the stalls, and the whole run. Memory stays
 * the same however long the run: no list of operations is kept. */
#ifndef SYNCPROBE_WATCH_INTERVAL_H
#define SYNCPROBE_WATCH_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/stats.h"

/* One interval's figures, computed once when it closes and read by every
 * printer. Times are from the run's start, in slot times: an operation
 * belongs to the interval its slot is in. */
struct watch_figures {
	uint64_t number;		/* from 1 */
	uint64_t start_ns, end_ns;	/* [start, end); the last may be short */
	bool partial;			/* the last, cut short by --for or a signal */
	uint64_t ops;
	uint64_t missed;		/* slots in it that no operation started in */
	uint64_t stalls;
	double mean_usecs, p50_usecs, p90_usecs, p99_usecs, p999_usecs, max_usecs;
	double min_usecs;
	/* The wall clock at its end (watch_clock.h), ns since the epoch;
	 * 0: unknown. */
	uint64_t end_wall_ns;
	bool new_date;			/* the first line of its UTC date */
};

/* The upper bounds of the latency histogram that --textfile exports
 * (Prometheus' "le"), in ns: 1-2-5 steps from 20 us (a flush with
 * power-loss protection) to 10 s (past every stall worth a line), and 10 ms
 * among them, the p99 that etcd's and OpenShift's alerts name. An operation
 * over the last is only in +Inf. */
#define WATCH_BUCKETS 18
extern const uint64_t watch_bucket_le_ns[WATCH_BUCKETS];

/* The interval being filled, the figures of the worst one so far, and the
 * whole run's histogram. Large (two histograms): allocate it. */
struct watch_tally {
	uint64_t period_ns;		/* between slots; 0: back to back */
	uint64_t interval_ns;
	uint64_t start_ns, end_ns;	/* the open interval */
	uint64_t number;		/* the open interval's */
	uint64_t ops, stalls;		/* in the open interval */
	struct stats lat;		/* the open interval's latencies */
	/* ... in the buckets of watch_bucket_le_ns, each counted once (not
	 * cumulative); the last, over the highest bound. */
	uint64_t buckets[WATCH_BUCKETS + 1];

	struct stats run;		/* the whole run's latencies */
	uint64_t run_buckets[WATCH_BUCKETS + 1];
	uint64_t run_missed, run_stalls, intervals;
	bool have_worst;
	/* The closed interval with the highest p99; a partial one only when
	 * no whole one ran an operation (its p99, of fewer operations, is
	 * not comparable with theirs). */
	struct watch_figures worst;
};

void watch_tally_init(struct watch_tally *t, uint64_t period_ns, uint64_t interval_ns);

/* How many slots of a grid of period_ns from 0 lie in [a, b); 0 when the
 * period is 0 or b <= a. */
uint64_t watch_slots_between(uint64_t period_ns, uint64_t a, uint64_t b);

/* Whether the open interval has ended by slot time slot_ns (an operation
 * in that slot belongs to a later one). */
bool watch_interval_over(const struct watch_tally *t, uint64_t slot_ns);

/* One operation of the open interval took ns; stall: it was over --stall. */
void watch_tally_add(struct watch_tally *t, uint64_t ns, bool stall);

/* Close the open interval, at its end or (the last, cut short) at
 * cutoff_ns, whichever is first: its figures into f, the run's counts
 * and worst interval updated, the next interval opened. Slots up to the
 * end that no operation started in are its missed starts. wall_zero_ns is
 * the wall clock at slot time 0, as it reads now (0: unknown): the end's
 * stamp is that plus the end. */
void watch_tally_close(struct watch_tally *t, uint64_t cutoff_ns, uint64_t wall_zero_ns,
    struct watch_figures *f);

/* The bucket of watch_bucket_le_ns an operation of ns belongs in: the
 * first whose bound it does not exceed; WATCH_BUCKETS when over them all. */
size_t watch_bucket_of(uint64_t ns);

/* Figures of a histogram in microseconds (mean, percentiles, min, max). */
void watch_figures_of(const struct stats *s, struct watch_figures *f);

#endif
