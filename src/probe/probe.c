/* probe.c: the one timed loop. Inside the loop only the measured system
 * calls happen (pwrite per block, the sync call, and the opens and closes
 * the descriptor rows measure); clock_gettime is read through the vDSO. */
#include "config.h"

#include "probe/probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/pace.h"
#include "util/cleanup.h"
#include "util/platform.h"
#include "util/random.h"
#include "util/units.h"

/* What an operation was doing when it failed: only a refused open or
 * write can mean that the filesystem does not do direct I/O. */
enum op_step { STEP_OPEN, STEP_WRITE, STEP_SYNC, STEP_CLOSE };

/* The failed step of an operation, kept for the error message. */
struct op_failure {
	enum op_step step;
	const char *op;
	int err;		/* errno; 0 for a short write */
	bool replaced;		/* the test file's name led to another file */
	size_t done, want;	/* a short write: bytes written, of those asked */
};

static int open_for_op(struct row_run *run, struct op_failure *f);
static int close_for_op(int fd, struct op_failure *f);

/* Note the failed step in f; -1, for the caller to return. */
static int
op_failed(struct op_failure *f, enum op_step step, const char *op, int err)
{
	f->step = step;
	f->op = op;
	f->err = err;
	f->replaced = false;
	f->done = f->want = 0;
	return -1;
}

/* The row failed at f's step: "OP PATH: WHY", WHY what really happened.
 * A short write is no error the device reported; a replaced name means
 * nothing was written to whatever it leads to. */
static void
fail_io(struct row_result *res, const struct op_failure *f, const char *path)
{
	if (f->replaced)
		row_fail(res, ROW_WHY_IO_ERROR, "%s %s: %s", f->op, path, TESTFILE_REPLACED_WHY);
	else if (f->err == 0)
		row_fail(res, ROW_WHY_IO_ERROR, "%s %s: short write (%zu of %zu bytes)",
		    f->op, path, f->done, f->want);
	else
		row_fail(res, ROW_WHY_IO_ERROR, "%s %s: %s", f->op, path, strerror(f->err));
}

unsigned char *
probe_alloc_buffer(size_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t align = ps > 0 ? (size_t)ps : 4096;
	unsigned char *buf;
	uint64_t state = random_seed();

	/* Page alignment suits every device we know; probe_row_open checks
	 * the alignment the system reports for the file, too. */
	buf = platform_aligned_alloc(align, bytes);
	if (buf != NULL)
		random_fill(buf, bytes, &state);
	return buf;
}

/* Whether direct I/O of this row's write size and buffer can work on fd;
 * marks the row unsupported when it cannot. */
static bool
direct_fits(int fd, const struct row_run *run, struct row_result *res)
{
	size_t off_align, mem_align;
	char wsz[16], asz[16];

	platform_direct_align(fd, &mem_align, &off_align);
	if (run->spec->write_bytes % off_align != 0) {
		units_format_size(run->spec->write_bytes, wsz, sizeof wsz);
		units_format_size(off_align, asz, sizeof asz);
		row_fail(res, ROW_WHY_DIRECT_ALIGN,
		    "%s %s write is below the %s direct-I/O unit of this file",
		    units_article(wsz), wsz, asz);
		return false;
	}
	if ((uintptr_t)run->buf % mem_align != 0) {
		units_format_size(mem_align, asz, sizeof asz);
		row_fail(res, ROW_WHY_DIRECT_ALIGN, "direct I/O here needs %s-aligned memory", asz);
		return false;
	}
	return true;
}

/* Whether the row can run on this system at all; marks it if not. */
static bool
row_available(const struct row_spec *spec, struct row_result *res)
{
	const char *reason;

	if (spec->io != NULL && (reason = method_unavailable(spec->io)) != NULL) {
		row_fail(res, ROW_WHY_NO_METHOD, "%s", reason);
		return false;
	}
	if (spec->direct && (reason = platform_direct_unavailable()) != NULL) {
		row_fail(res, ROW_WHY_NO_METHOD, "%s", reason);
		return false;
	}
	return true;
}

