/* sleep.h: the sleep the server would really get. commit_delay is a sleep
 * (PostgreSQL's pg_usleep: nanosleep or select), and a sleep of N
 * microseconds lasts N plus the timer slack plus the scheduler's wake-up
 * time; this measures what a sleep of the advised length really costs. */
#ifndef SYNCPROBE_SLEEP_H
#define SYNCPROBE_SLEEP_H

#define SLEEP_DEFAULT_SAMPLES 200u
#define SLEEP_BUDGET_NS       300000000ULL	/* all samples together: 0.3 s */
#define SLEEP_TIMERSLACK_PATH "/proc/self/timerslack_ns"

struct sleep_result {
	long requested_usecs;
	unsigned samples;	/* sleeps timed; 0: nothing was slept */
	double mean_usecs;	/* 0 when samples is 0 */
	double p50_usecs;
	double p99_usecs;
	double max_usecs;
	/* This thread's timer slack (how late the kernel may wake a sleeper
	 * to batch wake-ups), or -1 when the system does not say. */
	double timer_slack_usecs;
};

/* Sleep requested_usecs `samples` times (0: SLEEP_DEFAULT_SAMPLES), timing
 * each sleep, and fill out. Fewer samples are taken for long sleeps so the
 * whole measurement stays within SLEEP_BUDGET_NS. requested_usecs 0 takes
 * no samples. Returns 0, or -1 with errno (EINVAL for a negative request,
 * or what nanosleep said). */
int sleep_measure(long requested_usecs, unsigned samples, struct sleep_result *out);

/* How many sleeps of requested_usecs fit the budget, at most want and at
 * least one (0 when requested_usecs is 0). */
unsigned sleep_sample_count(long requested_usecs, unsigned want);

/* The timer slack in microseconds from a timerslack_ns file, or -1. */
double sleep_read_timer_slack(const char *path);

#endif
