/* probe.c: the test file and the one timed loop. Inside the loop only the
 * measured system calls happen (pwrite per block, the sync call, and the
 * opens and closes the descriptor rows measure); clock_gettime is read
 * through the vDSO. */
#include "config.h"

#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "platform.h"

#define BASE_OPEN_FLAGS  (O_RDWR | O_CLOEXEC)

static void
fail(struct row_result *res, enum row_status status, const char *op,
    const char *path, int err)
{
	res->status = status;
	snprintf(res->reason, sizeof res->reason, "%s %s: %s", op, path, strerror(err));
}

/* xorshift64*: incompressible bytes, so no layer below can compress or
 * deduplicate the file into something faster than a real write. */
static void
fill_random(unsigned char *buf, size_t len, uint64_t *state)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t x = *state;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*state = x;
		x *= 0x2545F4914F6CDD1DULL;
		memcpy(buf + i, &x, 8);
	}
	for (; i < len; i++)
		buf[i] = (unsigned char)(*state >>= 1);
}

static uint64_t
random_seed(void)
{
	return (platform_now_ns() ^ ((uint64_t)getpid() << 32)) | 1;
}

int
testfile_check_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) == -1) {
		snprintf(err, errlen, "%s: %s (give an existing directory)", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory (give a directory to test in)", dir);
		return -1;
	}
	return 0;
}

/* The directory part of path, as dirname() without modifying path. */
static void
parent_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Create the file exclusively and register it for removal, with signals
 * held off so that no signal can land between the two. */
