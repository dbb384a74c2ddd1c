/* judge.h: the step after measuring: the advice from a target's rows, the
 * real length of the advised sleep, and the warnings. */
#ifndef SYNCPROBE_JUDGE_H
#define SYNCPROBE_JUDGE_H

#include "probe/options.h"
#include "probe/run.h"

/* The method the group-commit experiment uses, the flush interval the
 * rule halves and whether its row is direct, from the rows measured so far
 * (advice_flush_basis). */
const struct method *judge_flush_basis(const struct options *o,
    const struct target_result *tr, double *rule_mean_usecs, bool *direct);

/* Fill tr->advice, tr->sleep and the warnings from tr's measured rows. */
void judge_target(const struct options *o, struct target_result *tr);

#endif
