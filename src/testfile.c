/* testfile.c: the test file's life, from exclusive creation to removal.
 * It is registered with cleanup.c the moment it exists, so that a signal
 * at any point removes it. */
#include "config.h"

#include "testfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "platform.h"
#include "random.h"

#define TESTFILE_OPEN_FLAGS (O_RDWR | O_CLOEXEC)

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
		fd = open(tf->path, TESTFILE_OPEN_FLAGS | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
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

		random_fill(chunk, len, &state);
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

/* The file's path and directory from the target dir or the exact name. */
static int
name_file(struct testfile *tf, const char *dir, const char *exact, char *err, size_t errlen)
{
	int n;

	if (exact != NULL) {
		if (strlen(exact) >= sizeof tf->path) {
			snprintf(err, errlen, "%.60s...: %s", exact, strerror(ENAMETOOLONG));
			return -1;
		}
		snprintf(tf->path, sizeof tf->path, "%s", exact);
		parent_of(exact, tf->dir, sizeof tf->dir);
		return 0;
	}
	n = snprintf(tf->path, sizeof tf->path, "%s%s.syncprobe.XXXXXX", dir,
	    dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/");
	if (n < 0 || (size_t)n >= sizeof tf->path) {
		snprintf(err, errlen, "%.60s...: %s", dir, strerror(ENAMETOOLONG));
		return -1;
	}
	snprintf(tf->dir, sizeof tf->dir, "%s", dir);
	return 0;
}

int
testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen)
{
	char ignored[8];
	int fd;

	memset(tf, 0, sizeof *tf);
	tf->bytes = bytes;
	if (name_file(tf, dir, exact, err, errlen) == -1 ||
	    testfile_check_dir(tf->dir, err, errlen) == -1)
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
testfile_open(const struct testfile *tf, int flags, bool direct, const char **what)
{
	*what = "open";
	if (!direct)
		return open(tf->path, TESTFILE_OPEN_FLAGS | flags);
	return platform_open_direct(tf->path, TESTFILE_OPEN_FLAGS | flags, what);
}

bool
testfile_direct_refused(int err)
{
	return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP;
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
