/* space.c: the free-space rule of space.h, from fstatvfs on a directory
 * descriptor (the directory the file goes in, never a path that could be
 * swapped). f_bavail, not f_bfree: the blocks reserved for root are the
 * system's, and syncprobe often runs as root. */
#include "config.h"

#include "space.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#define BYTES_PER_MB (1024.0 * 1024.0)

uint64_t
space_reserve_bytes(uint64_t total_bytes)
{
	/* total * 5 / 100 without overflowing for the largest filesystems */
	uint64_t share = total_bytes / 100 * SPACE_RESERVE_PERCENT +
	    total_bytes % 100 * SPACE_RESERVE_PERCENT / 100;

	return share < SPACE_RESERVE_MAX_BYTES ? share : SPACE_RESERVE_MAX_BYTES;
}

bool
space_fits(uint64_t avail_bytes, uint64_t total_bytes, uint64_t bytes)
{
	return bytes <= avail_bytes &&
	    avail_bytes - bytes >= space_reserve_bytes(total_bytes);
}

int
space_check(int dirfd, uint64_t bytes, char *err, size_t errlen)
{
	struct statvfs sv;
	uint64_t avail, total, unit;

	if (fstatvfs(dirfd, &sv) == -1) {
		snprintf(err, errlen, "statvfs: %s (cannot tell whether the file fits)",
		    strerror(errno));
		return -1;
	}
	unit = sv.f_frsize ? (uint64_t)sv.f_frsize : (uint64_t)sv.f_bsize;
	avail = (uint64_t)sv.f_bavail * unit;
	total = (uint64_t)sv.f_blocks * unit;
	if (space_fits(avail, total, bytes))
		return 0;
	snprintf(err, errlen, "no room for a %.1fMB file: %.1fMB available, and "
	    "%.1fMB must stay free (5%% of the filesystem, at most 64MB; free some "
	    "space or use a smaller --file-size)", (double)bytes / BYTES_PER_MB,
	    (double)avail / BYTES_PER_MB, (double)space_reserve_bytes(total) / BYTES_PER_MB);
	return -1;
}
