/* sleep.c: time real sleeps of commit_delay's length. nanosleep is what
 * pg_usleep calls (select on older servers, with the same timer slack),
 * so its real length is what a delayed commit waits. */
#include "config.h"

#include "probe/sleep.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "util/cleanup.h"
#include "util/platform.h"
#include "util/stats.h"

unsigned
sleep_sample_count(long requested_usecs, unsigned want)
{
	uint64_t fit;

	if (requested_usecs <= 0)
		return 0;
	if (want == 0)
		want = SLEEP_DEFAULT_SAMPLES;
	/* Bounded by the requested time, so a 100 ms commit_delay takes three
	 * samples, not two hundred: the measurement must not dominate a run. */
	fit = SLEEP_BUDGET_NS / ((uint64_t)requested_usecs * NSEC_PER_USEC);
	if (fit < 1)
		fit = 1;
	return fit < want ? (unsigned)fit : want;
}

double
sleep_read_timer_slack(const char *path)
{
	unsigned long long ns;
	FILE *f;
	int got;

	f = fopen(path, "r");
	if (f == NULL)
		return -1.0;
	got = fscanf(f, "%llu", &ns);
	/* Read-only: a failing close loses nothing, but then trust nothing. */
	if (fclose(f) == EOF || got != 1)
		return -1.0;
	return (double)ns / (double)NSEC_PER_USEC;
}

int
sleep_measure(long requested_usecs, unsigned samples, struct sleep_result *out)
{
	struct timespec req;
	struct stats st;	/* on the stack: no allocation to fail */
	uint64_t deadline;
	unsigned i, n;

	*out = (struct sleep_result){ .requested_usecs = requested_usecs,
	    .timer_slack_usecs = sleep_read_timer_slack(SLEEP_TIMERSLACK_PATH) };
	if (requested_usecs < 0) {
		errno = EINVAL;
		return -1;
	}
	n = sleep_sample_count(requested_usecs, samples);
	if (n == 0)
		return 0;
	stats_init(&st);
	req.tv_sec = (time_t)(requested_usecs / 1000000L);
	req.tv_nsec = (long)(requested_usecs % 1000000L) * 1000L;
	/* The count keeps the requested time within the budget; the deadline
	 * keeps the real time there too when sleeps overshoot badly. */
	deadline = platform_now_ns() + SLEEP_BUDGET_NS;
	for (i = 0; i < n; i++) {
		uint64_t start = platform_now_ns(), end;

		if (nanosleep(&req, NULL) == -1) {
			/* A signal cut this sleep short: its length means
			 * nothing, so it is not counted; after a stop
			 * signal nothing more is. */
			if (errno == EINTR && cleanup_stop_signal() != 0)
				break;
			if (errno == EINTR)
				continue;
			return -1;
		}
		end = platform_now_ns();
		stats_add(&st, end - start);
		if (end >= deadline)
			break;
	}
	out->samples = (unsigned)st.count;
	out->mean_usecs = stats_mean_ns(&st) / (double)NSEC_PER_USEC;
	out->p50_usecs = stats_percentile_ns(&st, 50.0) / (double)NSEC_PER_USEC;
	out->p99_usecs = stats_percentile_ns(&st, 99.0) / (double)NSEC_PER_USEC;
	out->max_usecs = (double)st.max_ns / (double)NSEC_PER_USEC;
	return 0;
}
