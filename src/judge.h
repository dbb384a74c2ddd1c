/* judge.h: the step after measuring: the advice from a target's rows, the
 * real length of the advised sleep, and the warnings. */
#ifndef SYNCPROBE_JUDGE_H
#define SYNCPROBE_JUDGE_H

#include "options.h"
#include "run.h"

/* Fill tr->advice, tr->sleep and the warnings from tr's measured rows. */
void judge_target(const struct options *o, struct target_result *tr);

#endif
