/* pgbench_run.h: one timed pgbench run against the throwaway cluster, and
 * the strict reading of what pgbench prints. */
#ifndef SYNCPROBE_PGBENCH_RUN_H
#define SYNCPROBE_PGBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgbench/cluster.h"

struct pgbench_figures {
	double tps;		/* "tps = X (without initial connection time)" */
	uint64_t transactions;	/* "number of transactions actually processed: N" */
	bool have_wal;		/* pg_stat_wal's count (PostgreSQL 14+) */
	uint64_t wal_flushes;	/* its wal_sync over the run (wal_write when
				 * flush_by_write) */
};

struct pgbench_run_spec {
	unsigned clients;
	long delay_usecs;
	unsigned siblings;
	unsigned secs;
	const char *script;	/* pgbench -f: a file in the work directory */
	const char *builtin;	/* or pgbench -b: its built-in script */
	bool have_wal;		/* the server has pg_stat_wal */
	bool flush_by_write;	/* an open_* wal_sync_method: count the writes */
};

/* Parse pgbench's standard output: each figure on exactly one line, with
 * exactly its prefix, a finite number. 0, or -1 with the reason in err. */
int pgbench_parse(const char *out, struct pgbench_figures *f, char *err, size_t errlen);

/* CHECKPOINT (so that the run has no checkpoint and no full-page images),
 * pg_stat_wal before, the run with PGOPTIONS setting commit_delay and
 * commit_siblings for its sessions, pg_stat_wal after. 0, or -1 with why. */
int pgbench_run(struct cluster *c, const struct pgbench_run_spec *s,
    struct pgbench_figures *f, char *why, size_t len);

/* pgbench -i -s 1 (the tpcb-like tables); its output is read for failure. */
int pgbench_initialize(struct cluster *c, char *why, size_t len);

/* A number psql printed: an unsigned integer and nothing else. */
int pgbench_read_count(const char *s, uint64_t *out);

#endif
