/* probe.h: the ONE timed loop every row runs through. It is re-entrant on
 * a row's accumulated result, so a row can be measured in several slices
 * (interleaved rounds) or all at once. */
#ifndef SYNCPROBE_PROBE_H
#define SYNCPROBE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/options.h"
#include "probe/row.h"
#include "probe/testfile.h"

#define WARMUP_OPS 3	/* untimed operations before a row's first slice */
#define CALIBRATE_OPS 16	/* timed together to see whether a row needs batches */
#define BATCH_CLOCK_READS 100	/* an operation shorter than this many clock reads is batched */
#define BATCH_MAX_OPS 1024

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
	bool splits;		/* row_splits(spec): the sync part timed apart */
	/* Operations shorter than this are timed in batches (0: never); set
	 * by the caller from the cost of a clock read. Never for rows that
	 * append to a segment or are paced. */
	uint64_t batch_below_ns;
	/* A segment row (spec->segment_bytes): where the next append goes,
	 * shared by the rows of its group as a log's one tail is; the caller
	 * points it at a counter set to 0. */
	uint64_t *tail;
};

/* A buffer for the largest write of the plan, aligned for direct I/O and
 * filled with incompressible bytes. */
unsigned char *probe_alloc_buffer(size_t bytes);

/* Open the row's descriptor (res->spec says how) and decide whether it can
 * run at all; on return res->status is ROW_OK, ROW_UNSUPPORTED or
 * ROW_ERROR. res must have been through row_init. */
void probe_row_open(struct row_run *run, struct row_result *res,
    const struct testfile *tf, enum pattern pattern, unsigned char *buf);

/* Time operations until max_ops are done or max_ns has passed (0: no time
 * limit), adding to res. Returns 0, or -1 with res->status ROW_ERROR (or
 * ROW_UNSUPPORTED when direct I/O is refused at the first write). */
int probe_row_slice(struct row_run *run, struct row_result *res,
    uint64_t max_ops, uint64_t max_ns);

/* Close the row's descriptor; -1 with res->status ROW_ERROR if close fails. */
int probe_row_close(struct row_run *run, struct row_result *res);

#endif
