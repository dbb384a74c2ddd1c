/* report_group.c: the group-commit experiment in the text and JSON
 * reports: one table per client count, inside 80 columns, and a "group"
 * block per target. The writers only read group_result's figures. */
#include "config.h"

#include "report/report_group.h"

#include <stdio.h>
#include <string.h>

#include "group/group_result.h"
#include "probe/plan.h"
#include "report/report.h"
#include "probe/row.h"
#include "util/wrap.h"

#define LINE_WIDTH     79
#define USECS_DECIMALS 3

static void
put_wrapped(FILE *out, int indent, const char *text)
{
	wrap_print(out, indent, indent, LINE_WIDTH, text, false);
}

static void
print_preamble(FILE *out, const struct target_result *tr, size_t number)
{
	const struct group_result *g = tr->group;
	char title[96], page[16], rec[16], work[32], line[640];
	int n;

	plan_group_title(GROUP_GROUP, g->page_bytes, title, sizeof title);
	if (number > 0)
		fprintf(out, "\n%s: target %zu\n", title, number);
	else
		fprintf(out, "\n%s\n", title);
	units_format_size(g->page_bytes, page, sizeof page);
	units_format_size(g->record_bytes, rec, sizeof rec);
	units_format_duration(g->txn_work_ns, work, sizeof work);
	n = snprintf(line, sizeof line, "%s, %s; %s records, "
	    "%s of work per transaction, commit_siblings %u, %u round%s. A flush (write + "
	    "sync) at one committer took %.3f us (over %llu flushes)", g->method->name,
	    g->direct ? "with direct I/O like its one-write row (as a server with "
	    "debug_io_direct = wal)" : "buffered as a server writes its WAL", rec,
	    g->txn_work_ns ? work : "no", g->siblings, g->rounds,
	    g->rounds == 1 ? "" : "s", g->flush_usecs, (unsigned long long)g->flush_count);
	if (!g->delays_given && n > 0 && (size_t)n < sizeof line)
		snprintf(line + n, sizeof line - (size_t)n, "; the delays are the round "
		    "values nearest d/8 to 2d of d = %.3f us (%s), and d/2 = %ld us is "
		    "PostgreSQL's rule", g->basis_usecs,
		    g->basis_is_row ? "the one-write row's mean, as the advice" : "that flush",
		    g->rule_usecs);
	put_wrapped(out, 0, line);
	put_wrapped(out, 0, "vs 0: commits/s over delay 0's, both summed over the "
	    "rounds (and the deciding rounds, where a delay led 0 after them, its and 0's "
	    "own); better or worse only beyond the noise, the 95% confidence "
	    "half-width of the rounds' log ratios (Student's t); \"no sleep\": the "
	    "siblings gate never let the delay sleep. Latency: request taken to record "
	    "durable, in usecs.");
	if (g->cut_short)
		put_wrapped(out, 0, "Cut short by a signal: the cells below are those "
		    "measured until then, each with the rounds it completed; the slice "
		    "the signal cut is left out, and the experiment advises nothing.");
}

/* A figure right-aligned in a column of width characters, one of them the
 * space that parts it from the column before: with decimals where that
 * fits, none where not, and a bound (">9999999", "<-9999%") past that, so
 * that a noisy cell or a stalled disk never runs two columns together or
 * pushes its line past 80 columns. sign shows a + on positive figures;
 * unit follows the figure ("%" or ""). */
static void
put_figure(FILE *out, double v, int width, int decimals, bool sign, const char *unit)
{
	int room = width - 1, n;
	char buf[64];

	n = snprintf(buf, sizeof buf, sign ? "%+.*f%s" : "%.*f%s", decimals, v, unit);
	if (n > room)
		n = snprintf(buf, sizeof buf, sign ? "%+.0f%s" : "%.0f%s", v, unit);
	if (n > room) {
		const char *bound = v < 0 ? "<-" : sign ? ">+" : ">";
		int digits = room - (int)strlen(bound) - (int)strlen(unit);

		snprintf(buf, sizeof buf, "%s%.*s%s", bound, digits > 0 ? digits : 0,
		    "999999999999", unit);
	}
	fprintf(out, "%*s", width, buf);
}

static void
put_rate(FILE *out, double v)
{
	put_figure(out, v, 9, v < 10000.0 ? 1 : 0, false, "");
}

