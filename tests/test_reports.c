/* test_reports.c: every report writer fed the same fixed results, compared
 * byte for byte with tests/golden/. The writers only read results, so a
 * change in what they print shows here as a diff; regenerate a golden file
 * (SYNCPROBE_GOLDEN_WRITE=1) only for a change meant to be seen. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "advice/settings.h"
#include "group/group_result.h"
#include "probe/method.h"
#include "probe/options.h"
#include "probe/plan.h"
#include "report/settings_words.h"
#include "report/report.h"
#include "report/report_pgbench.h"
#include "pgbench/sweep.h"
#include "report/report_pgbench_svg.h"
#include "target/target.h"
#include "storage/storage.h"
#include "capture.h"
#include "rows.h"
#include "tap.h"
#include "util/delay_grid.h"
#include "util/json_read.h"
#include "advice/warnings.h"

#define NTARGETS 3
#define WHEN     1796083200	/* 2026-12-01 00:00 UTC */

/* A deterministic latency for operation k of row i, in nanoseconds. */
static uint64_t
fixture_ns(size_t i, uint64_t k, uint64_t base_ns)
{
	return base_ns + (uint64_t)i * 1300 + (k % 17) * 2900 + (k % 5 == 0 ? 41000 : 0);
}

/* Row i's operation k, from a base of 61 us (a sync) or 0.9 us. */
struct fixture_op {
	size_t i;
	uint64_t base_ns;
};

static uint64_t
fixture_op_ns(uint64_t k, const void *ctx)
{
	const struct fixture_op *f = ctx;

	return fixture_ns(f->i, k, f->base_ns);
}

static void
fill_row(struct row_result *r, size_t i, unsigned rounds)
{
	struct fixture_op f = { i, r->spec.io != NULL ? 61000 : 900 };
	uint64_t ops = 90 + (uint64_t)i * 7;
	unsigned s;

	rows_record(r, ops, fixture_op_ns, &f, 20);
	r->slices = calloc(rounds, sizeof *r->slices);
	r->nslices = rounds;
	for (s = 0; s < rounds; s++) {
		r->slices[s].ops = ops / rounds + (s < ops % rounds ? 1 : 0);
		r->slices[s].ns = r->elapsed_ns / rounds + s * 1000;
	}
	row_finish(r);
}

static void
fixture_storage(struct storage_info *st)
{
	storage_info_init(st);
	snprintf(st->filesystem, sizeof st->filesystem, "ext4");
	st->have_filesystem = true;
	snprintf(st->mount_options, sizeof st->mount_options, "rw,relatime,errors=remount-ro");
	st->have_mount_options = true;
	st->have_device = true;
	snprintf(st->device.name, sizeof st->device.name, "vda");
	snprintf(st->device.model, sizeof st->device.model, "Virtual \"disk\"");
	st->device.have_model = true;
	st->device.rotational = 1;
	snprintf(st->device.write_cache, sizeof st->device.write_cache, "write back");
	st->device.have_write_cache = true;
	st->device.fua = 0;
	st->device.logical_block_bytes = 512;
	st->device.physical_block_bytes = 4096;
	snprintf(st->device.layers, sizeof st->device.layers, "dm-0 -> vda");
	/* ext4 on dm-0 on vda, as storage.c lays the tree out. */
	st->layers[0] = (struct storage_layer){ .kind = STORAGE_LAYER_FILESYSTEM,
	    .parent = -1, .name = "ext4", .path = "/var/lib/postgresql" };
	st->layers[1] = (struct storage_layer){ .kind = STORAGE_LAYER_STACKED,
	    .parent = 0, .name = "dm-0" };
	st->layers[2] = (struct storage_layer){ .kind = STORAGE_LAYER_DEVICE,
	    .parent = 1, .name = "vda", .device = 0 };
	st->nlayers = 3;
}

/* Target 0 ran every row; target 1 stopped at an I/O error in group two;
 * target 2 ran every row on target 0's filesystem. */
