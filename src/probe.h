/* probe.h: the test file, and the ONE timed loop every row runs through.
 * The loop is re-entrant on a row's accumulated result, so a row can be
 * measured in several slices (interleaved rounds) or all at once. */
#ifndef SYNCPROBE_PROBE_H
#define SYNCPROBE_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "plan.h"
#include "stats.h"

#define REASON_LEN   (PATH_MAX + 512)	/* a path and why */
#define WARMUP_OPS   3	/* untimed operations before a row's first slice */

enum row_status { ROW_OK, ROW_UNSUPPORTED, ROW_ERROR };

struct slice {
	uint64_t ops;
	uint64_t ns;
};

struct row_result {
	struct row_spec spec;
	enum row_status status;
	char reason[REASON_LEN];	/* unsupported or error: why */
	uint64_t ops;
	uint64_t elapsed_ns;	/* sum of the slices' timed loops */
	struct stats total;	/* one whole operation */
	struct stats write;	/* its writes (rows that sync apart) */
	struct stats sync;	/* its sync call (rows that sync apart) */
	struct slice *slices;	/* one per round, or NULL */
	unsigned nslices;
};

struct testfile {
	char path[PATH_MAX];
	char dir[PATH_MAX];
	uint64_t bytes;
};

/* One row being measured: its descriptor and where its writes go. */
struct row_run {
	const struct row_spec *spec;
	const struct testfile *tf;
	enum pattern pattern;
	unsigned char *buf;	/* aligned, at least spec->write_bytes */
	int fd;			/* -1 for rows that open per operation */
	int flags;		/* open flags, for rows that open per operation */
	uint64_t next_off;
	uint64_t counter;	/* stamped into every write: no two alike */
	bool warmed;
};

/* Whether dir exists and is a directory; -1 with a message in err if not. */
int testfile_check_dir(const char *dir, char *err, size_t errlen);

/* Create the test file in dir (or exactly `exact`, which must not exist),
 * fill it with incompressible bytes, one write of `block` bytes at a time,
 * and sync it and its directory.
 * Returns 0, or -1 with a one-line message in err. */
int testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen);

/* Remove the test file; 0 or -1 with a message in err. */
int testfile_remove(struct testfile *tf, char *err, size_t errlen);

/* A buffer for the largest write of the plan, aligned for direct I/O. */
unsigned char *probe_alloc_buffer(size_t bytes);

/* Open the row's descriptor (res->spec says how) and decide whether it can
 * run at all; on return res->status is ROW_OK, ROW_UNSUPPORTED or
 * ROW_ERROR. res must have been through probe_result_init. */
void probe_row_open(struct row_run *run, struct row_result *res,
    const struct testfile *tf, enum pattern pattern, unsigned char *buf);

/* Time operations until max_ops are done or max_ns has passed (0: no time
 * limit), adding to res. Returns 0, or -1 with res->status ROW_ERROR (or
 * ROW_UNSUPPORTED when direct I/O is refused at the first write). */
int probe_row_slice(struct row_run *run, struct row_result *res,
    uint64_t max_ops, uint64_t max_ns);

/* Close the row's descriptor; -1 with res->status ROW_ERROR if close fails. */
int probe_row_close(struct row_run *run, struct row_result *res);

/* Initialise an empty result for spec. */
void probe_result_init(struct row_result *res, const struct row_spec *spec);

#endif
