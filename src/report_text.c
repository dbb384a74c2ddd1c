/* report_text.c: the report for people: aligned columns that fit 80
 * columns, rows that could not run with their reason, then the advice. */
#include "config.h"

#include <string.h>

#include "method.h"
#include "plan.h"
#include "platform.h"
#include "report.h"
#include "report_group.h"
#include "wrap.h"

#define NAME_WIDTH 36
#define COL_WIDTH  8
#define LINE_WIDTH 79

/* Text word-wrapped to LINE_WIDTH: the first line indented by first, the
 * others by rest. */
static void
put_hanging(FILE *out, int first, int rest, const char *text)
{
	wrap_print(out, first, rest, LINE_WIDTH, text, false);
}

static void
put_wrapped(FILE *out, int indent, const char *text)
{
	put_hanging(out, indent, indent, text);
}

/* A latency in a column: two decimals where sub-microsecond matters. */
static void
put_usecs(FILE *out, double us)
{
	if (us < 10.0)
		fprintf(out, "%*.2f", COL_WIDTH, us);
	else if (us < 100000.0)
		fprintf(out, "%*.1f", COL_WIDTH, us);
	else
		fprintf(out, "%*.0f", COL_WIDTH, us);
}

static void
put_rate(FILE *out, double ops)
{
	fprintf(out, ops < 10000.0 ? "%*.1f" : "%*.0f", COL_WIDTH, ops);
}

static const char *
status_word(const struct row_result *row)
{
	return row->status == ROW_ERROR ? "error" : "n/a";
}

static void
format_bytes_or_unknown(long bytes, char *buf, size_t len)
{
	if (bytes < 0)
		snprintf(buf, len, "unknown");
	else
		options_format_size((uint64_t)bytes, buf, len);
}

static void
print_target_header(FILE *out, const struct target_result *tr, size_t number)
{
	const struct storage_info *st = &tr->storage;
	const struct storage_device *d = &st->device;
	char where[sizeof d->name + sizeof d->model + sizeof d->layers + 64];
	char line[sizeof where + sizeof st->mount_options + 32];

	char lbytes[32], pbytes[32];

	/* Several targets: numbered, and the tables' columns use the number. */
	if (number > 0)
		fprintf(out, "target %zu: %s\n", number, tr->path);
	else
		fprintf(out, "target: %s\n", tr->path);
	report_storage_summary(st, where, sizeof where);
	snprintf(line, sizeof line, "on %s%s%s", where,
	    st->have_mount_options ? ", mounted " : "",
	    st->have_mount_options ? st->mount_options : "");
	put_wrapped(out, 2, line);
	if (st->have_device) {
		format_bytes_or_unknown(d->logical_block_bytes, lbytes, sizeof lbytes);
		format_bytes_or_unknown(d->physical_block_bytes, pbytes, sizeof pbytes);
		snprintf(line, sizeof line, "device %s: rotational %s, FUA %s, "
		    "logical/physical block %s/%s", d->name,
		    report_tristate(d->rotational), report_tristate(d->fua), lbytes, pbytes);
		put_wrapped(out, 2, line);
	}
}

static void
print_header(FILE *out, const struct report *r)
{
	const struct options *o = r->options;
	char dur[32], block[16], file[16], line[160];
	size_t i;

	options_format_size(o->block_bytes, block, sizeof block);
	options_format_size(o->file_bytes, file, sizeof file);
	if (o->ops_per_test)
		snprintf(dur, sizeof dur, "%llu ops", (unsigned long long)o->ops_per_test);
	else
		options_format_duration(o->test_ns, dur, sizeof dur);

	fprintf(out, "syncprobe %s\n", PACKAGE_VERSION);
	for (i = 0; i < r->ntargets; i++)
		print_target_header(out, &r->targets[i], r->ntargets > 1 ? i + 1 : 0);
	snprintf(line, sizeof line, "%s per test, %u round%s, %s writes, %s file, "
	    "%s, direct I/O %s", dur, o->rounds, o->rounds == 1 ? "" : "s",
	    block, file, options_pattern_name(o->pattern), options_direct_name(o->direct));
	put_hanging(out, 0, 2, line);
}

static void
print_row_single(FILE *out, const struct row_result *row)
{
	fprintf(out, "%-*s", NAME_WIDTH, row->spec.name);
	if (row->status != ROW_OK) {
		fprintf(out, "%*s\n", COL_WIDTH, status_word(row));
		put_wrapped(out, 4, row->reason);
		return;
	}
	put_rate(out, row->ops_per_sec);
	put_usecs(out, row->mean_usecs);
	put_usecs(out, row_usecs(stats_percentile_ns(&row->total, 50.0)));
	put_usecs(out, row_usecs(stats_percentile_ns(&row->total, 99.0)));
	put_usecs(out, row_usecs((double)row->total.max_ns));
	fputc('\n', out);
}

/* Several targets: ops/sec and p99 for each, side by side. */
static void
print_row_multi(FILE *out, const struct report *r, size_t index)
{
	const struct row_result *first = &r->targets[0].rows[index];
	size_t t;

	fprintf(out, "%-*s", NAME_WIDTH, first->spec.name);
	for (t = 0; t < r->ntargets; t++) {
		const struct row_result *row;

		fputs("  ", out);
		if (index >= r->targets[t].nrows) {
			fprintf(out, "%*s", 2 * COL_WIDTH, "-");
			continue;
		}
		row = &r->targets[t].rows[index];
		if (row->status != ROW_OK) {
			fprintf(out, "%*s%*s", COL_WIDTH, status_word(row), COL_WIDTH, "");
			continue;
		}
		put_rate(out, row->ops_per_sec);
		put_usecs(out, row_usecs(stats_percentile_ns(&row->total, 99.0)));
	}
	fputc('\n', out);
}

