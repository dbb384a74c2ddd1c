/* plan.h: which rows a run measures, in pg_test_fsync's order. A row is a
 * description only; probe.c measures it and fills a struct row_result. */
#ifndef SYNCPROBE_PLAN_H
#define SYNCPROBE_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "method.h"
#include "options.h"

#define ROW_NAME_LEN 64
#define PLAN_MAX_ROWS 40

/* What one timed operation does. */
enum op_kind {
	OP_WRITE_SYNC,		/* pwrite each block, then the sync call (if any) */
	OP_OPEN_WRITE_FSYNC_CLOSE,	/* descriptor: write, fsync, close */
	OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC	/* descriptor: write, close, reopen, fsync */
};

struct row_spec {
	enum group group;
	char name[ROW_NAME_LEN];
	const struct method *method;	/* NULL where no sync method is tested */
	enum open_sync open_sync;
	enum sync_call sync;
	enum op_kind kind;
	bool direct;
	unsigned writes_per_op;
	size_t write_bytes;
};

/* Fill specs (at most max) with the rows the options ask for; the count. */
size_t plan_build(const struct options *o, struct row_spec *specs, size_t max);

/* A group's heading, as pg_test_fsync words it. */
void plan_group_title(enum group g, size_t block_bytes, char *buf, size_t len);

/* Whether the row times its writes and its sync call apart. */
bool plan_row_splits(const struct row_spec *spec);

#endif
