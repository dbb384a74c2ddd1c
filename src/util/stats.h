/* stats.h: latency statistics in fixed memory. Exact count, sum, min and max;
 * percentiles from a log-linear histogram whose buckets are at most 1/64 of
 * their lower bound wide, so a reported percentile (a bucket's midpoint,
 * clamped to the exact min and max) is within 0.8% of the true value.
 *
 * The buckets cover every uint64_t value (up to 2^64 ns, 584 years: an
 * operation stuck for hours keeps the error bound), and count in 64 bits
 * (a bucket of a long non-synced run passes 2^32). That is 3776 buckets,
 * 30208 bytes a histogram, about 29.5kB. */
#ifndef SYNCPROBE_STATS_H
#define SYNCPROBE_STATS_H

#include <stdint.h>

#define STATS_SUB_BITS    6	/* 64 buckets per power of two */
#define STATS_EXACT_LIMIT (2u << STATS_SUB_BITS)	/* below: one bucket per ns */
#define STATS_MAX_EXP     64	/* every value up to 2^64 ns has its own bucket */
#define STATS_BUCKETS \
	(STATS_EXACT_LIMIT + (STATS_MAX_EXP - STATS_SUB_BITS - 1) * (1u << STATS_SUB_BITS))

struct stats {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t buckets[STATS_BUCKETS];
};

void stats_init(struct stats *s);

/* stats_init for s in zero-filled memory (calloc): its buckets, already
 * zero, are not touched, so the pages of those never used take no memory. */
void stats_init_zeroed(struct stats *s);
void stats_add(struct stats *s, uint64_t ns);

/* Add n operations timed together in batch_ns: the sum stays exact, and
 * each counts as the batch's mean (percentiles become ones of batch means). */
void stats_add_batch(struct stats *s, uint64_t batch_ns, uint64_t n);
void stats_merge(struct stats *dst, const struct stats *src);

/* Mean in nanoseconds; 0 when empty. */
double stats_mean_ns(const struct stats *s);

/* The p-th percentile (0 < p <= 100) by nearest rank, in nanoseconds;
 * 0 when empty. */
double stats_percentile_ns(const struct stats *s, double p);

/* Bucket helpers, exposed for the unit tests and the histogram display. */
unsigned stats_bucket_of(uint64_t ns);
uint64_t stats_bucket_low(unsigned bucket);
uint64_t stats_bucket_width(unsigned bucket);

#endif
