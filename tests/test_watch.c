/* test_watch.c: watch's counting, summary, warnings, plot and value
 * parsers, exactly, on made-up operation times: no disk, no clock. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/names.h"
#include "watch/watch.h"
#include "watch/watch_clock.h"
#include "watch/watch_interval.h"
#include "watch/watch_metrics.h"
#include "watch/watch_plot.h"
#include "watch/watch_result.h"
#include "tap.h"

#define MS 1000000ULL
#define US 1000ULL

static struct watch_tally *
new_tally(uint64_t period_ns, uint64_t interval_ns)
{
	struct watch_tally *t = malloc(sizeof *t);

	if (t == NULL) {
		perror("test_watch");
		exit(99);
	}
	watch_tally_init(t, period_ns, interval_ns);
	return t;
}

static void
test_slots(void)
{
	ok(watch_slots_between(20 * MS, 0, 1000 * MS) == 50, "50 slots of 20 ms in a second");
	ok(watch_slots_between(20 * MS, 1000 * MS, 2000 * MS) == 50, "... and in the next");
	ok(watch_slots_between(20 * MS, 0, 1 * MS) == 1, "the slot at 0 is in [0, 1 ms)");
	ok(watch_slots_between(20 * MS, 1 * MS, 20 * MS) == 0, "none in (0, 20 ms)");
	ok(watch_slots_between(20 * MS, 1 * MS, 21 * MS) == 1, "one in [1, 21 ms)");
	ok(watch_slots_between(3 * MS, 0, 10 * MS) == 4, "0, 3, 6, 9 ms in [0, 10 ms)");
	ok(watch_slots_between(0, 0, 1000 * MS) == 0, "back to back: no slots");
	ok(watch_slots_between(20 * MS, 50 * MS, 10 * MS) == 0, "an empty range: none");
}

static void
test_tally(void)
{
	struct watch_tally *t = new_tally(20 * MS, 1000 * MS);
	struct watch_figures f;
	uint64_t i, sum = 0;

	ok(!watch_interval_over(t, 980 * MS), "the slot at 980 ms is in the first interval");
	ok(watch_interval_over(t, 1000 * MS), "the one at 1 s is not");
	for (i = 0; i < 48; i++)
		watch_tally_add(t, (100 + i) * US, false);
	watch_tally_add(t, 1500 * MS, true);	/* a stall, in the first interval */
	watch_tally_close(t, UINT64_MAX, 0, &f);
	ok(f.number == 1 && f.start_ns == 0 && f.end_ns == 1000 * MS, "interval 1 is [0, 1 s)");
	ok(f.ops == 49 && !f.partial, "49 operations, a whole interval");
	ok(f.missed == 1, "50 slots, 49 started: one missed start");
	ok(f.stalls == 1, "one stall");
	ok(f.max_usecs == 1500000.0, "the max is the stall, exactly");
	ok(f.min_usecs == 100.0, "the min exactly");
	sum += f.ops;
	/* The stall covered the whole second interval: no operation started. */
	watch_tally_close(t, UINT64_MAX, 0, &f);
	ok(f.number == 2 && f.ops == 0 && f.missed == 50, "an interval inside a stall: 50 missed");
	ok(f.p99_usecs == 0.0, "... and no figures");
	/* A last interval cut short at 2.5 s, with 20 operations. */
	for (i = 0; i < 20; i++)
		watch_tally_add(t, 200 * US, false);
	watch_tally_close(t, 2500 * MS, 0, &f);
	sum += f.ops;
	ok(f.start_ns == 2000 * MS && f.end_ns == 2500 * MS, "the last interval ends at the cut");
	ok(f.partial, "... and is partial");
	ok(f.missed == 5, "25 slots before the cut, 20 started: 5 missed");
	ok(t->intervals == 3, "three intervals closed");
	ok(t->run.count == sum && sum == 69, "the run's count is the sum of the intervals'");
	ok(t->run_missed == 56 && t->run_stalls == 1, "the run's missed starts and stalls add up");
	ok(t->have_worst && t->worst.number == 1, "the worst interval is the one with the stall");
	free(t);
}