static void
fixture_target(const struct options *o, struct target_result *tr, size_t t)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	struct advice_input in = { NULL, method_find("fdatasync"), NULL };
	size_t i;

	memset(tr, 0, sizeof *tr);
	tr->run.path = t == 0 ? "/var/lib/postgresql" : t == 1 ? "/srv/tab\there" : "/var/lib/other";
	tr->run.have_fs_dev = true;
	tr->run.fs_dev = t == 1 ? 2 : 1;
	tr->run.nrows = plan_build(o, specs, PLAN_MAX_ROWS);
	tr->run.rows = calloc(tr->run.nrows, sizeof *tr->run.rows);
	tr->run.measured = true;
	fixture_storage(&tr->run.storage);
	if (t == 1) {
		tr->run.storage.have_device = false;
		tr->run.storage.nlayers = 1;
		snprintf(tr->run.storage.filesystem, sizeof tr->run.storage.filesystem, "tmpfs");
		snprintf(tr->run.storage.layers[0].name, sizeof tr->run.storage.layers[0].name, "tmpfs");
	}
	for (i = 0; i < tr->run.nrows; i++) {
		struct row_result *r = &tr->run.rows[i];

		row_init(r, &specs[i]);
		if (r->spec.method == method_find("fsync_writethrough")) {
			row_fail(r, ROW_WHY_NO_METHOD, "F_FULLFSYNC is not available on this system");
			row_finish(r);
			continue;
		}
		if (t != 1 && r->spec.direct && r->spec.group == GROUP_TWO &&
		    r->spec.method == method_find("fsync")) {
			row_fail(r, ROW_WHY_DIRECT_REFUSED,
			    "direct I/O refused by this filesystem (Invalid argument)");
			row_finish(r);
			continue;
		}
		fill_row(r, i + (t == 2 ? 5 : t * 3), o->rounds);
		if (t == 1 && r->spec.group == GROUP_TWO) {
			row_fail(r, ROW_WHY_IO_ERROR,
			    "fdatasync /srv/tab\there/.syncprobe.AbCdEf: Input/output error");
			tr->run.failed = true;
			snprintf(tr->run.error, sizeof tr->run.error, "%s", r->reason);
			tr->run.nrows = i + 1;
			break;
		}
	}
	advice_compute(tr->run.rows, tr->run.nrows, &in, &tr->advice);
	if (tr->advice.have_delay) {
		tr->sleep.requested_usecs = tr->advice.commit_delay_usecs;
		tr->sleep.samples = 200;
		tr->sleep.mean_usecs = 2.5 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.p50_usecs = 2.25 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.p99_usecs = 3.125 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.max_usecs = 4.0 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.timer_slack_usecs = t == 0 ? 50.0 : -1.0;
	}
	warnings_compute(tr->run.rows, tr->run.nrows, &tr->run.storage,
	    tr->sleep.samples > 0 ? &tr->sleep : NULL, &tr->advice);
	target_settings(o, tr);
}

/* Target 0's rows, measured on /dev/shm: tmpfs, no device, so the
 * nondurable_fs warning says the figures are not of durable storage. */
static void
fixture_memory_target(const struct options *o, struct target_result *tr)
{
	fixture_target(o, tr, 0);
	tr->run.path = "/dev/shm";
	tr->run.storage.have_device = false;
	tr->run.storage.nlayers = 1;
	snprintf(tr->run.storage.filesystem, sizeof tr->run.storage.filesystem, "tmpfs");
	snprintf(tr->run.storage.layers[0].name, sizeof tr->run.storage.layers[0].name, "tmpfs");
	tr->advice.nwarnings = 0;
	warnings_compute(tr->run.rows, tr->run.nrows, &tr->run.storage,
	    tr->sleep.samples > 0 ? &tr->sleep : NULL, &tr->advice);
	target_settings(o, tr);
}

/* The group-commit experiment at 1, 8 and 32 clients, its sweep made of d,
 * the one-write row's mean: delays never sleep at 1, cost at 8 and pay at
 * 32, where d and 2d beat 0. Each cell's rounds wobble around its rate so
 * that the noise is not zero. */
