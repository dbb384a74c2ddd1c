/* storage.c: the filesystem, mount options and block device under a
 * target, read from statfs (through platform.c), /proc/self/mountinfo and
 * /sys. Only the C library and POSIX calls: it works the same on a real
 * sysfs and on a plain directory tree made by the tests. */
#include "config.h"

#include "storage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"

#define ATTR_LEN        256	/* longer than any sysfs attribute we read */
#define MOUNTINFO_MIN_FIELDS 10	/* six before the optional ones, "-", three after */
#define MOUNTINFO_MAX_FIELDS 64	/* the kernel writes a handful of optional ones */

static void add_option(char *opts, size_t len, const char *opt);
static void merge_options(char *opts, size_t len, const char *mount_opts,
    const char *super_opts);
static size_t split_fields(char *line, char **fields, size_t max);
static int read_attr(const char *dir, const char *name, char *buf, size_t len);
static int read_bool_attr(const char *dir, const char *name);
static long read_size_attr(const char *dir, const char *name);
static bool dir_has(const char *dir, const char *name);
static unsigned first_slave(const char *dir, char *name, size_t len);
static const char *base_name(const char *path);
static int device_attributes(const char *dir, struct storage_device *dev);
static void add_layer(struct storage_device *dev, const char *text);

void
storage_device_init(struct storage_device *dev)
{
	memset(dev, 0, sizeof *dev);
	dev->rotational = -1;
	dev->fua = -1;
	dev->logical_block_bytes = -1;
	dev->physical_block_bytes = -1;
}

