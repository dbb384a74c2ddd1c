/* test_watch_svg.c: what watch's picture (--svg) is drawn from, exactly:
 * a point's p50 and stalls merged, the stalls kept in fixed memory, the
 * wall clock at the start; then the picture of a fixed, made-up run of
 * six hours over midnight byte for byte against tests/golden/svg-watch.svg
 * (SYNCPROBE_GOLDEN_WRITE=1 writes it anew, for a change meant to be
 * seen), and a week of intervals, each with a stall, kept to a bounded
 * size. No disk, no clock. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/method.h"
#include "storage/storage.h"
#include "watch/watch_plot.h"
#include "watch/watch_result.h"
#include "watch/watch_svg.h"
#include "tap.h"

#define MS  1000000ULL
#define SEC (1000 * MS)
/* 2026-12-01T22:00:00Z, in ns since the epoch: six hours cross midnight. */
#define START_NS (1796162400ULL * SEC)
#define GOLDEN   "svg-watch.svg"

/* The fixed run's numbers: a small hash of i, the same everywhere. */
static unsigned
wobble(uint64_t i, unsigned range)
{
	uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (unsigned)((z ^ (z >> 31)) % range);
}

static struct watch_plot *
new_plot(void)
{
	struct watch_plot *p = malloc(sizeof *p);

	if (p == NULL) {
		perror("test_watch_svg");
		exit(99);
	}
	watch_plot_init(p);
	return p;
}

static struct watch_figures
interval(uint64_t n, uint64_t len_ns, double p50, double p99, double max)
{
	struct watch_figures f;

	memset(&f, 0, sizeof f);
	f.number = n;
	f.start_ns = (n - 1) * len_ns;
	f.end_ns = n * len_ns;
	f.ops = len_ns / (20 * MS);
	f.p50_usecs = p50;
	f.p99_usecs = p99;
	f.max_usecs = max;
	return f;
}

static void
test_merged_points(void)
{
	struct watch_plot *p = new_plot();
	struct watch_figures f;
	uint64_t i;

	for (i = 1; i <= WATCH_PLOT_POINTS + 2; i++) {
		f = interval(i, SEC, i == 4 ? 700.0 : 300.0, 900.0, 1000.0);
		f.stalls = i == 3 ? 1 : i == 4 ? 2 : 0;
		f.end_wall_ns = START_NS + 250 * MS + f.end_ns;
		watch_plot_add(p, &f);
	}
	ok(p->per_point == 2 && p->points[1].p50_usecs == 700.0,
	    "a merged point keeps the highest p50 (intervals 3 and 4: %.0f)",
	    p->points[1].p50_usecs);
	ok(p->points[1].stalls == 3 && p->points[0].stalls == 0,
	    "... and the stalls of both intervals");
	ok(p->wall_zero_ns == START_NS + 250 * MS, "the wall clock at the start, from the first "
	    "interval's stamp less its end");
	f = interval(WATCH_PLOT_POINTS + 3, SEC, 5000.0, 6000.0, 7000.0);
	f.partial = true;
	watch_plot_add(p, &f);
	ok(p->points[p->n - 1].p50_usecs == 300.0 && p->points[p->n - 1].max_usecs == 7000.0,
	    "a cut-short last interval: its max joins the point before, not its p50");
	free(p);
}

