/* histogram.c: drawing a row's latency distribution in the terminal, and
 * the --histogram row list. */
#include "config.h"

#include "report/histogram.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe/method.h"
#include "probe/plan.h"
#include "report/report.h"

#define LIST_NAME_LEN  ROW_NAME_LEN
#define MIN_BAR        8	/* below this a bar says nothing */
#define RANGE_LABEL_LEN 64
#define MIN_LABEL_W    16	/* so that most rows' bars are as wide */
#define MIN_COUNT_W    6

/* The last stats bucket a range may end at so that the ranges after it
 * still get one bucket each. */
static unsigned
clamp_edge(unsigned want, unsigned prev, unsigned last_end, size_t ranges_after)
{
	if (want <= prev)
		want = prev + 1;
	if (want > last_end - ranges_after)
		want = last_end - (unsigned)ranges_after;
	return want;
}

size_t
histogram_ranges(const struct stats *s, struct histogram_range *out)
{
	unsigned edge[HISTOGRAM_MAX_LINES + 1], first, last, b;
	unsigned p50 = stats_bucket_of((uint64_t)stats_percentile_ns(s, 50.0));
	unsigned p99 = stats_bucket_of((uint64_t)stats_percentile_ns(s, 99.0));
	double lo, ratio;
	size_t n, k;

	if (s->count == 0)
		return 0;
	first = stats_bucket_of(s->min_ns);
	last = stats_bucket_of(s->max_ns);
	n = last - first + 1 < HISTOGRAM_MAX_LINES ? last - first + 1 : HISTOGRAM_MAX_LINES;
	/* Edges spaced evenly on a log scale from min to max, each moved to
	 * the stats bucket holding it; every range at least one bucket. */
	lo = s->min_ns > 0 ? (double)s->min_ns : 1.0;
	ratio = (double)s->max_ns / lo;
	edge[0] = first;
	edge[n] = last + 1;
	for (k = 1; k < n; k++) {
		double v = lo * pow(ratio > 1.0 ? ratio : 1.0, (double)k / (double)n);

		edge[k] = clamp_edge(stats_bucket_of((uint64_t)v), edge[k - 1], last + 1, n - k);
	}
	for (k = 0; k < n; k++) {
		struct histogram_range *r = &out[k];

		memset(r, 0, sizeof *r);
		r->lo_ns = k == 0 ? s->min_ns : stats_bucket_low(edge[k]);
		r->hi_ns = k == n - 1 ? s->max_ns : stats_bucket_low(edge[k + 1]);
		for (b = edge[k]; b < edge[k + 1]; b++)
			r->count += s->buckets[b];
		r->p50 = p50 >= edge[k] && p50 < edge[k + 1];
		r->p99 = p99 >= edge[k] && p99 < edge[k + 1];
	}
	return n;
}

/* "[201.7, 232.4)", or with "]" for the last range, which holds its max. */
static int
range_label(const struct histogram_range *r, bool last, char *buf, size_t len)
{
	char lo[32], hi[32];

	units_format_latency(row_usecs((double)r->lo_ns), LATENCY_FIGURE, lo, sizeof lo);
	units_format_latency(row_usecs((double)r->hi_ns), LATENCY_FIGURE, hi, sizeof hi);
	return snprintf(buf, len, "[%s, %s%c", lo, hi, last ? ']' : ')');
}

static int
digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void
histogram_draw(FILE *out, const struct stats *s, int indent, int width)
{
	struct histogram_range r[HISTOGRAM_MAX_LINES];
	char label[RANGE_LABEL_LEN];
	size_t n = histogram_ranges(s, r), k;
	uint64_t most = 0;
	int label_w = MIN_LABEL_W, count_w, bar_w;

	if (n == 0)
		return;
	for (k = 0; k < n; k++) {
		int w = range_label(&r[k], k == n - 1, label, sizeof label);

		if (w > label_w)
			label_w = w;
		if (r[k].count > most)
			most = r[k].count;
	}
	count_w = digits(most) > MIN_COUNT_W ? digits(most) : MIN_COUNT_W;
	/* indent, label, " |", bar, "| ", count, " ", "100.0%", " p50 p99" */
	bar_w = width - (indent + label_w + 2 + 2 + count_w + 1 + 6 + 8);
	if (bar_w > HISTOGRAM_MAX_BAR)
		bar_w = HISTOGRAM_MAX_BAR;
	if (bar_w < MIN_BAR)
		bar_w = MIN_BAR;
	for (k = 0; k < n; k++) {
		int bar = (int)((double)bar_w * (double)r[k].count / (double)most + 0.5);
		double pct = 100.0 * (double)r[k].count / (double)s->count;
		char share[16];

		if (bar == 0 && r[k].count > 0)
			bar = 1;
		/* A few operations among thousands are not none. */
		if (r[k].count > 0 && pct < 0.05)
			snprintf(share, sizeof share, "<0.1%%");
		else
			snprintf(share, sizeof share, "%.1f%%", pct);
		range_label(&r[k], k == n - 1, label, sizeof label);
		fprintf(out, "%*s%*s |%.*s%*s| %*llu %6s%s%s\n", indent, "", label_w, label,
		    bar, "########################################", bar_w - bar, "",
		    count_w, (unsigned long long)r[k].count, share,
		    r[k].p50 ? " p50" : "", r[k].p99 ? " p99" : "");
	}
}

/* Whether one name of the list picks the row. */
static bool
name_selects(const char *name, const struct row_spec *spec)
{
	if (strcmp(name, HISTOGRAM_ALL) == 0 || strcmp(name, spec->name) == 0)
		return true;
	if (spec->method != NULL && strcmp(name, spec->method->name) == 0)
		return true;
	return strcmp(name, plan_group_name(spec->group)) == 0;
}

/* The i-th name of a comma-separated list into buf; false past the end. */
static bool
list_item(const char *list, size_t i, char *buf, size_t len)
{
	const char *p = list;
	size_t n;

	while (i-- > 0) {
		p = strchr(p, ',');
		if (p == NULL)
			return false;
		p++;
	}
	n = strcspn(p, ",");
	snprintf(buf, len, "%.*s", (int)n, p);
	return true;
}

bool
histogram_selects(const char *list, const struct row_spec *spec)
{
	char name[LIST_NAME_LEN];
	size_t i;

	if (list == NULL)
		return false;
	for (i = 0; list_item(list, i, name, sizeof name); i++)
		if (name_selects(name, spec))
			return true;
	return false;
}

int
histogram_check_rows(const struct options *o, char *err, size_t errlen)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	size_t n, i, r;
	char name[LIST_NAME_LEN];

	if (o->histogram == NULL)
		return 0;
	n = plan_build(o, specs, PLAN_MAX_ROWS);
	for (i = 0; list_item(o->histogram, i, name, sizeof name); i++) {
		for (r = 0; r < n && !name_selects(name, &specs[r]); r++)
			;
		if (r == n) {
			snprintf(err, errlen, "--histogram '%s': names no row of this run (give "
			    "a method, a test group or a row name as printed)", name);
			return -1;
		}
	}
	return 0;
}
