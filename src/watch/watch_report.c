/* watch_report.c: every format of watch's output. Each printer reads the
 * figures computed once in watch_interval.c and watch_result.c. */
#include "config.h"

#include "watch/watch_report.h"

#include <string.h>

#include "advice/warnings.h"
#include "report/report.h"
#include "probe/row.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/names.h"
#include "util/strbuf.h"
#include "util/units.h"
#include "util/wrap.h"
#include "watch/watch_clock.h"
#include "watch/watch_metrics.h"

#define LINE_WIDTH 80
/* The header's sentences: as narrow as the interval lines, so that they
 * read as one block (and the manual can show them as they are). */
#define HEADER_WIDTH 71

/* Decimals that show the interval's ends exactly: 0 for whole seconds. */
static int
time_decimals(uint64_t interval_ns)
{
	int d = 0;
	uint64_t unit = NSEC_PER_SEC;

	while (d < 3 && interval_ns % unit != 0) {
		unit /= 10;
		d++;
	}
	return d;
}

void
watch_describe_op(const struct watch_setup *s, char *buf, size_t len)
{
	char size[16];

	units_format_size(s->block_bytes, size, sizeof size);
	if (method_syncs_apart(s->method))
		snprintf(buf, len, "one %s write + %s", size, method_sync_op(s->method));
	else
		snprintf(buf, len, "one %s %s write", size, s->method->name);
}

/* What the load adds to the disk, at its rate: a sync is a flush of the
 * disk's cache that the server's own commits queue with. */
static void
text_load(FILE *out, const struct watch_setup *s)
{
	char size[16], line[256];

	if (s->rate == 0) {
		wrap_print(out, 0, 2, HEADER_WIDTH, "adds syncs back to back, as many as the disk "
		    "takes: a full load, never for a disk a busy server commits on", false);
		return;
	}
	units_format_size((uint64_t)s->block_bytes * s->rate, size, sizeof size);
	snprintf(line, sizeof line, "adds %llu syncs and %s of writes a second to this disk, "
	    "beside its server's own (keep --rate low on a busy primary)",
	    (unsigned long long)s->rate, size);
	wrap_print(out, 0, 2, HEADER_WIDTH, line, false);
}

static void
text_start(FILE *out, const struct watch_setup *s)
{
	char path[ESCAPE_LEN(PATH_MAX)], op[96], ivl[32], stall[32], dur[32];
	char mean[32], p50[32], p99[32], max[32], when[32], line[ESCAPE_LEN(PATH_MAX) + 128];

	escape_for_terminal(s->path, path, sizeof path);
	fprintf(out, "syncprobe watch %s: %s", PACKAGE_VERSION, path);
	if (s->filesystem != NULL)
		fprintf(out, " on %s", s->filesystem);
	fputc('\n', out);
	watch_clock_iso_secs(s->start_wall_ns, when, sizeof when);
	fprintf(out, "started %s; times UTC\n", when);
	watch_describe_op(s, op, sizeof op);
	units_format_duration(s->interval_ns, ivl, sizeof ivl);
	units_format_duration(s->stall_ns, stall, sizeof stall);
	snprintf(line, sizeof line, "commit: %s, %s (%s)", op, options_pattern_name(s->pattern),
	    s->method_source == WATCH_METHOD_OPTION ? "-m" :
	    "PostgreSQL's default wal_sync_method here; -m for another");
	wrap_print(out, 0, 2, HEADER_WIDTH, line, false);
	if (s->rate)
		fprintf(out, "%llu a second", (unsigned long long)s->rate);
	else
		fprintf(out, "back to back");
	if (s->for_ns) {
		units_format_duration(s->for_ns, dur, sizeof dur);
		fprintf(out, " for %s", dur);
	} else {
		fprintf(out, " until interrupted");
	}
	fprintf(out, ", a line every %s, stalls over %s\n", ivl, stall);
	text_load(out, s);
	if (s->textfile != NULL) {
		escape_for_terminal(s->textfile, path, sizeof path);
		snprintf(line, sizeof line, "live metrics: %s, replaced after every interval",
		    path);
		wrap_print(out, 0, 2, HEADER_WIDTH, line, false);
	}
	units_format_latency(s->burst.mean_usecs, LATENCY_READING, mean, sizeof mean);
	units_format_latency(s->burst.p50_usecs, LATENCY_READING, p50, sizeof p50);
	units_format_latency(s->burst.p99_usecs, LATENCY_READING, p99, sizeof p99);
	units_format_latency(s->burst.max_usecs, LATENCY_READING, max, sizeof max);
	fprintf(out, "back to back first: %llu operations in %.2f s:\n"
	    "  mean %s, p50 %s, p99 %s, max %s\n\n", (unsigned long long)s->burst.ops,
	    s->burst_secs, mean, p50, p99, max);
	fprintf(out, "%8s %9s %8s %9s %9s %9s %6s %6s\n", "time", "secs", "ops", "p50 us",
	    "p99 us", "max us", "missed", "stalls");
}