/* The last interval, cut short, is the worst only when no whole one ran
 * an operation: its p99, of a few operations, would outrank theirs. */
static void
test_partial_worst(void)
{
	struct watch_tally *t = new_tally(20 * MS, 1000 * MS);
	struct watch_figures f;
	int i;

	for (i = 0; i < 50; i++)
		watch_tally_add(t, 100 * US, false);
	watch_tally_close(t, UINT64_MAX, 0, &f);
	for (i = 0; i < 3; i++)
		watch_tally_add(t, 900 * US, false);
	watch_tally_close(t, 1060 * MS, 0, &f);
	ok(f.partial && f.p99_usecs > t->worst.p99_usecs, "a cut-short interval, a higher p99");
	ok(t->have_worst && t->worst.number == 1 && !t->worst.partial,
	    "the worst is still the whole interval");
	free(t);

	t = new_tally(20 * MS, 1000 * MS);
	for (i = 0; i < 3; i++)
		watch_tally_add(t, 900 * US, false);
	watch_tally_close(t, 60 * MS, 0, &f);
	ok(t->have_worst && t->worst.partial && t->worst.end_ns == 60 * MS,
	    "the only interval, cut short: it is the worst");
	free(t);
}

static void
test_back_to_back(void)
{
	struct watch_tally *t = new_tally(0, 1000 * MS);
	struct watch_figures f;
	int i;

	for (i = 0; i < 1000; i++)
		watch_tally_add(t, 90 * US, false);
	watch_tally_close(t, UINT64_MAX, 0, &f);
	ok(f.ops == 1000 && f.missed == 0, "back to back: nothing is missed");
	free(t);
}

static void
test_summary(void)
{
	struct watch_tally *t = new_tally(20 * MS, 1000 * MS);
	struct watch_setup setup;
	struct watch_summary sum;
	struct watch_figures f;
	struct watch_stall st = { 3 * MS, 21000 * MS, 0, false };
	int i;

	memset(&setup, 0, sizeof setup);
	memset(&sum, 0, sizeof sum);
	setup.rate = 50;
	setup.stall_ns = 1000 * MS;
	setup.burst.ops = 1000;
	setup.burst.mean_usecs = 100.0;
	for (i = 0; i < 49; i++)
		watch_tally_add(t, 300 * US, false);
	watch_tally_close(t, UINT64_MAX, 0, &f);
	watch_summarize(t, &setup, &sum);
	ok(sum.paced.ops == 49 && sum.intervals == 1, "the summary's operations and intervals");
	is_near(sum.ratio, 3.0, 1e-9, "paced over back to back: 300 over 100 us");
	ok(sum.nwarnings == 1 && strcmp(sum.warnings[0].code, "paced_slower") == 0,
	    "over twice the back-to-back mean: paced_slower");
	ok(strstr(sum.warnings[0].message, "syncprobe watch") == NULL &&
	    strstr(sum.warnings[0].message, "(the burst's, pg_test_fsync's") != NULL,
	    "... which inside watch does not point to watch: %s", sum.warnings[0].message);
	setup.burst.mean_usecs = 200.0;
	watch_summarize(t, &setup, &sum);
	ok(sum.nwarnings == 0, "1.5 times: no warning");
	setup.rate = 0;
	setup.burst.mean_usecs = 100.0;
	watch_summarize(t, &setup, &sum);
	ok(sum.nwarnings == 0, "back to back (--rate max): no pacing warning");
	/* A stall over 20 s. */
	setup.rate = 50;
	setup.burst.mean_usecs = 300.0;
	watch_tally_add(t, st.ns, true);
	watch_note_stall(&sum, &st);
	watch_tally_close(t, UINT64_MAX, 0, &f);
	watch_summarize(t, &setup, &sum);
	ok(sum.paced.stalls == 1 && sum.fatal_stalls == 1, "one stall, over 20 s");
	ok(sum.nwarnings >= 2 && strcmp(sum.warnings[0].code, "stall") == 0 &&
	    strcmp(sum.warnings[1].code, "stall_over_20s") == 0, "stall and stall_over_20s");
	ok(strstr(sum.warnings[1].message, "storage.max_sync_duration") != NULL,
	    "the 20 s warning names CockroachDB's setting");
	ok(sum.longest.ns == st.ns && sum.longest.start_ns == st.start_ns,
	    "the longest stall is kept");
	free(t);
}

