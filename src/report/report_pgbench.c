/* report_pgbench.c: syncprobe pgbench's figures derived once (median,
 * range, verdict against 0 by -t group's noise rule), and its reports:
 * text, JSON (schema in the man page) and conf. */
#include "config.h"

#include "report/report_pgbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/json.h"

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
			tps[n++] = (double)p->cell.slices[k].commits * 1e9 /
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

static void
roles_text(unsigned roles, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", roles & (1u << PGB_ROLE_RULE) ? " the half rule" : "",
	    (roles & (1u << PGB_ROLE_RULE)) && (roles & (1u << PGB_ROLE_GROUP)) ? "," : "",
	    roles & (1u << PGB_ROLE_GROUP) ? " -t group's advice" : "");
}

static void
text_cell(FILE *out, const struct pgb_result *r, size_t ci, size_t si)
{
	const struct pgb_setting *s = &r->settings[si];
	const struct pgb_cell *p = pgb_cell_at(r, ci, si), *z;
	char sib[16], roles[64], range[64], cpf[16];

	roles_text(s->roles, roles, sizeof roles);
	if (s->delay_usecs == 0)
		snprintf(sib, sizeof sib, "-");
	else
		snprintf(sib, sizeof sib, "%u", s->siblings);
	if (!p->runs) {
		fprintf(out, "  %7ld %8s  same as 0: commit_siblings >= clients%s\n",
		    s->delay_usecs, sib, roles);
		return;
	}
	if (p->cell.nslices == 0) {
		fprintf(out, "  %7ld %8s  not measured (the sweep was cut short)%s\n",
		    s->delay_usecs, sib, roles);
		return;
	}
	z = pgb_cell_at(r, ci, pgb_find_setting(r, 0, 0));
	snprintf(range, sizeof range, "%.0f (%.0f-%.0f)", p->median_tps, p->min_tps,
	    p->max_tps);
	if (p->commits_per_flush >= 0)
		snprintf(cpf, sizeof cpf, "%.2f", p->commits_per_flush);
	else
		snprintf(cpf, sizeof cpf, "n/a");
	fprintf(out, "  %7ld %8s  %-22s %6.2fx %+6.1f%% %-6s %8s%s\n", s->delay_usecs, sib,
	    range, z->median_tps > 0 ? p->median_tps / z->median_tps : 0.0,
	    p->cell.vs_zero_pct, s->delay_usecs == 0 ? "" : group_verdict_name(p->cell.vs_zero),
	    cpf, roles);
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

	if (!decided_at(r, ci))
		return;
	fprintf(out, "  decided: %ld us (siblings %u) led 0 within the repeats' noise, and "
	    "ran %u more time%s beside 0, side by side: %u runs each above\n",
	    r->settings[d->setting].delay_usecs, r->settings[d->setting].siblings, d->runs,
	    d->runs == 1 ? "" : "s", r->repeats_done + d->runs);
}

/* What a setting measured at each client count: "1.02x at 8, 0.97x at 32". */
static void
text_measured(FILE *out, const struct pgb_result *r, size_t si)
{
	size_t ci, z = pgb_find_setting(r, 0, 0);

	for (ci = 0; ci < r->nclients; ci++) {
		const struct pgb_cell *p = pgb_cell_at(r, ci, si), *zp = pgb_cell_at(r, ci, z);

		fprintf(out, "%s%u client%s: ", ci ? ", " : "", r->clients[ci],
		    r->clients[ci] == 1 ? "" : "s");
		if (!p->runs)
			fprintf(out, "same as 0");
		else if (zp->median_tps > 0 && p->cell.nslices > 0)
			fprintf(out, "%.2fx (%s)", p->median_tps / zp->median_tps,
			    group_verdict_name(p->cell.vs_zero));
		else
			fprintf(out, "not measured");
	}
}

static void
text_beside(FILE *out, const struct pgb_result *r, const char *what, long delay,
    unsigned siblings)
{
	size_t si = pgb_find_setting(r, delay, siblings);

	fprintf(out, "  %s: commit_delay = %ld, commit_siblings = %u: ", what, delay, siblings);
	if (si == r->nsettings)
		fprintf(out, "not in the sweep\n");
	else {
		text_measured(out, r, si);
		fputc('\n', out);
	}
}

