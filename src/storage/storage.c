/* storage.c: where a target lives, as a tree of layers from its filesystem
 * down to the real devices the writes reach: an overlay's upper directory,
 * a btrfs's devices, a loop device's backing file, device-mapper and md
 * slaves. Paths are located and files read only through storage_sources,
 * so the tests can feed made-up trees; what cannot be followed is a gap
 * that says why, never a guess. */
#include "config.h"

#include "storage/storage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/platform.h"
#include "util/strbuf.h"

/* How the kernel marks a loop device's backing file that was deleted. */
#define DELETED_SUFFIX " (deleted)"

/* One probe: where to read, and what has been found so far. */
struct probe {
	const struct storage_sources *src;
	struct storage_info *out;
};

static int add_layer(struct probe *p, enum storage_layer_kind kind, int parent,
    const char *name, const char *path, enum storage_gap gap);
static void add_gap(struct probe *p, int parent, enum storage_gap gap, const char *path);
static int follow_location(struct probe *p, int parent, const struct storage_location *loc);
static void follow_path(struct probe *p, int parent, const char *path);
static void follow_filesystem(struct probe *p, int fs, const struct storage_mount *m,
    const struct storage_location *loc);
static void follow_overlay(struct probe *p, int fs, const struct storage_mount *m);
static void follow_upper(struct probe *p, int fs, const struct storage_mount *m);
static int locate_under(struct probe *p, int parent, const char *path,
    struct storage_location *loc);
static void follow_btrfs(struct probe *p, int fs, const struct storage_mount *m);
static void follow_each(struct probe *p, int parent, const char *dir, const char *sub,
    char **names, size_t n);
static void follow_device(struct probe *p, int parent, const char *path);
static bool follow_loop(struct probe *p, int parent, const char *dir);
static void add_device(struct probe *p, int parent, const char *dir);

/* Why a step could not be followed, in words. */
static const char *const gap_reasons[] = {
	[STORAGE_GAP_NONE] = "",
	[STORAGE_GAP_NOT_VISIBLE] = "not visible from this mount namespace",
	[STORAGE_GAP_UNREADABLE] = "cannot be examined",
	[STORAGE_GAP_DELETED] = "deleted",
	[STORAGE_GAP_RELATIVE] = "a relative path, which cannot be followed",
	[STORAGE_GAP_NO_UPPER] = "no upper directory: a read-only overlay",
	[STORAGE_GAP_NO_MOUNT] = "its mount is not in mountinfo",
	[STORAGE_GAP_NOT_IN_SYSFS] = "not found in /sys",
	[STORAGE_GAP_TOO_MANY] = "more layers or devices than syncprobe follows",
};

void
storage_info_init(struct storage_info *out)
{
	size_t i;

	memset(out, 0, sizeof *out);
	storage_device_init(&out->device);
	for (i = 0; i < STORAGE_MAX_DEVICES - 1; i++)
		storage_device_init(&out->more_devices[i]);
}

size_t
storage_device_count(const struct storage_info *st)
{
	return st->have_device ? 1 + st->nmore_devices : 0;
}

const struct storage_device *
storage_device_at(const struct storage_info *st, size_t i)
{
	return i == 0 ? &st->device : &st->more_devices[i - 1];
}

/* Copy src into dst whole, or leave dst "" when it does not fit: a cut
 * path or name would be some other one. */
static void
copy_whole(char *dst, size_t len, const char *src)
{
	size_t slen = src != NULL ? strlen(src) : 0;

	dst[0] = '\0';
	if (slen > 0 && slen < len)
		memcpy(dst, src, slen + 1);
}

/* Add a layer under parent: its index, or -1 when it is a gap or there is
 * no room (the caller then stops following this branch). The last place
 * is kept for the gap that says the tree goes on. */