static void
test_parse(void)
{
	uint64_t rate;
	int i;
	char err[256];

	ok(watch_parse_rate("50", &rate, err, sizeof err) == 0 && rate == 50, "rate 50");
	ok(watch_parse_rate("max", &rate, err, sizeof err) == 0 && rate == 0, "rate max is 0");
	ok(watch_parse_rate("0", &rate, err, sizeof err) == -1 &&
	    strcmp(err, "must be at least 1") == 0, "rate 0 refused: %s", err);
	ok(watch_parse_rate("fast", &rate, err, sizeof err) == -1 &&
	    strstr(err, "nor max") != NULL, "rate 'fast' refused: %s", err);
	ok(watch_parse_rate("100001", &rate, err, sizeof err) == -1, "rate over the maximum");
	ok((i = names_choose(&watch_format_names, "json", err, sizeof err)) >= 0 &&
	    watch_formats[i].stall != NULL, "json, a format that writes a stall");
	ok(names_choose(&watch_format_names, "conf", err, sizeof err) == -1 &&
	    strcmp(err, "unknown value (choose text, json, openmetrics)") == 0,
	    "conf is not a watch format: %s", err);
}

static struct watch_figures
point(uint64_t n, double p99, double max)
{
	struct watch_figures f;

	memset(&f, 0, sizeof f);
	f.number = n;
	f.end_ns = n * 1000 * MS;
	f.ops = 10;
	f.p99_usecs = p99;
	f.max_usecs = max;
	return f;
}

static void
test_plot_points(void)
{
	struct watch_plot *p = malloc(sizeof *p);
	struct watch_figures f;
	uint64_t i;

	if (p == NULL)
		exit(99);
	watch_plot_init(p);
	for (i = 1; i <= WATCH_PLOT_POINTS; i++) {
		f = point(i, i == 7 ? 5000.0 : 100.0, 200.0);
		watch_plot_add(p, &f);
	}
	ok(p->n == WATCH_PLOT_POINTS && p->per_point == 1, "one point per interval until full");
	f = point(WATCH_PLOT_POINTS + 1, 100.0, 9000.0);
	watch_plot_add(p, &f);
	ok(p->n == WATCH_PLOT_POINTS / 2 + 1 && p->per_point == 2,
	    "full: neighbours merged, then the new point");
	ok(p->points[3].p99_usecs == 5000.0, "a merged point keeps the worse p99 (intervals 7, 8)");
	ok(p->points[3].end_ns == 8000 * MS, "... and ends where its last interval ends");
	f = point(WATCH_PLOT_POINTS + 2, 100.0, 100.0);
	watch_plot_add(p, &f);
	ok(p->n == WATCH_PLOT_POINTS / 2 + 1, "the next interval joins the last point");
	ok(p->points[p->n - 1].max_usecs == 9000.0, "... which keeps its worse max");
	for (i = 0; i < 100000; i++) {
		f = point(i + 600, 100.0, 100.0);
		watch_plot_add(p, &f);
	}
	ok(p->n <= WATCH_PLOT_POINTS, "100000 more intervals: still at most %d points",
	    WATCH_PLOT_POINTS);
	free(p);
}

/* The last interval cut short adds its max to the point before it, not a
 * point of its own, nor its p99; alone, it is a point. */
