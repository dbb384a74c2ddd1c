/* durability_acks_on.c: are the acknowledgements kept on the disk under
 * test (durability_acks_on.h)? */
#include "config.h"

#include "durability/durability_acks_on.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "storage/storage.h"

/* Whether two storage probes reached a real device in common. */
static bool
share_a_device(const struct storage_info *a, const struct storage_info *b)
{
	size_t i, j;

	for (i = 0; i < storage_device_count(a); i++)
		for (j = 0; j < storage_device_count(b); j++)
			if (strcmp(storage_device_at(a, i)->name, storage_device_at(b, j)->name) == 0)
				return true;
	return false;
}

/* Whether the file open as out is on one of the disks under dir. Its path
 * from /proc/self/fd (Linux); where there is none, nothing is known. */
static bool
same_device(int out, const char *dir)
{
	char link[64], path[PATH_MAX];
	struct storage_info *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	bool same = false;
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", out);
	n = readlink(link, path, sizeof path - 1);
	if (a != NULL && b != NULL && n > 0) {
		path[n] = '\0';
		same = storage_probe(dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH, a) == 0 &&
		    storage_probe(path, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH, b) == 0 &&
		    share_a_device(a, b);
	}
	free(a);
	free(b);
	return same;
}

enum durable_acks_on
durability_acks_on(int out, int dirfd, const char *dir)
{
	struct stat st_out, st_dir;

	if (fstat(out, &st_out) == -1 || !S_ISREG(st_out.st_mode) ||
	    fstat(dirfd, &st_dir) == -1)
		return DURABLE_ACKS_ELSEWHERE;
	if (st_out.st_dev == st_dir.st_dev)
		return DURABLE_ACKS_SAME_FILESYSTEM;
	return same_device(out, dir) ? DURABLE_ACKS_SAME_DEVICE : DURABLE_ACKS_ELSEWHERE;
}

const char *
durability_acks_on_warning(enum durable_acks_on on)
{
	switch (on) {
	case DURABLE_ACKS_ELSEWHERE:
		break;
	case DURABLE_ACKS_SAME_FILESYSTEM:
		return "the acknowledgements are kept on the filesystem under test: a power "
		    "cut can take their tail with the records, and a loss then reads as "
		    "kept; send them to another machine (... | ssh otherhost 'cat > acks')";
	case DURABLE_ACKS_SAME_DEVICE:
		return "the acknowledgements are kept on the device under test (another "
		    "filesystem of the same disk): a power cut can take their tail with "
		    "the records, and a loss then reads as kept; send them to another "
		    "machine (... | ssh otherhost 'cat > acks')";
	}
	return NULL;
}