static int
create_exclusive(struct testfile *tf, const char *exact, char *err, size_t errlen)
{
	sigset_t old;
	int fd, saved;

	cleanup_block(&old);
	if (exact != NULL)
		fd = open(tf->path, BASE_OPEN_FLAGS | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	else
		fd = mkstemp(tf->path);	/* O_EXCL, mode 0600 */
	saved = errno;
	if (fd >= 0)
		cleanup_register(tf->path);
	cleanup_unblock(&old);
	if (fd >= 0)
		return fd;
	/* A failed mkstemp leaves the last name it tried, a file that never
	 * existed: name the pattern that was asked for instead. */
	if (exact == NULL)
		memcpy(tf->path + strlen(tf->path) - 6, "XXXXXX", 6);
	if (saved == EEXIST)
		snprintf(err, errlen, "%s: already exists (syncprobe never overwrites a file; name a new one)", tf->path);
	else if (saved == EACCES || saved == EPERM || saved == EROFS)
		snprintf(err, errlen, "create %s: %s (try a directory you can write)", tf->path, strerror(saved));
	else
		snprintf(err, errlen, "create %s: %s", tf->path, strerror(saved));
	return -1;
}

/* Fill the file one block at a time, as pg_test_fsync does and as a server
 * writes its WAL: the page cache keeps the shape of the writes that filled
 * it (large folios after large writes), and 8kB overwrites of a file filled
 * in 64kB writes measured ~10% slower here (ext4, Linux 6.18). */
static int
fill_file(int fd, const struct testfile *tf, size_t block, char *err, size_t errlen)
{
	unsigned char *chunk = malloc(block);
	uint64_t state = random_seed(), off = 0;

	if (chunk == NULL) {
		snprintf(err, errlen, "fill %s: out of memory", tf->path);
		return -1;
	}
	while (off < tf->bytes) {
		size_t len = tf->bytes - off < block ? (size_t)(tf->bytes - off) : block;
		ssize_t n;

		fill_random(chunk, len, &state);
		n = pwrite(fd, chunk, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;

			snprintf(err, errlen, "write %s: %s%s", tf->path, strerror(e),
			    e == ENOSPC || e == EFBIG || e == EDQUOT ?
			    " (free some space or use a smaller --file-size)" : "");
			free(chunk);
			return -1;
		}
		off += (uint64_t)n;
	}
	free(chunk);
	return 0;
}

/* Sync the new file and its directory entry before any timing, so that
 * dirty buffers and the file's creation do not skew the first rows. */
static int
sync_file_and_dir(int fd, const struct testfile *tf, char *err, size_t errlen)
{
	int dfd;

	if (fsync(fd) == -1) {
		snprintf(err, errlen, "fsync %s: %s", tf->path, strerror(errno));
		return -1;
	}
	dfd = open(tf->dir, O_RDONLY | O_CLOEXEC);
	if (dfd == -1) {
		snprintf(err, errlen, "open %s: %s", tf->dir, strerror(errno));
		return -1;
	}
	/* Some filesystems refuse fsync on a directory (EINVAL); that is
	 * not an error in the target. */
	if (fsync(dfd) == -1 && errno != EINVAL && errno != EBADF) {
		snprintf(err, errlen, "fsync %s: %s", tf->dir, strerror(errno));
		close(dfd);
		return -1;
	}
	if (close(dfd) == -1) {
		snprintf(err, errlen, "close %s: %s", tf->dir, strerror(errno));
		return -1;
	}
	return 0;
}

int
testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen)
{
	int fd, n;
	char ignored[8];

	memset(tf, 0, sizeof *tf);
	tf->bytes = bytes;
	if (exact != NULL) {
		if (strlen(exact) >= sizeof tf->path) {
			snprintf(err, errlen, "%.60s...: %s", exact, strerror(ENAMETOOLONG));
			return -1;
		}
		snprintf(tf->path, sizeof tf->path, "%s", exact);
		parent_of(exact, tf->dir, sizeof tf->dir);
	} else {
		n = snprintf(tf->path, sizeof tf->path, "%s%s.syncprobe.XXXXXX", dir,
		    dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/");
		if (n < 0 || (size_t)n >= sizeof tf->path) {
			snprintf(err, errlen, "%.60s...: %s", dir, strerror(ENAMETOOLONG));
			return -1;
		}
		snprintf(tf->dir, sizeof tf->dir, "%s", dir);
	}
	if (testfile_check_dir(tf->dir, err, errlen) == -1)
		return -1;
	if ((fd = create_exclusive(tf, exact, err, errlen)) == -1) {
		tf->path[0] = '\0';
		return -1;
	}
	if (fill_file(fd, tf, block, err, errlen) == -1 ||
	    sync_file_and_dir(fd, tf, err, errlen) == -1) {
		close(fd);
		testfile_remove(tf, ignored, sizeof ignored);
		return -1;
	}
	if (close(fd) == -1) {
		snprintf(err, errlen, "close %s: %s", tf->path, strerror(errno));
		testfile_remove(tf, ignored, sizeof ignored);
		return -1;
	}
	return 0;
}

int
testfile_remove(struct testfile *tf, char *err, size_t errlen)
{
	int rc = 0;

	if (tf->path[0] == '\0')
		return 0;
	if (unlink(tf->path) == -1 && errno != ENOENT) {
		snprintf(err, errlen, "remove %s: %s", tf->path, strerror(errno));
		rc = -1;
	}
	cleanup_forget();
	tf->path[0] = '\0';
	return rc;
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
		fill_random(buf, bytes, &state);
	return buf;
}

void
probe_result_init(struct row_result *res, const struct row_spec *spec)
{
	memset(res, 0, sizeof *res);
	res->spec = *spec;
	res->status = ROW_OK;
	stats_init(&res->total);
	stats_init(&res->write);
	stats_init(&res->sync);
}

/* Whether direct I/O of this row's write size and buffer can work on fd;
 * sets an unsupported reason when it cannot. */
static bool
direct_fits(int fd, const struct row_run *run, struct row_result *res)
{
	size_t off_align = platform_direct_offset_align(fd);
	size_t mem_align = platform_direct_mem_align(fd);
	char wsz[16], asz[16];

	if (run->spec->write_bytes % off_align != 0) {
		options_format_size(run->spec->write_bytes, wsz, sizeof wsz);
		options_format_size(off_align, asz, sizeof asz);
		res->status = ROW_UNSUPPORTED;
		snprintf(res->reason, sizeof res->reason,
		    "a %s write is below the %s direct-I/O unit of this file", wsz, asz);
		return false;
	}
	if ((uintptr_t)run->buf % mem_align != 0) {
		options_format_size(mem_align, asz, sizeof asz);
		res->status = ROW_UNSUPPORTED;
		snprintf(res->reason, sizeof res->reason,
		    "direct I/O here needs %s-aligned memory", asz);
		return false;
	}
	return true;
}

/* Open the test file as the row needs it. Sets *refused when direct I/O
 * was refused (an unsupported row, not an error). */
static int
open_row_fd(const struct row_run *run, const char **what, bool *refused)
{
	int fd;

	*refused = false;
	*what = "open";
	if (!run->spec->direct)
		return open(run->tf->path, run->flags);
	fd = platform_open_direct(run->tf->path, run->flags, what);
	if (fd == -1 && (errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP))
		*refused = true;
	return fd;
}

void
probe_row_open(struct row_run *run, struct row_result *res,
    const struct testfile *tf, enum pattern pattern, unsigned char *buf)
{
	const struct row_spec *spec = &res->spec;
	const char *reason = NULL, *what;
	bool refused;
	int sync_flags, fd;

	memset(run, 0, sizeof *run);
	run->spec = spec;
	run->tf = tf;
	run->pattern = pattern;
	run->buf = buf;
	run->fd = -1;

	if (spec->method != NULL && (reason = method_unavailable(spec->method)) != NULL) {
		res->status = ROW_UNSUPPORTED;
		snprintf(res->reason, sizeof res->reason, "%s", reason);
		return;
	}
	if (spec->direct && (reason = platform_direct_unavailable()) != NULL) {
		res->status = ROW_UNSUPPORTED;
		snprintf(res->reason, sizeof res->reason, "%s", reason);
		return;
	}
	sync_flags = platform_open_sync_flags(spec->open_sync, &reason);
	run->flags = BASE_OPEN_FLAGS | sync_flags;

	fd = open_row_fd(run, &what, &refused);
	if (fd == -1) {
		if (refused) {
			res->status = ROW_UNSUPPORTED;
			snprintf(res->reason, sizeof res->reason,
			    "direct I/O refused by this filesystem (%s)", strerror(errno));
		} else {
			fail(res, ROW_ERROR, what, tf->path, errno);
		}
		return;
	}
	if (spec->direct && !direct_fits(fd, run, res)) {
		close(fd);
		return;
	}
	if (spec->kind == OP_WRITE_SYNC) {
		run->fd = fd;
	} else if (close(fd) == -1) {
		/* Descriptor rows open the file in every operation. */
		fail(res, ROW_ERROR, "close", tf->path, errno);
	}
}

static uint64_t
next_offset(struct row_run *run, unsigned block)
{
	size_t len = run->spec->write_bytes;
	uint64_t off;

	if (run->pattern == PATTERN_OVERWRITE)
		return (uint64_t)block * len;
	if (run->next_off + len > run->tf->bytes)
		run->next_off = 0;
	off = run->next_off;
	run->next_off += len;
	return off;
}

/* The failed step of an operation, kept for the error message. */
struct op_failure {
	const char *op;
	int err;
};

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
		n = pwrite(fd, run->buf, spec->write_bytes, (off_t)off);
		if (n != (ssize_t)spec->write_bytes) {
			f->op = "pwrite";
			f->err = n < 0 ? errno : EIO;
			return -1;
		}
	}
	return 0;
}