static void
test_plot_partial(void)
{
	struct watch_plot *p = malloc(sizeof *p);
	struct watch_figures f;

	if (p == NULL)
		exit(99);
	watch_plot_init(p);
	f = point(1, 100.0, 200.0);
	watch_plot_add(p, &f);
	f = point(2, 9000.0, 9500.0);
	f.partial = true;
	f.end_ns = 1100 * MS;
	watch_plot_add(p, &f);
	ok(p->n == 1, "a cut-short interval: no point of its own");
	ok(p->points[0].p99_usecs == 100.0 && p->points[0].max_usecs == 9500.0 &&
	    p->points[0].end_ns == 1100 * MS, "its max and end join the point before, not its p99");
	watch_plot_init(p);
	watch_plot_add(p, &f);
	ok(p->n == 1 && p->points[0].p99_usecs == 9000.0, "alone, it is the plot's one point");
	free(p);
}

/* The longest --for, a week, at the highest rate: the counts are exact
 * (no 32-bit wrap), and a week of 10 s intervals keeps the plot at its
 * fixed size, ending at the week. */
static void
test_week(void)
{
	struct watch_tally *t = new_tally(1000000000ULL / WATCH_MAX_RATE, WATCH_MAX_FOR_NS);
	struct watch_plot *p = malloc(sizeof *p);
	struct watch_figures f;
	uint64_t i, n = WATCH_MAX_FOR_NS / (10000 * MS);

	if (p == NULL)
		exit(99);
	watch_tally_close(t, WATCH_MAX_FOR_NS, 0, &f);
	ok(f.missed == 60480000000ULL && t->run_missed == f.missed,
	    "a week at %u a second: 60480000000 slots, every one counted (%llu)",
	    WATCH_MAX_RATE, (unsigned long long)f.missed);
	watch_plot_init(p);
	for (i = 1; i <= n; i++) {
		f = point(i, 100.0, 200.0);
		f.end_ns = i * 10000 * MS;
		watch_plot_add(p, &f);
	}
	ok(n == 60480 && p->n <= WATCH_PLOT_POINTS && p->per_point == 128,
	    "a week of 10 s intervals: %zu points of %llu intervals", p->n,
	    (unsigned long long)p->per_point);
	ok(p->points[p->n - 1].end_ns == WATCH_MAX_FOR_NS, "... the last ending at the week");
	free(p);
	free(t);
}

/* The plot of three intervals, drawn into a string. */
static void
test_plot_draw(void)
{
	struct watch_plot *p = malloc(sizeof *p);
	struct watch_figures f[3];
	char *text = NULL, *line;
	size_t len = 0, lines = 0, longest = 0;
	FILE *out;
	int i;

	if (p == NULL)
		exit(99);
	watch_plot_init(p);
	f[0] = point(1, 100.0, 1000.0);
	f[1] = point(2, 100.0, 100.0);
	f[2] = point(3, 1000.0, 10000.0);
	for (i = 0; i < 3; i++)
		watch_plot_add(p, &f[i]);
	out = open_memstream(&text, &len);
	if (out == NULL)
		exit(99);
	watch_plot_draw(out, p, 80, 5);
	fclose(out);
	for (line = text; *line != '\0'; lines++) {
		size_t n = strcspn(line, "\n");

		if (n > longest)
			longest = n;
		line += n + (line[n] == '\n');
	}
	ok(lines == 5 + 3, "5 rows, the axis, its times and the legend (%zu lines)", lines);
	ok(longest <= 80, "fits 80 columns (%zu)", longest);
	ok(strncmp(text, "    10ms |", 10) == 0, "the top row is the highest max, 10 ms");
	ok(strstr(text, "   100us |") != NULL, "the bottom row the lowest p99, 100 us");
	ok(strstr(text, "#########") != NULL, "interval 2: p99 and max in one cell");
	ok(strstr(text, " 0s") != NULL && strstr(text, "3s\n") != NULL, "time from 0 to 3 s");
	free(text);
	text = NULL;
	watch_plot_init(p);
	out = open_memstream(&text, &len);
	watch_plot_draw(out, p, 80, 5);
	fclose(out);
	ok(len == 0, "no interval: no plot");
	free(text);
	free(p);
}

/* 2026-12-01T23:59:59Z, in ns since the epoch. */
#define LATE_NS (1796169599ULL * 1000000000ULL)

