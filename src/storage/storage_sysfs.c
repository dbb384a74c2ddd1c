/* storage_sysfs.c: block devices as Linux's /sys shows them: a device by
 * its number or its name, a partition's disk, the slaves of device-mapper
 * and md, a loop device's backing file, the devices of a btrfs, and a
 * disk's cache and queue attributes. Only the C library and POSIX calls:
 * it works the same on a real sysfs and on a tree made by the tests. */
#include "config.h"

#include "storage/storage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ATTR_LEN  256	/* longer than any sysfs attribute we read */
#define MAX_NAMES 256	/* entries of one slaves or devices directory */

static int read_attr(const char *dir, const char *name, char *buf, size_t len);
static int read_bool_attr(const char *dir, const char *name);
static long read_size_attr(const char *dir, const char *name);
static bool dir_has(const char *dir, const char *name);
static int compare_names(const void *a, const void *b);
static int dm_named(const char *sysfs_root, const char *name, char *dir);


/* Read the sysfs attribute dir/name into buf, whitespace trimmed at both
 * ends; 0, or -1 when it is missing, unreadable or empty. */
static int
read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	size_t got = 0, start = 0;
	ssize_t r;
	int fd;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return -1;
	while (got + 1 < len && (r = read(fd, buf + got, len - 1 - got)) != 0) {
		if (r == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		got += (size_t)r;
	}
	if (close(fd) == -1)
		return -1;
	buf[got] = '\0';
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == ' ' ||
	    buf[got - 1] == '\t'))
		buf[--got] = '\0';
	while (buf[start] == ' ' || buf[start] == '\t')
		start++;
	memmove(buf, buf + start, got - start + 1);
	return buf[0] != '\0' ? 0 : -1;
}

/* A 0/1 attribute: 1, 0, or -1 when missing or anything else. */
static int
read_bool_attr(const char *dir, const char *name)
{
	char buf[ATTR_LEN];

	if (read_attr(dir, name, buf, sizeof buf) == -1)
		return -1;
	if (strcmp(buf, "0") == 0)
		return 0;
	if (strcmp(buf, "1") == 0)
		return 1;
	return -1;
}

/* A positive size in bytes, or -1. */
static long
read_size_attr(const char *dir, const char *name)
{
	char buf[ATTR_LEN], *end;
	long v;

	if (read_attr(dir, name, buf, sizeof buf) == -1)
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\0' || v <= 0)
		return -1;
	return v;
}

static bool
dir_has(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
		return false;
	return stat(path, &st) == 0;
}

/* A device of which nothing is known yet: every fact unknown. */
void
storage_device_init(struct storage_device *dev)
{
	memset(dev, 0, sizeof *dev);
	dev->rotational = -1;
	dev->fua = -1;
	dev->logical_block_bytes = -1;
	dev->physical_block_bytes = -1;
}

const char *
storage_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int
storage_sysfs_follow(const char *dir, const char *sub, const char *name, char *out)
{
	char path[PATH_MAX];
	int len;

	len = snprintf(path, sizeof path, "%s%s%s%s%s", dir, sub ? "/" : "", sub ? sub : "",
	    name ? "/" : "", name ? name : "");
	if (len < 0 || (size_t)len >= sizeof path)
		return -1;
	return realpath(path, out) != NULL ? 0 : -1;
}

int
storage_sysfs_dev_dir(const char *sysfs_root, unsigned long maj,
    unsigned long min, char *dir)
{
	char numbers[64];

	snprintf(numbers, sizeof numbers, "%lu:%lu", maj, min);
	return storage_sysfs_follow(sysfs_root, "dev/block", numbers, dir);
}

int
storage_sysfs_whole_disk(char *dir)
{
	char disk[PATH_MAX];

	/* A partition's directory sits inside its disk's: the cache and
	 * queue that matter are the disk's. */
	if (!dir_has(dir, "partition"))
		return 0;
	if (storage_sysfs_follow(dir, "..", NULL, disk) == -1)
		return -1;
	memcpy(dir, disk, strlen(disk) + 1);
	return 0;
}

