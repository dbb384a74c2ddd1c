/* testfile.h: the probe's test file: created exclusively in the target
 * with a unique name, filled with incompressible bytes, synced with its
 * directory before any timing, opened again as each row needs it
 * (safefile_reopen on tf->file), and removed on every way out
 * (safefile_remove). What makes
 * it safe in a directory others can write to (the held directory, the
 * identity check on every reopen, removal only while the name is ours,
 * removal on signals) is util/safefile's. */
#ifndef SYNCPROBE_TESTFILE_H
#define SYNCPROBE_TESTFILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/safefile.h"
#include "util/status.h"

/* The row's or the experiment's message when safefile_reopen says
 * SAFEFILE_REPLACED. */
#define TESTFILE_REPLACED_WHY \
	"the test file was replaced or removed by someone else (nothing was written to it)"

struct testfile {
	struct safefile file;	/* where it is: file.path, file.dir */
	uint64_t bytes;
};

/* Create the test file in dir (or exactly `exact`, which must not exist),
 * fill it with incompressible bytes, one write of `block` bytes at a time,
 * and sync it and its directory.
 * Returns STATUS_OK; else, with a one-line message in err and nothing left
 * (tf->file.dirfd is -1 again), STATUS_USAGE when the target cannot be
 * used (creating the file failed; too little space), or STATUS_IO when
 * the device failed (a write or sync error) or memory ran out. */
enum exit_status testfile_create(struct testfile *tf, const char *dir, const char *exact,
    uint64_t bytes, size_t block, char *err, size_t errlen);

/* testfile_create for a log segment: the file is preallocated to bytes
 * (platform_preallocate) and never written, so that appends to it land in
 * allocated, unwritten space, as a database's writes to a fresh segment
 * do; synced with its directory. Same results as testfile_create. */
enum exit_status testfile_create_segment(struct testfile *tf, const char *dir,
    uint64_t bytes, char *err, size_t errlen);

/* Make the segment open on fd fresh again: emptied and preallocated anew,
 * as a database moving to its next segment writes into unwritten space.
 * 0, or -1 with errno and *what naming the step. */
int testfile_renew_segment(const struct testfile *tf, int fd, const char **what);

#endif
