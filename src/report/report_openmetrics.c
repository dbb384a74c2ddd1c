/* report_openmetrics.c: -F openmetrics, for fleets: the Prometheus text
 * exposition format (version 0.0.4), which node_exporter's textfile
 * collector reads. Each metric family is one HELP and one TYPE line and
 * then all its samples together; label values are escaped (\\, ", newline)
 * and made valid UTF-8, control characters as U+FFFD; units are
 * Prometheus' base units (seconds), which promtool's linter asks for. No
 * sample carries a timestamp (the textfile collector refuses them): the
 * run's start is a metric of its own. No "# EOF" line either: that belongs
 * to the OpenMetrics variant, which the textfile collector does not read. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "advice/verdict.h"
#include "util/escape.h"
#include "util/json.h"
#include "probe/plan.h"
#include "util/platform.h"
#include "report/openmetrics.h"
#include "report/report.h"

#define LABELS_LEN  8192
#define WHOLE_LIMIT 1e15	/* whole numbers below this print exactly */

/* One metric family: HELP and TYPE once, before its first sample. */
struct family {
	const char *name;
	const char *type;
	const char *help;
	bool started;
};

/* A control character a terminal would obey (C0 but tab and newline, DEL,
 * C1 as U+0080..U+009F): the format has no escape for it beyond \\, \"
 * and \n, so like an invalid byte it is written as U+FFFD, and a path
 * holding ESC [ 31 m cannot recolour the terminal that shows the file. */