static void
test_clock(void)
{
	char b[40];
	uint64_t day = 0;
	struct watch_tally *t = new_tally(20 * MS, 1000 * MS);
	struct watch_figures f;

	watch_clock_iso(LATE_NS + 123456789, b, sizeof b);
	ok(strcmp(b, "2026-12-01T23:59:59.123Z") == 0, "ISO 8601 UTC to the ms (%s)", b);
	watch_clock_iso(0, b, sizeof b);
	ok(strcmp(b, "1970-01-01T00:00:00.000Z") == 0, "the epoch (%s)", b);
	watch_clock_iso_secs(LATE_NS + 999999999, b, sizeof b);
	ok(strcmp(b, "2026-12-01T23:59:59Z") == 0, "to the second, never rounded up (%s)", b);
	watch_clock_hms(LATE_NS, b, sizeof b);
	ok(strcmp(b, "23:59:59") == 0, "HH:MM:SS (%s)", b);
	watch_clock_date(LATE_NS + 1000 * MS, b, sizeof b);
	ok(strcmp(b, "2026-12-02") == 0, "the date a second later (%s)", b);
	ok(watch_clock_new_date(&day, LATE_NS) && !watch_clock_new_date(&day, LATE_NS + 999 * MS),
	    "a first stamp is a new date; the same day is not");
	ok(watch_clock_new_date(&day, LATE_NS + 1000 * MS), "midnight: a new date");
	ok(watch_clock_new_date(&day, LATE_NS), "the clock set back over midnight: a new date");
	ok(watch_clock_wall_at(LATE_NS, 50 * MS, 20 * MS) == LATE_NS - 30 * MS,
	    "the wall clock 30 ms ago, from both clocks read now");
	/* An interval's end stamp: the wall clock at slot time 0 plus its end. */
	watch_tally_add(t, 100 * US, false);
	watch_tally_close(t, UINT64_MAX, LATE_NS, &f);
	ok(f.end_wall_ns == LATE_NS + 1000 * MS, "an interval's stamp is its end");
	watch_tally_close(t, 1500 * MS, LATE_NS + 7 * MS, &f);
	ok(f.end_wall_ns == LATE_NS + 1507 * MS, "... the cut, for the last, by the clock now");
	watch_tally_close(t, UINT64_MAX, 0, &f);
	ok(f.end_wall_ns == 0, "... unknown when the clock is");
	free(t);
}

/* An interval line and a stall line as text, the first of a new date after
 * a line of the date. */
static void
test_stamped_lines(void)
{
	struct watch_setup setup;
	struct watch_figures f = point(3, 900.0, 1200.0);
	struct watch_stall st = { 2500 * MS, 1500 * MS, LATE_NS + 2000 * MS, true };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (out == NULL)
		exit(99);
	memset(&setup, 0, sizeof setup);
	setup.method = method_find("fdatasync");
	setup.block_bytes = 8192;
	setup.interval_ns = 1000 * MS;
	f.end_wall_ns = LATE_NS;
	f.p50_usecs = 400.0;
	watch_report_interval(out, &watch_formats[0], &setup, &f);
	watch_report_stall(out, &watch_formats[0], &st);
	fclose(out);
	ok(strcmp(text, "23:59:59         3       10       400       900      1200      0      0\n"
	    "2026-12-02 (UTC)\n"
	    "00:00:01 stall [stall]: a commit took 1.500 s, from 2.500 s\n") == 0,
	    "the time first, the date before the first line of a date:\n%s", text);
	free(text);
}