static void
test_stalls_kept(void)
{
	struct watch_plot *p = new_plot();
	uint64_t i, count = 0;
	size_t k;

	for (i = 0; i < WATCH_PLOT_STALLS; i++)
		watch_plot_add_stall(p, i * SEC, (i == 9 ? 4000 : 1100 + i) * MS);
	ok(p->nstalls == WATCH_PLOT_STALLS && p->stalls[9].start_ns == 9 * SEC &&
	    p->stalls[9].count == 1, "one entry a stall until full, each where it started");
	watch_plot_add_stall(p, 9999 * SEC, 1500 * MS);
	ok(p->nstalls == WATCH_PLOT_STALLS / 2 + 1, "full: neighbours merged, then the new one "
	    "(%zu)", p->nstalls);
	ok(p->stalls[4].start_ns == 9 * SEC && p->stalls[4].ns == 4000 * MS &&
	    p->stalls[4].count == 2, "a merged stall is the longer, where it started, standing "
	    "for both");
	for (i = 0; i < 100000; i++)
		watch_plot_add_stall(p, (10000 + i) * SEC, 1200 * MS);
	for (k = 0; k < p->nstalls; k++)
		count += p->stalls[k].count;
	ok(p->nstalls <= WATCH_PLOT_STALLS && count == WATCH_PLOT_STALLS + 1 + 100000,
	    "100000 more: at most %d entries, standing for every stall (%llu)",
	    WATCH_PLOT_STALLS, (unsigned long long)count);
	free(p);
}

/* xfs on one NVMe disk. */
static void
fixture_storage(struct storage_info *st)
{
	static const struct storage_layer layers[] = {
		{ .kind = STORAGE_LAYER_FILESYSTEM, .parent = -1, .name = "xfs",
		  .path = "/var/lib/postgresql" },
		{ .kind = STORAGE_LAYER_DEVICE, .parent = 0, .name = "nvme0n1", .device = 0 },
	};
	struct storage_device *d = &st->device;

	storage_info_init(st);
	memcpy(st->layers, layers, sizeof layers);
	st->nlayers = sizeof layers / sizeof layers[0];
	memcpy(st->filesystem, "xfs", sizeof "xfs");
	memcpy(d->name, "nvme0n1", sizeof "nvme0n1");
	memcpy(d->model, "Samsung SSD 980 PRO 1TB", sizeof "Samsung SSD 980 PRO 1TB");
	memcpy(d->write_cache, "write back", sizeof "write back");
	st->have_filesystem = st->have_device = d->have_model = d->have_write_cache = true;
}

static void
fixture_setup(struct watch_setup *s, const struct storage_info *st)
{
	memset(s, 0, sizeof *s);
	s->path = "/var/lib/postgresql/16/main";
	s->host = "db1";
	s->filesystem = "xfs";
	s->storage = st;
	s->method = method_find("fdatasync");
	s->method_source = WATCH_METHOD_SERVER_DEFAULT;
	s->block_bytes = 8192;
	s->pattern = PATTERN_OVERWRITE;
	s->rate = 50;
	s->for_ns = 6 * 3600 * SEC;
	s->interval_ns = 10 * SEC;
	s->stall_ns = 1 * SEC;
	s->start_wall_ns = START_NS;
	s->burst.ops = 412;
	s->burst.p50_usecs = 455.0;
	s->burst.p99_usecs = 912.0;
	s->burst.max_usecs = 1830.0;
	s->burst_secs = 0.2;
}

/* Six hours of 10 s intervals: a steady disk, slower for half an hour
 * (a backup), three stalls, the last interval cut short by a signal. */
static void
fixture_run(struct watch_plot *p, struct watch_summary *sum)
{
	static const uint64_t stall_at[] = { 700, 1500, 1510 };
	uint64_t wall0 = START_NS + 300 * MS, i, n = 6 * 360, k = 0;
	struct watch_figures f;

	memset(sum, 0, sizeof *sum);
	for (i = 1; i <= n; i++) {
		double slow = i > 720 && i <= 900 ? 4.0 : 1.0;

		f = interval(i, 10 * SEC, slow * (600 + wobble(i, 200)),
		    slow * (2000 + wobble(i + n, 1500)), slow * (3000 + wobble(i + 2 * n, 9000)));
		if (k < sizeof stall_at / sizeof stall_at[0] && i == stall_at[k]) {
			uint64_t ns = (1200 + 700 * k) * MS;

			watch_plot_add_stall(p, f.start_ns + 3 * SEC, ns);
			f.stalls = 1;
			f.max_usecs = (double)ns / 1000.0;
			sum->paced.stalls++;
			sum->longest = (struct watch_stall){ f.start_ns + 3 * SEC, ns,
			    wall0 + f.start_ns + 3 * SEC, false };
			k++;
		}
		if (i == n) {
			f.partial = true;
			f.end_ns -= 4 * SEC;
		}
		f.end_wall_ns = wall0 + f.end_ns;
		watch_plot_add(p, &f);
	}
	sum->started = true;
	sum->stopped_by = 2;	/* SIGINT */
	sum->run_secs = (double)f.end_ns / 1e9;
	sum->end_wall_ns = wall0 + f.end_ns;
	sum->intervals = n;
	sum->paced.ops = n * 500 - 200;
	sum->paced.p50_usecs = 702.0;
	sum->paced.p99_usecs = 5120.0;
	sum->paced.max_usecs = 2600000.0;
	sum->paced.missed = 3;
}

