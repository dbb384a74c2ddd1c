/* session.h: one run of the probe command: measure the targets one after
 * another (target/target.h: each measured, its experiment run, judged),
 * and write the report as it goes. */
#ifndef SYNCPROBE_SESSION_H
#define SYNCPROBE_SESSION_H

#include "probe/options.h"

/* Run the probe as o says (o->targets: at least one, already checked);
 * prints its errors and returns the exit status. Stopped by a signal, it
 * dies of it once the report is out. */
int session_run(const struct options *o);

#endif
