/* report_common.c: what every report says the same way (labels, times,
 * where a target lives, figures in columns), and the stream replayed. */
#include "config.h"

#include "report/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "probe/precision.h"
#include "util/strbuf.h"


/* Whether no layer lies under layer i. */
static bool
layer_is_leaf(const struct storage_info *st, size_t i)
{
	size_t j;

	for (j = i + 1; j < st->nlayers; j++)
		if (st->layers[j].parent == (int)i)
			return false;
	return true;
}

/* One branch of the tree, from below the filesystem down to leaf i, with
 * what the report says of its end: the device's model and cache. */
static void
summary_branch(const struct storage_info *st, size_t i, struct strbuf *b)
{
	const struct storage_layer *l = &st->layers[i];
	const struct storage_device *d;
	char chain[STORAGE_CHAIN_LEN];

	storage_layer_chain(st, i, chain, sizeof chain);
	strbuf_add(b, "%s", chain);
	if (l->kind == STORAGE_LAYER_FILESYSTEM) {
		strbuf_add(b, ", no block device");
		return;
	}
	if (l->kind != STORAGE_LAYER_DEVICE)
		return;
	d = storage_device_at(st, (size_t)l->device);
	if (d->have_model)
		strbuf_add(b, " %s", d->model);
	strbuf_add(b, ", write cache: %s", d->have_write_cache ? d->write_cache : "unknown");
}

/* The groups of a target's rows, one after another. */
static void
replay_groups(const struct report_stream *s, FILE *out, const struct report *r, size_t t)
{
	const struct target_result *tr = &r->targets[t];
	size_t first = 0, last;

	while (first < tr->run.nrows) {
		for (last = first; last < tr->run.nrows &&
		    tr->run.rows[last].spec.group == tr->run.rows[first].spec.group; last++)
			;
		s->group(out, r, t, first, last);
		first = last;
	}
}

void
report_replay(const struct report_stream *s, FILE *out, const struct report *r)
{
	size_t t;

	s->begin(out, r);
	for (t = 0; t < r->ntargets; t++) {
		s->target(out, r, t);
		replay_groups(s, out, r, t);
	}
	s->end(out, r);
}

bool
report_several(const struct report *r)
{
	return r->ntargets > 1 || (r->options != NULL && r->options->ntargets > 1);
}

const struct row_result *
report_row_at(const struct report *r, size_t index)
{
	size_t t;

	for (t = 0; t < r->ntargets; t++)
		if (index < r->targets[t].run.nrows)
			return &r->targets[t].run.rows[index];
	return NULL;
}

void
report_label(const struct report *r, char *buf, size_t len)
{
	struct strbuf b;
	size_t t;

	strbuf_init(&b, buf, len);
	if (r->options != NULL && r->options->label != NULL) {
		strbuf_add(&b, "%s", r->options->label);
		return;
	}
	strbuf_add(&b, "%s:", r->system.host);
	for (t = 0; t < r->ntargets; t++)
		strbuf_add(&b, "%s%s", t ? "," : "", r->targets[t].run.path);
}

void
report_test_length(const struct options *o, char *buf, size_t len)
{
	char dur[32];

	if (o->adaptive) {
		snprintf(buf, len, "each row until its mean is known to %.0f%%, or its time is up",
		    PRECISION_TARGET * 100.0);
	} else if (o->ops_per_test) {
		snprintf(buf, len, "%llu ops per test", (unsigned long long)o->ops_per_test);
	} else {
		units_format_duration(o->test_ns, dur, sizeof dur);
		snprintf(buf, len, "%s per test", dur);
	}
}

void
report_time(time_t when, bool iso, char *buf, size_t len)
{
	struct tm tm;

	if (gmtime_r(&when, &tm) == NULL ||
	    strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(buf, len, "unknown");
}

void
report_storage_summary(const struct storage_info *st, char *buf, size_t len)
{
	struct strbuf b;
	size_t i, branches = 0;

	strbuf_init(&b, buf, len);
	strbuf_add(&b, "%s (", st->have_filesystem ? st->filesystem : "unknown filesystem");
	/* Every branch of the tree ends in a device, a gap, or a filesystem
	 * with no device (an upper directory on tmpfs). */
	for (i = 1; i < st->nlayers; i++) {
		if (!layer_is_leaf(st, i))
			continue;
		strbuf_add(&b, "%s", branches++ ? "; " : "");
		summary_branch(st, i, &b);
	}
	strbuf_add(&b, "%s", branches ? ")" : "no block device)");
}

const char *
report_tristate(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

/* text made to leave a space in width, so that the column before never
 * touches it: shorter forms of v where it does not (a saved report's
 * figure can be any size). */
static void
fit_width(char *text, size_t len, int width, double v)
{
	int digits;

	/* 1.2e+09, then 1e+09 */
	for (digits = 1; digits >= 0 && (int)strlen(text) >= width; digits--)
		snprintf(text, len, "%.*e", digits, v);
}

void
report_put_usecs(FILE *out, int width, double us)
{
	char text[32];

	units_format_latency(us, LATENCY_FIGURE, text, sizeof text);
	fit_width(text, sizeof text, width, us);
	fprintf(out, "%*s", width, text);
}

void
report_put_rate(FILE *out, int width, double ops)
{
	char text[32];

	snprintf(text, sizeof text, ops < 10000.0 ? "%.1f" : ops < 1e8 ? "%.0f" : "%.1e", ops);
	fit_width(text, sizeof text, width, ops);
	fprintf(out, "%*s", width, text);
}
