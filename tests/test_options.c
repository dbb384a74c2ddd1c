/* test_options.c: size, duration, count and list parsing, exactly. */
#include "config.h"

#include <string.h>

#include "probe/method.h"
#include "probe/options.h"
#include "probe/plan.h"
#include "report/report.h"
#include "tap.h"

static char err[ERRBUF_LEN];

static void
check_size(const char *s, uint64_t want)
{
	uint64_t got = 0;
	int rc = units_parse_size(s, &got, err, sizeof err);

	ok(rc == 0 && got == want, "size '%s' = %llu (got %llu, rc %d)", s,
	    (unsigned long long)want, (unsigned long long)got, rc);
}

static void
refuse_size(const char *s)
{
	uint64_t got = 0;

	ok(units_parse_size(s, &got, err, sizeof err) == -1 && err[0] != '\0',
	    "size '%s' refused (%s)", s, err);
}

static void
check_duration(const char *s, uint64_t want_ns)
{
	uint64_t got = 0;
	int rc = units_parse_duration(s, &got, err, sizeof err);

	ok(rc == 0 && got == want_ns, "duration '%s' = %llu ns (got %llu)", s,
	    (unsigned long long)want_ns, (unsigned long long)got);
}

static void
refuse_duration(const char *s)
{
	uint64_t got = 0;

	ok(units_parse_duration(s, &got, err, sizeof err) == -1 && err[0] != '\0',
	    "duration '%s' refused (%s)", s, err);
}

/* Never rounded: finer than a nanosecond is refused, whatever the unit
 * (a want of 0: refused); trailing zeros are exact. */
static void
check_exact_durations(void)
{
	static const struct {
		const char *s;
		uint64_t ns;	/* 0: refused */
	} cases[] = {
		{ "1.0000000001", 0 }, { "3600.0000000001", 0 }, { "1.0000005ms", 0 },
		{ "1.0005us", 0 }, { "0.0001us", 0 },
		{ "1.0000000000", 1000000000ULL }, { "3600.000000000000", 3600000000000ULL },
		{ "1.5000000000000000000000000000", 1500000000ULL },
		{ "1.000001ms", 1000001ULL }, { "1.000ms", 1000000ULL }, { "1.5us", 1500ULL },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (cases[i].ns == 0)
			refuse_duration(cases[i].s);
		else
			check_duration(cases[i].s, cases[i].ns);
}

/* A longer limit (watch --for's week) moves only the upper bound: the
 * same grammar, the same floor, and a refusal that names the limit. */
static void
check_duration_upto(void)
{
	const uint64_t week = 7ULL * 24 * 3600 * 1000000000ULL;
	uint64_t got = 0;

	ok(units_parse_duration_upto("604800", week, &got, err, sizeof err) == 0 && got == week,
	    "a week up to a week: accepted");
	ok(units_parse_duration_upto("3601", week, &got, err, sizeof err) == 0 &&
	    got == 3601000000000ULL, "3601 s up to a week: accepted");
	ok(units_parse_duration_upto("604800.000000001", week, &got, err, sizeof err) == -1 &&
	    strcmp(err, "too long (at most 604800s)") == 0,
	    "a nanosecond over a week: refused, naming the week (%s)", err);
	ok(units_parse_duration_upto("604801s", week, &got, err, sizeof err) == -1,
	    "604801s up to a week: refused");
	ok(units_parse_duration_upto("0.5us", week, &got, err, sizeof err) == -1,
	    "under 1us: refused as before");
	ok(units_parse_duration("3601", &got, err, sizeof err) == -1,
	    "3601 s: still refused where the limit is an hour");
}

/* --wal-sync-method takes a method this system has; one it lacks is
 * refused, naming those it has, from the table. */
static void
check_wal_method(void)
{
	const struct method *m = NULL;
	char have[256] = "";
	size_t i;

	for (i = 0; i < METHOD_COUNT; i++)
		if (method_unavailable(&method_table[i]) == NULL)
			snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
			    have[0] ? ", " : "", method_table[i].name);
	for (i = 0; i < METHOD_COUNT; i++) {
		const struct method *t = &method_table[i];
		char want[300];
		int rc = options_parse_method(t->name, &m, err, sizeof err);

		snprintf(want, sizeof want, "not available on this system (use %s)", have);
		if (method_unavailable(t) == NULL)
			ok(rc == 0 && m == t, "--wal-sync-method %s: accepted", t->name);
		else
			ok(rc == -1 && strcmp(err, want) == 0,
			    "--wal-sync-method %s: refused here (%s)", t->name, err);
	}
}

static void
check_count(const char *s, uint64_t max, int want_rc, uint64_t want)
{
	uint64_t got = 0;
	int rc = units_parse_count(s, max, &got, err, sizeof err);

	ok(rc == want_rc && (rc != 0 || got == want), "count '%s' -> rc %d, %llu",
	    s, want_rc, (unsigned long long)want);
}

