/* delay_grid.c: the grid of commit_delay values (delay_grid.h). */
#include "config.h"

#include "util/delay_grid.h"

#include <math.h>

#include "util/postgres.h"

/* 1-2.5-5 in each decade (1-2-5 in the first, in whole microseconds), to
 * PostgreSQL's largest commit_delay. */
static const long grid[] = {
	1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000,
	COMMIT_DELAY_MAX_USECS
};

#define GRID_SIZE (sizeof grid / sizeof grid[0])

long
delay_grid_nearest(double usecs)
{
	size_t i;

	if (!(usecs > 0.0))
		return 0;
	for (i = 0; i + 1 < GRID_SIZE; i++)
		/* Nearer to grid[i] than to grid[i + 1] on a log scale: below
		 * their geometric mean. */
		if (usecs * usecs <= (double)grid[i] * (double)grid[i + 1])
			return grid[i];
	return grid[GRID_SIZE - 1];
}

long
delay_grid_below(double usecs)
{
	size_t i;

	if (!(usecs > 0.0))
		return 0;
	for (i = GRID_SIZE - 1; i > 0; i--)
		if ((double)grid[i] <= usecs)
			return grid[i];
	return grid[0];
}

size_t
delay_grid_span(double lo_usecs, double hi_usecs, long *out, size_t max)
{
	long lo = delay_grid_below(lo_usecs), hi = delay_grid_nearest(hi_usecs);
	size_t i, n = 0;

	if (lo == 0)
		return 0;
	for (i = 0; i < GRID_SIZE && n < max; i++)
		if (grid[i] >= lo && (grid[i] <= hi || n == 0))
			out[n++] = grid[i];
	return n;
}

size_t
delay_grid_sweep(double d_usecs, const double *factors, size_t nfactors, long *out)
{
	size_t i, j, n = 0;

	for (i = 0; i < nfactors; i++) {
		long v = delay_grid_nearest(factors[i] * d_usecs);
		size_t at = n;

		if (v == 0)
			continue;
		for (j = 0; j < n; j++)
			if (out[j] >= v)
				break;
		if (j < n && out[j] == v)
			continue;
		for (at = n; at > j; at--)
			out[at] = out[at - 1];
		out[j] = v;
		n++;
	}
	return n;
}
