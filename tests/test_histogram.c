/* test_histogram.c: the --histogram drawing and its row list. Every
 * drawing fits 80 columns, however extreme the row (1 ns to centuries, one
 * operation, every operation in one bucket, billions of them), its ranges
 * cover min to max without a gap, and their counts add up to the row's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/histogram.h"
#include "probe/method.h"
#include "probe/options.h"
#include "probe/plan.h"
#include "tap.h"

#define WIDTH 79

/* The drawing of s, and its longest line. */
static size_t
widest_line(const struct stats *s, size_t *lines)
{
	char *buf = NULL, *p, *nl;
	size_t len = 0, widest = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		exit(99);
	histogram_draw(f, s, 4, WIDTH);
	fclose(f);
	*lines = 0;
	for (p = buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		if ((size_t)(nl - p) > widest)
			widest = (size_t)(nl - p);
		(*lines)++;
	}
	free(buf);
	return widest;
}

/* The ranges of s cover [min, max] in order, and count all of it. */
static void
check_ranges(const char *what, const struct stats *s, size_t want_max_lines)
{
	struct histogram_range r[HISTOGRAM_MAX_LINES];
	size_t n = histogram_ranges(s, r), k, lines, widest;
	uint64_t sum = 0;
	bool joined = true, p50 = false, p99 = false;

	for (k = 0; k < n; k++) {
		sum += r[k].count;
		if (k > 0 && r[k].lo_ns != r[k - 1].hi_ns)
			joined = false;
		p50 |= r[k].p50;
		p99 |= r[k].p99;
	}
	ok(n >= 1 && n <= want_max_lines, "%s: %zu ranges (at most %zu)", what, n, want_max_lines);
	ok(sum == s->count, "%s: the ranges count every operation (%llu of %llu)", what,
	    (unsigned long long)sum, (unsigned long long)s->count);
	ok(n > 0 && r[0].lo_ns == s->min_ns && r[n - 1].hi_ns == s->max_ns && joined,
	    "%s: from min to max without a gap", what);
	ok(p50 && p99, "%s: p50 and p99 are marked", what);
	widest = widest_line(s, &lines);
	ok(widest <= WIDTH && lines == n, "%s: %zu lines, the widest %zu columns", what, lines, widest);
}

static void
drawings(void)
{
	static struct stats s;
	uint64_t i;

	stats_init(&s);
	ok(histogram_ranges(&s, NULL) == 0, "an empty row has no ranges");

	stats_add(&s, 123456);
	check_ranges("one operation", &s, 1);

	stats_init(&s);
	for (i = 0; i < 1000; i++)
		stats_add(&s, 100000 + i % 7);
	check_ranges("every operation in one bucket", &s, 1);

	stats_init(&s);
	for (i = 0; i < 5000; i++)
		stats_add(&s, 60000 + (i * 7919) % 200000);
	check_ranges("a spread of latencies", &s, HISTOGRAM_MAX_LINES);

	stats_init(&s);
	stats_add(&s, 1);
	stats_add(&s, 2);
	stats_add(&s, UINT64_MAX / 3);
	check_ranges("1 ns to centuries", &s, HISTOGRAM_MAX_LINES);

	stats_init(&s);
	stats_add(&s, 0);
	stats_add(&s, 5);
	check_ranges("a zero latency", &s, HISTOGRAM_MAX_LINES);

	/* Billions of operations: the count column grows, the line does not. */
	stats_init(&s);
	stats_add(&s, 1000);
	stats_add(&s, 900000000000ULL);
	s.buckets[stats_bucket_of(1000)] += 4000000000u;
	s.count += 4000000000ULL;
	check_ranges("four billion operations", &s, HISTOGRAM_MAX_LINES);
}

static struct row_spec
row(const char *method, bool direct, enum group g)
{
	struct row_spec spec;

	row_spec_method(&spec, g, method_find(method), direct, 1, 8192);
	return spec;
}

static void
selection(void)
{
	struct row_spec fd = row("fdatasync", false, GROUP_ONE);
	struct row_spec fdd = row("fdatasync", true, GROUP_TWO);
	struct options o;
	char err[ERRBUF_LEN];

	ok(!histogram_selects(NULL, &fd), "no list: no histogram");
	ok(histogram_selects(HISTOGRAM_ALL, &fd), "all: every row");
	ok(histogram_selects("fdatasync", &fd) && histogram_selects("fdatasync", &fdd),
	    "a method: its rows, buffered and direct, in every group");
	ok(histogram_selects("fdatasync (direct)", &fdd) && !histogram_selects("fdatasync (direct)", &fd),
	    "a row name as printed: that row");
	ok(histogram_selects("two", &fdd) && !histogram_selects("two", &fd), "a group: its rows");
	ok(histogram_selects("fsync,one", &fd) && !histogram_selects("fsync,open_sync", &fd),
	    "a comma list: any of its names");
	ok(!histogram_selects("fdatasyn", &fd) && !histogram_selects("", &fd),
	    "a near miss or nothing selects nothing");

	options_defaults(&o);
	o.groups = plan_default_groups();
	o.histogram = "fdatasync,sizes";
	ok(histogram_check_rows(&o, err, sizeof err) == 0, "--histogram=fdatasync,sizes is fine");
	o.groups = 1u << GROUP_ONE;
	ok(histogram_check_rows(&o, err, sizeof err) == -1 &&
	    strcmp(err, "--histogram 'sizes': names no row of this run (give a method, a test "
	    "group or a row name as printed)") == 0,
	    "a group the run leaves out is refused, named (%s)", err);
	o.histogram = "fdatasync,,fsync";
	ok(histogram_check_rows(&o, err, sizeof err) == -1, "an empty name is refused");
}

int
main(void)
{
	drawings();
	selection();
	return tap_done();
}
