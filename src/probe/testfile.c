/* testfile.c: the test file's life, from exclusive creation to removal.
 * It is registered with cleanup.c the moment it exists, so that a signal
 * at any point removes it; and it is reached only through the directory
 * descriptor held from creation to removal (see testfile.h). */
#include "config.h"

#include "probe/testfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/platform.h"
#include "util/random.h"
#include "util/space.h"

/* O_NOFOLLOW: never through a symbolic link put in the file's place.
 * O_NOCTTY: whatever is opened by mistake never becomes our terminal. */
#define TESTFILE_OPEN_FLAGS (O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
#define NAME_PREFIX         ".syncprobe."
#define NAME_RANDOM_CHARS   6
#define CREATE_TRIES        100	/* unique names tried before giving up */

static const char name_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

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

/* "PATH...: File name too long", the path cut short. */
static void
too_long(const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%.60s...: %s", what, strerror(ENAMETOOLONG));
}

/* The file's path, for messages: dir/name. */
static int
set_path(struct testfile *tf, char *err, size_t errlen)
{
	size_t n = strlen(tf->dir);
	int len = snprintf(tf->path, sizeof tf->path, "%s%s%s", tf->dir,
	    n > 0 && tf->dir[n - 1] == '/' ? "" : "/", tf->name);

	if (len < 0 || (size_t)len >= sizeof tf->path) {
		too_long(tf->dir, err, errlen);
		return -1;
	}
	return 0;
}

/* A fresh name NAME_PREFIX + random characters, as mkstemp would make
 * (mkstemp cannot create relative to a directory descriptor). */
static void
random_name(struct testfile *tf, uint64_t *state)
{
	unsigned char bytes[NAME_RANDOM_CHARS];
	size_t i, n = strlen(NAME_PREFIX);

	random_fill(bytes, sizeof bytes, state);
	memcpy(tf->name, NAME_PREFIX, n);
	for (i = 0; i < sizeof bytes; i++)
		tf->name[n + i] = name_chars[bytes[i] % (sizeof name_chars - 1)];
	tf->name[n + i] = '\0';
}

/* The directory and the name in it, from the target dir or the exact
 * file; the name is a pattern until create_exclusive picks it. */
static int
name_file(struct testfile *tf, const char *dir, const char *exact, char *err, size_t errlen)
{
	const char *slash, *base;

	if (exact == NULL) {
		if (strlen(dir) >= sizeof tf->dir) {
			too_long(dir, err, errlen);
			return -1;
		}
		snprintf(tf->dir, sizeof tf->dir, "%s", dir);
		snprintf(tf->name, sizeof tf->name, "%sXXXXXX", NAME_PREFIX);
		return set_path(tf, err, errlen);
	}
	slash = strrchr(exact, '/');
	base = slash ? slash + 1 : exact;
	if (strlen(exact) >= sizeof tf->path) {
		too_long(exact, err, errlen);
		return -1;
	}
	if (strlen(base) >= sizeof tf->name) {
		/* What creating it would have said. */
		snprintf(err, errlen, "create %s: %s", exact, strerror(ENAMETOOLONG));
		return -1;
	}
	if (*base == '\0') {
		snprintf(err, errlen, "%s: names a directory (give a file name)", exact);
		return -1;
	}
	if (slash == NULL)
		snprintf(tf->dir, sizeof tf->dir, ".");
	else if (slash == exact)
		snprintf(tf->dir, sizeof tf->dir, "/");
	else
		snprintf(tf->dir, sizeof tf->dir, "%.*s", (int)(slash - exact), exact);
	snprintf(tf->name, sizeof tf->name, "%s", base);
	snprintf(tf->path, sizeof tf->path, "%s", exact);
	return 0;
}