/* The histogram's buckets, and the live metrics written from a tally. */
static void
test_live_metrics(void)
{
	struct watch_tally *t = new_tally(20 * MS, 1000 * MS);
	struct watch_setup setup;
	struct watch_figures f;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	ok(watch_bucket_of(0) == 0 && watch_bucket_of(20 * US) == 0 &&
	    watch_bucket_of(20 * US + 1) == 1, "20 us is in le=20us; a ns more is not");
	ok(watch_bucket_of(10 * MS) == 8 && watch_bucket_le_ns[8] == 10 * MS,
	    "10 ms, etcd's p99 limit, is a bound of its own");
	ok(watch_bucket_of(10000 * MS) == WATCH_BUCKETS - 1 &&
	    watch_bucket_of(10000 * MS + 1) == WATCH_BUCKETS, "over 10 s: only +Inf");
	memset(&setup, 0, sizeof setup);
	setup.path = "/srv/a\"b";
	setup.method = method_find("fdatasync");
	setup.rate = 0;
	watch_tally_add(t, 15 * US, false);
	watch_tally_add(t, 700 * US, false);
	watch_tally_add(t, 700 * US, false);
	watch_tally_add(t, 12000 * MS, true);
	out = open_memstream(&text, &len);
	if (out == NULL)
		exit(99);
	watch_metrics_live(out, &setup, t, NULL);
	fflush(out);
	ok(strstr(text, "le=\"+Inf\"} 0\n") != NULL && strstr(text, "_p99_") == NULL,
	    "nothing closed yet: nothing counted, no interval's figures");
	watch_tally_close(t, UINT64_MAX, 0, &f);
	rewind(out);
	watch_metrics_live(out, &setup, t, &f);
	fputc('\0', out);
	fclose(out);
	ok(strstr(text, "syncprobe_watch_operation_seconds_bucket{target=\"/srv/a\\\"b\","
	    "method=\"fdatasync\",rate=\"max\",le=\"2e-05\"} 1\n") != NULL,
	    "the first bucket, labelled, the path escaped, back to back as max");
	ok(strstr(text, "le=\"0.0005\"} 1\n") != NULL && strstr(text, "le=\"0.001\"} 3\n") != NULL &&
	    strstr(text, "le=\"10\"} 3\n") != NULL && strstr(text, "le=\"+Inf\"} 4\n") != NULL,
	    "cumulative buckets; the 12 s stall only in +Inf");
	ok(strstr(text, "_count{target=\"/srv/a\\\"b\",method=\"fdatasync\",rate=\"max\"} 4\n")
	    != NULL && strstr(text, "_sum{target=\"/srv/a\\\"b\",method=\"fdatasync\","
	    "rate=\"max\"} 12.001415\n") != NULL, "the count and the sum in seconds");
	ok(strstr(text, "syncprobe_watch_stalls_total{") != NULL &&
	    strstr(text, "# TYPE syncprobe_watch_stalls_total counter\n") != NULL &&
	    strstr(text, "syncprobe_watch_interval_max_seconds{target=\"/srv/a\\\"b\","
	    "method=\"fdatasync\",rate=\"max\"} 12\n") != NULL,
	    "counters, and the last interval's max as a gauge:\n%s", text);
	free(text);
	free(t);
}

/* The status line a terminal shows while an interval fills. */
static void
test_status(void)
{
	struct watch_tally *t = new_tally(20 * MS, 10000 * MS);
	char b[160];

	watch_report_status(b, sizeof b, LATE_NS, t, LATE_NS + 6000 * MS);
	ok(strcmp(b, "23:59:59 interval 1: 0 operations; its line at 00:00:05 UTC") == 0,
	    "nothing yet: %s", b);
	watch_tally_add(t, 300 * US, false);
	watch_tally_add(t, 1200 * US, false);
	watch_report_status(b, sizeof b, LATE_NS, t, LATE_NS + 6000 * MS);
	ok(strcmp(b, "23:59:59 interval 1: 2 operations, longest 1.20 ms; its line at "
	    "00:00:05 UTC") == 0, "two operations: %s", b);
	free(t);
}

int
main(void)
{
	test_slots();
	test_tally();
	test_partial_worst();
	test_back_to_back();
	test_summary();
	test_parse();
	test_plot_points();
	test_plot_partial();
	test_week();
	test_plot_draw();
	test_clock();
	test_stamped_lines();
	test_live_metrics();
	test_status();
	return tap_done();
}