static int
open_for_op(struct row_run *run, struct op_failure *f)
{
	const char *what;
	bool refused;
	int fd = open_row_fd(run, &what, &refused);

	if (fd == -1) {
		f->op = what;
		f->err = errno;
	}
	return fd;
}

static int
close_for_op(int fd, struct op_failure *f)
{
	if (close(fd) == -1) {
		f->op = "close";
		f->err = errno;
		return -1;
	}
	return 0;
}

static int
sync_fd(int fd, enum sync_call call, struct op_failure *f)
{
	if (platform_sync(fd, call) == -1) {
		f->op = platform_sync_name(call);
		f->err = errno;
		return -1;
	}
	return 0;
}

/* One operation. t_mid is taken between the writes and the sync part. */
static int
run_op(struct row_run *run, uint64_t *t_mid, struct op_failure *f)
{
	const struct row_spec *spec = run->spec;
	int fd;

	switch (spec->kind) {
	case OP_WRITE_SYNC:
		if (write_blocks(run, run->fd, f) == -1)
			return -1;
		if (spec->sync == SYNC_CALL_NONE)
			return 0;
		*t_mid = platform_now_ns();
		return sync_fd(run->fd, spec->sync, f);
	case OP_OPEN_WRITE_FSYNC_CLOSE:
		if ((fd = open_for_op(run, f)) == -1)
			return -1;
		if (write_blocks(run, fd, f) == -1) {
			close(fd);
			return -1;
		}
		*t_mid = platform_now_ns();
		if (sync_fd(fd, spec->sync, f) == -1) {
			close(fd);
			return -1;
		}
		return close_for_op(fd, f);
	case OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC:
		if ((fd = open_for_op(run, f)) == -1)
			return -1;
		if (write_blocks(run, fd, f) == -1) {
			close(fd);
			return -1;
		}
		if (close_for_op(fd, f) == -1)
			return -1;
		*t_mid = platform_now_ns();
		if ((fd = open_for_op(run, f)) == -1)
			return -1;
		if (sync_fd(fd, spec->sync, f) == -1) {
			close(fd);
			return -1;
		}
		return close_for_op(fd, f);
	}
	f->op = "operation";
	f->err = EINVAL;
	return -1;
}