static struct group_result *
fixture_group(double d)
{
	static const unsigned clients[] = { 1, 8, 32 };
	static const double factors[] = { 0.125, 0.25, 0.5, 1.0, 2.0 };
	long delays[6] = { 0 };
	static const double rate[3][6] = {
		{ 9000, 9050, 8980, 9010, 8990, 9020 },
		{ 29100, 27350, 26200, 21500, 17000, 11000 },
		{ 31000, 31300, 31900, 35800, 36100, 32500 },
	};
	static const double per_flush[3] = { 1.0, 3.6, 9.5 };
	static const double wobble[5] = { 0.012, -0.009, 0.004, -0.011, 0.006 };
	struct group_result *g;
	size_t ci, di;
	unsigned k;

	/* The default sweep: the grid's values nearest d/8 to 2d. */
	if (delay_grid_sweep(d, factors, 5, delays + 1) != 5)
		return NULL;
	g = group_result_new(clients, 3, delays, 6, 5, 3);

	g->method = method_find("fdatasync");
	g->page_bytes = 8192;
	g->record_bytes = 112;
	g->txn_work_ns = 30000;
	g->siblings = 5;
	g->flush_usecs = 88.75;
	g->flush_count = 2051;
	g->basis_usecs = d;
	g->basis_is_row = true;
	g->rule_usecs = advice_commit_delay(d);
	for (ci = 0; ci < 3; ci++)
		for (di = 0; di < 6; di++) {
			struct group_cell *c = group_cell_at(g, ci, di);

			for (k = 0; k < 5; k++) {
				double r = rate[ci][di] * (1.0 + wobble[(k + di + di / 5) % 5]);
				struct group_slice *sl = &c->slices[k];

				sl->ns = 100000000ULL;
				sl->commits = (uint64_t)(r / 10.0 + 0.5);
				sl->flushes = (uint64_t)(r / 10.0 / per_flush[ci] + 0.5);
				c->commits += sl->commits;
				c->flushes += sl->flushes;
				c->elapsed_ns += sl->ns;
			}
			for (k = 0; k < 200; k++)
				stats_add(&c->latency, (uint64_t)(clients[ci] * 25000 +
				    (ci > 0 ? (uint64_t)delays[di] * 1000 : 0) + (k % 13) * 3000 +
				    (k % 50 == 0 ? 250000 : 0)));
			c->delayed = ci > 0 && di > 0 ? c->flushes * 3 / 4 : 0;
			c->flush_ns = c->flushes * (uint64_t)(48750 + ci * 4000);
			/* A warm part of each slice: more commits than counted. */
			c->cpu_commits = c->commits + c->commits / 10;
			c->cpu_ns = c->cpu_commits * (uint64_t)(95000 + ci * 2500 + di * 500);
		}
	/* At 32 clients 100 us led 0: three deciding rounds of it and of 0. */
	for (di = 0; di < 6; di += 4) {
		struct group_cell *c = group_cell_at(g, 2, di);

		for (k = 5; k < 8; k++) {
			struct group_slice *sl = &c->slices[k];

			sl->ns = 100000000ULL;
			sl->commits = (uint64_t)(rate[2][di] * (1.0 + wobble[(k + 2) % 5]) / 10.0 + 0.5);
			sl->flushes = (uint64_t)((double)sl->commits / per_flush[2] + 0.5);
			c->commits += sl->commits;
			c->flushes += sl->flushes;
			c->elapsed_ns += sl->ns;
		}
		c->nslices = 8;
		c->decided = 3;
	}
	group_result_finish(g);
	return g;
}

/* A target that ran the one-write test and the experiment. */
static void
fixture_group_target(const struct options *o, struct target_result *tr)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	struct advice_input in = { NULL, method_find("fdatasync"), NULL };
	size_t i;

	memset(tr, 0, sizeof *tr);
	tr->run.path = "/var/lib/postgresql";
	tr->run.nrows = plan_build(o, specs, PLAN_MAX_ROWS);
	tr->run.rows = calloc(tr->run.nrows, sizeof *tr->run.rows);
	tr->run.measured = true;
	fixture_storage(&tr->run.storage);
	for (i = 0; i < tr->run.nrows; i++) {
		row_init(&tr->run.rows[i], &specs[i]);
		fill_row(&tr->run.rows[i], i, o->rounds);
	}
	tr->group = fixture_group(tr->run.rows[0].mean_usecs);
	advice_compute(tr->run.rows, tr->run.nrows, &in, &tr->advice);
	advice_from_group(tr->group, &tr->advice);
	tr->sleep.requested_usecs = tr->advice.commit_delay_usecs;
	tr->sleep.samples = 200;
	/* A sleep a little longer than asked, whatever the advice is. */
	tr->sleep.mean_usecs = (double)tr->advice.commit_delay_usecs + 10.5;
	tr->sleep.p50_usecs = (double)tr->advice.commit_delay_usecs + 8.0;
	tr->sleep.p99_usecs = (double)tr->advice.commit_delay_usecs + 40.25;
	tr->sleep.max_usecs = (double)tr->advice.commit_delay_usecs + 69.0;
	tr->sleep.timer_slack_usecs = 50.0;
	warnings_compute(tr->run.rows, tr->run.nrows, &tr->run.storage, &tr->sleep, &tr->advice);
	target_settings(o, tr);
}

/* syncprobe pgbench at 1, 8 and 32 clients: delay 0, d/4, the rule d/2
 * (also at commit_siblings 2), d and 2d, 3 repeats each, wobbling around
 * each rate. At 1 client every delay is delay 0 (siblings >= clients); at
 * 8 none differs from 0 beyond the noise, at 32 they pay, most at 2d: the
 * answer there and the advice, with what to set as the sweep sets it. */
