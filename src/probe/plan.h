/* plan.h: the test groups, one table row each, and the rows a run
 * measures, in pg_test_fsync's order. A row is a description only;
 * probe.c measures it. */
#ifndef SYNCPROBE_PLAN_H
#define SYNCPROBE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/names.h"
#include "probe/options.h"
#include "probe/row.h"
#include "util/status.h"


#define PLAN_MAX_ROWS     40
#define SIZES_TOTAL_BYTES 16384u	/* the open_sync sizes group: 16kB per op */
/* -t etcd: etcd 3.4/3.5 preallocate each WAL segment to 64,000,000 bytes
 * (wal.SegmentSizeBytes); fio's recipe writes 22MiB back to back. */
#define ETCD_SEGMENT_BYTES   64000000ULL
#define ETCD_RECIPE_BYTES    (22ULL * 1024 * 1024)
#define ETCD_PACED_OPS       1000u	/* enough for a p99.9 of one */
/* The one-write group's paced row: one commit at a time, 100 a second
 * (a lightly loaded server), 100 of them (about a second, what the
 * default run may grow by), so that the cost of a flush after an idle
 * gap is a figure of every run. */
#define PACED_ROW_PER_SEC    100u
#define PACED_ROW_OPS        100u

/* The groups each row option changes, from the row builders in plan.c, so
 * that an option given with none of them chosen is refused rather than
 * ignored. sizes writes 16kB with open_sync whatever -b and -m say;
 * descriptor and nosync are buffered; etcd appends its own writes with
 * its own method to a segment of its own, never to the test file (-f,
 * --file-size); group flushes -b pages with a -m method and measures the
 * one and two rows it adds (plan_added_groups) with --direct and
 * --pattern. */
#define PLAN_BIT(g)             (1u << (g))
#define PLAN_METHOD_GROUPS      (PLAN_BIT(GROUP_ONE) | PLAN_BIT(GROUP_TWO) | \
				 PLAN_BIT(GROUP_GROUP))
#define PLAN_DIRECT_GROUPS      (PLAN_METHOD_GROUPS | PLAN_BIT(GROUP_SIZES))
#define PLAN_BLOCK_GROUPS       (PLAN_METHOD_GROUPS | PLAN_BIT(GROUP_DESCRIPTOR) | \
				 PLAN_BIT(GROUP_NOSYNC))
#define PLAN_PATTERN_GROUPS     (PLAN_BLOCK_GROUPS | PLAN_BIT(GROUP_SIZES))
#define PLAN_TEST_FILE_GROUPS   (((1u << GROUP_COUNT) - 1) & ~PLAN_BIT(GROUP_ETCD))

struct group_entry {
	const char *name;	/* for -t and the JSON "group" */
	/* The heading, as pg_test_fsync words it; "{}" is the block size. */
	const char *title;
	/* Add the group's rows to specs (at most max) from the options. */
	void (*rows)(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
	/* The test file must hold this many bytes for the group to run
	 * (NULL: an experiment, which sizes its own). */
	uint64_t (*file_bytes)(const struct options *o);
	bool in_default;	/* run when -t is not given */
	/* A group whose results are not timed rows (the group-commit
	 * experiment): run after the rows of every chosen group, on the same
	 * test file, by whoever runs the target (target/target.c runs
	 * it between run.h's steps), so that this table names it without
	 * linking its code. Its file_bytes is NULL: the command adds what
	 * the experiment needs. */
	bool experiment;
};

extern const struct group_entry group_table[GROUP_COUNT];
extern const struct name_list group_names;

/* The groups -t all and no -t select, as options.groups bits. */
unsigned plan_all_groups(void);
unsigned plan_default_groups(void);

/* The groups measured beside those chosen: with the group-commit
 * experiment but not the one-write test, the buffered rows of one and two
 * writes (those of them not chosen), since the wal_sync_method advice and
 * the experiment's delays rest on them; they take a few seconds. */
unsigned plan_added_groups(const struct options *o);

/* Whether the groups chosen (options.groups bits) hold any of PostgreSQL's:
 * every group but etcd's. A run of -t etcd alone says nothing of
 * PostgreSQL's settings. */
bool plan_has_postgres_groups(unsigned groups);

/* Fill specs (at most max) with the rows the options ask for, and the
 * added groups' rows; the count. */
size_t plan_build(const struct options *o, struct row_spec *specs, size_t max);

/* A group's heading, as pg_test_fsync words it. */
void plan_group_title(enum group g, size_t block_bytes, char *buf, size_t len);

/* A group's name ("?" for none). */
const char *plan_group_name(enum group g);

/* The smallest test file the chosen row groups and block size can run in
 * (an experiment adds its own need: group_file_bytes). */
uint64_t plan_min_file_bytes(const struct options *o);

/* The first of the methods (options.methods bits) this system has, or
 * NULL. */
const struct method *plan_first_available(unsigned methods);

/* -t's value: a comma-separated list of group names, or all. */
int plan_parse_groups(const char *s, unsigned *out, char *err, size_t errlen);

/* The checks that need every option: a group and a method chosen, -f
 * without a TARGET, --wal-sync-method among the methods and with a test
 * that reads it, -t group with a method this system has. 0, or -1 with the message in err. The file size is the
 * command's to check, with what an experiment needs. */
int plan_validate(const struct options *o, char *err, size_t errlen);

/* Whether the advice may read this row's figures: a method row of the one-
 * or two-write test, buffered (or direct, when only direct rows run). The
 * adaptive time gives these rows longer. */
bool plan_advice_reads(const struct row_spec *spec, bool direct_only);

#endif
