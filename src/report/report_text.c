/* report_text.c: the report for people: aligned columns that fit 80
 * columns, rows that could not run with their reason, then the advice.
 * It streams: the header as soon as the first target is ready, each
 * group's table as soon as the group is done (with one target; several
 * targets share each table, printed once all are measured), then the
 * advice. Printed at once, it is the same bytes. */
#include "config.h"

#include <limits.h>
#include <string.h>
#include <sys/types.h>

#include "util/cleanup.h"
#include "util/escape.h"
#include "report/advice_words.h"
#include "report/warning_words.h"
#include "report/histogram.h"
#include "probe/method.h"
#include "probe/plan.h"
#include "util/platform.h"
#include "probe/precision.h"
#include "report/report.h"
#include "report/report_counts.h"
#include "report/report_group.h"
#include "report/sidebyside.h"
#include "util/strbuf.h"
#include "util/units.h"
#include "util/wrap.h"

#define NAME_WIDTH SBS_NAME_WIDTH
#define ROW_NAME_WIDTH 34	/* one target: room for the mean's precision */
#define COL_WIDTH  SBS_COL_WIDTH
#define PREC_WIDTH 5	/* "  2.1": the mean's 95% interval, in % of it */
#define LINE_WIDTH SBS_LINE_WIDTH
#define HISTOGRAM_INDENT 4

static void text_begin(FILE *out, const struct report *r);
static void text_target(FILE *out, const struct report *r, size_t t);
static void text_group(FILE *out, const struct report *r, size_t t, size_t first, size_t last);
static void text_end(FILE *out, const struct report *r);

const struct report_stream report_text_stream = {
	text_begin, text_target, text_group, text_end
};

/* Text word-wrapped to LINE_WIDTH: the first line indented by first, the
 * others by rest. Control characters are escaped first: the text may hold
 * a path, and a path can hold escape sequences (escape.h). */
static void
put_hanging(FILE *out, int first, int rest, const char *text)
{
	char shown[ESCAPE_LEN(REASON_LEN)];

	escape_for_terminal(text, shown, sizeof shown);
	wrap_print(out, first, rest, LINE_WIDTH, shown, false);
}

/* prefix, then path escaped, then a newline. */
static void
put_path_line(FILE *out, const char *prefix, const char *path)
{
	char shown[ESCAPE_LEN(PATH_MAX)];

	escape_for_terminal(path, shown, sizeof shown);
	fprintf(out, "%s%s\n", prefix, shown);
}

static void
put_wrapped(FILE *out, int indent, const char *text)
{
	put_hanging(out, indent, indent, text);
}

/* As put_wrapped, for a line whose long words are comma lists (mount
 * options): it may break after a comma too. */
static void
put_wrapped_list(FILE *out, int indent, const char *text)
{
	char shown[ESCAPE_LEN(REASON_LEN)];

	escape_for_terminal(text, shown, sizeof shown);
	wrap_print(out, indent, indent, LINE_WIDTH, shown, true);
}

static void
put_usecs(FILE *out, double us)
{
	report_put_usecs(out, COL_WIDTH, us);
}

static void
put_rate(FILE *out, double ops)
{
	report_put_rate(out, COL_WIDTH, ops);
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
		units_format_size((uint64_t)bytes, buf, len);
}

/* "  same filesystem as target 1": targets that cannot differ. */
static void
print_same_filesystem(FILE *out, const struct report *r, size_t t)
{
	const struct target_result *tr = &r->targets[t];
	size_t i;

	for (i = 0; i < t && tr->run.have_fs_dev; i++)
		if (r->targets[i].run.have_fs_dev && r->targets[i].run.fs_dev == tr->run.fs_dev) {
			fprintf(out, "  same filesystem as target %zu\n", i + 1);
			return;
		}
}