/* The probe's advice the sweep starts from: fdatasync's one write
 * measured at d (the rows are gone by then: pgbench.c keeps no basis). */
static void
fixture_pgbench_probe(struct pgb_result *r)
{
	struct advice_input in = { NULL, method_find("fdatasync"), NULL };
	struct row_spec spec;
	struct row_result row;
	uint64_t ns = (uint64_t)(r->d_usecs * 1000.0 + 0.5);

	row_spec_method(&spec, GROUP_ONE, method_find("fdatasync"), false, 1, 8192);
	row_init(&row, &spec);
	rows_record(&row, 1000, rows_constant_ns, &ns, 10);
	row_finish(&row);
	advice_compute(&row, 1, &in, &r->probe_advice);
	r->probe_advice.basis = NULL;
}

static void
fixture_pgbench(struct pgb_result *r)
{
	static const struct pgb_setting settings[] = {
		{ 0, 0, 1u << PGB_ROLE_ZERO | 1u << PGB_ROLE_GROUP },
		{ 24, 5, 1u << PGB_ROLE_SWEPT },
		{ 47, 2, 1u << PGB_ROLE_SWEPT },
		{ 47, 5, 1u << PGB_ROLE_SWEPT | 1u << PGB_ROLE_RULE },
		{ 95, 5, 1u << PGB_ROLE_SWEPT },
		{ 189, 5, 1u << PGB_ROLE_SWEPT },
	};
	static const unsigned clients[] = { 1, 8, 32 };
	static const double tps[3][6] = {
		{ 612, 0, 0, 0, 0, 0 },
		{ 4100, 4150, 4060, 4120, 4080, 4400 },
		{ 9800, 10100, 10900, 11200, 11900, 12400 },
	};
	static const double wobble[3] = { 0.015, -0.012, 0.004 };
	size_t ci, si;
	unsigned k;

	memset(r, 0, sizeof *r);
	r->dir = "/srv/pgbench";
	snprintf(r->server_version, sizeof r->server_version, "16.4");
	r->version_num = 160004;
	r->bin_dir = "/usr/lib/postgresql/16/bin";
	r->bin_found_by = "pg_config";
	r->user = "postgres";
	r->wal_sync_method = "fdatasync";
	r->d_usecs = 94.661;
	r->group_ran = true;
	r->group_delay_usecs = 0;
	r->group_siblings = 5;
	r->workload = PGB_INSERT;
	r->secs = 10;
	r->repeats = r->repeats_done = 3;
	r->nclients = 3;
	memcpy(r->clients, clients, sizeof clients);
	r->nsettings = sizeof settings / sizeof settings[0];
	memcpy(r->settings, settings, sizeof settings);
	r->cells = calloc(r->nclients * r->nsettings, sizeof *r->cells);
	for (ci = 0; ci < r->nclients; ci++) {
		r->decided[ci] = (struct pgb_decided){ r->nsettings, 0 };
		for (si = 0; si < r->nsettings; si++) {
			struct pgb_cell *p = pgb_cell_at(r, ci, si);

			p->cell.clients = clients[ci];
			p->cell.delay_usecs = settings[si].delay_usecs;
			p->runs = si == 0 || settings[si].siblings < clients[ci];
			p->have_wal = true;
			if (!p->runs)
				continue;
			p->cell.slices = calloc(3, sizeof *p->cell.slices);
			p->cell.nslices = 3;
			for (k = 0; k < 3; k++) {
				double v = tps[ci][si] * (1.0 + wobble[(k + si) % 3]);

				p->cell.slices[k].ns = 10000000000ULL;
				p->cell.slices[k].commits = (uint64_t)(v * 10.0 + 0.5);
				p->cell.slices[k].flushes = (uint64_t)(v * 10.0 / (1.0 + ci * 2.5 +
				    (double)si) + 0.5);
			}
		}
	}
	pgb_finish(r);
	/* The advice as the sweep makes it from these cells, its words the
	 * report's. */
	fixture_pgbench_probe(r);
	sweep_advise(r, method_find("fdatasync"));
	sweep_settings(r);
}

static void
free_pgbench(struct pgb_result *r)
{
	size_t i;

	for (i = 0; i < r->nclients * r->nsettings; i++)
		free(r->cells[i].cell.slices);
	free(r->cells);
}

/* The sweep report_pgbench_svg_of draws: a pgbench picture is checked as
 * a report's are. */
static const struct pgb_result *pgbench_shown;

