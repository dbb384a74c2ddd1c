/* watch_plot.c: the points of the plot and their drawing. */
#include "config.h"

#include "watch/watch_plot.h"

#include <math.h>
#include <string.h>

#include "probe/row.h"

#define LABEL_COLS 9	/* "  1.2 ms |" less the bar */
#define MAX_COLS   1024	/* the widest terminal drawn to */

void
watch_plot_init(struct watch_plot *p)
{
	memset(p, 0, sizeof *p);
	p->per_point = 1;
}

static void
merge_point(struct watch_plot_point *into, const struct watch_plot_point *from)
{
	into->end_ns = from->end_ns > into->end_ns ? from->end_ns : into->end_ns;
	into->ops += from->ops;
	into->stalls += from->stalls;
	if (from->p50_usecs > into->p50_usecs)
		into->p50_usecs = from->p50_usecs;
	if (from->p99_usecs > into->p99_usecs)
		into->p99_usecs = from->p99_usecs;
	if (from->max_usecs > into->max_usecs)
		into->max_usecs = from->max_usecs;
}

/* Each two neighbours become one: room for as many points again. */
static void
halve(struct watch_plot *p)
{
	size_t i;

	for (i = 0; i < p->n / 2; i++) {
		struct watch_plot_point a = p->points[2 * i];

		merge_point(&a, &p->points[2 * i + 1]);
		p->points[i] = a;
	}
	p->n /= 2;
	p->per_point *= 2;
	p->in_last = p->per_point;
}

void
watch_plot_add(struct watch_plot *p, const struct watch_figures *f)
{
	struct watch_plot_point pt;

	pt.end_ns = f->end_ns;
	pt.ops = f->ops;
	pt.stalls = f->stalls;
	pt.p50_usecs = f->ops ? f->p50_usecs : 0.0;
	pt.p99_usecs = f->ops ? f->p99_usecs : 0.0;
	pt.max_usecs = f->ops ? f->max_usecs : 0.0;
	/* The last interval cut short: not a column as wide as a whole
	 * interval's, nor a p99 of fewer operations; its max, an operation
	 * that really took that long, joins the point before it. */
	if (p->wall_zero_ns == 0 && f->end_wall_ns > f->end_ns)
		p->wall_zero_ns = f->end_wall_ns - f->end_ns;
	if (f->partial && p->n > 0) {
		pt.p50_usecs = 0.0;
		pt.p99_usecs = 0.0;
		merge_point(&p->points[p->n - 1], &pt);
		return;
	}
	if (p->n > 0 && p->in_last < p->per_point) {
		merge_point(&p->points[p->n - 1], &pt);
		p->in_last++;
		return;
	}
	if (p->n == WATCH_PLOT_POINTS)
		halve(p);
	p->points[p->n++] = pt;
	p->in_last = 1;
}

/* Each two neighbouring stalls become one: the longer, standing for both. */
static void
halve_stalls(struct watch_plot *p)
{
	size_t i;

	for (i = 0; i < p->nstalls / 2; i++) {
		struct watch_plot_stall a = p->stalls[2 * i], b = p->stalls[2 * i + 1];

		p->stalls[i] = b.ns > a.ns ? b : a;
		p->stalls[i].count = a.count + b.count;
	}
	p->nstalls /= 2;
}

void
watch_plot_add_stall(struct watch_plot *p, uint64_t start_ns, uint64_t ns)
{
	if (p->nstalls == WATCH_PLOT_STALLS)
		halve_stalls(p);
	p->stalls[p->nstalls++] = (struct watch_plot_stall){ start_ns, ns, 1 };
}

/* The points column c of ncols shows, merged. */
static void
column_point(const struct watch_plot *p, size_t c, size_t ncols, struct watch_plot_point *out)
{
	size_t first = c * p->n / ncols, last = (c + 1) * p->n / ncols, i;

	if (last <= first)
		last = first + 1;
	memset(out, 0, sizeof *out);
	for (i = first; i < last && i < p->n; i++)
		merge_point(out, &p->points[i]);
}