static void
text_target(FILE *out, const struct report *r, size_t t)
{
	const struct target_result *tr = &r->targets[t];
	const struct storage_info *st = &tr->run.storage;
	const struct storage_device *d;
	char where[4 * STORAGE_CHAIN_LEN];	/* a few branches, each a chain */
	char line[sizeof where + sizeof st->mount_options + 32];
	char lbytes[32], pbytes[32], prefix[32];
	size_t i;

	/* Several targets: numbered, and the tables' columns use the number. */
	if (report_several(r))
		snprintf(prefix, sizeof prefix, "target %zu: ", t + 1);
	else
		snprintf(prefix, sizeof prefix, "target: ");
	put_path_line(out, prefix, tr->run.path);
	report_storage_summary(st, where, sizeof where);
	snprintf(line, sizeof line, "on %s%s%s", where,
	    st->have_mount_options ? ", mounted " : "",
	    st->have_mount_options ? st->mount_options : "");
	put_wrapped_list(out, 2, line);
	/* Every device the writes reach: a multi-device btrfs, an md mirror. */
	for (i = 0; i < storage_device_count(st); i++) {
		d = storage_device_at(st, i);
		format_bytes_or_unknown(d->logical_block_bytes, lbytes, sizeof lbytes);
		format_bytes_or_unknown(d->physical_block_bytes, pbytes, sizeof pbytes);
		snprintf(line, sizeof line, "device %s: rotational %s, FUA %s, "
		    "logical/physical block %s/%s", d->name,
		    report_tristate(d->rotational), report_tristate(d->fua), lbytes, pbytes);
		put_wrapped(out, 2, line);
	}
	print_same_filesystem(out, r, t);
}

/* How long each test ran, as the settings line starts. Adaptive: the
 * target and the caps that can end a row before it, once here rather than
 * under every group; one target's +-% column marks the rows they ended. */
static void
describe_test_length(const struct report *r, char *buf, size_t len)
{
	const struct options *o = r->options;
	char one[16], two[16], other[16], most[16], most_other[16];

	if (o->adaptive && !plan_has_postgres_groups(o->groups)) {
		/* -t etcd alone: no row the advice reads, all alike. */
		units_format_duration(ADAPTIVE_OTHER_CEILING_NS, other, sizeof other);
		units_format_duration(ADAPTIVE_OTHER_CAP_NS, most_other, sizeof most_other);
		snprintf(buf, len, "until each mean is known to %.0f%%, or its time is up%s: "
		    "%s for each row (on a slow disk up to %s, to reach %u operations); at "
		    "least", PRECISION_TARGET * 100.0, report_several(r) ? "" :
		    " (then its +-% is marked *)", other, most_other, ADAPTIVE_MIN_OPS);
	} else if (o->adaptive) {
		units_format_duration(ADAPTIVE_BASIS_CEILING_NS, one, sizeof one);
		units_format_duration(ADAPTIVE_ADVICE_CEILING_NS, two, sizeof two);
		units_format_duration(ADAPTIVE_OTHER_CEILING_NS, other, sizeof other);
		units_format_duration(ADAPTIVE_ADVICE_CAP_NS, most, sizeof most);
		units_format_duration(ADAPTIVE_OTHER_CAP_NS, most_other, sizeof most_other);
		snprintf(buf, len, "until each mean is known to %.0f%%, or its time is up%s: "
		    "%s for the advice's one-write rows, %s for its two-write rows, %s for "
		    "others (on a slow disk up to %s and %s, to reach %u operations); at least",
		    PRECISION_TARGET * 100.0, report_several(r) ? "" : " (then its +-% is marked *)",
		    one, two, other, most, most_other, ADAPTIVE_MIN_OPS);
	} else {
		struct strbuf b;

		report_test_length(o, buf, len);
		strbuf_resume(&b, buf, len);
		strbuf_add(&b, ",");
	}
}

/* Rows measured beside those chosen (plan_added_groups), and why. */
static void
describe_added_groups(FILE *out, const struct options *o)
{
	unsigned added = plan_added_groups(o);
	char names[64], line[320];
	struct strbuf b;
	unsigned g;

	if (added == 0)
		return;
	strbuf_init(&b, names, sizeof names);
	for (g = 0; g < GROUP_COUNT; g++)
		if (added & (1u << g))
			strbuf_add(&b, "%s%s", b.used ? " and " : "", plan_group_name((enum group)g));
	snprintf(line, sizeof line, "-t %s without %s: the %s tests' %s rows are measured "
	    "too, as the wal_sync_method advice and the experiment's delays rest on them",
	    plan_group_name(GROUP_GROUP), plan_group_name(GROUP_ONE), names,
	    o->direct == DIRECT_ON ? "direct" : "buffered");
	put_hanging(out, 0, 2, line);
}

/* The version, where and when it ran, the label and the settings: all
 * known before the first operation. */
