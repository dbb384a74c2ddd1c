/* pgbench.h: syncprobe pgbench [OPTION]... DIR: commit_delay and
 * commit_siblings swept with pgbench on a throwaway PostgreSQL cluster in
 * DIR, the ground truth beside the probe's rule and -t group's advice. */
#ifndef SYNCPROBE_PGBENCH_H
#define SYNCPROBE_PGBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/method.h"
#include "probe/options.h"
#include "report/report_pgbench.h"

#define PGBENCH_DEFAULT_SECS    10u
#define PGBENCH_MAX_SECS        3600u
#define PGBENCH_DEFAULT_REPEATS 3u
#define PGBENCH_MAX_REPEATS     50u
#define PGBENCH_DEFAULT_DECIDE  4u
#define PGBENCH_MAX_DECIDE      14u
#define PGBENCH_SETUP_SECS      20u	/* initdb, start, the probe's rows: a guess */

_Static_assert(PGBENCH_MAX_REPEATS + PGBENCH_MAX_DECIDE <= PGB_MAX_CELL_RUNS,
    "a cell holds every repeat and deciding run");

struct pgbench_format;

struct pgbench_options {
	const char *dir;
	const char *pg_bin;		/* --pg-bin, or NULL: found */
	const char *pg_user;		/* --pg-user, or NULL */
	unsigned clients[UNITS_MAX_LIST];
	size_t nclients;
	long delays[UNITS_MAX_LIST];	/* --commit-delays; none: from d */
	size_t ndelays;
	unsigned siblings[UNITS_MAX_LIST];	/* --commit-siblings; none: default */
	size_t nsiblings;
	unsigned secs;
	unsigned repeats;
	unsigned decide;		/* --decide */
	bool no_group;
	uint64_t probe_ops;		/* -n: the probe's rows' operations; 0: adaptive */
	const struct method *wal_method;
	enum pgb_workload workload;
	const char *script;
	const struct pgbench_format *format;	/* -F: report/report_pgbench.h */
	bool quiet;
};

void pgbench_defaults(struct pgbench_options *o);

/* Run it; the exit status. */
int pgbench_main(const struct pgbench_options *o);

#endif
