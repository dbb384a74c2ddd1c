/* storage.h: where a target directory lives — its filesystem, its mount
 * options and the block device under it. What cannot be found out stays
 * unknown (a have_* flag false, an int -1); nothing is guessed. The paths
 * of /sys and /proc/self/mountinfo are parameters so that the tests can
 * feed made-up trees and files. */
#ifndef SYNCPROBE_STORAGE_H
#define SYNCPROBE_STORAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define STORAGE_SYSFS_ROOT     "/sys"
#define STORAGE_MOUNTINFO_PATH "/proc/self/mountinfo"
#define STORAGE_MAX_LAYERS     8	/* a deeper stack of slaves is a loop */

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
	/* The stacked devices followed down to the disk, "dm-0 -> vda", with
	 * "(first of N)" after a disk chosen among several slaves (md, a
	 * striped dm); "" when the filesystem sits on the disk itself. */
	char layers[128];
};

struct storage_info {
	char filesystem[32];	/* "ext4", "xfs", "tmpfs", "fuse.sshfs": a name */
	bool have_filesystem;
	/* The mount's own options, then the superblock's that differ, as
	 * mountinfo gives them: "rw,relatime,errors=remount-ro". Options that
	 * do not fit are left out, whole. */
	char mount_options[256];
	bool have_mount_options;
	bool have_device;	/* false for tmpfs, nfs, overlay... (major 0) */
	struct storage_device device;
};

/* One mount, as read from a mountinfo line. */
struct storage_mount {
	unsigned long major, minor;
	char mount_point[PATH_MAX];	/* escapes (\040) decoded */
	char fstype[32];
	char options[256];		/* as storage_info.mount_options */
	bool dev_matched;		/* set by storage_mountinfo_find */
};

/* Fill out for the directory dir. Returns 0 (with whatever could be
 * found), or -1 with errno when dir itself cannot be resolved or stat'ed.
 * sysfs_root or mountinfo_path may be NULL to skip that source. */
int storage_probe(const char *dir, const char *sysfs_root,
    const char *mountinfo_path, struct storage_info *out);

/* Every field unknown. */
void storage_info_init(struct storage_info *out);
void storage_device_init(struct storage_device *dev);

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

/* The disk under block device maj:min, from sysfs_root/dev/block/MAJ:MIN:
 * a partition's parent disk, and down device-mapper and md slaves to a
 * disk that has none. 0, or -1 when there is no such device in sysfs (or
 * a slave cannot be followed); the device's attributes that are missing
 * stay unknown. */
int storage_sysfs_device(const char *sysfs_root, unsigned long maj,
    unsigned long min, struct storage_device *dev);

#endif