static void
text_begin(FILE *out, const struct report *r)
{
	const struct options *o = r->options;
	char dur[320], block[16], file[16], when[48], line[512];
	struct strbuf b;

	units_format_size(o->block_bytes, block, sizeof block);
	units_format_size(o->file_bytes, file, sizeof file);
	describe_test_length(r, dur, sizeof dur);
	report_time(r->when, false, when, sizeof when);
	snprintf(line, sizeof line, "syncprobe %s on %s, %s", PACKAGE_VERSION, r->system.host, when);
	put_hanging(out, 0, 2, line);
	if (o->label != NULL) {
		snprintf(line, sizeof line, "label: %s", o->label);
		put_hanging(out, 0, 2, line);
	}
	strbuf_init(&b, line, sizeof line);
	strbuf_add(&b, "%s %u round%s", dur, o->rounds, o->rounds == 1 ? "" : "s");
	/* Only the settings a chosen group uses: etcd's rows have their own
	 * writes and file. */
	if (o->groups & PLAN_BLOCK_GROUPS)
		strbuf_add(&b, ", %s writes", block);
	if (o->groups & PLAN_TEST_FILE_GROUPS)
		strbuf_add(&b, ", %s file", file);
	if (o->groups & PLAN_PATTERN_GROUPS)
		strbuf_add(&b, ", %s", options_pattern_name(o->pattern));
	if (o->groups & PLAN_DIRECT_GROUPS)
		strbuf_add(&b, ", direct I/O %s", options_direct_name(o->direct));
	put_hanging(out, 0, 2, line);
	describe_added_groups(out, o);
}

static bool
wants_histogram(const struct report *r, const struct row_result *row)
{
	return row->status == ROW_OK && row->ops > 0 &&
	    histogram_selects(r->options->histogram, &row->spec);
}

/* The mean's precision: the half-width of its 95% interval as a
 * percentage of it, or "-" where the row has too few slices to say.
 * Adaptive, a row whose time ran out before the target is marked "*"
 * right after it (the header's footnote), in the space that leads the
 * p50 column (put_p50). */
static void
put_precision(FILE *out, const struct options *o, const struct row_result *row)
{
	double pct;

	if (row->mean_ci95_usecs < 0.0 || !(row->mean_usecs > 0.0)) {
		fprintf(out, "%*s", PREC_WIDTH, "-");
	} else {
		pct = 100.0 * row->mean_ci95_usecs / row->mean_usecs;
		if (pct < 99.95)
			fprintf(out, "%*.1f", PREC_WIDTH, pct);
		else
			fprintf(out, "%*s", PREC_WIDTH, ">99");
	}
	if (o->adaptive)
		fputc(row->capped ? '*' : ' ', out);
}

/* p50, one column narrower after the mark: from 10 ms on without its
 * tenth, so that a space still parts it from the mark. */
static void
put_p50(FILE *out, const struct options *o, double us)
{
	if (!o->adaptive)
		put_usecs(out, us);
	else if (us >= 10000.0 && us < 1e8)
		fprintf(out, "%*.0f", COL_WIDTH - 1, us);
	else if (us >= 1e8)
		fprintf(out, "%*.0e", COL_WIDTH - 1, us);
	else
		report_put_usecs(out, COL_WIDTH - 1, us);
}

static void
print_row_single(FILE *out, const struct report *r, const struct row_result *row)
{
	fprintf(out, "%-*s", ROW_NAME_WIDTH, row->spec.name);
	if (row->status != ROW_OK) {
		fprintf(out, "%*s\n", COL_WIDTH, status_word(row));
		put_wrapped(out, 4, row->reason);
		return;
	}
	put_rate(out, row->ops_per_sec);
	put_usecs(out, row->mean_usecs);
	put_precision(out, r->options, row);
	put_p50(out, r->options, row_usecs(stats_percentile_ns(&row->total, 50.0)));
	put_usecs(out, row_usecs(stats_percentile_ns(&row->total, 99.0)));
	put_usecs(out, row_usecs((double)row->total.max_ns));
	fputc('\n', out);
	if (wants_histogram(r, row))
		histogram_draw(out, &row->total, HISTOGRAM_INDENT, LINE_WIDTH);
}

static void
print_group_title(FILE *out, const struct report *r, enum group g)
{
	char title[96];

	plan_group_title(g, r->options->block_bytes, title, sizeof title);
	fprintf(out, "\n%s\n(figures in usecs per operation%s)\n", title,
	    report_several(r) ? "" : "; +-% is the mean's 95% interval");
}