/* The time a line starts with, after a line of the date when it is the
 * first of its date. */
static void
put_time(FILE *out, uint64_t wall_ns, bool new_date)
{
	char buf[32];

	if (new_date) {
		watch_clock_date(wall_ns, buf, sizeof buf);
		fprintf(out, "%s (UTC)\n", buf);
	}
	watch_clock_hms(wall_ns, buf, sizeof buf);
	fprintf(out, "%8s", buf);
}

/* "time": when, in ISO 8601 UTC to the millisecond. */
static void
json_time(struct json *j, uint64_t wall_ns)
{
	char buf[40];

	watch_clock_iso(wall_ns, buf, sizeof buf);
	json_string(j, "time", buf);
}

/* Where interval f starts and ends, how long it lasted, and whether it
 * was cut short. */
static void
json_interval_span(struct json *j, const struct watch_figures *f)
{
	json_time(j, f->end_wall_ns);
	json_double(j, "start_secs", row_secs(f->start_ns), 3);
	json_double(j, "end_secs", row_secs(f->end_ns), 3);
	json_double(j, "secs", row_secs(f->end_ns - f->start_ns), 3);
	json_bool(j, "partial", f->partial);
}

/* The operations of f and their latency in microseconds, an object named
 * usecs as the probe's rows have (an interval's: its mean, p50, p99 and
 * max), null where nothing ran. */
static void
json_figures(struct json *j, const struct watch_figures *f, bool all)
{
	struct { const char *key; double v; bool all; } k[] = {
		{ "mean", f->mean_usecs, false }, { "min", f->min_usecs, true },
		{ "p50", f->p50_usecs, false }, { "p90", f->p90_usecs, true },
		{ "p99", f->p99_usecs, false }, { "p999", f->p999_usecs, true },
		{ "max", f->max_usecs, false },
	};
	size_t i;

	json_uint(j, "ops", f->ops);
	if (f->ops == 0) {
		json_null(j, "usecs");
		return;
	}
	json_begin_object(j, "usecs");
	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		if (all || !k[i].all)
			json_double(j, k[i].key, k[i].v, 3);
	json_end_object(j);
}

static void
json_setup(struct json *j, const struct watch_setup *s)
{
	json_string(j, "path", s->path);
	json_string(j, "filesystem", s->filesystem);
	json_string(j, "method", s->method->name);
	json_string(j, "method_source", s->method_source == WATCH_METHOD_OPTION ? "option" :
	    "server_default");
	json_uint(j, "block_bytes", s->block_bytes);
	json_uint(j, "file_bytes", s->file_bytes);
	json_string(j, "pattern", options_pattern_name(s->pattern));
	if (s->rate)
		json_uint(j, "rate_per_sec", s->rate);
	else
		json_null(j, "rate_per_sec");
	if (s->for_ns)
		json_double(j, "for_secs", row_secs(s->for_ns), 3);
	else
		json_null(j, "for_secs");
	json_double(j, "interval_secs", row_secs(s->interval_ns), 3);
	json_double(j, "stall_secs", row_secs(s->stall_ns), 3);
	json_string(j, "textfile", s->textfile);
}

