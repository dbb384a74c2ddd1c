/* test_sleep.c: sleep_measure's structure, not its timing: a busy or
 * virtual machine may sleep far longer than asked, so nothing here sets an
 * upper bound on a measured time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/sleep.h"
#include "tap.h"

static void
test_counts(void)
{
	ok(sleep_sample_count(0, 0) == 0, "nothing requested: no samples");
	ok(sleep_sample_count(-5, 100) == 0, "a negative request: no samples");
	ok(sleep_sample_count(44, 0) == SLEEP_DEFAULT_SAMPLES, "default count for 44 us");
	ok(sleep_sample_count(44, 7) == 7, "the count asked for");
	ok(sleep_sample_count(10000, 0) == 30, "10 ms: 30 samples fit 0.3 s");
	ok(sleep_sample_count(100000, 0) == 3, "100 ms (commit_delay's maximum): 3");
	ok(sleep_sample_count(1000000, 0) == 1, "longer than the budget: still one");
}

static void
test_slack_file(void)
{
	char path[] = "/tmp/syncprobe-slack.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	if (fd == -1 || (f = fdopen(fd, "w")) == NULL) {
		perror("test_sleep: mkstemp");
		exit(99);
	}
	if (fputs("50000\n", f) == EOF || fclose(f) == EOF) {
		perror("test_sleep: write");
		exit(99);
	}
	is_near(sleep_read_timer_slack(path), 50.0, 1e-12, "50000 ns of slack: 50 us");
	f = fopen(path, "w");
	if (f == NULL || fputs("none\n", f) == EOF || fclose(f) == EOF) {
		perror("test_sleep: rewrite");
		exit(99);
	}
	ok(sleep_read_timer_slack(path) == -1.0, "not a number: unknown");
	if (unlink(path) == -1)
		perror("test_sleep: unlink");
	ok(sleep_read_timer_slack("/nonexistent/timerslack_ns") == -1.0,
	    "no such file: unknown");
}

static void
test_measure(void)
{
	struct sleep_result r;

	memset(&r, 0xff, sizeof r);
	ok(sleep_measure(0, 0, &r) == 0 && r.samples == 0 && r.requested_usecs == 0 &&
	    r.mean_usecs == 0.0 && r.p99_usecs == 0.0, "0 us: nothing slept");

	ok(sleep_measure(50, 20, &r) == 0, "50 us, 20 times");
	ok(r.samples >= 1 && r.samples <= 20, "samples %u", r.samples);
	ok(r.mean_usecs >= 50.0, "mean %.1f us is at least the request", r.mean_usecs);
	ok(r.p50_usecs >= 50.0 * 0.99 && r.p50_usecs <= r.p99_usecs,
	    "p50 %.1f <= p99 %.1f", r.p50_usecs, r.p99_usecs);
	ok(r.p99_usecs <= r.max_usecs, "p99 <= max %.1f", r.max_usecs);
	ok(r.timer_slack_usecs == -1.0 || r.timer_slack_usecs >= 0.0,
	    "timer slack %.1f us, or unknown", r.timer_slack_usecs);

	errno = 0;
	ok(sleep_measure(-1, 0, &r) == -1 && errno == EINVAL, "a negative request: EINVAL");
}

int
main(void)
{
	test_counts();
	test_slack_file();
	test_measure();
	return tap_done();
}
