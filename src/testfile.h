/* testfile.h: the test file: created exclusively in the target, filled with
 * incompressible bytes, synced with its directory before any timing,
 * opened again as each row needs it, and removed on every way out. */
#ifndef SYNCPROBE_TESTFILE_H
#define SYNCPROBE_TESTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct testfile {
	char path[PATH_MAX];
	char dir[PATH_MAX];
	uint64_t bytes;
};

/* Whether dir exists and is a directory; -1 with a message in err if not. */
int testfile_check_dir(const char *dir, char *err, size_t errlen);

/* Create the test file in dir (or exactly `exact`, which must not exist),
 * fill it with incompressible bytes, one write of `block` bytes at a time,
 * and sync it and its directory.
 * Returns 0, or -1 with a one-line message in err. */
int testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen);

/* Open the test file with flags (and for direct I/O when direct). Returns
 * the descriptor, or -1 with errno and *what naming the step that failed
 * ("open", "open with O_DIRECT"). */
int testfile_open(const struct testfile *tf, int flags, bool direct, const char **what);

/* Whether errno from a direct open or write means "this filesystem does
 * not do direct I/O this way" rather than an I/O error. */
bool testfile_direct_refused(int err);

/* Remove the test file; 0 or -1 with a message in err. */
int testfile_remove(struct testfile *tf, char *err, size_t errlen);

#endif