static void
test_format_round_trip(void)
{
	static const uint64_t sizes[] = { 512, 1024, 8192, 16384, 16ULL << 20, 3ULL << 30, 1000 };
	static const uint64_t durations[] = { 500000000ULL, 1000000000ULL, 2500000ULL, 7000ULL };
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		uint64_t back = 0;

		units_format_size(sizes[i], buf, sizeof buf);
		ok(units_parse_size(buf, &back, err, sizeof err) == 0 && back == sizes[i],
		    "size %llu prints as '%s' and parses back", (unsigned long long)sizes[i], buf);
	}
	for (i = 0; i < sizeof durations / sizeof durations[0]; i++) {
		uint64_t back = 0;

		units_format_duration(durations[i], buf, sizeof buf);
		ok(units_parse_duration(buf, &back, err, sizeof err) == 0 && back == durations[i],
		    "duration %llu prints as '%s' and parses back",
		    (unsigned long long)durations[i], buf);
	}
	units_format_size(8192, buf, sizeof buf);
	ok(strcmp(buf, "8kB") == 0, "8192 prints as 8kB (%s)", buf);
	units_format_size(16ULL << 20, buf, sizeof buf);
	ok(strcmp(buf, "16MB") == 0, "16MiB prints as 16MB (%s)", buf);
	units_format_duration(500000000ULL, buf, sizeof buf);
	ok(strcmp(buf, "500ms") == 0, "half a second prints as 500ms (%s)", buf);
}

