/* test_stats.c: the histogram against distributions whose percentiles are
 * known exactly; every figure must be within the documented 1%. */
#include "config.h"

#include <stdlib.h>

#include "util/stats.h"
#include "tap.h"

#define MAX_REL_ERR 0.01

static void
test_buckets(void)
{
	uint64_t v;
	int monotonic = 1, contains = 1, narrow = 1;
	unsigned prev = 0;

	/* The whole range: up to 2^64 ns, no value beyond the buckets. */
	for (v = 1; v < UINT64_MAX / 2; v = v + v / 33 + 1) {
		unsigned b = stats_bucket_of(v);
		uint64_t low = stats_bucket_low(b), width = stats_bucket_width(b);

		if (b < prev)
			monotonic = 0;
		if (v < low || v >= low + width)
			contains = 0;
		if ((double)width / 2.0 > (double)low * 0.008 && width > 1)
			narrow = 0;
		prev = b;
	}
	ok(monotonic, "bucket index grows with the value");
	ok(contains, "every value falls inside its bucket");
	ok(narrow, "half a bucket is at most 0.8%% of its lower bound");
	ok(stats_bucket_of(UINT64_MAX) == STATS_BUCKETS - 1 &&
	    stats_bucket_low(STATS_BUCKETS - 1) <= UINT64_MAX - (stats_bucket_width(STATS_BUCKETS - 1) - 1),
	    "the largest value has a bucket of its own width, the last");
	ok(sizeof(struct stats) < 32 * 1024, "a histogram is under 32kB (%zu bytes)",
	    sizeof(struct stats));
}

/* Counts are 64-bit: one bucket past 2^32 samples (a long non-synced run)
 * neither wraps nor loses its rank. Set up by hand: adding 2^32 samples
 * one by one would take seconds. */
static void
test_wide_counts(void)
{
	struct stats *s = malloc(sizeof *s), *t = malloc(sizeof *t);
	unsigned b = stats_bucket_of(900);

	stats_init(s);
	stats_add(s, 900);
	s->buckets[b] = UINT32_MAX;
	s->count = UINT32_MAX;
	stats_add(s, 900);
	ok(s->buckets[b] == (uint64_t)UINT32_MAX + 1, "a bucket counts past 2^32");
	stats_init(t);
	stats_add(t, 5000000);
	t->buckets[b] = 3000000000ULL;
	t->count = 3000000001ULL;
	stats_merge(s, t);
	ok(s->buckets[b] == (uint64_t)UINT32_MAX + 1 + 3000000000ULL, "merged counts past 2^32");
	is_near(stats_percentile_ns(s, 50), 900, MAX_REL_ERR, "p50 of 7.3e9 samples at 900 ns");
	ok(stats_percentile_ns(s, 100) == 5000000.0, "p100 is the one slow sample");
	free(s);
	free(t);
}

/* Operations of 2^40 ns (18 minutes) and more have buckets of their own
 * width too: their percentiles keep the 1% bound. */
static void
test_very_slow(void)
{
	struct stats *s = malloc(sizeof *s);
	uint64_t i;

	stats_init(s);
	for (i = 1; i <= 1000; i++)
		stats_add(s, (1ULL << 40) + i * (1ULL << 30));
	is_near(stats_percentile_ns(s, 50), (double)((1ULL << 40) + 500 * (1ULL << 30)),
	    MAX_REL_ERR, "p50 of 2^40..2^41 ns (%.4g)", stats_percentile_ns(s, 50));
	is_near(stats_percentile_ns(s, 10), (double)((1ULL << 40) + 100 * (1ULL << 30)),
	    MAX_REL_ERR, "p10 of 2^40..2^41 ns (%.4g)", stats_percentile_ns(s, 10));
	stats_init(s);
	for (i = 1; i <= 100; i++)
		stats_add(s, i * (1ULL << 56));
	is_near(stats_percentile_ns(s, 50), (double)(50 * (1ULL << 56)), MAX_REL_ERR,
	    "p50 of values up to 2^62.6 ns (%.4g)", stats_percentile_ns(s, 50));
	free(s);
}

