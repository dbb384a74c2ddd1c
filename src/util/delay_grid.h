/* delay_grid.h: the commit_delay values syncprobe sweeps and advises, a
 * fixed grid of round numbers (1, 2, 5, 10, 25, 50, 100, 250, ... us) in
 * steps of 2 to 2.5. The sweeps start from the measured flush d, which
 * moves from run to run by a quarter or more; a delay swept as d/4 would
 * move with it, and the advice with it. Snapped to this grid, a sweep's
 * values stay put unless d moves across a step, and the advice, one of
 * them, is the same in every run that measures the same winner. */
#ifndef SYNCPROBE_DELAY_GRID_H
#define SYNCPROBE_DELAY_GRID_H

#include <stddef.h>

/* The grid's value nearest usecs on a log scale (the lower on a tie);
 * 0 for 0 or less. */
long delay_grid_nearest(double usecs);

/* The grid's value at or below usecs (its smallest, 1, below that); 0
 * for 0 or less. */
long delay_grid_below(double usecs);

/* The grid values nearest factors[i] x d_usecs, ascending, each once,
 * none 0: at most nfactors of them, in out. */
size_t delay_grid_sweep(double d_usecs, const double *factors, size_t nfactors, long *out);

/* Every grid value from the one at or below lo_usecs to the one nearest
 * hi_usecs, ascending: at most max of them, in out (none for a lo_usecs
 * of 0 or less). */
size_t delay_grid_span(double lo_usecs, double hi_usecs, long *out, size_t max);

#endif
