/* testfile.h: the test file: created exclusively in the target, filled with
 * incompressible bytes, synced with its directory before any timing,
 * opened again as each row needs it, and removed on every way out.
 *
 * Every open, reopen and removal goes through a descriptor on the target
 * directory held for the whole run (openat, unlinkat, O_NOFOLLOW), and
 * every reopened descriptor is checked to be the file created (st_dev and
 * st_ino): someone who can write to the directory can swap the name for a
 * symbolic link or another file between two calls, and syncprobe, often
 * run as root, must write only to the file it created. */
#ifndef SYNCPROBE_TESTFILE_H
#define SYNCPROBE_TESTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/status.h"

/* testfile_open's result when the name no longer leads to the file
 * created (gone, or a symbolic link or another file in its place);
 * TESTFILE_REPLACED_WHY says so in a message. */
#define TESTFILE_REPLACED (-2)
#define TESTFILE_REPLACED_WHY \
	"the test file was replaced or removed by someone else (nothing was written to it)"

struct testfile {
	int dirfd;		/* the target directory, or -1 */
	char name[NAME_MAX + 1];	/* the file's name in it */
	char path[PATH_MAX];	/* dir/name, for messages only */
	char dir[PATH_MAX];	/* the directory as given, for messages */
	dev_t dev;		/* the file created */
	ino_t ino;
	uint64_t bytes;
};

/* Whether dir exists and is a directory; -1 with a message in err if not. */
int testfile_check_dir(const char *dir, char *err, size_t errlen);

/* Create the test file in dir (or exactly `exact`, which must not exist),
 * fill it with incompressible bytes, one write of `block` bytes at a time,
 * and sync it and its directory.
 * Returns STATUS_OK; else, with a one-line message in err and nothing left
 * (tf->dirfd is -1 again), STATUS_USAGE when the target cannot be used
 * (creating, filling or syncing the file failed; too little space), or
 * STATUS_IO when memory ran out. */
enum exit_status testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen);

/* Open the test file again with flags (and for direct I/O when direct),
 * never through a symbolic link. Returns the descriptor; -1 with errno and
 * *what naming the step that failed ("open", "open with O_DIRECT"); or
 * TESTFILE_REPLACED (nothing opened) when the name now leads elsewhere. */
int testfile_open(const struct testfile *tf, int flags, bool direct, const char **what);

/* Whether errno from a direct open or write means "this filesystem does
 * not do direct I/O this way" rather than an I/O error. */
bool testfile_direct_refused(int err);

/* Remove the test file, if its name still leads to it, and let go of the
 * directory; 0 or -1 with a message in err. */
int testfile_remove(struct testfile *tf, char *err, size_t errlen);

#endif
