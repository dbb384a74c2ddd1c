/* space.h: whether a file of a given size fits on a filesystem and still
 * leaves room for the database living there. syncprobe runs next to a
 * server, often as root; a test file that filled the filesystem would make
 * the server's own writes fail with ENOSPC. */
#ifndef SYNCPROBE_SPACE_H
#define SYNCPROBE_SPACE_H

#include <stddef.h>
#include <stdint.h>

/* The free space a test file must leave: 5% of the filesystem, so a test
 * never takes the last twentieth of a small one, but at most 64 MiB (four
 * 16 MiB WAL segments, room for a server to go on writing meanwhile), so
 * a large filesystem is not refused a test that takes a sliver of it. */
#define SPACE_MARGIN_PERCENT   5
#define SPACE_MARGIN_MAX_BYTES (64ULL * 1024 * 1024)

/* The margin for a filesystem of total_bytes. */
uint64_t space_margin(uint64_t total_bytes);

/* Whether a file of bytes, with avail_bytes available on a filesystem of
 * total_bytes, leaves at least the margin free: 0, or -1 with the reason
 * in err (no path, no "syncprobe:") ending with the caller's remedy, in
 * parentheses ("use a smaller --file-size": only the caller knows what
 * its user can change); a filesystem of no blocks at all (/proc) is not a
 * disk filesystem, and says so. */
int space_decide(uint64_t avail_bytes, uint64_t total_bytes, uint64_t bytes,
    const char *remedy, char *err, size_t errlen);

/* space_decide for the filesystem holding the directory dirfd (fstatvfs):
 * what is available counts as a user without privileges sees it
 * (f_bavail), what a database not run as root can still use, even when
 * syncprobe runs as root. 0, or -1 with the reason in err. */
int space_check(int dirfd, uint64_t bytes, const char *remedy, char *err, size_t errlen);

/* What is available to users without privileges (f_bavail) on the
 * filesystem holding dirfd, and its size, in bytes. 0, or -1 with errno. */
int space_available(int dirfd, uint64_t *avail_bytes, uint64_t *total_bytes);

/* "51.2MB": a size for a message, to one decimal, in powers of 1024. */
void space_format(uint64_t bytes, char *buf, size_t len);

#endif