static bool
openmetrics_is_control(const unsigned char *p, size_t n)
{
	if (n == 1)
		return (*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f;
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

void
openmetrics_label_value(FILE *out, const char *v)
{
	const unsigned char *p = (const unsigned char *)v;

	fputc('"', out);
	while (*p != '\0') {
		size_t n = escape_utf8_len(p);

		if (n == 0 || openmetrics_is_control(p, n)) {
			fputs("\xEF\xBF\xBD", out);
			p += n == 0 ? 1 : n;
		} else if (*p == '\\' || *p == '"') {
			fputc('\\', out);
			fputc(*p++, out);
		} else if (*p == '\n') {
			fputs("\\n", out);
			p++;
		} else {
			fwrite(p, 1, n, out);
			p += n;
		}
	}
	fputc('"', out);
}

void
openmetrics_label(FILE *out, bool first, const char *name, const char *value)
{
	fprintf(out, "%s%s=", first ? "{" : ",", name);
	openmetrics_label_value(out, value);
}

void
openmetrics_family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
begin_sample(FILE *out, struct family *f, const char *suffix)
{
	if (!f->started)
		openmetrics_family(out, f->name, f->type, f->help);
	f->started = true;
	fprintf(out, "%s%s", f->name, suffix);
}

void
openmetrics_value(FILE *out, double value)
{
	if (!isfinite(value))
		fputs("NaN\n", out);
	else if (value == floor(value) && fabs(value) < WHOLE_LIMIT)
		fprintf(out, "%.0f\n", value);
	else
		fprintf(out, "%.9g\n", value);
}

void
openmetrics_end_sample(FILE *out, bool labelled, double value)
{
	fputs(labelled ? "} " : " ", out);
	openmetrics_value(out, value);
}

/* The target labels: its path, and its place in the run (from 1), so that
 * no two series are the same even when two targets share a path, or one
 * path looks like another's with a suffix. */
static void
put_target(FILE *out, const struct report *r, size_t t)
{
	char index[24];

	snprintf(index, sizeof index, "%zu", t + 1);
	openmetrics_label(out, true, "target", r->targets[t].run.path);
	openmetrics_label(out, false, "target_index", index);
}

static void
put_row_labels(FILE *out, const struct report *r, size_t t, const struct row_result *row)
{
	put_target(out, r, t);
	openmetrics_label(out, false, "group", plan_group_name(row->spec.group));
	openmetrics_label(out, false, "test", row->spec.name);
	openmetrics_label(out, false, "method", row->spec.method ? row->spec.method->name : "");
	openmetrics_label(out, false, "direct", row->spec.direct ? "true" : "false");
}

static bool
has_figures(const struct row_result *row)
{
	return row->status == ROW_OK && row->ops > 0;
}

static void
put_run(FILE *out, const struct report *r)
{
	struct family stamp = { "syncprobe_run_timestamp_seconds", "gauge",
		"When the run started, in seconds since the Unix epoch.", false };
	struct family dur = { "syncprobe_run_duration_seconds", "gauge",
		"How long the run measured.", false };
	struct family info = { "syncprobe_info", "gauge",
		"The run: syncprobe version, host, kernel, label, and whether a signal "
		"ended it early; always 1.", false };
	char label[LABELS_LEN], kernel[sizeof r->system.os + sizeof r->system.release + 2];

	begin_sample(out, &stamp, "");
	openmetrics_end_sample(out, false, (double)r->when);
	if (r->duration_secs >= 0) {
		begin_sample(out, &dur, "");
		openmetrics_end_sample(out, false, r->duration_secs);
	}
	report_label(r, label, sizeof label);
	snprintf(kernel, sizeof kernel, "%s %s", r->system.os, r->system.release);
	begin_sample(out, &info, "");
	openmetrics_label(out, true, "version", PACKAGE_VERSION);
	openmetrics_label(out, false, "host", r->system.host);
	openmetrics_label(out, false, "kernel", kernel);
	openmetrics_label(out, false, "label", label);
	openmetrics_label(out, false, "interrupted", r->interrupted_by ? "true" : "false");
	openmetrics_end_sample(out, true, 1.0);
}

/* A row's samples of one family. */
typedef void row_samples(FILE *out, const struct report *r, size_t t,
    const struct row_result *row, struct family *f);

/* The samples of every row that ran, target by target. */
static void
put_rows(FILE *out, const struct report *r, struct family *f, row_samples *put)
{
	size_t t, i;

	for (t = 0; t < r->ntargets; t++)
		for (i = 0; i < r->targets[t].run.nrows; i++)
			if (has_figures(&r->targets[t].run.rows[i]))
				put(out, r, t, &r->targets[t].run.rows[i], f);
}

static void
begin_row_sample(FILE *out, const struct report *r, size_t t, const struct row_result *row,
    struct family *f, const char *suffix)
{
	begin_sample(out, f, suffix);
	put_row_labels(out, r, t, row);
}

static void
rate_sample(FILE *out, const struct report *r, size_t t, const struct row_result *row,
    struct family *f)
{
	begin_row_sample(out, r, t, row, f, "");
	openmetrics_end_sample(out, true, row->ops_per_sec);
}

static void
latency_samples(FILE *out, const struct report *r, size_t t, const struct row_result *row,
    struct family *f)
{
	static const struct {
		const char *label;
		double p;
	} q[] = { { "0.5", 50 }, { "0.9", 90 }, { "0.99", 99 }, { "0.999", 99.9 } };
	size_t k;

	for (k = 0; k < sizeof q / sizeof q[0]; k++) {
		begin_row_sample(out, r, t, row, f, "");
		openmetrics_label(out, false, "quantile", q[k].label);
		openmetrics_end_sample(out, true, row_secs((uint64_t)llround(
		    stats_percentile_ns(&row->total, q[k].p))));
	}
	begin_row_sample(out, r, t, row, f, "_sum");
	openmetrics_end_sample(out, true, row_secs(row->total.sum_ns));
	begin_row_sample(out, r, t, row, f, "_count");
	openmetrics_end_sample(out, true, (double)row->total.count);
}

static void
put_figures(FILE *out, const struct report *r)
{
	struct family rates = { "syncprobe_ops_per_second", "gauge",
		"Operations per second of each test row that ran.", false };
	struct family latency = { "syncprobe_latency_seconds", "summary",
		"Latency of one operation of each test row that ran.", false };

	put_rows(out, r, &rates, rate_sample);
	put_rows(out, r, &latency, latency_samples);
}

static void
put_advice(FILE *out, const struct report *r)
{
	struct family delay = { "syncprobe_advice_commit_delay_seconds", "gauge",
		"The advised commit_delay (PostgreSQL takes it in microseconds).", false };
	struct family method = { "syncprobe_advice_wal_sync_method", "gauge",
		"The advised wal_sync_method: 1 for the method advised.", false };
	size_t t;

	for (t = 0; t < r->ntargets; t++) {
		const struct advice *a = &r->targets[t].advice;

		if (!a->have_delay)
			continue;
		begin_sample(out, &delay, "");
		put_target(out, r, t);
		openmetrics_end_sample(out, true, row_secs((uint64_t)a->commit_delay_usecs * NSEC_PER_USEC));
	}
	for (t = 0; t < r->ntargets; t++) {
		const struct advice *a = &r->targets[t].advice;

		if (a->wal_sync_method == NULL)
			continue;
		begin_sample(out, &method, "");
		put_target(out, r, t);
		openmetrics_label(out, false, "method", a->wal_sync_method->name);
		openmetrics_end_sample(out, true, 1.0);
	}
}

/* Whether warning w of a repeats an earlier code (one series per code). */
static bool
repeated_code(const struct advice *a, size_t w)
{
	size_t i;

	for (i = 0; i < w; i++)
		if (strcmp(a->warnings[i].code, a->warnings[w].code) == 0)
			return true;
	return false;
}

static void
put_warnings(FILE *out, const struct report *r)
{
	struct family f = { "syncprobe_warning", "gauge",
		"A warning about the target, by its stable code; 1 while it holds.", false };
	size_t t, w;

	for (t = 0; t < r->ntargets; t++) {
		const struct advice *a = &r->targets[t].advice;

		for (w = 0; w < a->nwarnings; w++) {
			if (repeated_code(a, w))
				continue;
			begin_sample(out, &f, "");
			put_target(out, r, t);
			openmetrics_label(out, false, "code", a->warnings[w].code);
			openmetrics_end_sample(out, true, 1.0);
		}
	}
}

/* Other systems' verdicts (advice/verdict.h): 1 for a pass (for the
 * durability doubt, no doubt found), 0 for anything else, with the
 * result's name as a label; and the figure each judged, where there is
 * one. */
static void
put_verdicts(FILE *out, const struct report *r)
{
	struct family pass = { "syncprobe_verdict", "gauge",
		"Another system's rule of thumb, by its stable code: 1 passed, 0 not "
		"(result says why).", false };
	struct family value = { "syncprobe_verdict_value_seconds", "gauge",
		"The figure a verdict judged.", false };
	size_t t, i;

	for (t = 0; t < r->ntargets; t++) {
		const struct advice *a = &r->targets[t].advice;

		for (i = 0; i < a->nverdicts; i++) {
			begin_sample(out, &pass, "");
			put_target(out, r, t);
			openmetrics_label(out, false, "code", a->verdicts[i].code);
			openmetrics_label(out, false, "result", verdict_result_name(a->verdicts[i].result));
			openmetrics_end_sample(out, true, a->verdicts[i].result == VERDICT_PASS ||
			    a->verdicts[i].result == VERDICT_NO_DOUBT ? 1.0 : 0.0);
		}
	}
	for (t = 0; t < r->ntargets; t++) {
		const struct advice *a = &r->targets[t].advice;

		for (i = 0; i < a->nverdicts; i++) {
			if (a->verdicts[i].value_usecs < 0)
				continue;
			begin_sample(out, &value, "");
			put_target(out, r, t);
			openmetrics_label(out, false, "code", a->verdicts[i].code);
			openmetrics_end_sample(out, true, a->verdicts[i].value_usecs / 1e6);
		}
	}
}

void
report_openmetrics(FILE *out, const struct report *r)
{
	put_run(out, r);
	put_figures(out, r);
	put_advice(out, r);
	put_warnings(out, r);
	put_verdicts(out, r);
}