/* The row (0 at the top) of value v on a log scale from lo to hi. */
static int
row_of(double v, double lo, double hi, int height)
{
	double level;

	if (hi <= lo)
		return height - 1;
	level = (log(v) - log(lo)) / (log(hi) - log(lo)) * (height - 1);
	return height - 1 - (int)lround(level);
}

/* The range of the figures: the lowest p99 to the highest max. */
static bool
value_range(const struct watch_plot *p, double *lo, double *hi)
{
	size_t i;
	bool any = false;

	for (i = 0; i < p->n; i++) {
		const struct watch_plot_point *pt = &p->points[i];

		/* A point of a cut-short interval's max alone has no p99. */
		double low = pt->p99_usecs > 0.0 ? pt->p99_usecs : pt->max_usecs;

		if (pt->ops == 0)
			continue;
		if (!any || low < *lo)
			*lo = low;
		if (!any || pt->max_usecs > *hi)
			*hi = pt->max_usecs;
		any = true;
	}
	if (any && *lo <= 0.0)
		*lo = 1.0;
	/* A flat line: a scale from 2/3 to 3/2 of it, the line in the middle. */
	if (any && *hi < *lo * 2.0) {
		double mid = sqrt(*lo * *hi);

		*lo = mid / 1.5;
		*hi = mid * 1.5;
	}
	return any;
}

static void
draw_row(FILE *out, const struct watch_plot *p, int r, int height, size_t ncols,
    double lo, double hi)
{
	char line[MAX_COLS + 1], label[16] = "";
	size_t c;

	/* Labels on the top, middle and bottom rows. */
	if (r == 0 || r == height - 1 || r == height / 2)
		units_format_latency(exp(log(lo) + (log(hi) - log(lo)) * (height - 1 - r) /
		    (height - 1)), LATENCY_AXIS, label, sizeof label);
	for (c = 0; c < ncols; c++) {
		struct watch_plot_point pt;
		bool p99, max;

		column_point(p, c, ncols, &pt);
		p99 = pt.ops > 0 && pt.p99_usecs > 0.0 && row_of(pt.p99_usecs, lo, hi, height) == r;
		max = pt.ops > 0 && row_of(pt.max_usecs, lo, hi, height) == r;
		line[c] = p99 && max ? '#' : p99 ? '*' : max ? '+' : ' ';
	}
	while (c > 0 && line[c - 1] == ' ')
		c--;
	line[c] = '\0';
	fprintf(out, "%*s |%s\n", LABEL_COLS - 1, label, line);
}

void
watch_plot_draw(FILE *out, const struct watch_plot *p, int width, int height)
{
	size_t avail, ncols, c;
	double lo = 0.0, hi = 0.0;
	char end[32];
	int r;

	if (!value_range(p, &lo, &hi) || height < 2)
		return;
	if (width < WATCH_PLOT_MIN_WIDTH)
		width = WATCH_PLOT_MIN_WIDTH;
	avail = (size_t)width - LABEL_COLS - 1;
	if (avail > MAX_COLS)
		avail = MAX_COLS;
	/* Fewer points than columns: each point as wide as fits. */
	ncols = p->n <= avail ? p->n * (avail / p->n) : avail;
	for (r = 0; r < height; r++)
		draw_row(out, p, r, height, ncols, lo, hi);
	fprintf(out, "%*s +", LABEL_COLS - 1, "");
	for (c = 0; c < ncols; c++)
		fputc('-', out);
	snprintf(end, sizeof end, "%.0fs", row_secs(p->points[p->n - 1].end_ns));
	/* "0s" under the first column, the end right under the last. */
	fprintf(out, "\n%*s 0s%*s\n", LABEL_COLS - 1, "", (int)ncols - 1, end);
	fprintf(out, "%*s  * p99  + max  # both, per interval%s\n", LABEL_COLS - 1, "",
	    p->per_point > 1 ? " (the worst of each stretch)" : "");
}