static void
report_pgbench_svg_of(FILE *out, const struct report *rep)
{
	(void)rep;
	report_pgbench_svg(out, pgbench_shown);
}

/* The report written by fn into memory; the caller frees it. */
static char *
render(void (*fn)(FILE *, const struct report *), const struct report *rep)
{
	struct capture c;
	FILE *f = capture_open(&c);

	if (f != NULL)
		fn(f, rep);
	return capture_close(&c, f);
}

static char *
read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The first line where got and want differ, for the TAP diagnostics. */
static void
show_difference(const char *got, const char *want)
{
	size_t line = 1;
	const char *g = got, *w = want;

	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++;
		w++;
	}
	while (g > got && g[-1] != '\n')
		g--;
	while (w > want && w[-1] != '\n')
		w--;
	printf("# first difference at line %zu\n# got:  %.*s\n# want: %.*s\n", line,
	    (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

static void
check_golden(const char *name, void (*fn)(FILE *, const struct report *),
    const struct report *rep)
{
	const char *srcdir = getenv("top_srcdir");
	char path[4096], *got, *want;

	snprintf(path, sizeof path, "%s/tests/golden/%s", srcdir ? srcdir : ".", name);
	got = render(fn, rep);
	if (got == NULL) {
		ok(0, "%s: rendered", name);
		return;
	}
	if (getenv("SYNCPROBE_GOLDEN_WRITE") != NULL) {
		FILE *f = fopen(path, "w");

		ok(f != NULL && fputs(got, f) >= 0 && fclose(f) == 0, "%s: written", name);
		free(got);
		return;
	}
	want = read_file(path);
	ok(want != NULL && strcmp(got, want) == 0, "%s matches tests/golden/%s", name, name);
	if (want != NULL && strcmp(got, want) != 0)
		show_difference(got, want);
	free(got);
	free(want);
}

/* The text report as a run streams it: begin and each target as it gets
 * ready (the report knowing only the targets so far), each group as it
 * ends, then the end with every target. */
static void
stream_text(FILE *out, const struct report *whole)
{
	const struct report_stream *s = &report_text_stream;
	struct report r = *whole;
	size_t t, first, last;

	for (t = 0; t < whole->ntargets; t++) {
		const struct target_result *tr = &whole->targets[t];

		r.ntargets = t + 1;
		if (t == 0)
			s->begin(out, &r);
		s->target(out, &r, t);
		for (first = 0; first < tr->run.nrows; first = last) {
			for (last = first; last < tr->run.nrows &&
			    tr->run.rows[last].spec.group == tr->run.rows[first].spec.group; last++)
				;
			s->group(out, &r, t, first, last);
		}
	}
	r.ntargets = whole->ntargets;
	s->end(out, &r);
}

/* Streamed, the text report is the same bytes as printed at once. */
static void
check_streamed(const char *name, struct options *o, const struct report *rep)
{
	char *once = render(report_text, rep), *streamed;

	o->ntargets = rep->ntargets;	/* as main knows it from the start */
	streamed = render(stream_text, rep);
	o->ntargets = 0;
	ok(once != NULL && streamed != NULL && strcmp(once, streamed) == 0,
	    "%s: streamed group by group, the same bytes as at once", name);
	if (once != NULL && streamed != NULL && strcmp(once, streamed) != 0)
		show_difference(streamed, once);
	free(once);
	free(streamed);
}

#define MAX_SETTING_LINES 8

/* A setting as a report prints it: "name = value" and its comment. */
struct setting_line {
	char setting[128];
	char comment[1024];
};

/* The settings -F conf makes active: its lines that are not comments,
 * "name = value", each with the comment line above it, "# name: comment". */
static size_t
conf_active_lines(char *conf, struct setting_line *out, size_t max)
{
	char *line, *save = NULL;
	const char *above = "";
	size_t n = 0;

	for (line = strtok_r(conf, "\n", &save); line != NULL && n < max;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			above = line;
			continue;
		}
		snprintf(out[n].setting, sizeof out[n].setting, "%s", line);
		snprintf(out[n].comment, sizeof out[n].comment, "%s",
		    strncmp(above, "# ", 2) == 0 && strchr(above, ':') != NULL ?
		    strchr(above, ':') + 2 : "");
		n++;
	}
	return n;
}

/* The settings of the text report's "What to set" block: each "  name =
 * value" line and the lines under it joined into one comment; none after
 * "  nothing: why", nor the "  not set: " lines derived but not measured;
 * -1 when the block is missing. */
static long
text_what_to_set(char *text, struct setting_line *out, size_t max)
{
	const char *head = "\nWhat to set\n";
	char *block = strstr(text, head), *line, *save = NULL;
	bool in_setting = false;
	size_t n = 0;

	if (block == NULL)
		return -1;
	for (line = strtok_r(block + strlen(head), "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "    ", 4) == 0) {
			size_t used;

			if (!in_setting)
				continue;
			used = strlen(out[n - 1].comment);
			snprintf(out[n - 1].comment + used, sizeof out[n - 1].comment - used,
			    "%s%s", used ? " " : "", line + 4);
		} else if (strncmp(line, "  nothing: ", 11) == 0 ||
		    strncmp(line, "  not set: ", 11) == 0) {
			in_setting = false;
		} else if (strncmp(line, "  ", 2) == 0 && line[2] != ' ' && n < max) {
			snprintf(out[n].setting, sizeof out[n].setting, "%s", line + 2);
			out[n++].comment[0] = '\0';
			in_setting = true;
		} else {
			break;
		}
	}
	return (long)n;
}

/* The settings of JSON's what_to_set (the first target's), as the other
 * two print them: "name = value" (a name quoted) and "source text: reason";
 * -1 when it is missing or not as the man page says. */
static long
json_what_to_set(const char *json, struct setting_line *out, size_t max)
{
	char err[128];
	struct json_node *root = json_read(json, strlen(json), err, sizeof err);
	const struct json_node *t = root ? json_get(root, "targets") : NULL, *list;
	long n = -1;
	size_t i, k;

	if (t == NULL || t->type != JSON_ARRAY || t->count == 0 ||
	    (list = json_get(&t->items[0], "what_to_set")) == NULL || list->type != JSON_ARRAY)
		goto done;
	for (n = 0, i = 0; i < list->count && (size_t)n < max; i++, n++) {
		const struct json_node *name = json_get(&list->items[i], "name"),
		    *value = json_get(&list->items[i], "value"),
		    *source = json_get(&list->items[i], "source"),
		    *reason = json_get(&list->items[i], "reason");
		const char *text = "?";

		if (name == NULL || value == NULL || source == NULL || reason == NULL ||
		    source->type != JSON_STRING) {
			n = -1;
			goto done;
		}
		if (value->type == JSON_STRING)
			snprintf(out[n].setting, sizeof out[n].setting, "%s = '%s'",
			    name->string, value->string);
		else
			snprintf(out[n].setting, sizeof out[n].setting, "%s = %.0f",
			    name->string, value->number);
		for (k = SOURCE_PROBE; k <= SOURCE_DEFAULT; k++)
			if (strcmp(settings_source_code(k), source->string) == 0)
				text = settings_words_source(k);
		snprintf(out[n].comment, sizeof out[n].comment, "%s: %s", text, reason->string);
	}
done:
	json_read_free(root);
	return n;
}

static bool
same_lines(const struct setting_line *a, long na, const struct setting_line *b, long nb)
{
	long i;

	if (na < 0 || na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i].setting, b[i].setting) != 0 ||
		    strcmp(a[i].comment, b[i].comment) != 0)
			return false;
	return true;
}

