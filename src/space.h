/* space.h: whether a new file leaves its filesystem enough room. One rule
 * for every file syncprobe creates: after the file, at least
 * min(5% of the filesystem, 64MB) must stay available to unprivileged
 * users, so that a test never fills the disk a database lives on. */
#ifndef SYNCPROBE_SPACE_H
#define SYNCPROBE_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPACE_RESERVE_PERCENT    5u
#define SPACE_RESERVE_MAX_BYTES  (64ULL * 1024 * 1024)

/* The bytes to leave available on a filesystem of total_bytes. */
uint64_t space_reserve_bytes(uint64_t total_bytes);

/* Whether a file of bytes fits where avail_bytes are available to
 * unprivileged users, on a filesystem of total_bytes, leaving the
 * reserve. */
bool space_fits(uint64_t avail_bytes, uint64_t total_bytes, uint64_t bytes);

/* 0 when a file of bytes fits in the directory open as dirfd; -1 with
 * the reason in err (the caller names the directory) when it does not or
 * the filesystem cannot say. */
int space_check(int dirfd, uint64_t bytes, char *err, size_t errlen);

#endif