static int
record_failure(struct row_run *run, struct row_result *res, const struct op_failure *f)
{
	/* A direct write refused at the first try is the filesystem saying it
	 * does not do direct I/O this way: a row that cannot run. */
	if (!run->warmed && run->spec->direct && f->err == EINVAL) {
		res->status = ROW_UNSUPPORTED;
		snprintf(res->reason, sizeof res->reason,
		    "direct I/O write refused by this filesystem (%s)", strerror(f->err));
		return -1;
	}
	fail(res, ROW_ERROR, f->op, run->tf->path, f->err);
	return -1;
}

static int
warm_up(struct row_run *run, struct row_result *res)
{
	struct op_failure f;
	uint64_t t_mid;
	unsigned i;

	/* An isolated flush after an idle gap is slower than back-to-back
	 * ones; these operations are done but not counted. */
	for (i = 0; i < WARMUP_OPS; i++)
		if (run_op(run, &t_mid, &f) == -1)
			return record_failure(run, res, &f);
	run->warmed = true;
	return 0;
}

int
probe_row_slice(struct row_run *run, struct row_result *res,
    uint64_t max_ops, uint64_t max_ns)
{
	bool split = plan_row_splits(run->spec);
	uint64_t start, prev, now, t_mid = 0, deadline, done = 0;
	struct op_failure f;

	if (res->status != ROW_OK)
		return -1;
	if (!run->warmed && warm_up(run, res) == -1)
		return -1;

	/* Each operation's time runs from the end of the one before, so the
	 * loop reads the clock once per operation (twice when the sync part is
	 * timed apart) and the latencies add up to the elapsed time. */
	start = prev = platform_now_ns();
	deadline = max_ns ? start + max_ns : UINT64_MAX;
	while (done < max_ops) {
		if (run_op(run, &t_mid, &f) == -1) {
			res->ops += done;
			res->elapsed_ns += platform_now_ns() - start;
			return record_failure(run, res, &f);
		}
		now = platform_now_ns();
		stats_add(&res->total, now - prev);
		if (split) {
			stats_add(&res->write, t_mid - prev);
			stats_add(&res->sync, now - t_mid);
		}
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
	if (run->fd < 0)
		return 0;
	if (close(run->fd) == -1) {
		run->fd = -1;
		fail(res, ROW_ERROR, "close", run->tf->path, errno);
		return -1;
	}
	run->fd = -1;
	return 0;
}
