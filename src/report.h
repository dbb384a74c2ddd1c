/* report.h: the report writers. They read results; they never measure. */
#ifndef SYNCPROBE_REPORT_H
#define SYNCPROBE_REPORT_H

#include <stdio.h>
#include <time.h>

#include "options.h"
#include "platform.h"
#include "run.h"

struct report {
	const struct options *options;
	const struct target_result *targets;
	size_t ntargets;
	time_t when;			/* when the run started */
	struct system_info system;	/* where it ran */
};

void report_text(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);

/* One target only: a server has one set of settings. */
void report_conf(FILE *out, const struct report *r);

/* "ext4 (vda, write cache: write back)": where a target lives, in one line. */
void report_storage_summary(const struct storage_info *st, char *buf, size_t len);

/* "yes", "no" or "unknown" for a 1 / 0 / -1 fact. */
const char *report_tristate(int v);

/* Latency figure in microseconds from nanoseconds. */
double report_usecs(double ns);

/* ops/sec of a row; 0 when it has no time. */
double report_ops_per_sec(const struct row_result *row);

#endif
