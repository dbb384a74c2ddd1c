/* storage.h: where a target directory lives — its filesystem, its mount
 * options, and the layers down to the real devices its writes reach
 * (overlay upper directories, btrfs devices, loop devices' backing files,
 * device-mapper, md). What cannot be found out stays unknown (a have_*
 * flag false, an int -1, a gap layer saying why); nothing is guessed. The
 * paths of /sys and /proc/self/mountinfo and the locating of a path are
 * parameters so that the tests can feed made-up trees and files. */
#ifndef SYNCPROBE_STORAGE_H
#define SYNCPROBE_STORAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define STORAGE_SYSFS_ROOT     "/sys"
#define STORAGE_MOUNTINFO_PATH "/proc/self/mountinfo"
#define STORAGE_MAX_LAYERS     16	/* filesystems, loops, dm/md, disks, gaps */
#define STORAGE_MAX_DEVICES    8	/* real devices under one target */
#define STORAGE_PATH_LEN       1024	/* a longer path is left out, not cut */
/* Room for the longest line storage_layer_chain makes: names and one gap. */
#define STORAGE_CHAIN_LEN      (STORAGE_MAX_LAYERS * 80 + STORAGE_PATH_LEN)

struct storage_device {
	char name[64];		/* kernel name of the whole disk: "vda", "nvme0n1" */
	char model[128];	/* device/model, trimmed */
	bool have_model;
	int rotational;		/* queue/rotational: 1, 0, or -1 unknown */
	char write_cache[32];	/* queue/write_cache: "write back" / "write through" */
	bool have_write_cache;
	int fua;		/* queue/fua: 1, 0, or -1 unknown */
	long logical_block_bytes;	/* -1 unknown */
	long physical_block_bytes;	/* -1 unknown */
	/* The layers followed from the target's filesystem down to this
	 * device, "dm-0 -> vda", "loop0 -> ext4 on vda"; "" when the
	 * filesystem sits on the disk itself. */
	char layers[256];
};

/* One step from the target down to its storage. Layers form a tree kept
 * in order (a layer's parent comes before it): a multi-device btrfs or an
 * md mirror has one branch per device. */
enum storage_layer_kind {
	STORAGE_LAYER_FILESYSTEM,	/* a mount: name its type, path its mount point */
	STORAGE_LAYER_STACKED,		/* device-mapper, md: name "dm-0" */
	STORAGE_LAYER_LOOP,		/* a loop device: path its backing file */
	STORAGE_LAYER_DEVICE,		/* a real device: one of the devices */
	STORAGE_LAYER_GAP		/* a step that could not be followed */
};

/* Why a step could not be followed. */
enum storage_gap {
	STORAGE_GAP_NONE,
	STORAGE_GAP_NOT_VISIBLE,	/* no such path here: another mount namespace */
	STORAGE_GAP_UNREADABLE,		/* the path is there but cannot be examined */
	STORAGE_GAP_DELETED,		/* a loop device's backing file was deleted */
	STORAGE_GAP_RELATIVE,		/* an overlay's upper directory given relative */
	STORAGE_GAP_NO_UPPER,		/* a read-only overlay: no upper directory */
	STORAGE_GAP_NO_MOUNT,		/* the mount is not in mountinfo */
	STORAGE_GAP_NOT_IN_SYSFS,	/* the block device is not in /sys */
	STORAGE_GAP_TOO_MANY		/* more layers or devices than are kept */
};

struct storage_layer {
	enum storage_layer_kind kind;
	int parent;		/* index of the layer above; -1 for the target's filesystem */
	char name[64];		/* "ext4", "dm-0", "loop0", "vda"; "" unknown */
	char path[STORAGE_PATH_LEN];	/* mount point, backing file, or a gap's path */
	enum storage_gap gap;	/* STORAGE_LAYER_GAP: why */
	int device;		/* STORAGE_LAYER_DEVICE: storage_device_at's index */
};

struct storage_info {
	char filesystem[32];	/* "ext4", "xfs", "tmpfs", "fuse.sshfs": a name */
	bool have_filesystem;
	/* The mount's own options, then the superblock's that differ, as
	 * mountinfo gives them: "rw,relatime,errors=remount-ro". Options that
	 * do not fit are left out, whole. */
	char mount_options[256];
	bool have_mount_options;
	/* The real devices the writes reach, below loop devices, device-mapper,
	 * md, btrfs and overlay upper directories: device is the first found,
	 * more_devices the others (a multi-device btrfs, an md mirror). */
	bool have_device;	/* false for tmpfs, nfs... or when nothing could be followed */
	struct storage_device device;
	struct storage_device more_devices[STORAGE_MAX_DEVICES - 1];
	size_t nmore_devices;
	struct storage_layer layers[STORAGE_MAX_LAYERS];
	size_t nlayers;
};

/* One mount, as read from a mountinfo line. */
struct storage_mount {
	unsigned long major, minor;
	char mount_point[PATH_MAX];	/* escapes (\040) decoded */
	char fstype[32];
	char source[PATH_MAX];		/* "/dev/vda2", "overlay"; escapes decoded */
	char options[256];		/* as storage_info.mount_options */
	char upperdir[PATH_MAX];	/* an overlay's upperdir= option, decoded; "" */
	char workdir[PATH_MAX];		/* and its workdir= */
	bool dev_matched;		/* set by storage_mountinfo_find */
};

