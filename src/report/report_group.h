/* report_group.h: the group-commit experiment's part of the text and JSON
 * reports (report_group.c), kept apart so the writers stay small. */
#ifndef SYNCPROBE_REPORT_GROUP_H
#define SYNCPROBE_REPORT_GROUP_H

#include <stdio.h>

#include "util/json.h"

struct report;
struct group_result;

/* A section per target that ran -t group: its settings, then one table
 * per client count. Nothing when no target did. */
void report_group_text(FILE *out, const struct report *r);

/* The target's "group" key: the block, or null. */
void report_group_json(struct json *j, const struct group_result *g);

#endif
