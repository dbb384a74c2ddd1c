/* test_reports.c: every report writer fed the same fixed results, compared
 * byte for byte with tests/golden/. The writers only read results, so a
 * change in what they print shows here as a diff; regenerate a golden file
 * (SYNCPROBE_GOLDEN_WRITE=1) only for a change meant to be seen. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "group_result.h"
#include "method.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "run.h"
#include "storage.h"
#include "tap.h"
#include "warnings.h"

#define NTARGETS 2
#define WHEN     1796083200	/* 2026-12-01 00:00 UTC */

/* A deterministic latency for operation k of row i, in nanoseconds. */
static uint64_t
fixture_ns(size_t i, uint64_t k, uint64_t base_ns)
{
	return base_ns + (uint64_t)i * 1300 + (k % 17) * 2900 + (k % 5 == 0 ? 41000 : 0);
}

static void
fill_row(struct row_result *r, size_t i, unsigned rounds)
{
	uint64_t ops = 90 + (uint64_t)i * 7, k, base;
	unsigned s;

	uint64_t t = 0;

	base = r->spec.io != NULL ? 61000 : 900;
	for (k = 0; k < ops; k++) {
		uint64_t ns = fixture_ns(i, k, base);

		row_record(r, t, t + ns / 20, t + ns);
		t += ns;
	}
	r->ops = ops;
	r->elapsed_ns = r->total.sum_ns;
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
}

/* Target 0 ran every row; target 1 stopped at an I/O error in group two. */
static void
fixture_target(const struct options *o, struct target_result *tr, size_t t)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	struct advice_input in = { NULL, method_find("fdatasync"), NULL };
	size_t i;

	memset(tr, 0, sizeof *tr);
	tr->path = t == 0 ? "/var/lib/postgresql" : "/srv/tab\there";
	tr->nrows = plan_build(o, specs, PLAN_MAX_ROWS);
	tr->rows = calloc(tr->nrows, sizeof *tr->rows);
	tr->measured = true;
	fixture_storage(&tr->storage);
	if (t == 1) {
		tr->storage.have_device = false;
		snprintf(tr->storage.filesystem, sizeof tr->storage.filesystem, "tmpfs");
	}
	for (i = 0; i < tr->nrows; i++) {
		struct row_result *r = &tr->rows[i];

		row_init(r, &specs[i]);
		if (r->spec.method == method_find("fsync_writethrough")) {
			row_fail(r, ROW_WHY_NO_METHOD, "F_FULLFSYNC is not available on this system");
			row_finish(r);
			continue;
		}
		if (t == 0 && r->spec.direct && r->spec.group == GROUP_TWO &&
		    r->spec.method == method_find("fsync")) {
			row_fail(r, ROW_WHY_DIRECT_REFUSED,
			    "direct I/O refused by this filesystem (Invalid argument)");
			row_finish(r);
			continue;
		}
		fill_row(r, i + t * 3, o->rounds);
		if (t == 1 && r->spec.group == GROUP_TWO) {
			row_fail(r, ROW_WHY_IO_ERROR,
			    "fdatasync /srv/tab\there/.syncprobe.AbCdEf: Input/output error");
			tr->failed = true;
			snprintf(tr->error, sizeof tr->error, "%s", r->reason);
			tr->nrows = i + 1;
			break;
		}
	}
	advice_compute(tr->rows, tr->nrows, &in, &tr->advice);
	if (tr->advice.have_delay) {
		tr->sleep.requested_usecs = tr->advice.commit_delay_usecs;
		tr->sleep.samples = 200;
		tr->sleep.mean_usecs = 2.5 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.p50_usecs = 2.25 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.p99_usecs = 3.125 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.max_usecs = 4.0 * (double)tr->advice.commit_delay_usecs;
		tr->sleep.timer_slack_usecs = t == 0 ? 50.0 : -1.0;
	}
	warnings_compute(tr->rows, tr->nrows, &tr->storage,
	    tr->sleep.samples > 0 ? &tr->sleep : NULL, &tr->advice);
}

/* The group-commit experiment at 1, 8 and 32 clients, its sweep made of d,
 * the one-write row's mean: delays never sleep at 1, cost at 8 and pay at
 * 32, where d and 2d beat 0. Each cell's rounds wobble around its rate so
 * that the noise is not zero. */