void
storage_info_init(struct storage_info *out)
{
	memset(out, 0, sizeof *out);
	storage_device_init(&out->device);
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

void
storage_unescape(char *s)
{
	char *w = s;

	while (*s != '\0') {
		if (s[0] == '\\' && octal_digit(s[1]) >= 0 && octal_digit(s[2]) >= 0 &&
		    octal_digit(s[3]) >= 0) {
			int v = octal_digit(s[1]) * 64 + octal_digit(s[2]) * 8 + octal_digit(s[3]);

			/* \000 would cut the name short: keep it as written. */
			if (v != 0 && v <= 255) {
				*w++ = (char)v;
				s += 4;
				continue;
			}
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* Split at single spaces, keeping empty fields (an empty mount source
 * shows as two spaces); the count of fields, at most max. */
static size_t
split_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *p = line;

	line[strcspn(line, "\n")] = '\0';
	while (n < max) {
		fields[n++] = p;
		p = strchr(p, ' ');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

bool
storage_has_option(const char *opts, const char *opt)
{
	size_t olen = strlen(opt);
	const char *p = opts;

	while (*p != '\0') {
		size_t tlen = strcspn(p, ",");

		if (tlen == olen && strncmp(p, opt, olen) == 0)
			return true;
		p += tlen;
		if (*p == ',')
			p++;
	}
	return false;
}

/* Append opt unless it is already there or would not fit whole: a cut
 * option ("nobarr") would say something untrue. */
static void
add_option(char *opts, size_t len, const char *opt)
{
	size_t used = strlen(opts), olen = strlen(opt);

	if (olen == 0 || storage_has_option(opts, opt))
		return;
	if (used + (used ? 1 : 0) + olen + 1 > len)
		return;
	if (used)
		opts[used++] = ',';
	memcpy(opts + used, opt, olen + 1);
}

/* The mount's options, then those of the superblock not already given
 * ("rw" is in both). */
static void
merge_options(char *opts, size_t len, const char *mount_opts, const char *super_opts)
{
	const char *lists[2] = { mount_opts, super_opts };
	char opt[ATTR_LEN];
	size_t i;

	opts[0] = '\0';
	for (i = 0; i < 2; i++) {
		const char *p = lists[i];

		while (*p != '\0') {
			size_t tlen = strcspn(p, ",");

			if (tlen < sizeof opt) {
				memcpy(opt, p, tlen);
				opt[tlen] = '\0';
				add_option(opts, len, opt);
			}
			p += tlen;
			if (*p == ',')
				p++;
		}
	}
}

int
storage_mountinfo_parse_line(const char *line, struct storage_mount *m)
{
	/* 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
	 * mount ID, parent ID, major:minor, root, mount point, mount options,
	 * optional fields up to "-", fstype, source, superblock options. */
	char *copy, *fields[MOUNTINFO_MAX_FIELDS], *end;
	size_t n, sep;
	int rc = -1;

	memset(m, 0, sizeof *m);
	copy = strdup(line);
	if (copy == NULL)
		return -1;
	n = split_fields(copy, fields, sizeof fields / sizeof fields[0]);
	if (n < MOUNTINFO_MIN_FIELDS)
		goto out;
	/* The optional fields end at a lone "-". */
	for (sep = 6; sep < n && strcmp(fields[sep], "-") != 0; sep++)
		;
	if (sep + 3 >= n)
		goto out;
	/* strtoul would take "-1" and a leading space: digits only. */
	if (!is_digit(fields[2][0]))
		goto out;
	errno = 0;
	m->major = strtoul(fields[2], &end, 10);
	if (errno != 0 || *end != ':' || !is_digit(end[1]))
		goto out;
	m->minor = strtoul(end + 1, &end, 10);
	if (errno != 0 || *end != '\0')
		goto out;
	storage_unescape(fields[4]);
	storage_unescape(fields[sep + 1]);
	if (fields[4][0] != '/' || strlen(fields[4]) >= sizeof m->mount_point ||
	    fields[sep + 1][0] == '\0' || strlen(fields[sep + 1]) >= sizeof m->fstype)
		goto out;
	memcpy(m->mount_point, fields[4], strlen(fields[4]) + 1);
	memcpy(m->fstype, fields[sep + 1], strlen(fields[sep + 1]) + 1);
	merge_options(m->options, sizeof m->options, fields[5], fields[sep + 3]);
	rc = 0;
out:
	free(copy);
	return rc;
}

bool
storage_path_under(const char *path, const char *mp)
{
	size_t len = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return path[0] == '/';
	return strncmp(path, mp, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

int
storage_mountinfo_find(const char *mountinfo_path, const char *path,
    unsigned long maj, unsigned long min, struct storage_mount *out)
{
	struct storage_mount *m, *best_dev, *best_any;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int rc = -1;

	f = fopen(mountinfo_path, "r");
	if (f == NULL)
		return -1;
	/* Three mounts of PATH_MAX each: on the heap, not the stack. */
	m = calloc(3, sizeof *m);
	if (m == NULL) {
		(void)fclose(f);	/* already failing: the allocation is the error */
		return -1;
	}
	best_dev = &m[1];
	best_any = &m[2];
	best_dev->mount_point[0] = best_any->mount_point[0] = '\0';
	while (getline(&line, &cap, f) != -1) {
		size_t len;

		if (storage_mountinfo_parse_line(line, &m[0]) == -1 ||
		    !storage_path_under(path, m[0].mount_point))
			continue;
		len = strlen(m[0].mount_point);
		/* ">=": of mounts stacked on one point, the last listed is the
		 * one on top, the one a path lookup reaches. */
		if (len >= strlen(best_any->mount_point))
			*best_any = m[0];
		if (m[0].major == maj && m[0].minor == min &&
		    len >= strlen(best_dev->mount_point)) {
			*best_dev = m[0];
			best_dev->dev_matched = true;
		}
	}
	if (ferror(f) == 0) {
		if (best_dev->dev_matched) {
			*out = *best_dev;
			rc = 0;
		} else if (best_any->mount_point[0] != '\0') {
			*out = *best_any;
			out->dev_matched = false;
			rc = 0;
		}
	}
	free(line);
	free(m);
	if (fclose(f) == EOF)
		rc = -1;
	return rc;
}

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

/* The first entry of dir/slaves in byte order, and how many there are
 * (0 when there is no slaves directory). Sorted so the same machine gives
 * the same answer every run; readdir's order is the filesystem's own. */
static unsigned
first_slave(const char *dir, char *name, size_t len)
{
	char path[PATH_MAX];
	struct dirent *e;
	unsigned count = 0;
	DIR *d;

	if ((size_t)snprintf(path, sizeof path, "%s/slaves", dir) >= sizeof path)
		return 0;
	d = opendir(path);
	if (d == NULL)
		return 0;
	name[0] = '\0';
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= len)
			continue;
		if (count == 0 || strcmp(e->d_name, name) < 0)
			snprintf(name, len, "%s", e->d_name);
		count++;
	}
	/* A directory opened for reading only: nothing to lose on close. */
	(void)closedir(d);
	return count;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Read the disk's attributes; -1 when its name does not fit (a cut name
 * would be some other device's). */
static int
device_attributes(const char *dir, struct storage_device *dev)
{
	const char *name = base_name(dir);
	size_t len = strlen(name);

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

/* Append text to the layers string, cut where it is full. */
static void
add_layer(struct storage_device *dev, const char *text)
{
	size_t used = strlen(dev->layers);

	snprintf(dev->layers + used, sizeof dev->layers - used, "%s", text);
}

int
storage_sysfs_device(const char *sysfs_root, unsigned long maj,
    unsigned long min, struct storage_device *dev)
{
	char link[PATH_MAX], dir[PATH_MAX], next[PATH_MAX], slave[256], note[32];
	unsigned depth, nslaves = 0;

	storage_device_init(dev);
	if ((size_t)snprintf(link, sizeof link, "%s/dev/block/%lu:%lu", sysfs_root,
	    maj, min) >= sizeof link || realpath(link, dir) == NULL)
		return -1;
	for (depth = 0; depth < STORAGE_MAX_LAYERS; depth++) {
		/* A partition's directory sits inside its disk's: the cache and
		 * queue that matter are the disk's. */
		if (dir_has(dir, "partition")) {
			if ((size_t)snprintf(next, sizeof next, "%s/..", dir) >= sizeof next ||
			    realpath(next, dir) == NULL)
				return -1;
		}
		if (dev->layers[0] != '\0') {
			add_layer(dev, base_name(dir));
			if (nslaves > 1) {
				snprintf(note, sizeof note, " (first of %u)", nslaves);
				add_layer(dev, note);
			}
		}
		nslaves = first_slave(dir, slave, sizeof slave);
		if (nslaves == 0)
			return device_attributes(dir, dev);
		/* device-mapper or md: the flushes land on the slaves. */
		if (dev->layers[0] == '\0')
			add_layer(dev, base_name(dir));
		add_layer(dev, " -> ");
		if ((size_t)snprintf(next, sizeof next, "%s/slaves/%s", dir, slave) >= sizeof next ||
		    realpath(next, dir) == NULL)
			return -1;
	}
	return -1;
}

int
storage_probe(const char *dir, const char *sysfs_root,
    const char *mountinfo_path, struct storage_info *out)
{
	char real[PATH_MAX], fs[sizeof out->filesystem];
	struct storage_mount *m;
	unsigned long maj, min;
	struct stat st;
	bool have_mount = false;

	storage_info_init(out);
	if (realpath(dir, real) == NULL || stat(real, &st) == -1)
		return -1;
	platform_dev_numbers(st.st_dev, &maj, &min);

	m = malloc(sizeof *m);
	if (m != NULL && mountinfo_path != NULL &&
	    storage_mountinfo_find(mountinfo_path, real, maj, min, m) == 0) {
		have_mount = true;
		snprintf(out->mount_options, sizeof out->mount_options, "%s", m->options);
		out->have_mount_options = out->mount_options[0] != '\0';
	}
	/* The mount's own type name is exact ("ext4", "fuse.sshfs") where the
	 * statfs magic is not ("ext2/ext3/ext4", "fuse"); but only for a mount
	 * of the target's own device. */
	if (have_mount && m->dev_matched) {
		snprintf(out->filesystem, sizeof out->filesystem, "%s", m->fstype);
		out->have_filesystem = true;
	} else if (platform_fs_type(real, fs, sizeof fs) == 0) {
		snprintf(out->filesystem, sizeof out->filesystem, "%s", fs);
		out->have_filesystem = true;
	}
	free(m);

	/* Major 0 is the kernel's "no device" (tmpfs, nfs, overlay, btrfs
	 * subvolumes): there is no disk to describe. */
	if (maj != 0 && sysfs_root != NULL)
		out->have_device = storage_sysfs_device(sysfs_root, maj, min,
		    &out->device) == 0;
	if (!out->have_device)
		storage_device_init(&out->device);
	return 0;
}
