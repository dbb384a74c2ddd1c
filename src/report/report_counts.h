/* report_counts.h: the answer at each client count of -t group or
 * syncprobe pgbench (struct advice_count), as the text and JSON reports of
 * both commands print it. */
#ifndef SYNCPROBE_REPORT_COUNTS_H
#define SYNCPROBE_REPORT_COUNTS_H

#include <stdio.h>

#include "advice/advice.h"
#include "util/json.h"

/* "at 8 clients at once: commit_delay = 250, +12.3% measured" a line per
 * client count, under a heading, indented by indent; nothing without
 * counts. */
void report_counts_text(FILE *out, const struct advice *a, int indent);

/* "by_clients": [{clients, commit_delay_usecs, versus_zero_percent,
 * any_worse}], empty without counts. */
void report_counts_json(struct json *j, const struct advice *a);

#endif
