/* report_pgbench.c: syncprobe pgbench's figures derived once (median,
 * range, verdict against 0 by -t group's noise rule), and its reports:
 * text, JSON (schema in the man page) and conf. */
#include "config.h"

#include "report/report_pgbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/advice_words.h"
#include "report/settings_words.h"
#include "report/report.h"
#include "report/report_counts.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/wrap.h"

#define LINE_WIDTH 79

static const char *const role_names[] = {
	[PGB_ROLE_SWEPT] = "swept", [PGB_ROLE_ZERO] = "zero", [PGB_ROLE_RULE] = "rule",
	[PGB_ROLE_GROUP] = "group"
};

static const char *const workload_names[] = {
	[PGB_INSERT] = "one-row-insert", [PGB_TPCB] = "tpcb-like", [PGB_SCRIPT] = "script"
};

struct pgb_cell *
pgb_cell_at(const struct pgb_result *r, size_t ci, size_t si)
{
	return &r->cells[ci * r->nsettings + si];
}

size_t
pgb_find_setting(const struct pgb_result *r, long delay, unsigned siblings)
{
	size_t i;

	for (i = 0; i < r->nsettings; i++)
		if (r->settings[i].delay_usecs == delay &&
		    (delay == 0 || r->settings[i].siblings == siblings))
			return i;
	return r->nsettings;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
finish_cell(struct pgb_cell *p)
{
	double tps[PGB_MAX_CELL_RUNS];
	uint64_t tx = 0, syncs = 0;
	unsigned k, n = 0;

	for (k = 0; k < p->cell.nslices && n < PGB_MAX_CELL_RUNS; k++)
		if (p->cell.slices[k].ns > 0) {
			tps[n++] = (double)p->cell.slices[k].commits * (double)NSEC_PER_SEC /
			    (double)p->cell.slices[k].ns;
			tx += p->cell.slices[k].commits;
			syncs += p->cell.slices[k].flushes;
		}
	p->median_tps = p->min_tps = p->max_tps = 0.0;
	p->commits_per_flush = -1.0;
	if (n == 0)
		return;
	qsort(tps, n, sizeof tps[0], cmp_double);
	p->median_tps = n % 2 ? tps[n / 2] : (tps[n / 2 - 1] + tps[n / 2]) / 2.0;
	p->min_tps = tps[0];
	p->max_tps = tps[n - 1];
	if (p->have_wal && syncs > 0)
		p->commits_per_flush = (double)tx / (double)syncs;
}

void
pgb_finish(struct pgb_result *r)
{
	size_t ci, si, zero = pgb_find_setting(r, 0, 0);

	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++) {
			struct pgb_cell *p = pgb_cell_at(r, ci, si);

			finish_cell(p);
			p->cell.vs_zero = GROUP_SAME;
			if (p->runs && zero < r->nsettings && si != zero)
				p->cell.vs_zero = group_compare(&p->cell,
				    &pgb_cell_at(r, ci, zero)->cell, &p->cell.vs_zero_pct,
				    &p->cell.noise_pct);
		}
}

/* The role column: "rule", "group", "rule+group", or "". */
static const char *
roles_word(unsigned roles)
{
	bool rule = roles & (1u << PGB_ROLE_RULE), group = roles & (1u << PGB_ROLE_GROUP);

	return rule && group ? "rule+group" : rule ? "rule" : group ? "group" : "";
}