void
probe_row_open(struct row_run *run, struct row_result *res,
    const struct testfile *tf, enum pattern pattern, unsigned char *buf)
{
	const struct row_spec *spec = &res->spec;
	struct op_failure f;
	int fd;

	memset(run, 0, sizeof *run);
	run->spec = spec;
	run->tf = tf;
	run->pattern = pattern;
	run->buf = buf;
	run->fd = -1;
	run->splits = res->splits;

	if (!row_available(spec, res))
		return;
	run->flags = spec->io ? method_open_flags(spec->io) : 0;
	if ((fd = open_for_op(run, &f)) == -1) {
		if (spec->direct && !f.replaced && safefile_direct_refused(f.err))
			row_fail(res, ROW_WHY_DIRECT_REFUSED,
			    "direct I/O refused by this filesystem (%s)", strerror(f.err));
		else
			fail_io(res, &f, tf->file.path);
		return;
	}
	if (spec->direct && !direct_fits(fd, run, res)) {
		close(fd);
		return;
	}
	if (spec->kind == OP_WRITE_SYNC) {
		run->fd = fd;
	} else if (close_for_op(fd, &f) == -1) {
		/* Descriptor rows open the file in every operation. */
		fail_io(res, &f, tf->file.path);
	}
}

static uint64_t
next_offset(struct row_run *run, unsigned block)
{
	size_t len = run->spec->write_bytes;
	uint64_t off;

	if (run->tail != NULL) {
		/* segment_room made room before the operation. */
		off = *run->tail;
		*run->tail += len;
		return off;
	}
	if (run->pattern == PATTERN_OVERWRITE)
		return (uint64_t)block * len;
	if (run->next_off + len > run->tf->bytes)
		run->next_off = 0;
	off = run->next_off;
	run->next_off += len;
	return off;
}

static int
write_blocks(struct row_run *run, int fd, struct op_failure *f)
{
	const struct row_spec *spec = run->spec;
	unsigned i;

	for (i = 0; i < spec->writes_per_op; i++) {
		uint64_t off = next_offset(run, i);
		ssize_t n;

		/* A fresh counter in every write: no two writes alike. */
		memcpy(run->buf, &run->counter, sizeof run->counter);
		run->counter++;
		/* A signal caught mid-call is not the device's failure: the
		 * write is made again, within the same operation. */
		do
			n = pwrite(fd, run->buf, spec->write_bytes, (off_t)off);
		while (n == -1 && errno == EINTR);
		if (n == -1)
			return op_failed(f, STEP_WRITE, "pwrite", errno);
		if ((size_t)n != spec->write_bytes) {
			op_failed(f, STEP_WRITE, "pwrite", 0);
			f->done = (size_t)n;
			f->want = spec->write_bytes;
			return -1;
		}
	}
	return 0;
}

static int
open_for_op(struct row_run *run, struct op_failure *f)
{
	const char *what;
	int fd = safefile_reopen(&run->tf->file, run->flags, run->spec->direct, &what);

	if (fd < 0) {
		op_failed(f, STEP_OPEN, what, errno);
		f->replaced = fd == SAFEFILE_REPLACED;
		return -1;
	}
	return fd;
}

/* close(fd), where EINTR is not an error and is not retried: Linux has
 * released the descriptor by then, and a second close could close one
 * just opened elsewhere. The data was synced before: the close is done. */
static int
close_test_fd(int fd)
{
	return close(fd) == -1 && errno != EINTR ? -1 : 0;
}

static int
close_for_op(int fd, struct op_failure *f)
{
	if (close_test_fd(fd) == -1)
		return op_failed(f, STEP_CLOSE, "close", errno);
	return 0;
}

static int
sync_fd(int fd, const struct method *io, struct op_failure *f)
{
	int rc;

	if (io == NULL)
		return 0;
	/* Interrupted by a signal: the sync is asked for again, within the
	 * same operation, as PostgreSQL's pg_fsync does. */
	do
		rc = method_sync(io, fd);
	while (rc == -1 && errno == EINTR);
	return rc == -1 ? op_failed(f, STEP_SYNC, method_sync_op(io), errno) : 0;
}

/* A descriptor row's operation: open, write, then fsync on the same
 * descriptor, or (reopen) close it and fsync on a new one; close. */
static int
descriptor_op(struct row_run *run, bool reopen, uint64_t *t_mid, struct op_failure *f)
{
	int fd = open_for_op(run, f);

	if (fd == -1)
		return -1;
	if (write_blocks(run, fd, f) == -1)
		goto failed;
	if (reopen) {
		if (close_for_op(fd, f) == -1)
			return -1;
		*t_mid = platform_now_ns();
		if ((fd = open_for_op(run, f)) == -1)
			return -1;
	} else {
		*t_mid = platform_now_ns();
	}
	if (sync_fd(fd, run->spec->io, f) == -1)
		goto failed;
	return close_for_op(fd, f);
failed:
	close(fd);	/* the operation already failed: report that */
	return -1;
}

