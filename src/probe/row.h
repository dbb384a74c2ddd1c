/* row.h: one row of a report: what it measures (struct row_spec), what was
 * measured (struct row_result), and the figures derived from it, computed
 * once in row_finish() and read by every report and rule. */
#ifndef SYNCPROBE_ROW_H
#define SYNCPROBE_ROW_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/method.h"
#include "probe/precision.h"
#include "util/stats.h"

#define ROW_NAME_LEN 64
#define REASON_LEN   (PATH_MAX + 512)	/* a path and why */

/* Test groups, in pg_test_fsync's order; a bit each in options.groups.
 * Their names, titles and rows are plan.c's group_table. */
enum group {
	GROUP_ONE,
	GROUP_TWO,
	GROUP_SIZES,
	GROUP_DESCRIPTOR,
	GROUP_NOSYNC,
	GROUP_GROUP,		/* the group-commit experiment: cells, not rows */
	GROUP_ETCD,		/* etcd's WAL: appends to a preallocated segment */
	GROUP_COUNT
};

/* What one timed operation does. */
enum op_kind {
	OP_WRITE_SYNC,		/* pwrite each block, then the sync call (if any) */
	OP_OPEN_WRITE_FSYNC_CLOSE,	/* descriptor: write, fsync, close */
	OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC	/* descriptor: write, close, reopen, fsync */
};

struct row_spec {
	enum group group;
	char name[ROW_NAME_LEN];
	/* The wal_sync_method this row measures, or NULL for a row that is
	 * not a candidate (descriptor rows, the non-synced write). */
	const struct method *method;
	/* How its writes are made durable: method, or fsync for the
	 * descriptor rows; NULL when nothing is synced. */
	const struct method *io;
	enum op_kind kind;
	bool direct;
	unsigned writes_per_op;
	size_t write_bytes;
	/* Appends to a file of its own, preallocated to this many bytes and
	 * never written before, as a database's log segment is (the writes
	 * go on from where the group's last one ended, and a full segment is
	 * replaced by a fresh one, untimed); 0: the shared test file. */
	uint64_t segment_bytes;
	/* Operations started at this rate (pace.h), not back to back; 0:
	 * back to back. */
	uint64_t pace_per_sec;
	/* Without -s and -n, this many operations rather than the adaptive
	 * time; 0: adaptive. */
	uint64_t default_ops;
};

enum row_status { ROW_OK, ROW_UNSUPPORTED, ROW_ERROR };

/* Why a row has no figures, for rules and reports to decide on; the
 * reason text beside it is for people only. */
enum row_why {
	ROW_WHY_NONE,
	ROW_WHY_NO_METHOD,	/* the method, or direct I/O, is not on this system */
	ROW_WHY_DIRECT_REFUSED,	/* the filesystem refused an O_DIRECT open or write */
	ROW_WHY_DIRECT_ALIGN,	/* write size or memory below the direct-I/O unit */
	ROW_WHY_IO_ERROR	/* an I/O error stopped the row (and the run) */
};

struct row_result {
	struct row_spec spec;
	enum row_status status;	/* follows from why: see row_fail() */
	enum row_why why;
	char reason[REASON_LEN];	/* unsupported or error: why, for display */
	uint64_t ops;
	uint64_t elapsed_ns;	/* sum of the slices' timed loops */
	struct stats total;	/* one whole operation */
	struct stats write;	/* its writes (rows that sync apart) */
	struct stats sync;	/* its sync call (rows that sync apart) */
	struct slice *slices;	/* one per round that ran operations, or NULL */
	unsigned nslices;
	unsigned slices_cap;	/* allocated */
	bool splits;		/* row_splits(&spec), kept for the timed loop */
	/* Operations timed together (1: each on its own). Operations much
	 * shorter than a clock read are timed in batches, so the clock does
	 * not show in the figures; percentiles are then of batch means. */
	unsigned batch_ops;
	bool capped;		/* adaptive: time ran out before the precision target */
	uint64_t missed_starts;	/* a paced row: due starts that passed (pace.h) */

	/* Derived by row_finish(). */
	double ops_per_sec;	/* 0 when the row has no time */
	double mean_usecs;	/* rounded to the nanosecond, as printed */
	double mean_ci95_usecs;	/* half-width of the mean's 95% interval; -1 unknown */
};

/* A method row: method with or without O_DIRECT, writes blocks of bytes
 * per operation, in group; named as pg_test_fsync names it. */
void row_spec_method(struct row_spec *spec, enum group group, const struct method *m,
    bool direct, unsigned writes, size_t bytes);

/* An empty result for spec. */
void row_init(struct row_result *res, const struct row_spec *spec);

/* row_init for res in zero-filled memory (calloc), touching only what is
 * not zero: a row's three histograms are 90kB, of which a run uses a few
 * pages, and the rest then takes no memory. */
void row_init_zeroed(struct row_result *res, const struct row_spec *spec);

/* Mark the row as unable to run (or failed) for why, with a reason. */
void row_fail(struct row_result *res, enum row_why why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the row times its writes and its sync call apart. */
bool row_splits(const struct row_spec *spec);

/* Add one operation that started at start_ns, finished its writes at
 * mid_ns (ignored unless the row splits) and ended at end_ns. Inline: the
 * timed loop calls it once per operation. */
static inline void
row_record(struct row_result *res, uint64_t start_ns, uint64_t mid_ns, uint64_t end_ns)
{
	stats_add(&res->total, end_ns - start_ns);
	if (res->splits) {
		stats_add(&res->write, mid_ns - start_ns);
		stats_add(&res->sync, end_ns - mid_ns);
	}
}

/* Add n operations timed together in batch_ns (see batch_ops). */
void row_record_batch(struct row_result *res, uint64_t batch_ns, uint64_t n);

/* Room for n slices, so that a run needs no memory once it started; -1
 * when out of memory. */
int row_reserve_slices(struct row_result *res, unsigned n);

/* Append a slice (a round's share of the row); -1 when out of memory. */
int row_add_slice(struct row_result *res, uint64_t ops, uint64_t ns);

/* Compute the derived figures from what was recorded. */
void row_finish(struct row_result *res);

/* A nanosecond figure in microseconds, and a count over nanoseconds as a
 * rate per second: the only unit conversions the reports use. */
double row_usecs(double ns);
double row_per_sec(uint64_t count, uint64_t ns);
double row_secs(uint64_t ns);

/* Whether the row could be a wal_sync_method: a method row that ran. */
bool row_is_candidate(const struct row_result *res);

#endif