/* The device-mapper device whose dm/name is name, found among
 * sysfs_root/block's devices: 0, or -1. */
static int
dm_named(const char *sysfs_root, const char *name, char *dir)
{
	char **names, path[PATH_MAX], dm_name[ATTR_LEN];
	size_t i, n;
	int rc = -1;

	n = storage_sysfs_names(sysfs_root, "block", &names);
	for (i = 0; i < n && rc == -1; i++) {
		if ((size_t)snprintf(path, sizeof path, "%s/block/%s", sysfs_root,
		    names[i]) >= sizeof path)
			continue;
		if (read_attr(path, "dm/name", dm_name, sizeof dm_name) == 0 &&
		    strcmp(dm_name, name) == 0)
			rc = storage_sysfs_follow(path, NULL, NULL, dir);
	}
	storage_sysfs_free_names(names, n);
	return rc;
}

int
storage_sysfs_source_dir(const char *sysfs_root, const char *source, char *dir)
{
	const char *name = storage_base_name(source);

	if (name[0] == '\0' || name[0] == '.')
		return -1;
	if (storage_sysfs_follow(sysfs_root, "class/block", name, dir) == 0)
		return 0;
	return dm_named(sysfs_root, name, dir);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t
storage_sysfs_names(const char *dir, const char *sub, char ***names)
{
	char path[PATH_MAX];
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	*names = NULL;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, sub) >= sizeof path)
		return 0;
	d = opendir(path);
	if (d == NULL)
		return 0;
	*names = calloc(MAX_NAMES, sizeof **names);
	while (*names != NULL && n < MAX_NAMES && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		(*names)[n] = strdup(e->d_name);
		if ((*names)[n] != NULL)
			n++;
	}
	/* A directory opened for reading only: nothing to lose on close. */
	(void)closedir(d);
	if (n == 0) {
		free(*names);
		*names = NULL;
		return 0;
	}
	/* readdir's order is the filesystem's own: sorted, every run agrees. */
	qsort(*names, n, sizeof **names, compare_names);
	return n;
}

void
storage_sysfs_free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
storage_sysfs_loop_backing(const char *dir, char *path, size_t len)
{
	return read_attr(dir, "loop/backing_file", path, len);
}

int
storage_sysfs_btrfs_dir(const char *sysfs_root, const char *name, char *dir)
{
	char **uuids, devices[PATH_MAX];
	size_t i, n;
	int rc = -1;

	n = storage_sysfs_names(sysfs_root, "fs/btrfs", &uuids);
	for (i = 0; i < n && rc == -1; i++) {
		if ((size_t)snprintf(devices, sizeof devices, "%s/fs/btrfs/%s/devices",
		    sysfs_root, uuids[i]) >= sizeof devices)
			continue;
		if (dir_has(devices, name))
			rc = storage_sysfs_follow(sysfs_root, "fs/btrfs", uuids[i], dir);
	}
	storage_sysfs_free_names(uuids, n);
	return rc;
}

int
storage_sysfs_attributes(const char *dir, struct storage_device *dev)
{
	const char *name = storage_base_name(dir);
	size_t len = strlen(name);

	storage_device_init(dev);
	/* A cut name would be some other device's. */
	if (len == 0 || len >= sizeof dev->name)
		return -1;
	memcpy(dev->name, name, len + 1);
	dev->have_model = read_attr(dir, "device/model", dev->model, sizeof dev->model) == 0;
	if (!dev->have_model)
		dev->model[0] = '\0';
	dev->rotational = read_bool_attr(dir, "queue/rotational");
	dev->have_write_cache = read_attr(dir, "queue/write_cache",
	    dev->write_cache, sizeof dev->write_cache) == 0;
	if (!dev->have_write_cache)
		dev->write_cache[0] = '\0';
	dev->fua = read_bool_attr(dir, "queue/fua");
	dev->logical_block_bytes = read_size_attr(dir, "queue/logical_block_size");
	dev->physical_block_bytes = read_size_attr(dir, "queue/physical_block_size");
	return 0;
}
