/* session.h: one run of the probe: measure the targets one after another,
 * judge each, and write the report as it goes. */
#ifndef SYNCPROBE_SESSION_H
#define SYNCPROBE_SESSION_H

#include "probe/options.h"
#include "probe/run.h"

/* Run the probe as o says (o->targets: at least one, already checked);
 * prints its errors and returns the exit status. Stopped by a signal, it
 * dies of it once the report is out. */
int session_run(const struct options *o);

/* The run's experiment hook (run_hooks.experiment): -t group on the
 * target's file after its rows, its cells in tr->group (the caller frees
 * them with group_result_free). ctx is unused. syncprobe pgbench runs the
 * probe with it too, so that -t group runs there as it does here. */
enum exit_status session_run_experiment(void *ctx, enum group g, const struct options *o,
    const struct testfile *tf, struct target_result *tr, struct progress *p);

#endif
