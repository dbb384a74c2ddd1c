/* safefile.c: a file's life in a held directory, from exclusive creation
 * (or the verifier's open) to removal (safefile.h). The file is registered
 * with cleanup.c the moment it exists, so that a signal at any point
 * removes it, until the caller says to keep it. */
#include "config.h"

#include "util/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/platform.h"
#include "util/random.h"

/* O_NOFOLLOW: never through a symbolic link put in the file's place.
 * O_NOCTTY: whatever is opened by mistake never becomes our terminal. */
#define SAFE_FLAGS        (O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
#define RANDOM_CHARS      6
#define CREATE_TRIES      100	/* unique names tried before giving up */

static const char name_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* "PATH...: File name too long", the path cut short. */
static void
too_long(const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%.60s...: %s", what, strerror(ENAMETOOLONG));
}

int
safefile_check_dir(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	/* A path the system cannot take whole may still name a directory
	 * that exists: said as too long, cut short, not as missing. */
	if (strlen(dir) >= PATH_MAX || (stat(dir, &st) == -1 && errno == ENAMETOOLONG)) {
		too_long(dir, err, errlen);
		snprintf(err + strlen(err), errlen - strlen(err), " (at most %d bytes: give a "
		    "shorter path to it, relative from a directory nearer it)", PATH_MAX - 1);
		return -1;
	}
	if (stat(dir, &st) == -1) {
		snprintf(err, errlen, "%s: %s%s", dir, strerror(errno),
		    errno == ENOENT || errno == ENOTDIR ? " (give an existing directory)" : "");
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory (give a directory to test in)", dir);
		return -1;
	}
	return 0;
}

/* The file's path, for messages: dir/name. */
static int
set_path(struct safefile *sf, char *err, size_t errlen)
{
	size_t n = strlen(sf->dir);
	int len = snprintf(sf->path, sizeof sf->path, "%s%s%s", sf->dir,
	    n > 0 && sf->dir[n - 1] == '/' ? "" : "/", sf->name);

	if (len < 0 || (size_t)len >= sizeof sf->path) {
		too_long(sf->dir, err, errlen);
		return -1;
	}
	return 0;
}

static void
safefile_init(struct safefile *sf)
{
	memset(sf, 0, sizeof *sf);
	sf->dirfd = -1;
}

/* exact's directory and last component. */
static int
locate_exact(struct safefile *sf, const char *exact, char *err, size_t errlen)
{
	const char *slash = strrchr(exact, '/'), *base = slash ? slash + 1 : exact;

	if (strlen(exact) >= sizeof sf->path) {
		too_long(exact, err, errlen);
		return -1;
	}
	if (strlen(base) >= sizeof sf->name) {
		/* What creating it would have said. */
		snprintf(err, errlen, "create %s: %s", exact, strerror(ENAMETOOLONG));
		return -1;
	}
	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		snprintf(err, errlen, "%s: names a directory (give a file name)", exact);
		return -1;
	}
	if (slash == NULL)
		snprintf(sf->dir, sizeof sf->dir, ".");
	else if (slash == exact)
		snprintf(sf->dir, sizeof sf->dir, "/");
	else
		snprintf(sf->dir, sizeof sf->dir, "%.*s", (int)(slash - exact), exact);
	snprintf(sf->name, sizeof sf->name, "%s", base);
	snprintf(sf->path, sizeof sf->path, "%s", exact);
	return 0;
}

int
safefile_locate(struct safefile *sf, const char *dir, const char *name,
    const char *exact, char *err, size_t errlen)
{
	safefile_init(sf);
	if (exact != NULL)
		return locate_exact(sf, exact, err, errlen);
	if (strlen(dir) >= sizeof sf->dir) {
		too_long(dir, err, errlen);
		return -1;
	}
	snprintf(sf->dir, sizeof sf->dir, "%s", dir);
	snprintf(sf->name, sizeof sf->name, "%s", name);
	return set_path(sf, err, errlen);
}

int
safefile_open_dir(struct safefile *sf, char *err, size_t errlen)
{
	int saved;

	sf->dirfd = open(sf->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sf->dirfd >= 0)
		return 0;
	saved = errno;
	/* Missing or not a directory: the message the targets' check gives. */
	if (safefile_check_dir(sf->dir, err, errlen) == -1)
		return -1;
	snprintf(err, errlen, "open %s: %s%s", sf->dir, strerror(saved),
	    saved == EACCES ? " (try a directory you can read and write)" : "");
	return -1;
}