static struct group_result *
fixture_group(double d)
{
	static const unsigned clients[] = { 1, 8, 32 };
	long delays[6] = { 0, advice_commit_delay(d / 2), advice_commit_delay(d),
	    advice_commit_delay(2 * d), advice_commit_delay(4 * d), advice_commit_delay(8 * d) };
	static const double rate[3][6] = {
		{ 9000, 9050, 8980, 9010, 8990, 9020 },
		{ 29100, 27350, 26200, 21500, 17000, 11000 },
		{ 31000, 31300, 31900, 35800, 36100, 32500 },
	};
	static const double per_flush[3] = { 1.0, 3.6, 9.5 };
	static const double wobble[5] = { 0.012, -0.009, 0.004, -0.011, 0.006 };
	struct group_result *g = group_result_new(clients, 3, delays, 6, 5);
	size_t ci, di;
	unsigned k;

	g->method = method_find("fdatasync");
	g->page_bytes = 8192;
	g->record_bytes = 112;
	g->txn_work_ns = 30000;
	g->siblings = 5;
	g->flush_usecs = 88.75;
	g->flush_count = 2051;
	g->basis_usecs = d;
	g->basis_is_row = true;
	g->rule_usecs = delays[2];
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
	tr->path = "/var/lib/postgresql";
	tr->nrows = plan_build(o, specs, PLAN_MAX_ROWS);
	tr->rows = calloc(tr->nrows, sizeof *tr->rows);
	tr->measured = true;
	fixture_storage(&tr->storage);
	for (i = 0; i < tr->nrows; i++) {
		row_init(&tr->rows[i], &specs[i]);
		fill_row(&tr->rows[i], i, o->rounds);
	}
	tr->group = fixture_group(tr->rows[0].mean_usecs);
	advice_compute(tr->rows, tr->nrows, &in, &tr->advice);
	advice_from_group(tr->group, &tr->advice);
	tr->sleep.requested_usecs = tr->advice.commit_delay_usecs;
	tr->sleep.samples = 200;
	tr->sleep.mean_usecs = 101.5;
	tr->sleep.p50_usecs = 99.0;
	tr->sleep.p99_usecs = 131.25;
	tr->sleep.max_usecs = 160.0;
	tr->sleep.timer_slack_usecs = 50.0;
	warnings_compute(tr->rows, tr->nrows, &tr->storage, &tr->sleep, &tr->advice);
}

/* The report written by fn into memory; the caller frees it. */
static char *
render(void (*fn)(FILE *, const struct report *), const struct report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	fn(f, rep);
	fclose(f);
	return buf;
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

int
main(void)
{
	static struct target_result targets[NTARGETS], group_target;
	struct options o;
	struct report rep;
	size_t t;

	options_defaults(&o);
	o.ops_per_test = 200;
	o.test_ns = 0;
	for (t = 0; t < NTARGETS; t++)
		fixture_target(&o, &targets[t], t);

	memset(&rep, 0, sizeof rep);
	rep.options = &o;
	rep.targets = targets;
	rep.when = WHEN;
	snprintf(rep.system.os, sizeof rep.system.os, "Linux");
	snprintf(rep.system.release, sizeof rep.system.release, "6.18.0-test");
	snprintf(rep.system.machine, sizeof rep.system.machine, "x86_64");

	rep.ntargets = 1;
	check_golden("text-one.txt", report_text, &rep);
	check_golden("conf-one.txt", report_conf, &rep);
	rep.ntargets = 2;
	check_golden("text-two.txt", report_text, &rep);
	check_golden("json-two.json", report_json, &rep);
	rep.targets = &targets[1];
	rep.ntargets = 1;
	check_golden("conf-failed.txt", report_conf, &rep);
	rep.targets = targets;
	o.ops_per_test = 0;
	o.test_ns = 1500000000ULL;
	o.direct = DIRECT_OFF;
	rep.ntargets = 1;
	check_golden("text-timed.txt", report_text, &rep);

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

	for (t = 0; t < NTARGETS; t++)
		run_free(&targets[t]);
	run_free(&group_target);
	return tap_done();
}