static void
json_start(FILE *out, const struct watch_setup *s)
{
	struct json j;

	json_init(&j, out);
	json_begin_object_line(&j, NULL);
	json_string(&j, "type", "start");
	json_time(&j, s->start_wall_ns);
	json_uint(&j, "schema_version", WATCH_SCHEMA_VERSION);
	json_string(&j, "syncprobe_version", PACKAGE_VERSION);
	json_setup(&j, s);
	json_begin_object(&j, "back_to_back");
	json_figures(&j, &s->burst, true);
	json_double(&j, "secs", s->burst_secs, 3);
	json_end_object(&j);
	json_end_object(&j);
}


/* A latency column: whole microseconds, "-" when nothing ran. */
static void
put_usecs(FILE *out, const struct watch_figures *f, double v)
{
	if (f->ops == 0)
		fprintf(out, " %9s", "-");
	else
		fprintf(out, " %9.0f", v);
}

static void
text_interval(FILE *out, const struct watch_setup *s, const struct watch_figures *f)
{
	put_time(out, f->end_wall_ns, f->new_date);
	/* A cut-short end is where the cut was, to the millisecond. */
	fprintf(out, " %9.*f %8llu", f->partial ? 3 : time_decimals(s->interval_ns),
	    row_secs(f->end_ns), (unsigned long long)f->ops);
	put_usecs(out, f, f->p50_usecs);
	put_usecs(out, f, f->p99_usecs);
	put_usecs(out, f, f->max_usecs);
	fprintf(out, " %6llu %6llu%s\n", (unsigned long long)f->missed,
	    (unsigned long long)f->stalls, f->partial ? " partial" : "");
}

static void
json_interval(FILE *out, const struct watch_setup *s, const struct watch_figures *f)
{
	struct json j;

	(void)s;
	json_init(&j, out);
	json_begin_object_line(&j, NULL);
	json_string(&j, "type", "interval");
	json_uint(&j, "number", f->number);
	json_interval_span(&j, f);
	json_figures(&j, f, false);
	json_uint(&j, "missed_starts", f->missed);
	json_uint(&j, "stalls", f->stalls);
	json_end_object(&j);
}

/* The warning code of a stall: longer than etcd's fatal 20 s, or not. */
static const char *
stall_code(const struct watch_stall *st)
{
	return warning_codes[st->ns > WATCH_FATAL_STALL_NS ? WARNING_STALL_OVER_20S : WARNING_STALL];
}

static void
text_stall(FILE *out, const struct watch_stall *st)
{
	char dur[32], line[256], when[32];

	units_format_latency(row_usecs((double)st->ns), LATENCY_READING, dur, sizeof dur);
	if (st->new_date) {
		watch_clock_date(st->wall_ns, when, sizeof when);
		fprintf(out, "%s (UTC)\n", when);
	}
	watch_clock_hms(st->wall_ns, when, sizeof when);
	/* The header says what a commit is here. */
	snprintf(line, sizeof line, "%s stall [%s]: a commit took %s, from %.3f s", when,
	    stall_code(st), dur, row_secs(st->start_ns));
	wrap_print(out, 0, 2, LINE_WIDTH, line, false);
}

static void
json_stall(FILE *out, const struct watch_stall *st)
{
	struct json j;

	json_init(&j, out);
	json_begin_object_line(&j, NULL);
	json_string(&j, "type", "stall");
	json_time(&j, st->wall_ns);
	json_string(&j, "code", stall_code(st));
	json_double(&j, "start_secs", row_secs(st->start_ns), 6);
	json_double(&j, "duration_usecs", row_usecs((double)st->ns), 3);
	json_end_object(&j);
}

