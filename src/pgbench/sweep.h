/* sweep.h: the sweep of syncprobe pgbench: which settings, in which order
 * (shuffled within each repeat), each run's figures into its cell, the
 * deciding runs where a delay led 0 within noise, and the advice from the
 * cells by -t group's choice rule. */
#ifndef SYNCPROBE_PGBENCH_SWEEP_H
#define SYNCPROBE_PGBENCH_SWEEP_H

#include <stddef.h>

#include "advice/advice.h"
#include "pgbench/cluster.h"
#include "report/report_pgbench.h"

#define SWEEP_RUN_OVERHEAD_SECS 1u	/* a CHECKPOINT and connecting, per run */

/* The settings: 0; --commit-delays (else d/4, d/2, d, 2d) at
 * --commit-siblings (else at -t group's advised siblings, and the half
 * rule at 5); -t group's advice itself. Then the cells. -1: out of memory. */
int sweep_plan(const long *delays, size_t ndelays, const unsigned *siblings,
    size_t nsiblings, struct pgb_result *r);

/* The runs the sweep's repeats make (settings that cannot delay are not
 * run), and the most that deciding may add: --decide runs of a leading
 * delay and of 0 at each client count where a delay runs. */
size_t sweep_runs(const struct pgb_result *r);
size_t sweep_decide_runs_most(const struct pgb_result *r);

/* Run every repeat, then decide where a delay led 0 within the repeats'
 * noise; a stop signal ends it after the run it cuts (that repeat, or
 * deciding pair, is not counted). 0, or -1 with why. */
int sweep_run(struct cluster *c, struct pgb_result *r, const char *script,
    const char *builtin, bool have_wal,
    bool quiet, char *why, size_t len);

/* The advice from the cells (pgb_finish first), and the settings it
 * makes (What to set); then sweep_settings marks them as none to set
 * where no whole repeat ran or a signal cut the sweep short. */
void sweep_advise(struct pgb_result *r, const struct method *m);
void sweep_settings(struct pgb_result *r);

#endif
