/* test_watch_svg.c: what watch's picture (--svg) is drawn from, exactly:
 * a point's p50 and stalls merged, the stalls kept in fixed memory, the
 * wall clock at the start. No disk, no clock. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "watch/watch_plot.h"
#include "tap.h"

#define MS  1000000ULL
#define SEC (1000 * MS)
/* 2026-12-01T22:00:00Z, in ns since the epoch: six hours cross midnight. */
#define START_NS (1796162400ULL * SEC)

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

int
main(void)
{
	test_merged_points();
	test_stalls_kept();
	return tap_done();
}
