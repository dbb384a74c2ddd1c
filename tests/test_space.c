/* test_space.c: the free-space rule (src/space.h): a new file must leave
 * min(5% of the filesystem, 64MB) available, checked at the edges. */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "space.h"
#include "tap.h"

#define MB (1024ULL * 1024)
#define GB (1024ULL * MB)

int
main(void)
{
	char err[512];
	int dirfd;

	ok(space_reserve_bytes(100 * MB) == 5 * MB, "100MB filesystem: keep 5MB (5%%)");
	ok(space_reserve_bytes(1280 * MB) == 64 * MB, "1.25GB: 5%% is 64MB exactly");
	ok(space_reserve_bytes(2 * 1024 * GB) == 64 * MB, "2TB: keep 64MB, not 5%%");
	ok(space_reserve_bytes(0) == 0, "an empty filesystem keeps nothing");

	ok(space_fits(100 * MB, 1000 * GB, 36 * MB), "36MB with 100MB free leaves 64MB: fits");
	ok(!space_fits(100 * MB, 1000 * GB, 36 * MB + 1), "one byte more: does not fit");
	ok(space_fits(21 * MB, 100 * MB, 16 * MB), "16MB of 21MB free on 100MB leaves 5MB: fits");
	ok(!space_fits(21 * MB - 1, 100 * MB, 16 * MB), "one byte less free: does not fit");
	ok(!space_fits(10 * MB, 100 * GB, 11 * MB), "larger than all that is free: does not fit");
	ok(!space_fits(0, 0, 1), "no space at all: does not fit");

	dirfd = open(".", O_RDONLY | O_DIRECTORY);
	ok(dirfd >= 0 && space_check(dirfd, 4096, err, sizeof err) == 0,
	    "a 4kB file fits in the build directory");
	ok(dirfd >= 0 && space_check(dirfd, UINT64_MAX / 2, err, sizeof err) == -1 &&
	    strstr(err, "no room") != NULL, "an 8EB file does not, and the reason says so");
	if (dirfd >= 0)
		close(dirfd);
	ok(space_check(-1, 4096, err, sizeof err) == -1 && strstr(err, "statvfs") != NULL,
	    "a bad descriptor: refused with the failing call named");
	return tap_done();
}