static int
add_layer(struct probe *p, enum storage_layer_kind kind, int parent,
    const char *name, const char *path, enum storage_gap gap)
{
	struct storage_info *out = p->out;
	struct storage_layer *l;

	if (out->nlayers >= STORAGE_MAX_LAYERS)
		return -1;
	if (out->nlayers == STORAGE_MAX_LAYERS - 1 && gap != STORAGE_GAP_TOO_MANY) {
		kind = STORAGE_LAYER_GAP;
		gap = STORAGE_GAP_TOO_MANY;
		name = path = NULL;
	}
	l = &out->layers[out->nlayers];
	l->kind = kind;
	l->parent = parent;
	copy_whole(l->name, sizeof l->name, name);
	copy_whole(l->path, sizeof l->path, path);
	l->gap = gap;
	l->device = -1;
	out->nlayers++;
	return kind == STORAGE_LAYER_GAP ? -1 : (int)out->nlayers - 1;
}

static void
add_gap(struct probe *p, int parent, enum storage_gap gap, const char *path)
{
	(void)add_layer(p, STORAGE_LAYER_GAP, parent, NULL, path, gap);
}

int
storage_locate(const char *path, struct storage_location *loc, const void *arg)
{
	struct stat st;

	(void)arg;
	if (realpath(path, loc->real) == NULL || stat(loc->real, &st) == -1)
		return -1;
	platform_dev_numbers(st.st_dev, &loc->major, &loc->minor);
	loc->have_fstype = platform_fs_type(loc->real, loc->fstype, sizeof loc->fstype) == 0;
	if (!loc->have_fstype)
		loc->fstype[0] = '\0';
	return 0;
}

/* The filesystem holding loc, as a layer under parent (-1: the target's
 * own, whose options the report shows), and on down to its devices. Its
 * index, or -1. */
static int
follow_location(struct probe *p, int parent, const struct storage_location *loc)
{
	struct storage_info *out = p->out;
	const char *type = loc->have_fstype ? loc->fstype : NULL;
	struct storage_mount *m;
	bool have_mount;
	int fs;

	/* PATH_MAX three times over: on the heap, not the stack. */
	m = malloc(sizeof *m);
	have_mount = m != NULL && p->src->mountinfo_path != NULL &&
	    storage_mountinfo_find(p->src->mountinfo_path, loc->real, loc->major,
	    loc->minor, m) == 0;
	/* The mount's own type name is exact ("ext4", "fuse.sshfs") where the
	 * statfs magic is not ("ext2/ext3/ext4", "fuse"); but only for a mount
	 * of the path's own device. */
	if (have_mount && m->dev_matched)
		type = m->fstype;
	if (parent == -1 && have_mount) {
		snprintf(out->mount_options, sizeof out->mount_options, "%s", m->options);
		out->have_mount_options = out->mount_options[0] != '\0';
	}
	fs = add_layer(p, STORAGE_LAYER_FILESYSTEM, parent, type,
	    have_mount ? m->mount_point : NULL, STORAGE_GAP_NONE);
	if (fs >= 0)
		follow_filesystem(p, fs, have_mount ? m : NULL, loc);
	free(m);
	return fs;
}

/* Locate path, a path that holds layer parent's data (an upper directory,
 * a backing file): 0, or -1 after adding the gap that says why not. */
static int
locate_under(struct probe *p, int parent, const char *path, struct storage_location *loc)
{
	if (p->src->locate(path, loc, p->src->locate_arg) == 0)
		return 0;
	/* No such path: it names a directory of another mount namespace (a
	 * container's overlay shows the host's paths). */
	add_gap(p, parent, errno == ENOENT || errno == ENOTDIR ?
	    STORAGE_GAP_NOT_VISIBLE : STORAGE_GAP_UNREADABLE, path);
	return -1;
}