/* One operation. t_mid is taken between the writes and the sync part. */
static int
run_op(struct row_run *run, uint64_t *t_mid, struct op_failure *f)
{
	const struct row_spec *spec = run->spec;

	switch (spec->kind) {
	case OP_WRITE_SYNC:
		if (write_blocks(run, run->fd, f) == -1)
			return -1;
		if (!run->splits)
			return 0;
		*t_mid = platform_now_ns();
		return sync_fd(run->fd, spec->io, f);
	case OP_OPEN_WRITE_FSYNC_CLOSE:
		return descriptor_op(run, false, t_mid, f);
	case OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC:
		return descriptor_op(run, true, t_mid, f);
	}
	return op_failed(f, STEP_WRITE, "operation", EINVAL);
}

static int
record_failure(struct row_run *run, struct row_result *res, const struct op_failure *f)
{
	/* A direct open or write refused at the first try is the filesystem
	 * saying it does not do direct I/O this way: a row that cannot run.
	 * A failed sync or close is an I/O error, whatever its errno. */
	if (!run->warmed && run->spec->direct && !f->replaced &&
	    (f->step == STEP_OPEN || f->step == STEP_WRITE) && safefile_direct_refused(f->err)) {
		row_fail(res, ROW_WHY_DIRECT_REFUSED,
		    "direct I/O %s refused by this filesystem (%s)",
		    f->step == STEP_OPEN ? "open" : "write", strerror(f->err));
		return -1;
	}
	fail_io(res, f, run->tf->file.path);
	return -1;
}

/* How many operations to time together: 1 for any operation a clock read
 * is small beside; for one that takes less than batch_below_ns, enough of
 * them that one clock read per batch costs under 1% of it. The calibration
 * runs once per row, untimed like the warm-up. */
static int
choose_batch(struct row_run *run, struct row_result *res)
{
	struct op_failure f;
	uint64_t t_mid, start, each;
	unsigned i;

	if (run->batch_below_ns == 0)
		return 0;
	start = platform_now_ns();
	for (i = 0; i < CALIBRATE_OPS; i++)
		if (run_op(run, &t_mid, &f) == -1)
			return record_failure(run, res, &f);
	each = (platform_now_ns() - start) / CALIBRATE_OPS;
	if (each >= run->batch_below_ns)
		return 0;
	res->batch_ops = each == 0 ? BATCH_MAX_OPS :
	    (unsigned)((run->batch_below_ns + each - 1) / each);
	if (res->batch_ops > BATCH_MAX_OPS)
		res->batch_ops = BATCH_MAX_OPS;
	return 0;
}

/* Whether the row appends to a segment, or waits between its
 * operations: then each is timed from its own start, never batched. */
static bool
times_from_start(const struct row_spec *spec)
{
	return spec->segment_bytes > 0 || spec->pace_per_sec > 0;
}

/* Before an operation of a segment row: a segment too full for its writes
 * is replaced by a fresh one, as a log moves to its next segment; outside
 * the operation's time. */
static int
segment_room(struct row_run *run, struct op_failure *f)
{
	uint64_t need = (uint64_t)run->spec->write_bytes * run->spec->writes_per_op;
	const char *what;

	if (run->tail == NULL || *run->tail + need <= run->tf->bytes)
		return 0;
	if (testfile_renew_segment(run->tf, run->fd, &what) == -1)
		return op_failed(f, STEP_WRITE, what, errno);
	*run->tail = 0;
	return 0;
}

static int
warm_up(struct row_run *run, struct row_result *res)
{
	struct op_failure f;
	uint64_t t_mid, start, end, quickest = UINT64_MAX;
	unsigned i;

	/* An isolated flush after an idle gap is slower than back-to-back
	 * ones; these operations are done but not counted. */
	for (i = 0; i < WARMUP_OPS; i++) {
		if (segment_room(run, &f) == -1)
			return record_failure(run, res, &f);
		start = platform_now_ns();
		if (run_op(run, &t_mid, &f) == -1)
			return record_failure(run, res, &f);
		end = platform_now_ns();
		if (end - start < quickest)
			quickest = end - start;
	}
	run->warmed = true;
	/* Only a row with a quick warm-up operation can need batches. */
	if (quickest < run->batch_below_ns && !times_from_start(run->spec))
		return choose_batch(run, res);
	return 0;
}

/* The timed loop for operations much shorter than a clock read: one read
 * per batch of res->batch_ops, so the clock does not show in the figures. */
