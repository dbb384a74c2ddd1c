/* report_pgbench_svg.h: syncprobe pgbench -F svg: its sweep as a picture,
 * commits/s against commit_delay, a line per client count (and per
 * commit_siblings where several were swept), each point with its repeats'
 * range, delay 0's rate, the half rule, -t group's advice and the sweep's
 * own marked. */
#ifndef SYNCPROBE_REPORT_PGBENCH_SVG_H
#define SYNCPROBE_REPORT_PGBENCH_SVG_H

#include <stdio.h>

#include "report/report_pgbench.h"

void report_pgbench_svg(FILE *out, const struct pgb_result *r);

#endif