/* A fresh name: prefix and random characters. */
static void
random_name(struct safefile *sf, const char *prefix, uint64_t *state)
{
	unsigned char bytes[RANDOM_CHARS];
	size_t i, n = strlen(prefix);

	random_fill(bytes, sizeof bytes, state);
	memcpy(sf->name, prefix, n);
	for (i = 0; i < sizeof bytes; i++)
		sf->name[n + i] = name_chars[bytes[i] % (sizeof name_chars - 1)];
	sf->name[n + i] = '\0';
}

/* Create sf->name exclusively, learn what file it is, and register it for
 * removal, with signals held off so that none can land between the
 * creation and the registration (nor interrupt the open with EINTR: an
 * O_EXCL create tried again could find itself). */
static int
create_named(struct safefile *sf)
{
	sigset_t old;
	int fd, saved;

	cleanup_block(&old);
	fd = openat(sf->dirfd, sf->name, O_RDWR | SAFE_FLAGS | O_CREAT | O_EXCL, 0600);
	if (fd >= 0 && platform_file_id(fd, &sf->dev, &sf->ino) == -1) {
		saved = errno;
		/* Just created, never written: ours to remove. */
		(void)close(fd);
		(void)unlinkat(sf->dirfd, sf->name, 0);
		errno = saved;
		fd = -1;
	}
	saved = errno;
	if (fd >= 0 && (sf->slot = cleanup_register(sf->dirfd, sf->name, sf->dev,
	    sf->ino)) == -1) {
		/* No slot left for it: a signal could not remove it. */
		(void)close(fd);
		(void)unlinkat(sf->dirfd, sf->name, 0);
		saved = EMFILE;
		fd = -1;
	}
	if (fd >= 0) {
		sf->have_file = true;
		sf->registered = true;
	}
	cleanup_unblock(&old);
	errno = saved;
	return fd;
}

int
safefile_create(struct safefile *sf, const char *unique_prefix, const char *exists_hint,
    char *err, size_t errlen)
{
	uint64_t state = random_seed();
	int fd = -1, tries, saved;

	if (unique_prefix != NULL && strlen(unique_prefix) + RANDOM_CHARS >= sizeof sf->name) {
		snprintf(err, errlen, "create %s: %s", sf->path, strerror(ENAMETOOLONG));
		return -1;
	}
	for (tries = 0; tries < (unique_prefix ? CREATE_TRIES : 1); tries++) {
		if (unique_prefix != NULL)
			random_name(sf, unique_prefix, &state);
		if ((fd = create_named(sf)) >= 0 || errno != EEXIST)
			break;
	}
	saved = errno;
	/* The path of the name picked, or of the pattern asked for rather
	 * than the last name tried. */
	if (unique_prefix != NULL) {
		if (fd == -1)
			snprintf(sf->name, sizeof sf->name, "%sXXXXXX", unique_prefix);
		(void)set_path(sf, err, errlen);	/* as long as the pattern's */
	}
	if (fd >= 0)
		return fd;
	if (saved == EEXIST)
		snprintf(err, errlen, "%s: already exists (%s)", sf->path, exists_hint);
	else
		snprintf(err, errlen, "create %s: %s%s", sf->path, strerror(saved),
		    saved == EACCES || saved == EPERM || saved == EROFS ?
		    " (try a directory you can write)" : "");
	return -1;
}