/* Values 1..1000 us: the p-th percentile by nearest rank is p*10 us. */
static void
test_uniform(void)
{
	struct stats *s = malloc(sizeof *s);
	uint64_t i;

	stats_init(s);
	for (i = 1000; i >= 1; i--)
		stats_add(s, i * 1000);
	ok(s->count == 1000, "count is exact");
	ok(s->min_ns == 1000 && s->max_ns == 1000000, "min and max are exact");
	is_near(stats_mean_ns(s), 500500.0, 1e-12, "mean is exact (%.1f)", stats_mean_ns(s));
	is_near(stats_percentile_ns(s, 50), 500000, MAX_REL_ERR, "p50 of 1..1000us (%.0f)", stats_percentile_ns(s, 50));
	is_near(stats_percentile_ns(s, 90), 900000, MAX_REL_ERR, "p90 (%.0f)", stats_percentile_ns(s, 90));
	is_near(stats_percentile_ns(s, 99), 990000, MAX_REL_ERR, "p99 (%.0f)", stats_percentile_ns(s, 99));
	is_near(stats_percentile_ns(s, 99.9), 999000, MAX_REL_ERR, "p99.9 (%.0f)", stats_percentile_ns(s, 99.9));
	ok(stats_percentile_ns(s, 100) == 1000000.0, "p100 is the max");
	free(s);
}

/* 990 fast operations and 10 slow ones: p99 is the last fast one, p99.9
 * and above are slow. */
static void
test_two_modes(void)
{
	struct stats *s = malloc(sizeof *s);
	int i;

	stats_init(s);
	for (i = 0; i < 990; i++)
		stats_add(s, 80000);
	for (i = 0; i < 10; i++)
		stats_add(s, 5000000);
	is_near(stats_percentile_ns(s, 50), 80000, MAX_REL_ERR, "p50 in the fast mode");
	is_near(stats_percentile_ns(s, 99), 80000, MAX_REL_ERR, "p99 is rank 990: still fast");
	is_near(stats_percentile_ns(s, 99.9), 5000000, MAX_REL_ERR, "p99.9 is slow");
	ok(stats_percentile_ns(s, 99) <= stats_percentile_ns(s, 99.9), "percentiles are ordered");
	free(s);
}

/* Sub-microsecond values are counted exactly. */
static void
test_small_exact(void)
{
	struct stats s;
	int i;

	stats_init(&s);
	for (i = 0; i < 100; i++)
		stats_add(&s, (uint64_t)(i < 50 ? 40 : 90));
	ok(stats_percentile_ns(&s, 50) == 40.0, "p50 of 40/90 ns is exactly 40");
	ok(stats_percentile_ns(&s, 51) == 90.0, "p51 is exactly 90");
}

static void
test_merge_and_empty(void)
{
	struct stats *a = malloc(sizeof *a), *b = malloc(sizeof *b), *all = malloc(sizeof *all);
	uint64_t i;

	stats_init(a);
	stats_init(b);
	stats_init(all);
	ok(stats_mean_ns(a) == 0.0 && stats_percentile_ns(a, 50) == 0.0, "empty stats give 0");
	for (i = 1; i <= 500; i++) {
		stats_add(a, i * 997);
		stats_add(all, i * 997);
	}
	for (i = 501; i <= 1000; i++) {
		stats_add(b, i * 997);
		stats_add(all, i * 997);
	}
	stats_merge(a, b);
	ok(a->count == all->count && a->sum_ns == all->sum_ns && a->min_ns == all->min_ns &&
	    a->max_ns == all->max_ns, "merged totals equal one pass");
	ok(stats_percentile_ns(a, 90) == stats_percentile_ns(all, 90), "merged p90 equals one pass");
	free(a);
	free(b);
	free(all);
}

int
main(void)
{
	test_buckets();
	test_wide_counts();
	test_very_slow();
	test_uniform();
	test_two_modes();
	test_small_exact();
	test_merge_and_empty();
	return tap_done();
}