void
watch_report_status(char *buf, size_t len, uint64_t now_wall_ns,
    const struct watch_tally *t, uint64_t end_wall_ns)
{
	char now[16], end[16], longest[32];
	struct strbuf b;

	watch_clock_hms(now_wall_ns, now, sizeof now);
	watch_clock_hms(end_wall_ns, end, sizeof end);
	strbuf_init(&b, buf, len);
	strbuf_add(&b, "%s interval %llu: %llu operation%s", now,
	    (unsigned long long)t->number, (unsigned long long)t->ops, t->ops == 1 ? "" : "s");
	if (t->ops > 0) {
		units_format_latency(row_usecs((double)t->lat.max_ns), LATENCY_READING, longest,
		    sizeof longest);
		strbuf_add(&b, ", longest %s", longest);
	}
	strbuf_add(&b, "; its line at %s UTC", end);
}

static void
text_row(FILE *out, const char *name, const struct watch_figures *f)
{
	fprintf(out, "%-14s %8llu", name, (unsigned long long)f->ops);
	if (f->ops == 0) {
		fprintf(out, "  (no operations)\n");
		return;
	}
	fprintf(out, " %9.1f %8.0f %8.0f %8.0f %8.0f %8.0f\n", f->mean_usecs, f->p50_usecs,
	    f->p90_usecs, f->p99_usecs, f->p999_usecs, f->max_usecs);
}

static void
text_end(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *plot)
{
	char line[ADVICE_TEXT_LEN + 64], when[32];
	struct strbuf b;
	size_t i;

	strbuf_init(&b, line, sizeof line);
	strbuf_add(&b, "summary: %.1f s paced, %llu operations", sum->run_secs,
	    (unsigned long long)sum->paced.ops);
	if (sum->run_secs > 0.0)
		strbuf_add(&b, " (%.1f a second)", sum->paced.ops / sum->run_secs);
	strbuf_add(&b, ", %llu missed starts, %llu stalls",
	    (unsigned long long)sum->paced.missed, (unsigned long long)sum->paced.stalls);
	if (sum->stopped_by)
		strbuf_add(&b, "; stopped by %s", cleanup_signal_name(sum->stopped_by));
	if (sum->failed)
		strbuf_add(&b, "; stopped by an error");
	fputc('\n', out);
	wrap_print(out, 0, 2, LINE_WIDTH, line, false);
	fprintf(out, "%-14s %8s %9s %8s %8s %8s %8s %8s\n", "usecs", "ops", "mean", "p50",
	    "p90", "p99", "p99.9", "max");
	text_row(out, s->rate ? "paced" : "watched", &sum->paced);
	text_row(out, "back to back", &s->burst);
	if (sum->ratio > 0.0)
		fprintf(out, "paced / back to back: %.2f times the mean\n", sum->ratio);
	if (sum->have_worst) {
		watch_clock_iso_secs(sum->worst.end_wall_ns, when, sizeof when);
		snprintf(line, sizeof line, "worst interval: %.*f s to %.*f s, ending %s, "
		    "p99 %.0f us, max %.0f us (%llu operations, %llu missed starts%s)",
		    time_decimals(s->interval_ns), row_secs(sum->worst.start_ns),
		    sum->worst.partial ? 3 : time_decimals(s->interval_ns),
		    row_secs(sum->worst.end_ns), when, sum->worst.p99_usecs, sum->worst.max_usecs,
		    (unsigned long long)sum->worst.ops, (unsigned long long)sum->worst.missed,
		    sum->worst.partial ? "; cut short, the only one with operations" : "");
		wrap_print(out, 0, 2, LINE_WIDTH, line, false);
	}
	for (i = 0; i < sum->nwarnings; i++) {
		snprintf(line, sizeof line, "warning [%s]: %s", sum->warnings[i].code,
		    sum->warnings[i].message);
		wrap_print(out, 0, 2, LINE_WIDTH, line, false);
	}
	fputc('\n', out);
	watch_plot_draw(out, plot, s->plot_width, WATCH_PLOT_HEIGHT);
}