/* "What to set", -F conf's active lines and JSON's what_to_set hold
 * exactly the same settings, each with the same comment. */
static void
check_what_to_set(const char *name, const struct report *rep)
{
	struct setting_line conf_lines[MAX_SETTING_LINES], text_lines[MAX_SETTING_LINES],
	    json_lines[MAX_SETTING_LINES];
	char *text = render(report_text, rep), *conf = render(report_conf, rep),
	    *json = render(report_json, rep);
	long nconf = -1, ntext = -1, njson = -1, i;

	memset(conf_lines, 0, sizeof conf_lines);
	memset(text_lines, 0, sizeof text_lines);
	memset(json_lines, 0, sizeof json_lines);
	if (text != NULL && conf != NULL && json != NULL) {
		nconf = (long)conf_active_lines(conf, conf_lines, MAX_SETTING_LINES);
		ntext = text_what_to_set(text, text_lines, MAX_SETTING_LINES);
		njson = json_what_to_set(json, json_lines, MAX_SETTING_LINES);
	}
	ok(same_lines(conf_lines, nconf, text_lines, ntext),
	    "%s: \"What to set\" is -F conf's %ld active lines, comments and all", name, nconf);
	ok(same_lines(conf_lines, nconf, json_lines, njson),
	    "%s: JSON's what_to_set is -F conf's %ld active lines, comments and all", name, nconf);
	for (i = 0; i < nconf && !same_lines(conf_lines, nconf, json_lines, njson); i++)
		printf("# conf: %s # %s\n# json: %s # %s\n", conf_lines[i].setting,
		    conf_lines[i].comment, json_lines[i].setting, json_lines[i].comment);
	for (i = 0; i < nconf && !same_lines(conf_lines, nconf, text_lines, ntext); i++)
		printf("# conf: %s # %s\n# text: %s # %s\n", conf_lines[i].setting,
		    conf_lines[i].comment, text_lines[i].setting, text_lines[i].comment);
	free(text);
	free(conf);
	free(json);
}

