/* judge.h: what the advice reads from the options, and the flush the
 * group-commit experiment starts from, judged from the rows measured
 * before it. */
#ifndef SYNCPROBE_JUDGE_H
#define SYNCPROBE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "advice/advice.h"
#include "probe/options.h"
#include "probe/row.h"

/* The advice's input from the options and this platform. */
void judge_input(const struct options *o, struct advice_input *in);

/* The method the group-commit experiment uses, the flush interval the
 * rule halves and whether its row is direct, from the rows measured so far
 * (advice_flush_basis). */
const struct method *judge_flush_basis(const struct options *o, const struct row_result *rows,
    size_t n, double *rule_mean_usecs, bool *direct);

#endif