static void
json_end(FILE *out, const struct watch_setup *s, const struct watch_summary *sum)
{
	struct json j;
	size_t i;

	json_init(&j, out);
	json_begin_object_line(&j, NULL);
	json_string(&j, "type", "summary");
	json_time(&j, sum->end_wall_ns);
	json_setup(&j, s);
	json_double(&j, "secs", sum->run_secs, 3);
	json_double(&j, "elapsed_secs", sum->elapsed_secs, 3);
	json_string(&j, "stopped_by", sum->stopped_by ?
	    cleanup_signal_name(sum->stopped_by) : NULL);
	json_bool(&j, "failed", sum->failed);
	json_uint(&j, "intervals", sum->intervals);
	json_uint(&j, "missed_starts", sum->paced.missed);
	json_uint(&j, "stalls", sum->paced.stalls);
	json_uint(&j, "stalls_over_20s", sum->fatal_stalls);
	json_begin_object(&j, "paced");
	json_figures(&j, &sum->paced, true);
	json_end_object(&j);
	json_begin_object(&j, "back_to_back");
	json_figures(&j, &s->burst, true);
	json_end_object(&j);
	if (sum->ratio > 0.0)
		json_double(&j, "paced_over_back_to_back", sum->ratio, 3);
	else
		json_null(&j, "paced_over_back_to_back");
	if (sum->have_worst) {
		json_begin_object(&j, "worst_interval");
		json_uint(&j, "number", sum->worst.number);
		json_interval_span(&j, &sum->worst);
		json_figures(&j, &sum->worst, false);
		json_uint(&j, "missed_starts", sum->worst.missed);
		json_end_object(&j);
	} else {
		json_null(&j, "worst_interval");
	}
	json_begin_array(&j, "warnings");
	for (i = 0; i < sum->nwarnings; i++) {
		json_begin_object(&j, NULL);
		json_string(&j, "code", sum->warnings[i].code);
		json_string(&j, "message", sum->warnings[i].message);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
}

/* JSON and openmetrics draw no plot. */
static void
json_end_plotless(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *plot)
{
	(void)plot;
	json_end(out, s, sum);
}

static void
openmetrics_end(FILE *out, const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *plot)
{
	(void)plot;
	watch_metrics_summary(out, s, sum);
}

const struct watch_format watch_formats[] = {
	{ REPORT_NAME_TEXT, text_start, text_interval, text_stall, text_end },
	{ REPORT_NAME_JSON, json_start, json_interval, json_stall, json_end_plotless },
	{ REPORT_NAME_OPENMETRICS, NULL, NULL, NULL, openmetrics_end },
};

const struct name_list watch_format_names = NAME_LIST(watch_formats, struct watch_format, name);

void
watch_report_start(FILE *out, const struct watch_format *fmt, const struct watch_setup *s)
{
	if (fmt->start != NULL)
		fmt->start(out, s);
	fflush(out);
}

void
watch_report_interval(FILE *out, const struct watch_format *fmt, const struct watch_setup *s,
    const struct watch_figures *f)
{
	if (fmt->interval != NULL)
		fmt->interval(out, s, f);
	fflush(out);
}

void
watch_report_stall(FILE *out, const struct watch_format *fmt, const struct watch_stall *st)
{
	if (fmt->stall != NULL)
		fmt->stall(out, st);
	fflush(out);
}

void
watch_report_end(FILE *out, const struct watch_format *fmt, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *plot)
{
	fmt->end(out, s, sum, plot);
	fflush(out);
}