/* -F conf names a labelled run in its comments, escaped: a label's
 * newline cannot start a setting line. */
static void
check_conf_label(struct options *o, const struct report *rep)
{
	const char *saved = o->label;
	char *conf;

	o->label = "before the \"BBU\"\nfsync = off";
	conf = render(report_conf, rep);
	ok(conf != NULL && strstr(conf, "\n# label: before the \"BBU\"\\nfsync = off\n") != NULL,
	    "-F conf: the label is a comment after the first line, escaped");
	ok(conf != NULL && strstr(conf, "\nfsync") == NULL,
	    "-F conf: a label's newline starts no setting line");
	free(conf);
	o->label = NULL;
	conf = render(report_conf, rep);
	ok(conf != NULL && strstr(conf, "# label: ") == NULL, "-F conf: no label, no label line");
	free(conf);
	o->label = saved;
}

static void
check_text(const char *name, struct options *o, const struct report *rep)
{
	check_golden(name, report_text, rep);
	check_streamed(name, o, rep);
}

/* Where each column of a group table's cell line starts: the delay and
 * its label, commits/s, spread, vs 0, noise, the verdict, per flush, p50,
 * p99 (report_group.c). Each starts with the space that parts it from the
 * one before. */
static const size_t group_column_starts[] = { 14, 23, 30, 38, 45, 54, 63, 71 };

/* Every cell line of the group tables in text keeps its columns apart
 * (a space where each starts) and inside 79 characters. */
static bool
group_columns_apart(const char *text)
{
	const char *line;

	for (line = text; *line != '\0'; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0')) {
		size_t len = strcspn(line, "\n"), k;
		long us;
		int at = 0;

		if (sscanf(line, "%6ld us %n", &us, &at) < 1 || at != 10)
			continue;
		if (len > 79)
			return false;
		for (k = 0; k < sizeof group_column_starts / sizeof group_column_starts[0]; k++)
			if (group_column_starts[k] < len && line[group_column_starts[k]] != ' ')
				return false;
	}
	return true;
}

/* Figures too wide for their columns (a noisy, stalled run): each column
 * still starts with a space, e.g. "+748.3%" and "2154.4%" no longer print
 * as "+748.3%2154.4%" (the noise loses its decimal). */
static void
check_group_columns(const struct report *rep)
{
	struct group_result *g = rep->targets[0].group;
	struct group_cell *c = group_cell_at(g, 1, 1), *d = group_cell_at(g, 1, 2);
	char *text;

	c->vs_zero_pct = 748.3;
	c->noise_pct = 2154.4;
	d->commits_per_sec = 123456789.0;
	d->spread_pct = 123456.0;
	d->vs_zero_pct = -99.9;
	d->noise_pct = 99999.0;
	d->commits_per_flush = 1234567.0;
	d->p50_usecs = 12345678.0;
	d->p99_usecs = 123456789.0;
	text = render(report_text, rep);
	ok(text != NULL && strstr(text, "+748.3%  2154%") != NULL && group_columns_apart(text),
	    "-t group: figures too wide for a column never run into the next");
	if (text != NULL && !group_columns_apart(text))
		fprintf(stderr, "%s", text);
	free(text);
}

/* An unclear lead is told the way its rounds went: a decided delay with
 * the most commits/s over all its rounds can trail 0 over its deciding
 * rounds alone, every one of them below 0's. */
static void
check_unclear_words(const struct report *rep)
{
	struct group_result *g = rep->targets[0].group;
	struct group_cell *c = group_cell_at(g, 2, g->best[2]);
	char *below, *above;

	c->vs_zero = GROUP_UNCLEAR;
	c->vs_zero_pct = -6.9;
	below = render(report_text, rep);
	c->vs_zero_pct = 6.9;
	above = render(report_text, rep);
	ok(g->best[2] != 0 && below != NULL && above != NULL &&
	    strstr(below, "-6.9% against 0, every round below 0's") != NULL &&
	    strstr(above, "+6.9% against 0, every round above 0's") != NULL,
	    "-t group: an unclear lead says whether its rounds ran above or below 0's");
	free(below);
	free(above);
}