static void
put_latency(FILE *out, double us)
{
	put_figure(out, us, 8, us < 100000.0 ? 1 : 0, false, "");
}

static void
put_pct(FILE *out, double v, int width, bool sign)
{
	put_figure(out, v, width, 1, sign, "%");
}

static const char *
verdict_word(const struct group_cell *c)
{
	if (group_cell_never_slept(c))
		return "no sleep";
	return group_verdict_name(c->vs_zero);
}

static void
print_cell(FILE *out, const struct group_result *g, const struct group_cell *c, bool first)
{
	size_t ri = group_rule_index(g);

	fprintf(out, "%6ld us %-4s", c->delay_usecs,
	    ri < g->ndelays && c->delay_usecs == g->delays[ri] && c->delay_usecs > 0 ?
	    "rule" : "");
	put_rate(out, c->commits_per_sec);
	put_pct(out, c->spread_pct, 7, false);
	if (first) {
		fprintf(out, "%24s", "");
	} else {
		put_pct(out, c->vs_zero_pct, 8, true);
		put_pct(out, c->noise_pct, 7, false);
		fprintf(out, " %-8s", verdict_word(c));
	}
	put_figure(out, c->commits_per_flush, 9, 2, false, "");
	put_latency(out, c->p50_usecs);
	put_latency(out, c->p99_usecs);
	fputc('\n', out);
}

/* What a commit cost the experiment in CPU at delay 0, to set beside a
 * server's: at many clients a short delay's gain hangs on it (bench/README,
 * the slowed disk at 32 clients). */
static void
print_cpu(FILE *out, const struct group_result *g, const struct group_cell *zero)
{
	char work[32], line[160];

	if (zero->cpu_commits == 0)
		return;
	units_format_duration(g->txn_work_ns, work, sizeof work);
	snprintf(line, sizeof line, "CPU a commit at 0: %.1f us (client and committer; "
	    "%s%s)", zero->cpu_usecs, g->txn_work_ns ? work : "no --txn-work",
	    g->txn_work_ns ? " of it --txn-work" : "");
	put_wrapped(out, 2, line);
}

/* How the delay with the most commits/s stands against 0. A decided
 * delay is judged over its deciding rounds alone, where it can trail 0. */
static const char *
lead_words(const struct group_cell *best)
{
	switch (best->vs_zero) {
	case GROUP_BETTER:
		return "beyond noise";
	case GROUP_WORSE:
		return "a loss beyond noise";
	case GROUP_UNCLEAR:
		return best->vs_zero_pct < 0.0 ?
		    "every round below 0's, but within the rounds' noise" :
		    "every round above 0's, but within the rounds' noise";
	default:
		return "within noise";
	}
}

static void
print_client_count(FILE *out, const struct group_result *g, size_t ci)
{
	const struct group_cell *best = group_cell_at(g, ci, g->best[ci]);
	char head[32], line[256];
	size_t di, n = group_delays_at(g, ci);

	snprintf(head, sizeof head, "%u client%s", g->clients[ci], g->clients[ci] == 1 ? "" : "s");
	fprintf(out, "\n%-14s%9s%7s%8s%7s %-8s%9s%8s%8s\n", head, "commits/s", "spread",
	    "vs 0", "noise", "", "per flush", "p50 us", "p99 us");
	for (di = 0; di < n; di++)
		print_cell(out, g, group_cell_at(g, ci, di), di == 0);
	if (g->best[ci] == 0)
		snprintf(line, sizeof line, "most commits/s with no delay");
	else
		snprintf(line, sizeof line, "most commits/s at %ld us: %+.1f%% against 0, %s",
		    best->delay_usecs, best->vs_zero_pct, lead_words(best));
	put_wrapped(out, 2, line);
	print_cpu(out, g, group_cell_at(g, ci, 0));
	for (di = 1; di < n; di++) {
		const struct group_cell *c = group_cell_at(g, ci, di);

		if (c->decided == 0)
			continue;
		snprintf(line, sizeof line, "decided: %ld us (it led 0 at this or fewer "
		    "clients) ran %u more round%s beside 0, side by side: its figures "
		    "against 0 are over those alone, its noise their 99%% half-width",
		    c->delay_usecs, c->decided, c->decided == 1 ? "" : "s");
		wrap_print(out, 2, 4, LINE_WIDTH, line, false);
	}
}