/* Hold the target directory: every later step is relative to it. */
static int
open_dir(struct testfile *tf, char *err, size_t errlen)
{
	int saved;

	tf->dirfd = open(tf->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tf->dirfd >= 0)
		return 0;
	saved = errno;
	/* Missing or not a directory: the message main's check gives. */
	if (testfile_check_dir(tf->dir, err, errlen) == -1)
		return -1;
	snprintf(err, errlen, "open %s: %s%s", tf->dir, strerror(saved),
	    saved == EACCES ? " (try a directory you can read and write)" : "");
	return -1;
}

/* Create tf->name exclusively, never through a symbolic link, learn what
 * file it is, and register it for removal, with signals held off so that
 * none can land between the creation and the registration. */
static int
create_named(struct testfile *tf)
{
	sigset_t old;
	int fd, saved;

	cleanup_block(&old);
	fd = openat(tf->dirfd, tf->name, TESTFILE_OPEN_FLAGS | O_CREAT | O_EXCL, 0600);
	if (fd >= 0 && platform_file_id(fd, &tf->dev, &tf->ino) == -1) {
		saved = errno;
		/* Just created, never written: ours to remove. */
		(void)close(fd);
		(void)unlinkat(tf->dirfd, tf->name, 0);
		errno = saved;
		fd = -1;
	}
	saved = errno;
	if (fd >= 0)
		cleanup_register(tf->dirfd, tf->name, tf->dev, tf->ino);
	cleanup_unblock(&old);
	errno = saved;
	return fd;
}

static int
create_exclusive(struct testfile *tf, const char *exact, char *err, size_t errlen)
{
	uint64_t state = random_seed();
	int fd = -1, tries, saved;

	for (tries = 0; tries < (exact ? 1 : CREATE_TRIES); tries++) {
		if (exact == NULL)
			random_name(tf, &state);
		if ((fd = create_named(tf)) >= 0 || errno != EEXIST)
			break;
	}
	saved = errno;
	/* The path of the name picked, or of the pattern asked for rather than
	 * the last name tried; as long as the pattern's, which fitted. */
	if (exact == NULL) {
		if (fd == -1)
			memset(tf->name + strlen(NAME_PREFIX), 'X', NAME_RANDOM_CHARS);
		(void)set_path(tf, err, errlen);
	}
	if (fd >= 0)
		return fd;
	if (saved == EEXIST && exact != NULL)
		snprintf(err, errlen, "%s: already exists (syncprobe never overwrites a file; name a new one)", tf->path);
	else if (saved == EACCES || saved == EPERM || saved == EROFS)
		snprintf(err, errlen, "create %s: %s (try a directory you can write)", tf->path, strerror(saved));
	else
		snprintf(err, errlen, "create %s: %s", tf->path, strerror(saved));
	return -1;
}

/* Refuse a file that would leave the filesystem too full for the
 * database living there (space.h), before creating anything. */
