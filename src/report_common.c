/* report_common.c: the table of report formats, and what every report
 * says the same way. */
#include "config.h"

#include "report.h"

#include <stdio.h>
#include <string.h>

const struct report_format report_formats[] = {
	{ "text", report_text, false, &report_text_stream },
	{ "json", report_json, false, NULL },
	{ "conf", report_conf, true, NULL },
	{ "openmetrics", report_openmetrics, false, NULL },
};

const struct name_list report_format_names =
    NAME_LIST(report_formats, struct report_format, name);

/* The groups of a target's rows, one after another. */
static void
replay_groups(const struct report_stream *s, FILE *out, const struct report *r, size_t t)
{
	const struct target_result *tr = &r->targets[t];
	size_t first = 0, last;

	while (first < tr->nrows) {
		for (last = first; last < tr->nrows &&
		    tr->rows[last].spec.group == tr->rows[first].spec.group; last++)
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

void
report_label(const struct report *r, char *buf, size_t len)
{
	size_t t, used;

	if (r->options != NULL && r->options->label != NULL) {
		snprintf(buf, len, "%s", r->options->label);
		return;
	}
	snprintf(buf, len, "%s:", r->system.host);
	for (t = 0; t < r->ntargets; t++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", t ? "," : "", r->targets[t].path);
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
	const struct storage_device *d = &st->device;
	const char *fs = st->have_filesystem ? st->filesystem : "unknown filesystem";

	if (!st->have_device) {
		snprintf(buf, len, "%s (no block device)", fs);
		return;
	}
	snprintf(buf, len, "%s (%s%s%s, write cache: %s)", fs, d->layers[0] ? d->layers : d->name,
	    d->have_model ? " " : "", d->have_model ? d->model : "",
	    d->have_write_cache ? d->write_cache : "unknown");
}

const char *
report_tristate(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}

void
report_usecs_text(double us, char *buf, size_t len)
{
	if (us < 10.0)
		snprintf(buf, len, "%.2f", us);
	else if (us < 100000.0)
		snprintf(buf, len, "%.1f", us);
	else if (us < 1e8)
		snprintf(buf, len, "%.0f", us);
	else
		snprintf(buf, len, "%.1e", us);
}

void
report_put_usecs(FILE *out, int width, double us)
{
	char text[32];

	report_usecs_text(us, text, sizeof text);
	fprintf(out, "%*s", width, text);
}

void
report_put_rate(FILE *out, int width, double ops)
{
	fprintf(out, ops < 10000.0 ? "%*.1f" : ops < 1e8 ? "%*.0f" : "%*.1e", width, ops);
}