static char *
picture(const struct watch_setup *s, const struct watch_summary *sum,
    const struct watch_plot *p, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	if (out == NULL) {
		perror("test_watch_svg");
		exit(99);
	}
	watch_svg(out, s, sum, p);
	if (fclose(out) != 0)
		exit(99);
	return text;
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	do {
		if (n + 4096 + 1 > cap && (buf = realloc(buf, cap = 2 * cap + 8192)) == NULL)
			exit(99);
		n += got = fread(buf + n, 1, 4096, f);
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void
test_golden(void)
{
	struct storage_info st;
	struct watch_setup s;
	struct watch_summary sum;
	struct watch_plot *p = new_plot();
	const char *srcdir = getenv("top_srcdir");
	char path[4096], *got, *want;
	size_t len, line = 1, i;

	fixture_storage(&st);
	fixture_setup(&s, &st);
	fixture_run(p, &sum);
	got = picture(&s, &sum, p, &len);
	snprintf(path, sizeof path, "%s/tests/golden/" GOLDEN, srcdir ? srcdir : ".");
	if (getenv("SYNCPROBE_GOLDEN_WRITE") != NULL) {
		FILE *f = fopen(path, "w");

		ok(f != NULL && fputs(got, f) >= 0 && fclose(f) == 0, GOLDEN ": written");
	} else {
		want = slurp(path);
		for (i = 0; want != NULL && got[i] == want[i] && got[i] != '\0'; i++)
			line += got[i] == '\n';
		ok(want != NULL && strcmp(got, want) == 0, "the picture of a fixed run matches "
		    "tests/golden/" GOLDEN);
		if (want != NULL && strcmp(got, want) != 0)
			printf("# first difference at line %zu\n", line);
		free(want);
	}
	ok(strstr(got, "<title id=\"title\">syncprobe watch: latency against time in "
	    "/var/lib/postgresql/16/main on db1</title>") != NULL, "its title says where");
	free(got);
	free(p);
}

/* A week of 10 s intervals, a stall in each: a picture of bounded size. */
static void
test_week(void)
{
	struct storage_info st;
	struct watch_setup s;
	struct watch_summary sum;
	struct watch_plot *p = new_plot();
	struct watch_figures f;
	uint64_t i, n = 7 * 24 * 360;
	size_t len;
	char *got;

	fixture_storage(&st);
	fixture_setup(&s, &st);
	memset(&sum, 0, sizeof sum);
	for (i = 1; i <= n; i++) {
		f = interval(i, 10 * SEC, 600.0 + wobble(i, 300), 3000.0, 1500000.0);
		f.end_wall_ns = START_NS + f.end_ns;
		f.stalls = 1;
		watch_plot_add_stall(p, f.start_ns + SEC, (1100 + wobble(i, 900)) * MS);
		watch_plot_add(p, &f);
	}
	got = picture(&s, &sum, p, &len);
	ok(len < 160000, "a week of intervals, each with a stall: %zu bytes of picture", len);
	free(got);
	free(p);
}

int
main(void)
{
	test_merged_points();
	test_stalls_kept();
	test_golden();
	test_week();
	return tap_done();
}
