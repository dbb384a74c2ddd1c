/* watch_metrics.c: watch's series in the Prometheus text format. */
#include "config.h"

#include "watch/watch_metrics.h"

#include "probe/row.h"
#include "report/openmetrics.h"

/* "50", or "max" for back to back: the rate as --rate takes it. */
static void
rate_label(const struct watch_setup *s, char *buf, size_t len)
{
	if (s->rate)
		snprintf(buf, len, "%llu", (unsigned long long)s->rate);
	else
		snprintf(buf, len, "max");
}

/* One sample of name (with suffix), labelled with the target, method and
 * rate and the pairs in kv (n names and values). The directory's label is
 * the probe's "target", so that one query selects a directory in both. */
static void
sample(FILE *out, const char *name, const char *suffix, const struct watch_setup *s,
    const char *const *kv, size_t n, double value)
{
	char rate[24];
	size_t i;

	rate_label(s, rate, sizeof rate);
	fprintf(out, "%s%s", name, suffix);
	openmetrics_label(out, true, "target", s->path);
	openmetrics_label(out, false, "method", s->method->name);
	openmetrics_label(out, false, "rate", rate);
	for (i = 0; i + 1 < n; i += 2)
		openmetrics_label(out, false, kv[i], kv[i + 1]);
	openmetrics_end_sample(out, true, value);
}

/* A family of one sample. */
static void
single(FILE *out, const char *name, const char *type, const char *help,
    const struct watch_setup *s, double value)
{
	openmetrics_family(out, name, type, help);
	sample(out, name, "", s, NULL, 0, value);
}

/* The latency summary of one load: quantiles, sum and count. */
static void
latency(FILE *out, const char *name, const struct watch_setup *s, const char *load,
    const struct watch_figures *f)
{
	const struct { const char *q; double usecs; } qs[] = {
		{ "0.5", f->p50_usecs }, { "0.9", f->p90_usecs },
		{ "0.99", f->p99_usecs }, { "0.999", f->p999_usecs },
	};
	const char *kv[4] = { "load", load, "quantile", NULL };
	size_t k;

	for (k = 0; k < sizeof qs / sizeof qs[0]; k++) {
		kv[3] = qs[k].q;
		sample(out, name, "", s, kv, 4, qs[k].usecs / 1e6);
	}
	sample(out, name, "_sum", s, kv, 2, f->mean_usecs * (double)f->ops / 1e6);
	sample(out, name, "_count", s, kv, 2, (double)f->ops);
}

void
watch_metrics_summary(FILE *out, const struct watch_setup *s, const struct watch_summary *sum)
{
	static const char *const lat = "syncprobe_watch_latency_seconds";

	single(out, "syncprobe_watch_duration_seconds", "gauge", "How long the paced load ran.",
	    s, sum->run_secs);
	single(out, "syncprobe_watch_operations", "gauge", "Operations of the paced load.", s,
	    (double)sum->paced.ops);
	single(out, "syncprobe_watch_missed_starts", "gauge",
	    "Slots of the paced load in which no operation could start.", s,
	    (double)sum->paced.missed);
	single(out, "syncprobe_watch_stalls", "gauge",
	    "Operations that took longer than --stall.", s, (double)sum->paced.stalls);
	single(out, "syncprobe_watch_max_latency_seconds", "gauge",
	    "The longest operation of the paced load.", s, sum->paced.max_usecs / 1e6);
	openmetrics_family(out, lat, "summary",
	    "Latency of one commit (write and sync), paced and back to back.");
	if (sum->paced.ops > 0)
		latency(out, lat, s, "paced", &sum->paced);
	if (s->burst.ops > 0)
		latency(out, lat, s, "back_to_back", &s->burst);
}

/* The histogram of every operation so far: cumulative buckets, then
 * +Inf, the sum and the count. */
static void
histogram(FILE *out, const struct watch_setup *s, const struct watch_tally *t)
{
	static const char *const name = "syncprobe_watch_operation_seconds";
	const char *kv[2] = { "le", NULL };
	char le[32];
	uint64_t below = 0;
	size_t i;

	openmetrics_family(out, name, "histogram",
	    "Latency of each operation of the paced load (a write and its sync, as a "
	    "commit makes them), since watch started.");
	for (i = 0; i < WATCH_BUCKETS; i++) {
		below += t->run_buckets[i];
		snprintf(le, sizeof le, "%.9g", row_secs(watch_bucket_le_ns[i]));
		kv[1] = le;
		sample(out, name, "_bucket", s, kv, 2, (double)below);
	}
	kv[1] = "+Inf";
	sample(out, name, "_bucket", s, kv, 2, (double)t->run.count);
	sample(out, name, "_sum", s, NULL, 0, row_secs(t->run.sum_ns));
	sample(out, name, "_count", s, NULL, 0, (double)t->run.count);
}

void
watch_metrics_live(FILE *out, const struct watch_setup *s, const struct watch_tally *t,
    const struct watch_figures *last)
{
	histogram(out, s, t);
	single(out, "syncprobe_watch_operations_total", "counter",
	    "Operations of the paced load since watch started.", s, (double)t->run.count);
	single(out, "syncprobe_watch_missed_starts_total", "counter",
	    "Slots of the paced load in which no operation could start, since watch "
	    "started: the operation before was still running.", s, (double)t->run_missed);
	single(out, "syncprobe_watch_stalls_total", "counter",
	    "Operations longer than --stall since watch started.", s, (double)t->run_stalls);
	if (last == NULL || last->ops == 0)
		return;
	single(out, "syncprobe_watch_interval_p50_seconds", "gauge",
	    "The median operation of the last interval.", s, last->p50_usecs / 1e6);
	single(out, "syncprobe_watch_interval_p99_seconds", "gauge",
	    "The 99th percentile of the last interval's operations.", s, last->p99_usecs / 1e6);
	single(out, "syncprobe_watch_interval_max_seconds", "gauge",
	    "The longest operation of the last interval.", s, last->max_usecs / 1e6);
}
