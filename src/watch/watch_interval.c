/* watch_interval.c: the counting behind each interval line and the summary. */
#include "config.h"

#include "watch/watch_interval.h"

#include <string.h>

#include "probe/row.h"
#include "util/units.h"

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

const uint64_t watch_bucket_le_ns[WATCH_BUCKETS] = {
	20 * US, 50 * US, 100 * US, 200 * US, 500 * US,
	1 * MS, 2 * MS, 5 * MS, 10 * MS, 20 * MS, 50 * MS, 100 * MS, 200 * MS, 500 * MS,
	1 * SEC, 2 * SEC, 5 * SEC, 10 * SEC,
};

void
watch_tally_init(struct watch_tally *t, uint64_t period_ns, uint64_t interval_ns)
{
	memset(t, 0, sizeof *t);
	t->period_ns = period_ns;
	t->interval_ns = interval_ns;
	t->end_ns = interval_ns;
	t->number = 1;
	stats_init(&t->lat);
	stats_init(&t->run);
}

/* Slots k * period at or after x: the index of the first. */
static uint64_t
first_slot_from(uint64_t period_ns, uint64_t x)
{
	return x / period_ns + (x % period_ns ? 1 : 0);
}

uint64_t
watch_slots_between(uint64_t period_ns, uint64_t a, uint64_t b)
{
	if (period_ns == 0 || b <= a)
		return 0;
	return first_slot_from(period_ns, b) - first_slot_from(period_ns, a);
}

bool
watch_interval_over(const struct watch_tally *t, uint64_t slot_ns)
{
	return slot_ns >= t->end_ns;
}

size_t
watch_bucket_of(uint64_t ns)
{
	size_t i = 0;

	while (i < WATCH_BUCKETS && ns > watch_bucket_le_ns[i])
		i++;
	return i;
}

void
watch_tally_add(struct watch_tally *t, uint64_t ns, bool stall)
{
	stats_add(&t->lat, ns);
	t->buckets[watch_bucket_of(ns)]++;
	t->ops++;
	if (stall)
		t->stalls++;
}

void
watch_figures_of(const struct stats *s, struct watch_figures *f)
{
	f->ops = s->count;
	f->mean_usecs = row_usecs(stats_mean_ns(s));
	f->min_usecs = row_usecs((double)s->min_ns);
	f->p50_usecs = row_usecs(stats_percentile_ns(s, 50.0));
	f->p90_usecs = row_usecs(stats_percentile_ns(s, 90.0));
	f->p99_usecs = row_usecs(stats_percentile_ns(s, 99.0));
	f->p999_usecs = row_usecs(stats_percentile_ns(s, 99.9));
	f->max_usecs = row_usecs((double)s->max_ns);
	if (s->count == 0)
		f->min_usecs = 0.0;
}

/* Whether f is a worse interval than the worst so far. */
static bool
worse_than_worst(const struct watch_tally *t, const struct watch_figures *f)
{
	if (f->ops == 0)
		return false;
	if (!t->have_worst || (t->worst.partial && !f->partial))
		return true;
	return f->partial == t->worst.partial && f->p99_usecs > t->worst.p99_usecs;
}

void
watch_tally_close(struct watch_tally *t, uint64_t cutoff_ns, uint64_t wall_zero_ns,
    struct watch_figures *f)
{
	uint64_t end = cutoff_ns < t->end_ns ? cutoff_ns : t->end_ns;
	uint64_t slots = watch_slots_between(t->period_ns, t->start_ns, end);
	size_t i;

	memset(f, 0, sizeof *f);
	watch_figures_of(&t->lat, f);
	f->number = t->number;
	f->start_ns = t->start_ns;
	f->end_ns = end;
	f->partial = end < t->end_ns;
	f->end_wall_ns = wall_zero_ns != 0 ? wall_zero_ns + end : 0;
	/* Back to back there are no slots: nothing can be missed. */
	f->missed = slots > t->ops ? slots - t->ops : 0;
	f->stalls = t->stalls;

	stats_merge(&t->run, &t->lat);
	for (i = 0; i <= WATCH_BUCKETS; i++) {
		t->run_buckets[i] += t->buckets[i];
		t->buckets[i] = 0;
	}
	t->run_missed += f->missed;
	t->run_stalls += f->stalls;
	t->intervals++;
	if (worse_than_worst(t, f)) {
		t->worst = *f;
		t->have_worst = true;
	}

	t->number++;
	t->start_ns = t->end_ns;
	t->end_ns += t->interval_ns;
	t->ops = t->stalls = 0;
	stats_init(&t->lat);
}