/* Notes under a group's rows (one target): rows timed in batches. */
static void
print_group_notes(FILE *out, const struct target_result *tr, size_t first, size_t last)
{
	char line[ROW_NAME_LEN + 160];
	size_t i;

	for (i = first; i < last; i++) {
		const struct row_result *row = &tr->run.rows[i];

		if (row->status == ROW_OK && row->batch_ops > 1) {
			snprintf(line, sizeof line, "(%s: timed in batches of %u operations, "
			    "each shorter than 100 clock reads; its p50, p99 and max are of "
			    "batch means)", row->spec.name, row->batch_ops);
			put_hanging(out, 0, 1, line);
		}
	}
}

/* One target: a group's table, as soon as the group is done. */
static void
text_group(FILE *out, const struct report *r, size_t t, size_t first, size_t last)
{
	const struct target_result *tr = &r->targets[t];
	size_t i;

	if (report_several(r) || first >= last)
		return;
	print_group_title(out, r, tr->run.rows[first].spec.group);
	fprintf(out, "%-*s%*s%*s%*s%*s%*s%*s\n", ROW_NAME_WIDTH, "", COL_WIDTH, "ops/sec",
	    COL_WIDTH, "mean", PREC_WIDTH, "+-%", COL_WIDTH, "p50", COL_WIDTH, "p99",
	    COL_WIDTH, "max");
	for (i = first; i < last; i++)
		print_row_single(out, r, &tr->run.rows[i]);
	print_group_notes(out, tr, first, last);
}

/* The row list every target shares (the same plan); the longest. */
static size_t
row_count(const struct report *r)
{
	size_t t, n = 0;

	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].run.nrows > n)
			n = r->targets[t].run.nrows;
	return n;
}


/* Several targets: one group's rows [first, first + n) side by side. */
struct multi_group {
	const struct report *r;
	size_t first;
};

static const char *
multi_row_name(const void *ctx, size_t row)
{
	const struct multi_group *m = ctx;

	return report_row_at(m->r, m->first + row)->spec.name;
}

static void
multi_head(const void *ctx, size_t col, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "target %zu", col + 1);
}

static void
multi_cell(const void *ctx, size_t row, size_t col, struct sbs_cell *cell)
{
	const struct multi_group *m = ctx;
	const struct target_result *tr = &m->r->targets[col];
	const struct row_result *res;

	if (m->first + row >= tr->run.nrows) {
		cell->kind = SBS_NONE;
		return;
	}
	res = &tr->run.rows[m->first + row];
	cell->kind = res->status == ROW_OK ? SBS_FIGURES :
	    res->status == ROW_ERROR ? SBS_ERROR : SBS_NA;
	cell->reason = res->reason;
	cell->ops_per_sec = res->ops_per_sec;
	cell->mean_usecs = res->mean_usecs;
}

static void
multi_histograms(FILE *out, const void *ctx, size_t row, size_t first, size_t last)
{
	const struct multi_group *m = ctx;
	size_t t;

	for (t = first; t < last; t++) {
		const struct target_result *tr = &m->r->targets[t];

		if (m->first + row >= tr->run.nrows || !wants_histogram(m->r, &tr->run.rows[m->first + row]))
			continue;
		fprintf(out, "%*starget %zu:\n", HISTOGRAM_INDENT, "", t + 1);
		histogram_draw(out, &tr->run.rows[m->first + row].total, HISTOGRAM_INDENT, LINE_WIDTH);
	}
}

/* Several targets: each group's table with a column block per target,
 * once all are measured. */
static void
print_tables(FILE *out, const struct report *r)
{
	size_t first = 0, last, n = row_count(r);

	while (first < n) {
		const struct row_result *row = report_row_at(r, first);
		struct multi_group m = { r, first };
		struct sbs_table t;

		for (last = first; last < n &&
		    report_row_at(r, last)->spec.group == row->spec.group; last++)
			;
		print_group_title(out, r, row->spec.group);
		memset(&t, 0, sizeof t);
		t.nrows = last - first;
		t.ncols = r->ntargets;
		t.ctx = &m;
		t.row_name = multi_row_name;
		t.head = multi_head;
		t.cell = multi_cell;
		t.after_row = multi_histograms;
		sbs_print(out, &t);
		first = last;
	}
}

/* PostgreSQL's settings in the advice: the method, commit_delay (and the
 * sleep it would really get), commit_siblings. */
