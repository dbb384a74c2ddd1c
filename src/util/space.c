/* space.c: the free-space check made before the test file is created. It
 * is made once: a database filling the filesystem during the run is the
 * database's own doing, but syncprobe never starts a file that would. */
#include "config.h"

#include "util/space.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

/* a * b, or UINT64_MAX where that does not fit. */
static uint64_t
saturating_mul(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void
space_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f%s", v, units[u]);
}

uint64_t
space_margin(uint64_t total_bytes)
{
	uint64_t pct = total_bytes / 100 * SPACE_MARGIN_PERCENT +
	    total_bytes % 100 * SPACE_MARGIN_PERCENT / 100;

	return pct < SPACE_MARGIN_MAX_BYTES ? pct : SPACE_MARGIN_MAX_BYTES;
}

int
space_decide(uint64_t avail_bytes, uint64_t total_bytes, uint64_t bytes,
    const char *remedy, char *err, size_t errlen)
{
	uint64_t margin = space_margin(total_bytes);
	char file[32], avail[32], keep[32], max[32];

	if (avail_bytes >= bytes && avail_bytes - bytes >= margin)
		return 0;
	/* /proc, /sys and their kind have no blocks at all: no size to be
	 * short of. */
	if (total_bytes == 0) {
		snprintf(err, errlen, "not a disk filesystem: it has no blocks to hold a "
		    "test file (give a directory on the disk to test)");
		return -1;
	}
	space_format(bytes, file, sizeof file);
	space_format(avail_bytes, avail, sizeof avail);
	space_format(margin, keep, sizeof keep);
	space_format(SPACE_MARGIN_MAX_BYTES, max, sizeof max);
	snprintf(err, errlen, "not enough free space: a %s test file would leave less "
	    "than %s of the %s available, and syncprobe keeps %d%% of a filesystem "
	    "(at most %s) free (%s)", file, keep, avail, SPACE_MARGIN_PERCENT, max, remedy);
	return -1;
}

int
space_available(int dirfd, uint64_t *avail_bytes, uint64_t *total_bytes)
{
	struct statvfs sv;
	uint64_t unit;

	if (fstatvfs(dirfd, &sv) == -1)
		return -1;
	unit = sv.f_frsize ? (uint64_t)sv.f_frsize : (uint64_t)sv.f_bsize;
	*avail_bytes = saturating_mul((uint64_t)sv.f_bavail, unit);
	*total_bytes = saturating_mul((uint64_t)sv.f_blocks, unit);
	return 0;
}

int
space_check(int dirfd, uint64_t bytes, const char *remedy, char *err, size_t errlen)
{
	uint64_t avail, total;

	if (space_available(dirfd, &avail, &total) == -1) {
		snprintf(err, errlen, "statvfs: %s", strerror(errno));
		return -1;
	}
	return space_decide(avail, total, bytes, remedy, err, errlen);
}