static int
slice_in_batches(struct row_run *run, struct row_result *res, uint64_t max_ops,
    uint64_t max_ns)
{
	const volatile sig_atomic_t *stop = cleanup_stop_flag();
	uint64_t start, prev, now, t_mid, deadline, done = 0;
	struct op_failure f;

	start = prev = platform_now_ns();
	deadline = max_ns ? start + max_ns : UINT64_MAX;
	/* A stop signal ends the slice at the next batch boundary. */
	while (done < max_ops && *stop == 0) {
		uint64_t k = max_ops - done < res->batch_ops ? max_ops - done : res->batch_ops, j;

		for (j = 0; j < k; j++)
			if (run_op(run, &t_mid, &f) == -1) {
				now = platform_now_ns();
				row_record_batch(res, now - prev, j);
				res->ops += done + j;
				res->elapsed_ns += now - start;
				return record_failure(run, res, &f);
			}
		now = platform_now_ns();
		row_record_batch(res, now - prev, k);
		prev = now;
		done += k;
		if (now >= deadline)
			break;
	}
	res->ops += done;
	res->elapsed_ns += prev - start;
	return 0;
}

/* The timed loop of a row that appends to a segment or is paced: each
 * operation is timed from its own start, since what comes before it (the
 * wait for its due time, a segment renewed) is not part of it. The row's
 * time is the slice's, waits included, so that its ops/sec is the rate it
 * really ran at. */
static int
slice_from_start(struct row_run *run, struct row_result *res, uint64_t max_ops,
    uint64_t max_ns)
{
	const volatile sig_atomic_t *stop = cleanup_stop_flag();
	uint64_t first, start, end, t_mid = 0, deadline, period, done = 0;
	struct op_failure f;
	struct pace pace;
	int waited = 0;

	first = end = platform_now_ns();
	deadline = max_ns ? first + max_ns : UINT64_MAX;
	/* The slice's first operation waits its period too: every paced
	 * operation then follows an idle gap, and n of them take n periods,
	 * so the row's ops/sec is the rate asked for, not more. */
	period = pace_period_ns(run->spec->pace_per_sec);
	pace_init(&pace, first + period, period);
	while (done < max_ops && *stop == 0) {
		if (segment_room(run, &f) == -1 ||
		    (waited = pace_wait(&pace, stop)) == -1) {
			if (waited == -1)
				op_failed(&f, STEP_WRITE, "nanosleep", errno);
			res->ops += done;
			res->elapsed_ns += end - first;
			res->missed_starts += pace.missed;
			return record_failure(run, res, &f);
		}
		if (waited == 1)
			break;		/* a stop signal came during the wait */
		start = platform_now_ns();
		if (run_op(run, &t_mid, &f) == -1) {
			res->ops += done;
			res->elapsed_ns += platform_now_ns() - first;
			res->missed_starts += pace.missed;
			return record_failure(run, res, &f);
		}
		end = platform_now_ns();
		row_record(res, start, t_mid, end);
		pace_after(&pace, end);
		done++;
		if (end >= deadline)
			break;
	}
	res->ops += done;
	res->elapsed_ns += end - first;
	res->missed_starts += pace.missed;
	return 0;
}

int
probe_row_slice(struct row_run *run, struct row_result *res,
    uint64_t max_ops, uint64_t max_ns)
{
	const volatile sig_atomic_t *stop = cleanup_stop_flag();
	uint64_t start, prev, now, t_mid = 0, deadline, done = 0;
	struct op_failure f;

	if (res->status != ROW_OK)
		return -1;
	if (!run->warmed && warm_up(run, res) == -1)
		return -1;
	if (times_from_start(run->spec))
		return slice_from_start(run, res, max_ops, max_ns);
	if (res->batch_ops > 1)
		return slice_in_batches(run, res, max_ops, max_ns);

	/* Each operation's time runs from the end of the one before, so the
	 * loop reads the clock once per operation (twice when the sync part is
	 * timed apart) and the latencies add up to the elapsed time. */
	start = prev = platform_now_ns();
	deadline = max_ns ? start + max_ns : UINT64_MAX;
	/* A stop signal ends the slice at the next operation boundary. */
	while (done < max_ops && *stop == 0) {
		if (run_op(run, &t_mid, &f) == -1) {
			res->ops += done;
			res->elapsed_ns += platform_now_ns() - start;
			return record_failure(run, res, &f);
		}
		now = platform_now_ns();
		row_record(res, prev, t_mid, now);
		prev = now;
		done++;
		if (now >= deadline)
			break;
	}
	res->ops += done;
	res->elapsed_ns += prev - start;
	return 0;
}

int
probe_row_close(struct row_run *run, struct row_result *res)
{
	struct op_failure f;

	if (run->fd < 0)
		return 0;
	if (close_for_op(run->fd, &f) == -1) {
		run->fd = -1;
		fail_io(res, &f, run->tf->file.path);
		return -1;
	}
	run->fd = -1;
	return 0;
}