/* The filesystem holding path, under parent, and on down. */
static void
follow_path(struct probe *p, int parent, const char *path)
{
	struct storage_location *loc;

	loc = malloc(sizeof *loc);
	if (loc == NULL)
		add_gap(p, parent, STORAGE_GAP_UNREADABLE, path);
	else if (locate_under(p, parent, path, loc) == 0)
		(void)follow_location(p, parent, loc);
	free(loc);
}

/* Below filesystem layer fs; m is the mount found for it, or NULL. */
static void
follow_filesystem(struct probe *p, int fs, const struct storage_mount *m,
    const struct storage_location *loc)
{
	const char *type = p->out->layers[fs].name, *root = p->src->sysfs_root;
	char dir[PATH_MAX], numbers[64];

	/* The longest mount holding the path may be another filesystem's
	 * when the device numbers did not match: use it only if it agrees. */
	if (m != NULL && strcmp(m->fstype, type) != 0)
		m = NULL;
	/* Both have anonymous device numbers (major 0): the mount says where
	 * their data goes. */
	if (strcmp(type, "overlay") == 0) {
		follow_overlay(p, fs, m);
		return;
	}
	if (strcmp(type, "btrfs") == 0) {
		follow_btrfs(p, fs, m);
		return;
	}
	/* Major 0 is the kernel's "no device": tmpfs, nfs, fuse. */
	if (loc->major == 0)
		return;
	if (root == NULL || storage_sysfs_dev_dir(root, loc->major, loc->minor, dir) == -1) {
		snprintf(numbers, sizeof numbers, "%lu:%lu", loc->major, loc->minor);
		add_gap(p, fs, STORAGE_GAP_NOT_IN_SYSFS, numbers);
		return;
	}
	follow_device(p, fs, dir);
}

/* An overlay's writes land in its upper directory, on whatever holds it. */
static void
follow_overlay(struct probe *p, int fs, const struct storage_mount *m)
{
	if (m == NULL)
		add_gap(p, fs, STORAGE_GAP_NO_MOUNT, NULL);
	else if (m->upperdir[0] == '\0')
		add_gap(p, fs, STORAGE_GAP_NO_UPPER, NULL);
	else if (m->upperdir[0] != '/')
		add_gap(p, fs, STORAGE_GAP_RELATIVE, m->upperdir);
	else
		follow_upper(p, fs, m);
}

/* The upper directory as this mount namespace names it is the overlay's
 * only if the kernel's WORKDIR/work is there too, on the same filesystem
 * (upper and work directories must share one): in a container, the host's
 * path names nothing, or some other directory. */
static void
follow_upper(struct probe *p, int fs, const struct storage_mount *m)
{
	struct storage_location *loc;
	char work[PATH_MAX];

	loc = calloc(2, sizeof *loc);
	if (loc == NULL) {
		add_gap(p, fs, STORAGE_GAP_UNREADABLE, m->upperdir);
	} else if (locate_under(p, fs, m->upperdir, &loc[0]) == 0) {
		if (m->workdir[0] != '\0' &&
		    ((size_t)snprintf(work, sizeof work, "%s/work", m->workdir) >= sizeof work ||
		    p->src->locate(work, &loc[1], p->src->locate_arg) == -1 ||
		    loc[1].major != loc[0].major || loc[1].minor != loc[0].minor))
			add_gap(p, fs, STORAGE_GAP_NOT_VISIBLE, m->upperdir);
		else
			(void)follow_location(p, fs, &loc[0]);
	}
	free(loc);
}

/* A btrfs gives its files device numbers of its own; the mount source
 * names one of its devices, and /sys/fs/btrfs/UUID/devices lists them
 * all (a multi-device btrfs writes to each). */
