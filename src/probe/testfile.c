/* testfile.c: the probe's test file: its name, its size, its contents.
 * Creating, reopening and removing it safely is util/safefile's. */
#include "config.h"

#include "probe/testfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/platform.h"
#include "util/random.h"
#include "util/space.h"

#define NAME_PREFIX  ".syncprobe."
#define NAME_PATTERN NAME_PREFIX "XXXXXX"	/* as long as the names made */
#define EXISTS_HINT  "syncprobe never overwrites a file; name a new one"

/* Refuse a file that would leave the filesystem too full for the
 * database living there (space.h), before creating anything. A segment's
 * size is fixed (-t etcd's): only more free space helps then. */
static int
check_space(const struct testfile *tf, bool segment, char *err, size_t errlen)
{
	char why[320];

	if (space_check(tf->file.dirfd, tf->bytes, segment ? "free some space: the log "
	    "segment's size is fixed" : "use a smaller --file-size", why, sizeof why) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", tf->file.dir, why);
	return -1;
}

/* Fill the file one block at a time, as pg_test_fsync does and as a server
 * writes its WAL: the page cache keeps the shape of the writes that filled
 * it (large folios after large writes), and 8kB overwrites of a file filled
 * in 64kB writes measured ~10% slower here (ext4, Linux 6.18). */
static enum exit_status
fill_file(int fd, const struct testfile *tf, size_t block, char *err, size_t errlen)
{
	unsigned char *chunk = malloc(block);
	uint64_t state = random_seed(), off = 0;

	if (chunk == NULL) {
		snprintf(err, errlen, "fill %s: out of memory", tf->file.path);
		return STATUS_IO;
	}
	while (off < tf->bytes) {
		size_t len = tf->bytes - off < block ? (size_t)(tf->bytes - off) : block;
		ssize_t n;

		random_fill(chunk, len, &state);
		n = pwrite(fd, chunk, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;
			bool no_room = e == ENOSPC || e == EFBIG || e == EDQUOT;

			snprintf(err, errlen, "write %s: %s%s", tf->file.path, strerror(e),
			    no_room ? " (free some space or use a smaller --file-size)" : "");
			free(chunk);
			/* No room is a target that cannot be used; anything else
			 * (EIO) is the device failing: an I/O error. */
			return no_room ? STATUS_USAGE : STATUS_IO;
		}
		off += (uint64_t)n;
	}
	free(chunk);
	return STATUS_OK;
}

/* Preallocate the new segment instead of filling it. */
static enum exit_status
preallocate_file(int fd, const struct testfile *tf, char *err, size_t errlen)
{
	int e;

	if (platform_preallocate(fd, tf->bytes) == 0)
		return STATUS_OK;
	e = errno;
	snprintf(err, errlen, "preallocate %s: %s%s", tf->file.path, strerror(e),
	    e == ENOSPC || e == EFBIG || e == EDQUOT ? " (free some space)" : "");
	return e == ENOSPC || e == EFBIG || e == EDQUOT ? STATUS_USAGE : STATUS_IO;
}

int
testfile_renew_segment(const struct testfile *tf, int fd, const char **what)
{
	*what = "ftruncate";
	if (ftruncate(fd, 0) == -1)
		return -1;
	*what = "preallocate";
	return platform_preallocate(fd, tf->bytes);
}

/* Create the file and give it its bytes: filled one block at a time, or
 * (block 0) preallocated and left unwritten. */
static enum exit_status
create_file(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen)
{
	char ignored[8];
	enum exit_status rc = STATUS_OK;
	int fd;

	tf->bytes = bytes;
	if (safefile_locate(&tf->file, dir, NAME_PATTERN, exact, err, errlen) == -1 ||
	    safefile_open_dir(&tf->file, err, errlen) == -1)
		return STATUS_USAGE;
	if (check_space(tf, block == 0, err, errlen) == -1 ||
	    (fd = safefile_create(&tf->file, exact ? NULL : NAME_PREFIX, EXISTS_HINT,
	    err, errlen)) == -1) {
		safefile_close(&tf->file);
		return STATUS_USAGE;
	}
	rc = block ? fill_file(fd, tf, block, err, errlen) :
	    preallocate_file(fd, tf, err, errlen);
	/* Synced before any timing, so that dirty buffers and the file's
	 * creation do not skew the first rows. A sync that fails is the
	 * device failing: an I/O error. */
	if (rc == STATUS_OK && safefile_sync(&tf->file, fd, err, errlen) == -1)
		rc = STATUS_IO;
	/* After a failure, the close's own error would hide the first. */
	if (close(fd) == -1 && rc == STATUS_OK) {
		snprintf(err, errlen, "close %s: %s", tf->file.path, strerror(errno));
		rc = STATUS_IO;
	}
	if (rc != STATUS_OK)
		(void)safefile_remove(&tf->file, ignored, sizeof ignored);
	return rc;
}

enum exit_status
testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen)
{
	/* A block of 0 would mean a segment: every fill has a block. */
	return create_file(tf, dir, exact, bytes, block ? block : 1, err, errlen);
}

enum exit_status
testfile_create_segment(struct testfile *tf, const char *dir, uint64_t bytes,
    char *err, size_t errlen)
{
	return create_file(tf, dir, NULL, bytes, 0, err, errlen);
}