static int
check_space(const struct testfile *tf, char *err, size_t errlen)
{
	char why[256];

	if (space_check(tf->dirfd, tf->bytes, why, sizeof why) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", tf->dir, why);
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
		snprintf(err, errlen, "fill %s: out of memory", tf->path);
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

			snprintf(err, errlen, "write %s: %s%s", tf->path, strerror(e),
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

/* Sync the new file and its directory entry before any timing, so that
 * dirty buffers and the file's creation do not skew the first rows. */
static enum exit_status
sync_file_and_dir(int fd, const struct testfile *tf, char *err, size_t errlen)
{
	/* A sync that fails is the device failing: an I/O error. */
	if (fsync(fd) == -1) {
		snprintf(err, errlen, "fsync %s: %s", tf->path, strerror(errno));
		return STATUS_IO;
	}
	/* Some filesystems refuse fsync on a directory (EINVAL); that is
	 * not an error in the target. */
	if (fsync(tf->dirfd) == -1 && errno != EINVAL && errno != EBADF) {
		snprintf(err, errlen, "fsync %s: %s", tf->dir, strerror(errno));
		return STATUS_IO;
	}
	return STATUS_OK;
}

enum exit_status
testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen)
{
	char ignored[8];
	enum exit_status rc;
	int fd;

	memset(tf, 0, sizeof *tf);
	tf->dirfd = -1;
	tf->bytes = bytes;
	if (name_file(tf, dir, exact, err, errlen) == -1 || open_dir(tf, err, errlen) == -1)
		return STATUS_USAGE;
	if (check_space(tf, err, errlen) == -1 ||
	    (fd = create_exclusive(tf, exact, err, errlen)) == -1) {
		tf->name[0] = '\0';
		testfile_remove(tf, ignored, sizeof ignored);
		return STATUS_USAGE;
	}
	rc = fill_file(fd, tf, block, err, errlen);
	if (rc == STATUS_OK)
		rc = sync_file_and_dir(fd, tf, err, errlen);
	/* After a failure, the close's own error would hide the first. */
	if (close(fd) == -1 && rc == STATUS_OK) {
		snprintf(err, errlen, "close %s: %s", tf->path, strerror(errno));
		rc = STATUS_IO;
	}
	if (rc != STATUS_OK)
		testfile_remove(tf, ignored, sizeof ignored);
	return rc;
}

/* Whether, after a failed open, the name no longer leads to the file
 * created: gone, or a symbolic link (refused by O_NOFOLLOW) or another
 * file in its place. errno is kept. */
static bool
name_replaced(const struct testfile *tf)
{
	struct stat st;
	int saved = errno;
	bool replaced = fstatat(tf->dirfd, tf->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	    st.st_dev != tf->dev || st.st_ino != tf->ino : errno == ENOENT;

	errno = saved;
	return replaced;
}

int
testfile_open(const struct testfile *tf, int flags, bool direct, const char **what)
{
	dev_t dev;
	ino_t ino;
	int fd, saved;

	flags |= TESTFILE_OPEN_FLAGS;
	/* An open interrupted by a signal (NFS, FUSE) is tried again. */
	do {
		*what = "open";
		if (direct)
			fd = platform_open_direct(tf->dirfd, tf->name, flags, what);
		else
			fd = openat(tf->dirfd, tf->name, flags);
	} while (fd == -1 && errno == EINTR);
	if (fd == -1)
		return name_replaced(tf) ? TESTFILE_REPLACED : -1;
	/* The device and inode only: see platform_file_id. */
	if (platform_file_id(fd, &dev, &ino) == -1) {
		saved = errno;
		*what = "fstat";
		(void)close(fd);
		errno = saved;
		return -1;
	}
	if (dev != tf->dev || ino != tf->ino) {
		(void)close(fd);	/* not ours: nothing to report about it */
		return TESTFILE_REPLACED;
	}
	return fd;
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

	if (tf->dirfd < 0)
		return 0;
	if (tf->name[0] != '\0') {
		switch (cleanup_remove_file(tf->dirfd, tf->name, tf->dev, tf->ino)) {
		case CLEANUP_REMOVED:
			break;
		case CLEANUP_GONE:
			snprintf(err, errlen, "remove %s: %s (renamed or removed by someone else "
			    "while syncprobe ran)", tf->path, strerror(ENOENT));
			rc = -1;
			break;
		case CLEANUP_REPLACED:
			snprintf(err, errlen, "remove %s: the test file was replaced by another "
			    "file or a symbolic link (left as it is)", tf->path);
			rc = -1;
			break;
		case CLEANUP_FAILED:
			snprintf(err, errlen, "remove %s: %s", tf->path, strerror(errno));
			rc = -1;
			break;
		}
		cleanup_forget();
		tf->name[0] = '\0';
	}
	if (close(tf->dirfd) == -1 && rc == 0) {
		snprintf(err, errlen, "close %s: %s", tf->dir, strerror(errno));
		rc = -1;
	}
	tf->dirfd = -1;
	return rc;
}