/* A table row, without the spaces an empty last column leaves. */
static void
put_row(FILE *out, const char *row)
{
	size_t n = strlen(row);

	while (n > 0 && row[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", (int)n, row);
}

/* A line of prose, wrapped to the report's 79 columns, its later lines
 * indented by hang. */
static void
put_prose(FILE *out, int indent, int hang, const char *text)
{
	wrap_print(out, indent, hang, LINE_WIDTH, text, false);
}

static void
text_cell(FILE *out, const struct pgb_result *r, size_t ci, size_t si)
{
	const struct pgb_setting *s = &r->settings[si];
	const struct pgb_cell *p = pgb_cell_at(r, ci, si);
	char sib[16], range[64], cpf[16], pct[16], row[160];

	if (s->delay_usecs == 0)
		snprintf(sib, sizeof sib, "-");
	else
		snprintf(sib, sizeof sib, "%u", s->siblings);
	if (!p->runs || p->cell.nslices == 0) {
		snprintf(row, sizeof row, "  %6ld %8s  %-50s %s", s->delay_usecs, sib, !p->runs ?
		    "same as 0: commit_siblings >= clients" :
		    "not measured (the sweep was cut short)", roles_word(s->roles));
		put_row(out, row);
		return;
	}
	snprintf(range, sizeof range, "%.0f (%.0f-%.0f)", p->median_tps, p->min_tps,
	    p->max_tps);
	if (p->commits_per_flush >= 0)
		snprintf(cpf, sizeof cpf, "%.2f", p->commits_per_flush);
	else
		snprintf(cpf, sizeof cpf, "n/a");
	if (s->delay_usecs == 0)
		pct[0] = '\0';
	else
		snprintf(pct, sizeof pct, "%+.1f%%", p->cell.vs_zero_pct);
	snprintf(row, sizeof row, "  %6ld %8s  %-22s %7s  %-7s %8s  %s", s->delay_usecs, sib,
	    range, pct, s->delay_usecs == 0 ? "" : group_verdict_name(p->cell.vs_zero), cpf,
	    roles_word(s->roles));
	put_row(out, row);
}

/* Whether deciding ran at client count ci (a signal may have stopped it
 * before its first pair was whole). */
static bool
decided_at(const struct pgb_result *r, size_t ci)
{
	return r->decided[ci].setting != r->nsettings && r->decided[ci].runs > 0;
}

static bool
decided_any(const struct pgb_result *r)
{
	size_t ci;

	for (ci = 0; ci < r->nclients; ci++)
		if (decided_at(r, ci))
			return true;
	return false;
}

/* The deciding runs at client count ci, if a delay needed them. */
static void
text_decided(FILE *out, const struct pgb_result *r, size_t ci)
{
	const struct pgb_decided *d = &r->decided[ci];
	char line[256];

	if (!decided_at(r, ci))
		return;
	snprintf(line, sizeof line, "decided: %ld us (siblings %u) led 0 within the "
	    "repeats' noise, and ran %u more time%s beside 0, side by side: %u runs each "
	    "above", r->settings[d->setting].delay_usecs, r->settings[d->setting].siblings,
	    d->runs, d->runs == 1 ? "" : "s", r->repeats_done + d->runs);
	put_prose(out, 2, 4, line);
}

/* What a setting measured at each client count: "1.02x at 8, 0.97x at 32",
 * appended to b. */
static void
measured_text(const struct pgb_result *r, size_t si, struct strbuf *b)
{
	size_t ci, z = pgb_find_setting(r, 0, 0);

	for (ci = 0; ci < r->nclients; ci++) {
		const struct pgb_cell *p = pgb_cell_at(r, ci, si), *zp = pgb_cell_at(r, ci, z);

		if (!p->runs)
			strbuf_add(b, "%s%u client%s: same as 0", ci ? ", " : "",
			    r->clients[ci], r->clients[ci] == 1 ? "" : "s");
		else if (zp->median_tps > 0 && p->cell.nslices > 0)
			strbuf_add(b, "%s%u client%s: %.2fx (%s)", ci ? ", " : "",
			    r->clients[ci], r->clients[ci] == 1 ? "" : "s",
			    p->median_tps / zp->median_tps, group_verdict_name(p->cell.vs_zero));
		else
			strbuf_add(b, "%s%u client%s: not measured",
			    ci ? ", " : "", r->clients[ci], r->clients[ci] == 1 ? "" : "s");
	}
}

static void
text_beside(FILE *out, const struct pgb_result *r, const char *what, long delay,
    unsigned siblings)
{
	size_t si = pgb_find_setting(r, delay, siblings);
	char line[512];
	struct strbuf b;

	strbuf_init(&b, line, sizeof line);
	strbuf_add(&b, "%s: commit_delay = %ld, commit_siblings = %u: ", what, delay, siblings);
	if (si == r->nsettings)
		strbuf_add(&b, "not in the sweep");
	else
		measured_text(r, si, &b);
	put_prose(out, 2, 4, line);
}

static void
text_header(FILE *out, const struct pgb_result *r)
{
	char dir[ESCAPE_LEN(4096)], bin[ESCAPE_LEN(4096)], version[ESCAPE_LEN(64)];
	char line[ESCAPE_LEN(4096) * 2 + 256];

	escape_for_terminal(r->dir, dir, sizeof dir);
	escape_for_terminal(r->bin_dir, bin, sizeof bin);
	escape_for_terminal(r->server_version, version, sizeof version);
	snprintf(line, sizeof line, "syncprobe pgbench: %s", dir);
	put_prose(out, 0, 2, line);
	snprintf(line, sizeof line, "server: PostgreSQL %s (%s, found by %s), run as %s",
	    version, bin, r->bin_found_by, r->user);
	put_prose(out, 0, 2, line);
	snprintf(line, sizeof line, "wal_sync_method = %s (%s); flush d = %.3f us (one 8kB "
	    "write and its sync, the probe's one-write row)", r->wal_sync_method,
	    r->method_given ? "--wal-sync-method" : "the probe's advice", r->d_usecs);
	put_prose(out, 0, 2, line);
	if (r->group_ran) {
		snprintf(line, sizeof line, "-t group advised commit_delay = %ld, "
		    "commit_siblings = %u", r->group_delay_usecs, r->group_siblings);
		put_prose(out, 0, 2, line);
	}
	snprintf(line, sizeof line, "workload: %s; %u repeats of %u s per setting, shuffled "
	    "within each repeat, a CHECKPOINT before each run", workload_names[r->workload],
	    r->repeats, r->secs);
	put_prose(out, 0, 2, line);
	if (r->decide > 0 && decided_any(r)) {
		snprintf(line, sizeof line, "then, where a delay led 0 within the repeats' "
		    "noise, %u more run%s of it and of 0, side by side", r->decide,
		    r->decide == 1 ? "" : "s");
		put_prose(out, 0, 2, line);
	} else if (r->decide > 0 && r->repeats_done == r->repeats && !r->cut_short) {
		put_prose(out, 0, 2, "no deciding runs: at no client count did a delay lead 0 "
		    "within the repeats' noise");
	}
	if (r->cut_short) {
		snprintf(line, sizeof line, "stopped by a signal after %u whole repeat%s%s: the "
		    "figures are what was measured", r->repeats_done,
		    r->repeats_done == 1 ? "" : "s",
		    r->decide > 0 && r->repeats_done == r->repeats ? " (while deciding)" : "");
		put_prose(out, 0, 2, line);
	}
}

/* The verdicts' words, once, under the tables: what "unclear" means. */
static void
text_legend(FILE *out, const struct pgb_result *r)
{
	size_t ci, si;

	for (ci = 0; ci < r->nclients; ci++)
		for (si = 0; si < r->nsettings; si++)
			if (pgb_cell_at(r, ci, si)->runs &&
			    pgb_cell_at(r, ci, si)->cell.vs_zero == GROUP_UNCLEAR) {
				fputc('\n', out);
				put_prose(out, 0, 0, "unclear: every run of the setting above "
				    "(or below) every run of 0, the ranges apart, but too few "
				    "repeats, or too spread, for the paired noise to call it "
				    "better or worse (more --repeats can); the advice takes it "
				    "as no gain, and as a loss where it is below 0");
				return;
			}
}

static void
text_advice(FILE *out, const struct pgb_result *r)
{
	char line[ADVICE_TEXT_LEN + 64];
	struct words w;

	fprintf(out, "\nAdvice\n");
	if (!r->have_advice) {
		put_prose(out, 2, 4, "nothing: no whole repeat was measured");
		return;
	}
	fprintf(out, "  commit_delay = %ld, commit_siblings = %u\n",
	    r->advice.commit_delay_usecs, r->advice.commit_siblings);
	snprintf(line, sizeof line, "why: %s", advice_words_delay(&r->advice, &w));
	put_prose(out, 4, 6, line);
	snprintf(line, sizeof line, "siblings: %s", advice_words_siblings(&r->advice, &w));
	put_prose(out, 4, 6, line);
	report_counts_text(out, &r->advice, 2);
	text_beside(out, r, "the half rule", advice_commit_delay(r->d_usecs),
	    DEFAULT_COMMIT_SIBLINGS);
	if (r->group_ran)
		text_beside(out, r, "-t group's advice", r->group_delay_usecs, r->group_siblings);
}

void
report_pgbench_text(FILE *out, const struct pgb_result *r)
{
	size_t ci, si;

	text_header(out, r);
	for (ci = 0; ci < r->nclients; ci++) {
		fprintf(out, "\n%u client%s\n", r->clients[ci], r->clients[ci] == 1 ? "" : "s");
		fprintf(out, "  %6s %8s  %-22s %7s  %-7s %8s  %s\n", "delay", "siblings",
		    "tps median (min-max)", "vs 0", "verdict", "commits", "role");
		fprintf(out, "  %6s %8s  %-22s %7s  %-7s %8s\n", "us", "", "", "", "", "/flush");
		for (si = 0; si < r->nsettings; si++)
			text_cell(out, r, ci, si);
		text_decided(out, r, ci);
	}
	if (r->version_num > 0 && r->version_num < 140000)
		fprintf(out, "\ncommits per flush: not available before PostgreSQL 14 "
		    "(pg_stat_wal)\n");
	text_legend(out, r);
	text_advice(out, r);
	fprintf(out, "\nWhat to set\n");
	report_print_settings(out, &r->to_set);
}

static void
json_cell(struct json *j, const struct pgb_result *r, size_t ci, size_t si)
{
	const struct pgb_cell *p = pgb_cell_at(r, ci, si);
	unsigned k;

	json_begin_object(j, NULL);
	json_int(j, "commit_delay_usecs", r->settings[si].delay_usecs);
	json_uint(j, "commit_siblings", r->settings[si].siblings);
	json_bool(j, "runs", p->runs);
	if (!p->runs || p->cell.nslices == 0) {
		json_null(j, "tps_median");
		json_null(j, "tps_min");
		json_null(j, "tps_max");
		json_null(j, "versus_zero_percent");
		json_null(j, "noise_percent");
		json_null(j, "versus_zero");
	} else {
		json_double(j, "tps_median", p->median_tps, 3);
		json_double(j, "tps_min", p->min_tps, 3);
		json_double(j, "tps_max", p->max_tps, 3);
		json_double(j, "versus_zero_percent", p->cell.vs_zero_pct, 2);
		json_double(j, "noise_percent", p->cell.noise_pct, 2);
		json_string(j, "versus_zero", group_verdict_name(p->cell.vs_zero));
	}
	if (p->commits_per_flush >= 0)
		json_double(j, "commits_per_flush", p->commits_per_flush, 3);
	else
		json_null(j, "commits_per_flush");
	json_begin_array(j, "runs_tps");
	for (k = 0; p->runs && k < p->cell.nslices; k++)
		json_double(j, NULL, p->cell.slices[k].ns ? (double)p->cell.slices[k].commits *
		    (double)NSEC_PER_SEC / (double)p->cell.slices[k].ns : 0.0, 3);
	json_end_array(j);
	json_end_object(j);
}

static void
json_decided(struct json *j, const struct pgb_result *r, size_t ci)
{
	const struct pgb_decided *d = &r->decided[ci];

	if (!decided_at(r, ci)) {
		json_null(j, "decided");
		return;
	}
	json_begin_object(j, "decided");
	json_int(j, "commit_delay_usecs", r->settings[d->setting].delay_usecs);
	json_uint(j, "commit_siblings", r->settings[d->setting].siblings);
	json_uint(j, "runs", d->runs);
	json_end_object(j);
}

static void
json_setting(struct json *j, const char *key, long delay, unsigned siblings)
{
	json_begin_object(j, key);
	json_int(j, "commit_delay_usecs", delay);
	json_uint(j, "commit_siblings", siblings);
	json_end_object(j);
}

void
report_pgbench_json(FILE *out, const struct pgb_result *r)
{
	struct json j;
	struct words w;
	size_t ci, si;
	unsigned b;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", PGB_SCHEMA_VERSION);
	json_string(&j, "syncprobe_version", PACKAGE_VERSION);
	json_string(&j, "command", "pgbench");
	json_string(&j, "path", r->dir);
	json_string(&j, "server_version", r->server_version);
	json_string(&j, "bin_dir", r->bin_dir);
	json_string(&j, "user", r->user);
	json_string(&j, "wal_sync_method", r->wal_sync_method);
	json_double(&j, "flush_usecs", r->d_usecs, 3);
	json_string(&j, "workload", workload_names[r->workload]);
	json_uint(&j, "run_secs", r->secs);
	json_uint(&j, "repeats", r->repeats);
	json_uint(&j, "repeats_done", r->repeats_done);
	json_uint(&j, "decide", r->decide);
	json_bool(&j, "interrupted", r->cut_short);
	json_double(&j, "duration_secs", r->duration_secs, 1);
	if (r->group_ran)
		json_setting(&j, "group_advice", r->group_delay_usecs, r->group_siblings);
	else
		json_null(&j, "group_advice");
	json_setting(&j, "rule", advice_commit_delay(r->d_usecs), DEFAULT_COMMIT_SIBLINGS);
	json_begin_array(&j, "settings");
	for (si = 0; si < r->nsettings; si++) {
		json_begin_object_line(&j, NULL);
		json_int(&j, "commit_delay_usecs", r->settings[si].delay_usecs);
		json_uint(&j, "commit_siblings", r->settings[si].siblings);
		json_begin_array(&j, "roles");
		for (b = 0; b < sizeof role_names / sizeof role_names[0]; b++)
			if (r->settings[si].roles & (1u << b))
				json_string(&j, NULL, role_names[b]);
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_array(&j, "clients");
	for (ci = 0; ci < r->nclients; ci++) {
		json_begin_object(&j, NULL);
		json_uint(&j, "clients", r->clients[ci]);
		json_begin_array(&j, "cells");
		for (si = 0; si < r->nsettings; si++)
			json_cell(&j, r, ci, si);
		json_end_array(&j);
		json_decided(&j, r, ci);
		json_end_object(&j);
	}
	json_end_array(&j);
	if (r->have_advice) {
		json_begin_object(&j, "advice");
		json_int(&j, "commit_delay_usecs", r->advice.commit_delay_usecs);
		json_uint(&j, "commit_siblings", r->advice.commit_siblings);
		json_string(&j, "reason", advice_words_delay(&r->advice, &w));
		json_string(&j, "siblings_reason", advice_words_siblings(&r->advice, &w));
		report_counts_json(&j, &r->advice);
		json_end_object(&j);
	} else
		json_null(&j, "advice");
	report_settings_json(&j, &r->to_set);
	json_end_object(&j);
	fputc('\n', out);
}

void
report_pgbench_conf(FILE *out, const struct pgb_result *r)
{
	const struct settings *set = &r->to_set;
	char dir[ESCAPE_LEN(4096)], version[ESCAPE_LEN(64)], why[ESCAPE_LEN(SETTING_TEXT_LEN)];
	struct words w;
	size_t i;

	/* Escaped: a newline would end the comment, and make an active line
	 * of what follows it. */
	escape_for_terminal(r->dir, dir, sizeof dir);
	escape_for_terminal(r->server_version, version, sizeof version);
	fprintf(out, "# syncprobe pgbench: %s, PostgreSQL %s, %s, %u x %u s per setting\n",
	    dir, version, workload_names[r->workload], r->repeats, r->secs);
	escape_for_terminal(settings_words_nothing(set, &w), why, sizeof why);
	if (set->nothing != NOTHING_NONE)
		fprintf(out, "# %s: every setting below is commented out\n", why);
	for (i = 0; i < set->n; i++)
		report_conf_setting(out, settings_active(set, i), &set->list[i]);
	if (set->n == 0)
		fprintf(out, "# no advice: %s\n", why);
}