static void
print_column_heads(FILE *out, const struct report *r)
{
	size_t t;

	if (r->ntargets == 1) {
		fprintf(out, "%-*s%*s%*s%*s%*s%*s\n", NAME_WIDTH, "", COL_WIDTH, "ops/sec",
		    COL_WIDTH, "mean", COL_WIDTH, "p50", COL_WIDTH, "p99", COL_WIDTH, "max");
		return;
	}
	fprintf(out, "%-*s", NAME_WIDTH, "");
	for (t = 0; t < r->ntargets; t++) {
		char label[32];

		snprintf(label, sizeof label, "target %zu", t + 1);
		fprintf(out, "  %*s", 2 * COL_WIDTH, label);
	}
	fputc('\n', out);
	fprintf(out, "%-*s", NAME_WIDTH, "");
	for (t = 0; t < r->ntargets; t++)
		fprintf(out, "  %*s%*s", COL_WIDTH, "ops/sec", COL_WIDTH, "p99");
	fputc('\n', out);
}

/* The row list every target shares (the same plan); the longest. */
static size_t
row_count(const struct report *r)
{
	size_t t, n = 0;

	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].nrows > n)
			n = r->targets[t].nrows;
	return n;
}

static const struct row_result *
row_at(const struct report *r, size_t index)
{
	size_t t;

	for (t = 0; t < r->ntargets; t++)
		if (index < r->targets[t].nrows)
			return &r->targets[t].rows[index];
	return NULL;
}

static void
print_tables(FILE *out, const struct report *r)
{
	size_t i, n = row_count(r);
	int group = -1;
	char title[96];

	for (i = 0; i < n; i++) {
		const struct row_result *row = row_at(r, i);

		if ((int)row->spec.group != group) {
			group = (int)row->spec.group;
			plan_group_title(row->spec.group, r->options->block_bytes, title, sizeof title);
			fprintf(out, "\n%s\n(figures in usecs per operation)\n", title);
			print_column_heads(out, r);
		}
		if (r->ntargets == 1)
			print_row_single(out, row);
		else
			print_row_multi(out, r, i);
	}
}

static void
print_advice(FILE *out, const struct report *r, const struct target_result *tr)
{
	const struct advice *a = &tr->advice;
	size_t i;

	if (r->ntargets == 1)
		fprintf(out, "\nAdvice\n");
	else
		fprintf(out, "\nAdvice for target %zu: %s\n", (size_t)(tr - r->targets) + 1, tr->path);
	if (a->wal_sync_method != NULL)
		fprintf(out, "  wal_sync_method = '%s'\n", a->wal_sync_method->name);
	else
		fprintf(out, "  wal_sync_method: no advice\n");
	put_wrapped(out, 4, a->method_reason);
	if (a->have_delay)
		fprintf(out, "  commit_delay = %ld\n", a->commit_delay_usecs);
	else
		fprintf(out, "  commit_delay: no advice\n");
	put_wrapped(out, 4, a->delay_reason);
	if (a->delay_measured)
		put_wrapped(out, 4, a->rule_reason);
	if (tr->sleep.samples > 0) {
		char line[ADVICE_TEXT_LEN], slack[48] = "";

		if (tr->sleep.timer_slack_usecs >= 0)
			snprintf(slack, sizeof slack, "; timer slack %.0f us",
			    tr->sleep.timer_slack_usecs);
		snprintf(line, sizeof line, "a %ld us sleep here really lasts %.0f us on "
		    "average (p50 %.0f, p99 %.0f us over %u sleeps%s)",
		    tr->sleep.requested_usecs, tr->sleep.mean_usecs, tr->sleep.p50_usecs,
		    tr->sleep.p99_usecs, tr->sleep.samples, slack);
		put_wrapped(out, 4, line);
	}
	if (a->delay_measured) {
		fprintf(out, "  commit_siblings = %u\n", a->commit_siblings);
		put_wrapped(out, 4, a->siblings_reason);
	} else if (a->have_delay && a->commit_delay_usecs > 0) {
		char line[ADVICE_TEXT_LEN];

		snprintf(line, sizeof line, "(the server waits only when at least "
		    "commit_siblings (default 5) other transactions are active; -t %s "
		    "measures what a delay does here)", plan_group_name(GROUP_GROUP));
		put_wrapped(out, 4, line);
	}
	for (i = 0; i < a->nwarnings; i++) {
		char line[ADVICE_TEXT_LEN + 64];

		snprintf(line, sizeof line, "warning [%s]: %s", a->warnings[i].code,
		    a->warnings[i].message);
		put_hanging(out, 2, 4, line);
	}
	if (tr->failed) {
		fprintf(out, "  stopped by an error:\n");
		put_wrapped(out, 4, tr->error);
	}
}

void
report_text(FILE *out, const struct report *r)
{
	size_t t;

	print_header(out, r);
	print_tables(out, r);
	report_group_text(out, r);
	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].measured)
			print_advice(out, r, &r->targets[t]);
}
