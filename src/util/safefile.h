/* safefile.h: every file syncprobe creates (the probe's test file, the
 * durability file) and every file it opens again, reached safely in a
 * directory others may write to.
 *
 * syncprobe often runs as root in such a directory, and someone who can
 * write there can swap a name for a symbolic link or another file between
 * two calls. So the directory is opened once and held; the file is
 * created exclusively, never through a symbolic link, registered with
 * util/cleanup for removal on signals in the same step, with signals held
 * off; every reopen is relative to the held directory, never through a
 * symbolic link, and checked to be the file created (device and inode);
 * and the name is removed only while it still leads to that file.
 *
 * It sits in util, the lowest layer, because it needs nothing above util
 * (cleanup, platform, random) and both the probe and the durability
 * commands build on it. */
#ifndef SYNCPROBE_SAFEFILE_H
#define SYNCPROBE_SAFEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* safefile_reopen's result when the name no longer leads to the file
 * created (gone, or a symbolic link or another file in its place). */
#define SAFEFILE_REPLACED (-2)

struct safefile {
	int dirfd;		/* the directory, held; -1 when not open */
	char dir[PATH_MAX];	/* the directory as given, for messages */
	char name[NAME_MAX + 1];	/* the file's name in it */
	char path[PATH_MAX];	/* dir/name, for messages only */
	dev_t dev;		/* the file created or opened */
	ino_t ino;
	bool have_file;		/* dev and ino are of a file created or opened */
	bool registered;	/* cleanup removes it on a signal */
	int slot;		/* ... from this slot of util/cleanup's */
	bool dir_borrowed;	/* dirfd is another safefile's: never closed here */
};

/* Whether dir exists and is a directory; -1 with a message in err if not. */
int safefile_check_dir(const char *dir, char *err, size_t errlen);

/* Where the file goes: exactly the path `exact` when it is not NULL (its
 * directory and its last component), else `name` in `dir`. Nothing is
 * opened. 0, or -1 with a message in err (too long, no file name). */
int safefile_locate(struct safefile *sf, const char *dir, const char *name,
    const char *exact, char *err, size_t errlen);

/* Open and hold sf->dir. 0, or -1 with a message in err. */
int safefile_open_dir(struct safefile *sf, char *err, size_t errlen);

/* Create sf->name exclusively in the held directory (O_RDWR, mode 0600,
 * never through a symbolic link, never an existing file), learn what
 * file it is and register it for removal, signals blocked in between.
 * With unique_prefix, the name is unique_prefix and six random characters
 * (as mkstemp, which cannot create relative to a directory), tried anew
 * while it exists. Returns the descriptor; -1 with a message in err
 * (exists_hint, in parentheses, follows "already exists"). */
int safefile_create(struct safefile *sf, const char *unique_prefix,
    const char *exists_hint, char *err, size_t errlen);

/* Whether sf->name is free in the held directory: 0 when nothing has that
 * name; -1 with a message in err when anything has, a symbolic link
 * included (never followed), with exists_hint in parentheses, or when it
 * cannot be told. */
int safefile_check_absent(const struct safefile *sf, const char *exists_hint, char *err,
    size_t errlen);

/* Where a file made later goes (watch's --textfile and --svg): exactly
 * path, its directory opened and held now, and nothing there with its
 * name yet (safefile_check_absent). 0, or -1 with a message in err and
 * nothing held: the directory's problem after "what: ", or the name's. */
int safefile_claim(struct safefile *sf, const char *path, const char *what,
    const char *exists_hint, char *err, size_t errlen);

/* Create a file as safefile_create does (unique_prefix and six random
 * characters), beside dest: in the directory dest holds, whose descriptor
 * tmp shares and never closes. */
int safefile_create_beside(struct safefile *tmp, const struct safefile *dest,
    const char *unique_prefix, char *err, size_t errlen);

/* Put tmp (created beside dest, written, synced and closed) in dest's
 * place: renamed over dest's name, but only while that name is free or
 * still the file dest last had there: never over anyone else's file, and
 * never through a symbolic link (a rename replaces the name itself). With
 * signals blocked throughout, tmp's registration for removal moves to the
 * new name and dest's old one is dropped, so that a signal at any point
 * removes whichever file is there. Then dest is tmp's file, and tmp has
 * nothing left to remove. 0, or -1 with a message in err, tmp left as it
 * was (still to be removed). */
int safefile_replace(struct safefile *dest, struct safefile *tmp, char *err, size_t errlen);

/* Make a fresh directory in the held directory, mode 0700, exclusively
 * (mkdirat never follows nor reuses a name that exists, a symbolic link
 * included): unique_prefix and six random characters, tried anew while the
 * name exists, or sf->name when unique_prefix is NULL. Then open it, never
 * through a symbolic link, and check it is the directory made: a name
 * removed and made again by someone else in between is a directory owned
 * by them, and refused. Returns its descriptor with sf->name, dev and ino
 * set, or -1 with a message in err (exists_hint as in safefile_create).
 * It is not registered for removal by a signal (a tree cannot be removed
 * from a handler): the caller removes it, with cleanup_remove_tree and
 * sf->dev and sf->ino, so only while the name is still that directory. */
int safefile_make_dir(struct safefile *sf, const char *unique_prefix,
    const char *exists_hint, char *err, size_t errlen);

/* A new file, name, in a directory already held (dirfd) whose removal,
 * with the directory, is its owner's (pgbench's cluster): created
 * exclusively, never through a symbolic link, with flags (O_WRONLY, say;
 * O_CLOEXEC and O_NOCTTY are added) and mode. The descriptor, or -1 with
 * errno. */
int safefile_create_in(int dirfd, const char *name, int flags, mode_t mode);

/* Open the file again for reading and writing with flags (O_RDWR,
 * O_NOFOLLOW, O_CLOEXEC and O_NOCTTY are added; O_DIRECT or its like when direct), an open interrupted by a
 * signal tried again. Returns the descriptor; -1 with errno and *what
 * naming the step that failed ("open", "open with O_DIRECT", "fstat"); or
 * SAFEFILE_REPLACED (nothing left open) when the name now leads to
 * another file or to none. */
int safefile_reopen(const struct safefile *sf, int flags, bool direct, const char **what);

/* Open an existing file to read it (the verifier): never through a
 * symbolic link, never blocking on a FIFO, only a regular file; its
 * identity is kept for safefile_remove. Returns the descriptor, or -1
 * with a message in err and *gone set when there is no such name. */
int safefile_open_existing(struct safefile *sf, bool *gone, char *err, size_t errlen);

/* Sync the file (fd) and its directory entry: fsync of both. 0, or -1
 * with a message in err. */
int safefile_sync(const struct safefile *sf, int fd, char *err, size_t errlen);

/* Whether errno from a direct open or write means "this filesystem does
 * not do direct I/O this way" rather than an I/O error. */
bool safefile_direct_refused(int err);

/* From now on a signal leaves the file where it is (the durability file,
 * once it holds what must survive). */
void safefile_keep(struct safefile *sf);

/* Remove the file, if its name still leads to it, and let go of the
 * directory. 0, or -1 with a message in err: gone, replaced (left as it
 * is), or the unlink failed. Nothing to remove (no file created or
 * opened) is 0. */
int safefile_remove(struct safefile *sf, char *err, size_t errlen);

/* Let go of the directory and keep the file. */
void safefile_close(struct safefile *sf);

#endif