static void
follow_btrfs(struct probe *p, int fs, const struct storage_mount *m)
{
	const char *root = p->src->sysfs_root;
	char dev[PATH_MAX], btrfs[PATH_MAX], **names;
	size_t n;

	if (m == NULL) {
		add_gap(p, fs, STORAGE_GAP_NO_MOUNT, NULL);
		return;
	}
	if (root == NULL || storage_sysfs_source_dir(root, m->source, dev) == -1) {
		add_gap(p, fs, STORAGE_GAP_NOT_IN_SYSFS, m->source);
		return;
	}
	if (storage_sysfs_btrfs_dir(root, storage_base_name(dev), btrfs) == -1 ||
	    (n = storage_sysfs_names(btrfs, "devices", &names)) == 0) {
		follow_device(p, fs, dev);
		return;
	}
	follow_each(p, fs, btrfs, "devices", names, n);
	storage_sysfs_free_names(names, n);
}

/* Each device dir/sub/NAME of names, in order, under parent. */
static void
follow_each(struct probe *p, int parent, const char *dir, const char *sub,
    char **names, size_t n)
{
	char next[PATH_MAX];
	size_t i;

	for (i = 0; i < n; i++) {
		if (storage_sysfs_follow(dir, sub, names[i], next) == -1)
			add_gap(p, parent, STORAGE_GAP_NOT_IN_SYSFS, names[i]);
		else
			follow_device(p, parent, next);
	}
}

/* The block device at sysfs directory path, under parent: a loop device,
 * device-mapper or md over others, or a real device. */
static void
follow_device(struct probe *p, int parent, const char *path)
{
	char dir[PATH_MAX], **names;
	size_t n;
	int layer;

	snprintf(dir, sizeof dir, "%s", path);
	if (storage_sysfs_whole_disk(dir) == -1) {
		add_gap(p, parent, STORAGE_GAP_NOT_IN_SYSFS, storage_base_name(path));
		return;
	}
	if (follow_loop(p, parent, dir))
		return;
	n = storage_sysfs_names(dir, "slaves", &names);
	if (n == 0) {
		add_device(p, parent, dir);
		return;
	}
	/* device-mapper or md: the flushes land on the slaves. */
	layer = add_layer(p, STORAGE_LAYER_STACKED, parent, storage_base_name(dir),
	    NULL, STORAGE_GAP_NONE);
	if (layer >= 0)
		follow_each(p, layer, dir, "slaves", names, n);
	storage_sysfs_free_names(names, n);
}

/* When dir is a loop device, follow its backing file and return true. Its
 * own queue (rotational, write back) describes nothing real: what makes
 * its writes durable is the filesystem and disk under that file. */
static bool
follow_loop(struct probe *p, int parent, const char *dir)
{
	char backing[PATH_MAX];
	size_t len, slen = strlen(DELETED_SUFFIX);
	bool deleted;
	int loop;

	if (storage_sysfs_loop_backing(dir, backing, sizeof backing) == -1)
		return false;
	len = strlen(backing);
	deleted = len > slen && strcmp(backing + len - slen, DELETED_SUFFIX) == 0;
	if (deleted)
		backing[len - slen] = '\0';
	loop = add_layer(p, STORAGE_LAYER_LOOP, parent, storage_base_name(dir), backing,
	    STORAGE_GAP_NONE);
	if (loop < 0)
		return true;
	if (deleted)
		add_gap(p, loop, STORAGE_GAP_DELETED, backing);
	else
		follow_path(p, loop, backing);
	return true;
}

/* A real device: a layer, and one of the devices unless it is one already
 * (two loop devices with files on one disk). */