static void
print_postgres_advice(FILE *out, const struct target_result *tr)
{
	const struct advice *a = &tr->advice;
	struct words w;

	if (a->wal_sync_method != NULL)
		fprintf(out, "  wal_sync_method = '%s'\n", a->wal_sync_method->name);
	else
		fprintf(out, "  wal_sync_method: no advice\n");
	put_wrapped(out, 4, advice_words_method(a, &w));
	if (a->have_delay)
		fprintf(out, "  commit_delay = %ld\n", a->commit_delay_usecs);
	else
		fprintf(out, "  commit_delay: no advice\n");
	put_wrapped(out, 4, advice_words_delay(a, &w));
	if (a->delay_measured)
		put_wrapped(out, 4, advice_words_rule(a, &w));
	if (tr->sleep.samples > 0) {
		char line[ADVICE_TEXT_LEN], slack[48] = "", req[24];

		if (tr->sleep.timer_slack_usecs >= 0)
			snprintf(slack, sizeof slack, "; timer slack %.0f us",
			    tr->sleep.timer_slack_usecs);
		snprintf(req, sizeof req, "%ld", tr->sleep.requested_usecs);
		snprintf(line, sizeof line, "%s %s us sleep here really lasts %.0f us on "
		    "average (p50 %.0f, p99 %.0f us over %u sleeps%s)", units_article(req),
		    req, tr->sleep.mean_usecs, tr->sleep.p50_usecs,
		    tr->sleep.p99_usecs, tr->sleep.samples, slack);
		put_wrapped(out, 4, line);
	}
	if (a->delay_measured) {
		fprintf(out, "  commit_siblings = %u\n", a->commit_siblings);
		put_wrapped(out, 4, advice_words_siblings(a, &w));
		report_counts_text(out, a, 2);
	} else if (a->have_delay && a->commit_delay_usecs > 0) {
		char line[ADVICE_TEXT_LEN];

		snprintf(line, sizeof line, "(the server waits only when at least "
		    "commit_siblings (default 5) other transactions are active; -t %s "
		    "measures what a delay does here)", plan_group_name(GROUP_GROUP));
		put_wrapped(out, 4, line);
	}
}

/* etcd's verdict: latency, the figures behind it, the durability doubt. */
static void
print_etcd_advice(FILE *out, const struct advice *a)
{
	char answer[ADVICE_TEXT_LEN], figures[ADVICE_TEXT_LEN], doubt[ADVICE_TEXT_LEN];

	if (!report_etcd_verdict(a, answer, figures, doubt, sizeof answer))
		return;
	put_hanging(out, 2, 4, answer);
	if (figures[0] != '\0')
		put_wrapped(out, 4, figures);
	if (doubt[0] != '\0')
		put_hanging(out, 2, 4, doubt);
}

/* The advice: PostgreSQL's settings (unless only -t etcd ran, which says
 * nothing of them), etcd's verdict, the warnings. */
static void
print_advice(FILE *out, const struct report *r, const struct target_result *tr)
{
	const struct advice *a = &tr->advice;
	struct words w;
	size_t i;

	if (!report_several(r)) {
		fprintf(out, "\nAdvice\n");
	} else {
		char prefix[48];

		snprintf(prefix, sizeof prefix, "\nAdvice for target %zu: ",
		    (size_t)(tr - r->targets) + 1);
		put_path_line(out, prefix, tr->run.path);
	}
	if (plan_has_postgres_groups(r->options->groups))
		print_postgres_advice(out, tr);
	print_etcd_advice(out, a);
	for (i = 0; i < a->nwarnings; i++) {
		char line[ADVICE_TEXT_LEN + 64];

		snprintf(line, sizeof line, "warning [%s]: %s", a->warnings[i].code,
		    warning_words_message(&a->warnings[i], &w));
		put_hanging(out, 2, 4, line);
	}
	if (tr->run.failed) {
		fprintf(out, "  stopped by an error:\n");
		put_wrapped(out, 4, tr->run.error);
	}
}

static void
text_end(FILE *out, const struct report *r)
{
	size_t t;

	if (report_several(r))
		print_tables(out, r);
	report_group_text(out, r);
	if (r->interrupted_by != 0) {
		char line[160];

		snprintf(line, sizeof line, "Interrupted by %s: these are the figures measured "
		    "until then (the last group's rows may have had fewer rounds).",
		    cleanup_signal_name(r->interrupted_by));
		fputc('\n', out);
		put_wrapped(out, 0, line);
	}
	for (t = 0; t < r->ntargets; t++)
		if (r->targets[t].run.measured)
			print_advice(out, r, &r->targets[t]);
	if (plan_has_postgres_groups(r->options->groups))
		report_what_to_set(out, r);
}

void
report_text(FILE *out, const struct report *r)
{
	report_replay(&report_text_stream, out, r);
}
