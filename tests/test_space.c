/* test_space.c: the free-space margin a test file must leave (space.h),
 * exactly: the margin's two regimes, the boundary, and sizes that would
 * overflow a careless subtraction. */
#include "config.h"

#include <string.h>

#include "util/space.h"
#include "tap.h"

#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)

static int
decide(uint64_t avail, uint64_t total, uint64_t bytes)
{
	char err[256];

	return space_decide(avail, total, bytes, "use less", err, sizeof err);
}

int
main(void)
{
	char err[256];

	ok(space_margin(1 * GiB) == 1 * GiB / 20, "1GiB filesystem: the margin is 5%% (51.2MiB)");
	ok(space_margin(100 * MiB) == 5 * MiB, "100MiB filesystem: 5MiB");
	ok(space_margin(10 * GiB) == 64 * MiB, "10GiB filesystem: 64MiB, not 5%%");
	ok(space_margin(1280 * MiB) == 64 * MiB, "1.25GiB: 5%% is exactly 64MiB");
	ok(space_margin(0) == 0, "a filesystem reporting no size: no margin");
	ok(space_margin(UINT64_MAX) == 64 * MiB, "the largest size: 64MiB, no overflow");
	ok(space_margin(99) == 4, "99 bytes: 5%% rounded down");

	ok(decide(100 * MiB, 10 * GiB, 16 * MiB) == 0, "16MiB of 100MiB available on 10GiB: accepted");
	ok(decide(80 * MiB, 10 * GiB, 16 * MiB) == 0, "leaves exactly the 64MiB margin: accepted");
	ok(decide(80 * MiB - 1, 10 * GiB, 16 * MiB) == -1, "one byte short of the margin: refused");
	ok(decide(1 * MiB, 1 * MiB, 4 * MiB) == -1, "larger than what is available: refused");
	ok(decide(1 * MiB, 1 * MiB, 1000 * 1024) == -1,
	    "1000kB of a 1MiB filesystem fits, but leaves less than 5%%: refused");
	ok(decide(1 * MiB, 1 * MiB, 64 * 1024) == 0, "64kB of 1MiB: accepted");
	ok(decide(0, 0, 1) == -1, "nothing available: refused");
	ok(decide(UINT64_MAX, UINT64_MAX, UINT64_MAX) == -1,
	    "the largest file on the largest filesystem: refused, no wrap-around");
	ok(decide(UINT64_MAX, UINT64_MAX, 64 * GiB) == 0, "64GiB with everything free: accepted");

	ok(space_decide(1 * MiB, 1 * MiB, 4 * MiB, "use less", err, sizeof err) == -1 &&
	    strcmp(err, "not enough free space: a 4.0MB test file would leave less than "
	    "51.2kB of the 1.0MB available, and syncprobe keeps 5% of a filesystem "
	    "(at most 64.0MB) free (use less)") == 0,
	    "the message gives the sizes, and ends with the caller's remedy");
	printf("# %s\n", err);
	ok(space_decide(0, 0, 4 * MiB, "use less", err, sizeof err) == -1 &&
	    strncmp(err, "not a disk filesystem: ", 23) == 0,
	    "a filesystem of no blocks (/proc) is not a disk filesystem: %s", err);
	return tap_done();
}