void
report_pgbench_text(FILE *out, const struct pgb_result *r)
{
	char dir[ESCAPE_LEN(4096)], bin[ESCAPE_LEN(4096)], version[ESCAPE_LEN(64)];
	size_t ci, si;

	escape_for_terminal(r->dir, dir, sizeof dir);
	escape_for_terminal(r->bin_dir, bin, sizeof bin);
	escape_for_terminal(r->server_version, version, sizeof version);
	fprintf(out, "syncprobe pgbench: %s\n", dir);
	fprintf(out, "server: PostgreSQL %s (%s, found by %s), run as %s\n",
	    version, bin, r->bin_found_by, r->user);
	fprintf(out, "wal_sync_method = %s (%s); flush d = %.3f us (one 8kB write and its "
	    "sync, the probe's one-write row)\n", r->wal_sync_method,
	    r->method_given ? "--wal-sync-method" : "the probe's advice", r->d_usecs);
	if (r->group_ran)
		fprintf(out, "-t group advised commit_delay = %ld, commit_siblings = %u\n",
		    r->group_delay_usecs, r->group_siblings);
	fprintf(out, "workload: %s; %u repeats of %u s per setting, shuffled within each "
	    "repeat, a CHECKPOINT before each run\n", workload_names[r->workload],
	    r->repeats, r->secs);
	if (r->decide > 0 && decided_any(r))
		fprintf(out, "then, where a delay led 0 within the repeats' noise, %u more "
		    "run%s of it and of 0, side by side\n", r->decide, r->decide == 1 ? "" : "s");
	else if (r->decide > 0 && r->repeats_done == r->repeats && !r->cut_short)
		fprintf(out, "no deciding runs: at no client count did a delay lead 0 within "
		    "the repeats' noise\n");
	if (r->cut_short)
		fprintf(out, "stopped by a signal after %u whole repeat%s%s: the figures are "
		    "what was measured\n", r->repeats_done, r->repeats_done == 1 ? "" : "s",
		    r->decide > 0 && r->repeats_done == r->repeats ? " (while deciding)" : "");
	for (ci = 0; ci < r->nclients; ci++) {
		fprintf(out, "\n%u client%s\n", r->clients[ci], r->clients[ci] == 1 ? "" : "s");
		fprintf(out, "  %7s %8s  %-22s %7s %7s %-6s %8s\n", "delay", "siblings",
		    "tps median (min-max)", "vs 0", "", "", "commits");
		fprintf(out, "  %7s %8s  %-22s %7s %7s %-6s %8s\n", "us", "", "", "", "",
		    "", "/flush");
		for (si = 0; si < r->nsettings; si++)
			text_cell(out, r, ci, si);
		text_decided(out, r, ci);
	}
	if (r->version_num > 0 && r->version_num < 140000)
		fprintf(out, "\ncommits per flush: not available before PostgreSQL 14 "
		    "(pg_stat_wal)\n");
	fprintf(out, "\nWhat the sweep advises\n");
	if (!r->have_advice) {
		fprintf(out, "  nothing: no whole repeat was measured\n");
		return;
	}
	fprintf(out, "  commit_delay = %ld, commit_siblings = %u\n",
	    r->advice.commit_delay_usecs, r->advice.commit_siblings);
	fprintf(out, "  why: %s\n", r->advice.delay_reason);
	fprintf(out, "  siblings: %s\n", r->advice.siblings_reason);
	text_beside(out, r, "the half rule", advice_commit_delay(r->d_usecs),
	    DEFAULT_COMMIT_SIBLINGS);
	if (r->group_ran)
		text_beside(out, r, "-t group's advice", r->group_delay_usecs, r->group_siblings);
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
		json_null(j, "verdict");
	} else {
		json_double(j, "tps_median", p->median_tps, 3);
		json_double(j, "tps_min", p->min_tps, 3);
		json_double(j, "tps_max", p->max_tps, 3);
		json_double(j, "vs_zero_pct", p->cell.vs_zero_pct, 2);
		json_double(j, "noise_pct", p->cell.noise_pct, 2);
		json_string(j, "verdict", group_verdict_name(p->cell.vs_zero));
	}
	if (p->commits_per_flush >= 0)
		json_double(j, "commits_per_flush", p->commits_per_flush, 3);
	else
		json_null(j, "commits_per_flush");
	json_begin_array(j, "runs_tps");
	for (k = 0; p->runs && k < p->cell.nslices; k++)
		json_double(j, NULL, p->cell.slices[k].ns ? (double)p->cell.slices[k].commits *
		    1e9 / (double)p->cell.slices[k].ns : 0.0, 3);
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
	size_t ci, si;
	unsigned b;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", PGB_SCHEMA_VERSION);
	json_string(&j, "command", "pgbench");
	json_string(&j, "dir", r->dir);
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
		json_string(&j, "reason", r->advice.delay_reason);
		json_string(&j, "siblings_reason", r->advice.siblings_reason);
		json_end_object(&j);
	} else
		json_null(&j, "advice");
	json_end_object(&j);
	fputc('\n', out);
}

void
report_pgbench_conf(FILE *out, const struct pgb_result *r)
{
	char dir[ESCAPE_LEN(4096)], version[ESCAPE_LEN(64)];

	/* Escaped: a newline would end the comment, and make an active line
	 * of what follows it. */
	escape_for_terminal(r->dir, dir, sizeof dir);
	escape_for_terminal(r->server_version, version, sizeof version);
	fprintf(out, "# syncprobe pgbench: %s, PostgreSQL %s, %s, %u x %u s per setting\n",
	    dir, version, workload_names[r->workload], r->repeats, r->secs);
	fprintf(out, "wal_sync_method = '%s'\t# %s\n", r->wal_sync_method,
	    r->method_given ? "as given" : "the probe's advice; the sweep ran with it");
	if (!r->have_advice) {
		fprintf(out, "# commit_delay: no whole repeat was measured\n");
		return;
	}
	fprintf(out, "commit_delay = %ld\t\t# us: measured best of the sweep\n",
	    r->advice.commit_delay_usecs);
	fprintf(out, "commit_siblings = %u\t# the delay applies from %u clients on\n",
	    r->advice.commit_siblings, r->advice.commit_siblings + 1);
}