/* Where a path is: its real path, the device numbers of the filesystem
 * holding it (stat's st_dev) and, where statfs knows, its type. */
struct storage_location {
	char real[PATH_MAX];
	unsigned long major, minor;
	char fstype[32];
	bool have_fstype;
};

/* Locate path into loc: 0, or -1 with errno. arg is the sources' own. */
typedef int storage_locate_fn(const char *path, struct storage_location *loc,
    const void *arg);

/* What storage_probe_from reads, so that the tests can feed made-up trees
 * and paths. sysfs_root or mountinfo_path may be NULL to skip that source. */
struct storage_sources {
	const char *sysfs_root;
	const char *mountinfo_path;
	storage_locate_fn *locate;
	const void *locate_arg;
};

/* Fill out for the directory dir: its filesystem, then down through
 * overlay upper directories, btrfs devices, loop devices' backing files,
 * device-mapper and md to the real devices. Returns 0 (with whatever could
 * be found; a step that cannot be followed is a STORAGE_LAYER_GAP), or -1
 * with errno when dir itself cannot be located. storage_probe reads the
 * system; storage_probe_from what src names. */
int storage_probe(const char *dir, const char *sysfs_root,
    const char *mountinfo_path, struct storage_info *out);
int storage_probe_from(const char *dir, const struct storage_sources *src,
    struct storage_info *out);

/* The system's own locate: realpath, stat and statfs. */
int storage_locate(const char *path, struct storage_location *loc, const void *arg);

/* Every field unknown. */
void storage_info_init(struct storage_info *out);
void storage_device_init(struct storage_device *dev);

/* How many real devices st has, and the i-th (0 is st->device). */
size_t storage_device_count(const struct storage_info *st);
const struct storage_device *storage_device_at(const struct storage_info *st, size_t i);

/* The layers from below the target's filesystem down to layer i, as one
 * line: "dm-0 -> vda", "loop0 -> ext4 on vda", "upper directory /x/diff:
 * not visible from this mount namespace"; "" for the filesystem itself. */
void storage_layer_chain(const struct storage_info *st, size_t i, char *buf,
    size_t len);

/* mountinfo (storage_mountinfo.c) */

/* Decode mountinfo's octal escapes (\040 space, \011 tab, \012 newline,
 * \134 backslash) in place. */
void storage_unescape(char *s);

/* Parse one mountinfo line (see proc(5)); 0, or -1 when malformed. */
int storage_mountinfo_parse_line(const char *line, struct storage_mount *m);

/* Whether the comma-separated option list opts has the option opt, whole
 * ("nobarrier" is not in "nobarrierx"). */
bool storage_has_option(const char *opts, const char *opt);

/* Whether mount point mp holds the absolute path path: mp is path, or a
 * leading run of its components ("/a" holds "/a/b", not "/ab"). */
bool storage_path_under(const char *path, const char *mp);

/* The mount holding the real path path: among mounts of device maj:min,
 * the one whose mount point is the longest that holds path (the last one
 * listed when several are stacked on one point, as the kernel sees it).
 * Where no mount has that device — a btrfs subvolume has a device number
 * of its own — the longest holding mount point alone decides, and
 * out->dev_matched is false. 0, or -1 when the file cannot be read or no
 * mount holds path. */
int storage_mountinfo_find(const char *mountinfo_path, const char *path,
    unsigned long maj, unsigned long min, struct storage_mount *out);

/* sysfs (storage_sysfs.c). Directories are real paths of PATH_MAX bytes,
 * so that a device's name and its disk can be read off them. */

/* sysfs_root/dev/block/MAJ:MIN: 0, or -1 when there is no such device. */
int storage_sysfs_dev_dir(const char *sysfs_root, unsigned long maj,
    unsigned long min, char *dir);

/* The device a mount source names: /dev/NAME as sysfs_root/class/block/NAME,
 * else the device-mapper device whose dm/name is NAME (/dev/mapper/NAME).
 * 0, or -1 when neither is there. */
int storage_sysfs_source_dir(const char *sysfs_root, const char *source, char *dir);

/* dir/sub/name resolved into out (sub and name may be NULL): 0, or -1
 * when it leads nowhere. */
int storage_sysfs_follow(const char *dir, const char *sub, const char *name,
    char *out);

/* A partition's directory becomes its disk's: 0, or -1. */
int storage_sysfs_whole_disk(char *dir);

/* The entries of dir/sub ("slaves", "devices"), sorted so that a machine
 * gives the same answer every run: how many, in *names (NULL when none),
 * to be freed with storage_sysfs_free_names. */
size_t storage_sysfs_names(const char *dir, const char *sub, char ***names);
void storage_sysfs_free_names(char **names, size_t n);

/* A loop device's backing file, as the kernel names it (a deleted one ends
 * in " (deleted)"): 0, or -1 when dir is no bound loop device. */
int storage_sysfs_loop_backing(const char *dir, char *path, size_t len);

/* The directory of the btrfs with a device named name,
 * sysfs_root/fs/btrfs/UUID, whose devices/ lists them all: 0, or -1 when
 * there is none. */
int storage_sysfs_btrfs_dir(const char *sysfs_root, const char *name, char *dir);

/* The attributes of the device at dir, named after dir's last component:
 * 0, or -1 when the name does not fit. Missing attributes stay unknown. */
int storage_sysfs_attributes(const char *dir, struct storage_device *dev);

/* The last component of path. */
const char *storage_base_name(const char *path);

#endif