void
report_group_text(FILE *out, const struct report *r)
{
	size_t t, ci;

	for (t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];

		if (tr->group == NULL)
			continue;
		print_preamble(out, tr, r->ntargets > 1 ? t + 1 : 0);
		for (ci = 0; ci < tr->group->nclients; ci++)
			print_client_count(out, tr->group, ci);
	}
}

static void
put_cell(struct json *j, const struct group_cell *c)
{
	unsigned k;

	json_begin_object(j, NULL);
	json_int(j, "commit_delay_usecs", c->delay_usecs);
	json_uint(j, "commits", c->commits);
	json_uint(j, "flushes", c->flushes);
	json_uint(j, "delayed_flushes", c->delayed);
	json_double(j, "secs", row_secs(c->elapsed_ns), 6);
	json_double(j, "commits_per_sec", c->commits_per_sec, 1);
	json_double(j, "commits_per_flush", c->commits_per_flush, 3);
	if (c->flushes)
		json_double(j, "flush_usecs", c->flush_usecs, USECS_DECIMALS);
	else
		json_null(j, "flush_usecs");
	if (c->cpu_commits)
		json_double(j, "commit_cpu_usecs", c->cpu_usecs, USECS_DECIMALS);
	else
		json_null(j, "commit_cpu_usecs");
	if (c->latency.count) {
		json_begin_object(j, "commit_usecs");
		json_double(j, "p50", c->p50_usecs, USECS_DECIMALS);
		json_double(j, "p99", c->p99_usecs, USECS_DECIMALS);
		json_end_object(j);
	} else {
		json_null(j, "commit_usecs");
	}
	json_double(j, "spread_percent", c->spread_pct, 2);
	json_double(j, "versus_zero_percent", c->vs_zero_pct, 2);
	json_double(j, "noise_percent", c->noise_pct, 2);
	json_string(j, "versus_zero", group_verdict_name(c->vs_zero));
	json_bool(j, "near_best", c->near_best);
	json_uint(j, "decided_rounds", c->decided);
	json_begin_array(j, "slices");
	for (k = 0; k < c->nslices; k++) {
		if (c->slices[k].ns == 0)
			continue;	/* a deciding round of another delay */
		json_begin_object(j, NULL);
		json_uint(j, "commits", c->slices[k].commits);
		json_uint(j, "flushes", c->slices[k].flushes);
		json_double(j, "commits_per_sec",
		    row_per_sec(c->slices[k].commits, c->slices[k].ns), 1);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void
report_group_json(struct json *j, const struct group_result *g)
{
	size_t ci, di;

	if (g == NULL) {
		json_null(j, "group");
		return;
	}
	json_begin_object(j, "group");
	json_string(j, "method", g->method->name);
	json_bool(j, "direct", g->direct);
	json_uint(j, "page_bytes", g->page_bytes);
	json_uint(j, "record_bytes", g->record_bytes);
	json_double(j, "txn_work_usecs", row_usecs((double)g->txn_work_ns), USECS_DECIMALS);
	json_uint(j, "commit_siblings", g->siblings);
	json_uint(j, "rounds", g->rounds);
	json_uint(j, "decide", g->decide);
	json_double(j, "flush_usecs", g->flush_usecs, USECS_DECIMALS);
	json_uint(j, "flush_count", g->flush_count);
	json_double(j, "basis_usecs", g->basis_usecs, USECS_DECIMALS);
	json_string(j, "basis", g->basis_is_row ? "row" : "flush");
	json_int(j, "rule_commit_delay_usecs", g->rule_usecs);
	json_bool(j, "delays_given", g->delays_given);
	json_bool(j, "cut_short", g->cut_short);
	json_begin_array(j, "commit_delays_usecs");
	for (di = 0; di < g->ndelays; di++)
		json_int(j, NULL, g->delays[di]);
	json_end_array(j);
	json_begin_array(j, "clients");
	for (ci = 0; ci < g->nclients; ci++) {
		json_begin_object(j, NULL);
		json_uint(j, "clients", g->clients[ci]);
		json_int(j, "best_commit_delay_usecs", g->delays[g->best[ci]]);
		json_int(j, "pick_commit_delay_usecs", g->delays[g->pick[ci]]);
		json_begin_array(j, "cells");
		for (di = 0; di < group_delays_at(g, ci); di++)
			put_cell(j, group_cell_at(g, ci, di));
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}