static void
add_device(struct probe *p, int parent, const char *dir)
{
	struct storage_info *out = p->out;
	struct storage_device dev;
	size_t i, count = storage_device_count(out);
	int layer;

	if (storage_sysfs_attributes(dir, &dev) == -1) {
		add_gap(p, parent, STORAGE_GAP_NOT_IN_SYSFS, storage_base_name(dir));
		return;
	}
	for (i = 0; i < count; i++)
		if (strcmp(storage_device_at(out, i)->name, dev.name) == 0)
			break;
	if (i == STORAGE_MAX_DEVICES) {
		add_gap(p, parent, STORAGE_GAP_TOO_MANY, NULL);
		return;
	}
	layer = add_layer(p, STORAGE_LAYER_DEVICE, parent, dev.name, NULL, STORAGE_GAP_NONE);
	if (layer < 0)
		return;
	out->layers[layer].device = (int)i;
	if (i < count)
		return;
	storage_layer_chain(out, (size_t)layer, dev.layers, sizeof dev.layers);
	/* A device right under the target's filesystem has no layers. */
	if (out->layers[layer].parent == 0)
		dev.layers[0] = '\0';
	if (count == 0) {
		out->device = dev;
		out->have_device = true;
	} else {
		out->more_devices[out->nmore_devices++] = dev;
	}
}

int
storage_probe_from(const char *dir, const struct storage_sources *src,
    struct storage_info *out)
{
	struct storage_location *loc;
	struct probe p = { src, out };
	int saved;

	storage_info_init(out);
	loc = malloc(sizeof *loc);
	if (loc == NULL)
		return -1;
	if (src->locate(dir, loc, src->locate_arg) == -1) {
		saved = errno;
		free(loc);
		errno = saved;
		return -1;
	}
	if (follow_location(&p, -1, loc) == 0) {
		copy_whole(out->filesystem, sizeof out->filesystem, out->layers[0].name);
		out->have_filesystem = out->filesystem[0] != '\0';
	}
	free(loc);
	return 0;
}

int
storage_probe(const char *dir, const char *sysfs_root,
    const char *mountinfo_path, struct storage_info *out)
{
	const struct storage_sources src = { sysfs_root, mountinfo_path,
	    storage_locate, NULL };

	return storage_probe_from(dir, &src, out);
}

/* What the path a gap names was for, from the layer above it. */
static const char *
gap_subject(const struct storage_info *st, const struct storage_layer *gap)
{
	const struct storage_layer *above = &st->layers[gap->parent];

	if (above->kind == STORAGE_LAYER_LOOP)
		return "backing file ";
	if (above->kind == STORAGE_LAYER_FILESYSTEM && strcmp(above->name, "overlay") == 0)
		return "upper directory ";
	return "device ";
}

/* One layer in words, appended to b. */
static void
append_layer(const struct storage_info *st, const struct storage_layer *l, struct strbuf *b)
{
	if (l->kind != STORAGE_LAYER_GAP) {
		strbuf_add(b, "%s", l->name[0] ? l->name :
		    l->kind == STORAGE_LAYER_FILESYSTEM ? "unknown filesystem" : "unknown");
		return;
	}
	if (l->path[0] != '\0')
		strbuf_add(b, "%s%s: ", gap_subject(st, l), l->path);
	strbuf_add(b, "%s", gap_reasons[l->gap]);
}

void
storage_layer_chain(const struct storage_info *st, size_t i, char *buf, size_t len)
{
	size_t chain[STORAGE_MAX_LAYERS], n = 0;
	struct strbuf b;
	int j;

	strbuf_init(&b, buf, len);
	if (i >= st->nlayers)
		return;
	for (j = (int)i; j >= 0 && st->layers[j].parent >= 0 && n < STORAGE_MAX_LAYERS;
	    j = st->layers[j].parent)
		chain[n++] = (size_t)j;
	while (n-- > 0) {
		const struct storage_layer *l = &st->layers[chain[n]];
		enum storage_layer_kind above = st->layers[l->parent].kind;

		/* "ext4 on vda": a filesystem sits on its devices; every other
		 * step ("dm-0 -> vda", "loop0 -> ext4") hands writes down. */
		if (b.used > 0)
			strbuf_add(&b, "%s", above == STORAGE_LAYER_FILESYSTEM &&
			    l->kind != STORAGE_LAYER_FILESYSTEM &&
			    l->kind != STORAGE_LAYER_GAP ? " on " : " -> ");
		append_layer(st, l, &b);
	}
}
