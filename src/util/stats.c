/* stats.c: fixed-memory latency histogram (see stats.h for the error bound). */
#include "config.h"

#include "util/stats.h"

#include <string.h>

#define SUB_COUNT (1u << STATS_SUB_BITS)

/* Index of the highest set bit of v (v > 0). It runs inside the timed loop
 * once per operation, so use the single instruction where the compiler has
 * one; the portable loop otherwise. */
static unsigned
highest_bit(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	return 63u - (unsigned)__builtin_clzll(v);
#else
	unsigned e = 0;

	while (v >>= 1)
		e++;
	return e;
#endif
}

unsigned
stats_bucket_of(uint64_t ns)
{
	unsigned e, sub, b;

	if (ns < STATS_EXACT_LIMIT)
		return (unsigned)ns;
	e = highest_bit(ns);	/* at most 63: STATS_MAX_EXP covers it */
	sub = (unsigned)(ns >> (e - STATS_SUB_BITS)) & (SUB_COUNT - 1);
	b = STATS_EXACT_LIMIT + (e - STATS_SUB_BITS - 1) * SUB_COUNT + sub;
	return b;
}

uint64_t
stats_bucket_low(unsigned bucket)
{
	unsigned e, sub;

	if (bucket < STATS_EXACT_LIMIT)
		return bucket;
	e = (bucket - STATS_EXACT_LIMIT) / SUB_COUNT + STATS_SUB_BITS + 1;
	sub = (bucket - STATS_EXACT_LIMIT) % SUB_COUNT;
	return (uint64_t)(SUB_COUNT + sub) << (e - STATS_SUB_BITS);
}

uint64_t
stats_bucket_width(unsigned bucket)
{
	unsigned e;

	if (bucket < STATS_EXACT_LIMIT)
		return 1;
	e = (bucket - STATS_EXACT_LIMIT) / SUB_COUNT + STATS_SUB_BITS + 1;
	return (uint64_t)1 << (e - STATS_SUB_BITS);
}

void
stats_init(struct stats *s)
{
	memset(s, 0, sizeof *s);
	s->min_ns = UINT64_MAX;
}

void
stats_init_zeroed(struct stats *s)
{
	s->count = 0;
	s->sum_ns = 0;
	s->min_ns = UINT64_MAX;
	s->max_ns = 0;
}

void
stats_add(struct stats *s, uint64_t ns)
{
	s->count++;
	s->sum_ns += ns;
	if (ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->buckets[stats_bucket_of(ns)]++;
}

void
stats_add_batch(struct stats *s, uint64_t batch_ns, uint64_t n)
{
	uint64_t each;

	if (n == 0)
		return;
	each = batch_ns / n;
	s->count += n;
	s->sum_ns += batch_ns;
	if (each < s->min_ns)
		s->min_ns = each;
	if (each > s->max_ns)
		s->max_ns = each;
	s->buckets[stats_bucket_of(each)] += n;
}

void
stats_merge(struct stats *dst, const struct stats *src)
{
	unsigned i;

	if (src->count == 0)
		return;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < STATS_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

double
stats_mean_ns(const struct stats *s)
{
	return s->count ? (double)s->sum_ns / (double)s->count : 0.0;
}

double
stats_percentile_ns(const struct stats *s, double p)
{
	uint64_t rank, seen = 0;
	unsigned i;
	double mid;

	if (s->count == 0)
		return 0.0;
	/* Nearest rank: the smallest value with at least p% of samples at or
	 * below it. The epsilon keeps 99.9% of 1000 at rank 999, not 1000. */
	rank = (uint64_t)(p / 100.0 * (double)s->count - 1e-9) + 1;
	if (rank < 1)
		rank = 1;
	if (rank > s->count)
		rank = s->count;
	if (rank == s->count)
		return (double)s->max_ns;
	if (rank == 1)
		return (double)s->min_ns;
	for (i = 0; i < STATS_BUCKETS; i++) {
		seen += s->buckets[i];
		if (seen >= rank)
			break;
	}
	if (i == STATS_BUCKETS)
		return (double)s->max_ns;
	mid = (double)stats_bucket_low(i);
	if (i >= STATS_EXACT_LIMIT)
		mid += (double)stats_bucket_width(i) / 2.0;
	if (mid < (double)s->min_ns)
		mid = (double)s->min_ns;
	if (mid > (double)s->max_ns)
		mid = (double)s->max_ns;
	return mid;
}