/* Each latency style at each side of each range's end. */
static void
test_format_latency(void)
{
	static const struct {
		double usecs;
		enum latency_style style;
		const char *want;
	} cases[] = {
		{ 8.254, LATENCY_FIGURE, "8.25" }, { 10.0, LATENCY_FIGURE, "10.0" },
		{ 99999.94, LATENCY_FIGURE, "99999.9" }, { 100000.0, LATENCY_FIGURE, "100000" },
		{ 99999999.0, LATENCY_FIGURE, "99999999" }, { 1e8, LATENCY_FIGURE, "1.0e+08" },
		{ 412.4, LATENCY_READING, "412 us" }, { 1234.0, LATENCY_READING, "1.23 ms" },
		{ 21500.0, LATENCY_READING, "21.5 ms" }, { 1503000.0, LATENCY_READING, "1.503 s" },
		{ 999.0, LATENCY_AXIS, "999us" }, { 1234.0, LATENCY_AXIS, "1.2ms" },
		{ 21500.0, LATENCY_AXIS, "22ms" }, { 1503000.0, LATENCY_AXIS, "1.5s" },
		{ 9870.0, LATENCY_MS, "9.87 ms" }, { 2e9, LATENCY_MS, "2000000.00 ms" },
		{ 9870.0, LATENCY_MS_FIGURE, "9.87" }, { 2e9, LATENCY_MS_FIGURE, "2e+06" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		units_format_latency(cases[i].usecs, cases[i].style, buf, sizeof buf);
		ok(strcmp(buf, cases[i].want) == 0, "latency %g us, style %d: '%s' (got '%s')",
		    cases[i].usecs, (int)cases[i].style, cases[i].want, buf);
	}
}

static void
test_lists(void)
{
	unsigned bits = 0;

	ok(plan_parse_groups("one,nosync", &bits, err, sizeof err) == 0 &&
	    bits == ((1u << GROUP_ONE) | (1u << GROUP_NOSYNC)), "tests one,nosync");
	ok(plan_parse_groups("all", &bits, err, sizeof err) == 0 &&
	    bits == (1u << GROUP_COUNT) - 1 && bits == plan_all_groups(), "tests all");
	ok(plan_parse_groups("one,,two", &bits, err, sizeof err) == -1, "empty list item refused");
	ok(plan_parse_groups("one,bogus", &bits, err, sizeof err) == -1 &&
	    strstr(err, "'bogus'") != NULL, "unknown test named in the error (%s)", err);
	ok(plan_parse_groups("", &bits, err, sizeof err) == -1, "empty list refused");
	ok(options_parse_methods("fdatasync,open_sync", &bits, err, sizeof err) == 0 &&
	    bits == ((1u << method_index(method_find("fdatasync"))) |
	    (1u << method_index(method_find("open_sync")))), "methods fdatasync,open_sync");
	ok(options_parse_methods("fdatasync,", &bits, err, sizeof err) == -1, "trailing comma refused");
	ok(options_parse_methods("FSYNC", &bits, err, sizeof err) == -1, "names are case-sensitive");
}

static void
test_choices(void)
{
	enum direct_mode d;
	enum pattern p;
	const struct report_format *f;

	ok(options_parse_direct("off", &d, err, sizeof err) == 0 && d == DIRECT_OFF, "direct off");
	ok(options_parse_direct("yes", &d, err, sizeof err) == -1 &&
	    strstr(err, "both, on, off") != NULL, "direct yes refused, choices listed (%s)", err);
	ok(options_parse_pattern("append", &p, err, sizeof err) == 0 && p == PATTERN_APPEND, "pattern append");
	ok(options_parse_pattern("random", &p, err, sizeof err) == -1, "pattern random refused");
	ok(report_format_parse("json", &f, err, sizeof err) == 0 && strcmp(f->name, "json") == 0,
	    "format json");
	ok(report_format_parse("xml", &f, err, sizeof err) == -1 &&
	    strstr(err, "text, json, conf") != NULL, "format xml refused, formats listed (%s)", err);
}

static void
test_validate(void)
{
	struct options o;

	options_defaults(&o);
	o.groups = plan_default_groups();
	ok(plan_validate(&o, err, sizeof err) == 0, "defaults are valid");
	ok(plan_min_file_bytes(&o) == 16384, "default groups need a 16kB file");
	ok(options_check_file_size(16383, plan_min_file_bytes(&o), "the chosen tests", err,
	    sizeof err) == -1 && strcmp(err, "--file-size '16383B': too small for the chosen "
	    "tests (at least 16kB)") == 0, "file one byte too small refused, minimum named (%s)",
	    err);
	ok(options_check_file_size(65ULL << 30, 0, "x", err, sizeof err) == -1 &&
	    strcmp(err, "--file-size '65GB': too large (at most 64GB)") == 0,
	    "a file over 64GB refused, the limit named (%s)", err);
	o.groups = 1u << GROUP_ONE;
	ok(plan_min_file_bytes(&o) == 8192, "8kB file is enough for 'one'");
	o.groups = 1u << GROUP_TWO;
	ok(plan_min_file_bytes(&o) == 16384, "8kB file too small for 'two'");
	options_defaults(&o);
	o.groups = plan_default_groups();
	o.methods = 1u << method_index(method_find("fsync"));
	o.wal_method = method_find("fdatasync");
	ok(plan_validate(&o, err, sizeof err) == -1 && strstr(err, "fdatasync") != NULL,
	    "--wal-sync-method outside --methods refused (%s)", err);
	options_defaults(&o);
	o.groups = plan_default_groups();
	o.filename = "x";
	o.ntargets = 1;
	ok(plan_validate(&o, err, sizeof err) == -1, "-f with a TARGET refused");
}

/* The article before a figure, as the figure is read aloud. */
static void
test_article(void)
{
	static const char *const an[] = { "8", "81", "8kB", "800", "8.5", "11", "18",
	    "11000", "18500", "8000000" };
	static const char *const a[] = { "1", "7", "10", "12", "64kB", "110", "180",
	    "1100", "1800", "110000", "", "us" };
	size_t i;

	for (i = 0; i < sizeof an / sizeof an[0]; i++)
		ok(strcmp(units_article(an[i]), "an") == 0, "an %s", an[i]);
	for (i = 0; i < sizeof a / sizeof a[0]; i++)
		ok(strcmp(units_article(a[i]), "a") == 0, "a %s", a[i]);
}

int
main(void)
{
	test_article();
	check_size("8192", 8192);
	check_size("8k", 8192);
	check_size("8K", 8192);
	check_size("8KiB", 8192);
	check_size("8kB", 8192);
	check_size("16M", 16777216);
	check_size("16MiB", 16777216);
	check_size("1G", 1073741824);
	check_size("0", 0);
	refuse_size("");
	refuse_size("k");
	refuse_size("-8k");
	refuse_size("+8k");
	refuse_size(" 8k");
	refuse_size("8k ");
	refuse_size("8x");
	refuse_size("8.5k");
	refuse_size("1e3");
	refuse_size("99999999999999999999");
	refuse_size("18014398509481984k");	/* 2^54 k overflows 64 bits */

	check_duration("5", 5000000000ULL);
	check_duration("1.5", 1500000000ULL);
	check_duration("1.5s", 1500000000ULL);
	check_duration("500ms", 500000000ULL);
	check_duration("250us", 250000ULL);
	check_duration("0.001", 1000000ULL);
	check_duration("3600", 3600000000000ULL);
	check_exact_durations();
	check_duration_upto();
	check_wal_method();
	refuse_duration("0");
	refuse_duration("0.0000001");
	refuse_duration("-1");
	refuse_duration("abc");
	refuse_duration("1x");
	refuse_duration("1e999");
	refuse_duration("nan");
	refuse_duration("inf");
	refuse_duration("1.");
	refuse_duration(".5");
	refuse_duration("3601");
	refuse_duration("99999999999999999999");
	refuse_duration("");
	refuse_duration("5 s");

	check_count("200", 1000, 0, 200);
	check_count("1000", 1000, 0, 1000);
	check_count("1001", 1000, -1, 0);
	check_count("0", 1000, -1, 0);
	check_count("-5", 1000, -1, 0);
	check_count("99999999999999999999", UINT64_MAX, -1, 0);
	check_count("12a", 1000, -1, 0);
	check_count("", 1000, -1, 0);

	test_format_round_trip();
	test_format_latency();
	test_lists();
	test_choices();
	test_validate();
	return tap_done();
}