int
main(void)
{
	static struct target_result targets[NTARGETS], group_target, memory_target;
	static struct pgb_result pgb;
	struct options o;
	struct report rep;
	size_t t;

	options_defaults(&o);
	o.groups = plan_default_groups();
	o.adaptive = false;
	o.ops_per_test = 200;
	o.test_ns = 0;
	for (t = 0; t < NTARGETS; t++)
		fixture_target(&o, &targets[t], t);

	memset(&rep, 0, sizeof rep);
	rep.options = &o;
	rep.targets = targets;
	rep.when = WHEN;
	rep.duration_secs = 12.345;
	snprintf(rep.system.os, sizeof rep.system.os, "Linux");
	snprintf(rep.system.release, sizeof rep.system.release, "6.18.0-test");
	snprintf(rep.system.machine, sizeof rep.system.machine, "x86_64");
	snprintf(rep.system.host, sizeof rep.system.host, "db1");

	rep.ntargets = 1;
	check_text("text-one.txt", &o, &rep);
	check_golden("conf-one.txt", report_conf, &rep);
	check_golden("svg-one.svg", report_svg, &rep);
	check_what_to_set("one target", &rep);
	rep.ntargets = 2;
	check_text("text-two.txt", &o, &rep);
	check_golden("json-two.json", report_json, &rep);
	check_golden("openmetrics-two.prom", report_openmetrics, &rep);
	rep.ntargets = 3;
	check_text("text-three.txt", &o, &rep);
	check_golden("svg-three.svg", report_svg, &rep);
	rep.targets = &targets[1];
	rep.ntargets = 1;
	check_golden("conf-failed.txt", report_conf, &rep);
	check_what_to_set("a target stopped by an error", &rep);
	rep.targets = targets;

	/* Figures of memory: every setting commented out, and "What to set"
	 * and the first comment say why. */
	fixture_memory_target(&o, &memory_target);
	rep.targets = &memory_target;
	check_golden("text-memory.txt", report_text, &rep);
	check_golden("conf-memory.txt", report_conf, &rep);
	check_what_to_set("a target in memory", &rep);
	target_free(&memory_target);
	rep.targets = targets;

	/* A histogram under the rows named; a label; a stop signal. */
	o.histogram = "fdatasync,nosync";
	o.label = "before the \"BBU\"";
	rep.interrupted_by = SIGINT;
	for (t = 0; t < NTARGETS; t++)
		target_stopped(&targets[t]);
	check_text("text-histogram.txt", &o, &rep);
	check_conf_label(&o, &rep);
	rep.ntargets = 1;
	check_what_to_set("a run a signal ended", &rep);
	rep.ntargets = 3;
	o.histogram = NULL;
	o.label = NULL;
	rep.interrupted_by = 0;
	for (t = 0; t < NTARGETS; t++)
		target_settings(&o, &targets[t]);

	o.ops_per_test = 0;
	o.test_ns = 1500000000ULL;
	o.direct = DIRECT_OFF;
	rep.ntargets = 1;
	check_text("text-timed.txt", &o, &rep);
	/* Adaptive: a row whose time ran out, and a row timed in batches. */
	o.adaptive = true;
	o.test_ns = 0;
	targets[0].run.rows[2].capped = true;
	targets[0].run.rows[targets[0].run.nrows - 1].batch_ops = 8;
	check_text("text-adaptive.txt", &o, &rep);
	check_golden("json-adaptive.json", report_json, &rep);

	/* The group-commit experiment, in every writer. */
	o.direct = DIRECT_OFF;
	o.methods = 1u << METHOD_FDATASYNC;
	o.groups = (1u << GROUP_ONE) | (1u << GROUP_GROUP);
	o.nclients = 3;
	o.clients[0] = 1;
	o.clients[1] = 8;
	o.clients[2] = 32;
	fixture_group_target(&o, &group_target);
	rep.targets = &group_target;
	check_golden("text-group.txt", report_text, &rep);
	check_golden("json-group.json", report_json, &rep);
	check_golden("conf-group.txt", report_conf, &rep);
	check_golden("svg-group.svg", report_svg, &rep);
	check_what_to_set("-t group", &rep);
	check_group_columns(&rep);
	check_unclear_words(&rep);

	fixture_pgbench(&pgb);
	pgbench_shown = &pgb;
	check_golden("svg-pgbench.svg", report_pgbench_svg_of, &rep);
	free_pgbench(&pgb);

	for (t = 0; t < NTARGETS; t++)
		target_free(&targets[t]);
	target_free(&group_target);
	return tap_done();
}