int
safefile_check_absent(const struct safefile *sf, const char *exists_hint, char *err,
    size_t errlen)
{
	struct stat st;

	if (fstatat(sf->dirfd, sf->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		snprintf(err, errlen, "%s: already exists%s (%s)", sf->path,
		    S_ISLNK(st.st_mode) ? ", a symbolic link" : "", exists_hint);
		return -1;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", sf->path, strerror(errno));
		return -1;
	}
	return 0;
}

int
safefile_claim(struct safefile *sf, const char *path, const char *what,
    const char *exists_hint, char *err, size_t errlen)
{
	char why[PATH_MAX + 256];

	if (safefile_locate(sf, NULL, NULL, path, why, sizeof why) == -1 ||
	    safefile_open_dir(sf, why, sizeof why) == -1) {
		snprintf(err, errlen, "%s: %s", what, why);
		return -1;
	}
	if (safefile_check_absent(sf, exists_hint, err, errlen) == -1) {
		safefile_close(sf);
		return -1;
	}
	return 0;
}

int
safefile_create_beside(struct safefile *tmp, const struct safefile *dest,
    const char *unique_prefix, char *err, size_t errlen)
{
	safefile_init(tmp);
	snprintf(tmp->dir, sizeof tmp->dir, "%s", dest->dir);
	tmp->dirfd = dest->dirfd;
	tmp->dir_borrowed = true;
	return safefile_create(tmp, unique_prefix, "a name syncprobe picked at random",
	    err, errlen);
}

/* Whether dest's name is free, or still dest's file; -1 with why in err
 * when it is neither or cannot be told. */
static int
name_still_ours(const struct safefile *dest, char *err, size_t errlen)
{
	struct stat st;

	if (fstatat(dest->dirfd, dest->name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dest->path, strerror(errno));
		return -1;
	}
	if (dest->have_file && st.st_dev == dest->dev && st.st_ino == dest->ino)
		return 0;
	snprintf(err, errlen, "%s: replaced by another file or a symbolic link while "
	    "syncprobe ran (left as it is)", dest->path);
	return -1;
}

/* dest is now the file tmp was, under dest's name: the registration for
 * removal moves with it (signals blocked by the caller). */
static void
take_over(struct safefile *dest, struct safefile *tmp)
{
	if (dest->registered)
		cleanup_forget(dest->slot);
	cleanup_rename(tmp->slot, dest->name);
	dest->registered = tmp->registered;
	dest->slot = tmp->slot;
	dest->dev = tmp->dev;
	dest->ino = tmp->ino;
	dest->have_file = true;
	tmp->registered = false;
	tmp->have_file = false;
}

int
safefile_replace(struct safefile *dest, struct safefile *tmp, char *err, size_t errlen)
{
	sigset_t old;
	int rc = -1;

	cleanup_block(&old);
	/* Between this check and the rename someone could still swap the
	 * name; the rename then drops a name they put in a directory they
	 * can write, as cleanup_remove_file's unlink would, and touches no
	 * file that has another name. */
	if (name_still_ours(dest, err, errlen) == 0) {
		rc = renameat(tmp->dirfd, tmp->name, dest->dirfd, dest->name);
		if (rc == 0)
			take_over(dest, tmp);
		else
			snprintf(err, errlen, "rename %s to %s: %s", tmp->path, dest->path,
			    strerror(errno));
	}
	cleanup_unblock(&old);
	return rc;
}

/* Open the directory just made as sf->name and learn its identity; -1
 * with errno (ENOTDIR/ELOOP for a link or file put in its place, EPERM for
 * a directory someone else made there). */
static int
open_made_dir(struct safefile *sf)
{
	struct stat st;
	int fd, saved;

	fd = openat(sf->dirfd, sf->name, O_RDONLY | O_DIRECTORY | SAFE_FLAGS);
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		saved = errno;
	else if (st.st_uid != geteuid())
		saved = EPERM;
	else {
		/* dev and ino, not have_file: safefile_remove removes files. */
		sf->dev = st.st_dev;
		sf->ino = st.st_ino;
		return fd;
	}
	(void)close(fd);
	errno = saved;
	return -1;
}

int
safefile_make_dir(struct safefile *sf, const char *unique_prefix, const char *exists_hint,
    char *err, size_t errlen)
{
	uint64_t state = random_seed();
	int fd = -1, tries, made = -1, saved;

	if (unique_prefix != NULL && strlen(unique_prefix) + RANDOM_CHARS >= sizeof sf->name) {
		snprintf(err, errlen, "mkdir %s: %s", sf->path, strerror(ENAMETOOLONG));
		return -1;
	}
	for (tries = 0; tries < (unique_prefix ? CREATE_TRIES : 1); tries++) {
		if (unique_prefix != NULL)
			random_name(sf, unique_prefix, &state);
		if ((made = mkdirat(sf->dirfd, sf->name, 0700)) == 0 || errno != EEXIST)
			break;
	}
	saved = errno;
	/* Not opened: the name leads elsewhere now, to nothing of ours to
	 * remove (what is there is someone else's, left as it is). */
	if (made == 0 && (fd = open_made_dir(sf)) == -1)
		saved = errno;
	if (unique_prefix != NULL && made == -1)
		snprintf(sf->name, sizeof sf->name, "%sXXXXXX", unique_prefix);
	(void)set_path(sf, err, errlen);
	if (fd >= 0)
		return fd;
	if (made == -1 && saved == EEXIST)
		snprintf(err, errlen, "%s: already exists (%s)", sf->path, exists_hint);
	else if (made == -1)
		snprintf(err, errlen, "mkdir %s: %s%s", sf->path, strerror(saved),
		    saved == EACCES || saved == EPERM || saved == EROFS ?
		    " (try a directory you can write)" : "");
	else
		snprintf(err, errlen, "%s: replaced by someone else as soon as it was "
		    "made (%s)", sf->path, saved == EPERM ? "a directory not ours" :
		    strerror(saved));
	return -1;
}

/* Whether, after a failed open, the name no longer leads to the file:
 * gone, or a symbolic link (refused by O_NOFOLLOW) or another file in its
 * place. errno is kept. */
static bool
name_replaced(const struct safefile *sf)
{
	struct stat st;
	int saved = errno;
	bool replaced = fstatat(sf->dirfd, sf->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	    st.st_dev != sf->dev || st.st_ino != sf->ino : errno == ENOENT;

	errno = saved;
	return replaced;
}

int
safefile_create_in(int dirfd, const char *name, int flags, mode_t mode)
{
	return openat(dirfd, name, flags | SAFE_FLAGS | O_CREAT | O_EXCL, mode);
}

int
safefile_reopen(const struct safefile *sf, int flags, bool direct, const char **what)
{
	dev_t dev;
	ino_t ino;
	int fd, saved;

	flags |= O_RDWR | SAFE_FLAGS;
	/* An open interrupted by a signal (NFS, FUSE) is tried again. */
	do {
		*what = "open";
		if (direct)
			fd = platform_open_direct(sf->dirfd, sf->name, flags, what);
		else
			fd = openat(sf->dirfd, sf->name, flags);
	} while (fd == -1 && errno == EINTR);
	if (fd == -1)
		return name_replaced(sf) ? SAFEFILE_REPLACED : -1;
	/* The device and inode only: see platform_file_id. */
	if (platform_file_id(fd, &dev, &ino) == -1) {
		saved = errno;
		*what = "fstat";
		(void)close(fd);
		errno = saved;
		return -1;
	}
	if (dev != sf->dev || ino != sf->ino) {
		(void)close(fd);	/* not ours: nothing to report about it */
		return SAFEFILE_REPLACED;
	}
	return fd;
}

int
safefile_open_existing(struct safefile *sf, bool *gone, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	do
		fd = openat(sf->dirfd, sf->name, O_RDONLY | O_NONBLOCK | SAFE_FLAGS);
	while (fd == -1 && errno == EINTR);
	*gone = fd == -1 && errno == ENOENT;
	if (fd == -1) {
		if (errno == ELOOP)
			snprintf(err, errlen, "%s: a symbolic link (refused: syncprobe never "
			    "makes one)", sf->path);
		else
			snprintf(err, errlen, "%s: %s", sf->path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    platform_file_id(fd, &sf->dev, &sf->ino) == -1) {
		snprintf(err, errlen, "%s: not a regular file (refused)", sf->path);
		(void)close(fd);
		return -1;
	}
	sf->have_file = true;
	return fd;
}

int
safefile_sync(const struct safefile *sf, int fd, char *err, size_t errlen)
{
	if (fsync(fd) == -1) {
		snprintf(err, errlen, "fsync %s: %s", sf->path, strerror(errno));
		return -1;
	}
	/* Some filesystems refuse fsync on a directory (EINVAL): that is
	 * not an error in the target. */
	if (fsync(sf->dirfd) == -1 && errno != EINVAL && errno != EBADF) {
		snprintf(err, errlen, "fsync %s: %s", sf->dir, strerror(errno));
		return -1;
	}
	return 0;
}

bool
safefile_direct_refused(int err)
{
	return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP;
}

void
safefile_keep(struct safefile *sf)
{
	if (sf->registered)
		cleanup_forget(sf->slot);
	sf->registered = false;
}

/* Remove the name while it is the file dev/ino; 0 or -1 with why in err. */
static int
remove_ours(const struct safefile *sf, char *err, size_t errlen)
{
	switch (cleanup_remove_file(sf->dirfd, sf->name, sf->dev, sf->ino)) {
	case CLEANUP_REMOVED:
		return 0;
	case CLEANUP_GONE:
		snprintf(err, errlen, "remove %s: %s (renamed or removed by someone else "
		    "while syncprobe ran)", sf->path, strerror(ENOENT));
		break;
	case CLEANUP_REPLACED:
		snprintf(err, errlen, "remove %s: replaced by another file or a symbolic "
		    "link (left as it is)", sf->path);
		break;
	case CLEANUP_FAILED:
		snprintf(err, errlen, "remove %s: %s", sf->path, strerror(errno));
		break;
	}
	return -1;
}

int
safefile_remove(struct safefile *sf, char *err, size_t errlen)
{
	int rc = 0;

	if (sf->dirfd < 0)
		return 0;
	if (sf->have_file)
		rc = remove_ours(sf, err, errlen);
	safefile_keep(sf);
	sf->have_file = false;
	if (!sf->dir_borrowed && close(sf->dirfd) == -1 && rc == 0) {
		snprintf(err, errlen, "close %s: %s", sf->dir, strerror(errno));
		rc = -1;
	}
	sf->dirfd = -1;
	return rc;
}

void
safefile_close(struct safefile *sf)
{
	safefile_keep(sf);
	/* A read-only directory descriptor: a failed close loses nothing. */
	if (sf->dirfd >= 0 && !sf->dir_borrowed)
		(void)close(sf->dirfd);
	sf->dirfd = -1;
}
