/* test_storage.c: where a target lives, against made-up sysfs trees and
 * mountinfo files built in a temporary directory, so every case is exact
 * whatever machine runs it. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/platform.h"
#include "report/report.h"
#include "storage/storage.h"
#include "tap.h"

static char root[256];	/* short, so every path under it fits PATH_MAX */

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "test_storage: %s %s: %s\n", what, path, strerror(errno));
	exit(99);
}

/* mkdir -p of root/rel. */
static void
make_dirs(const char *rel)
{
	char path[PATH_MAX];
	char *p;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(path, 0755) == -1 && errno != EEXIST)
				die("mkdir", path);
			*p = c;
			if (c == '\0')
				break;
		}
	}
}

/* Write text to root/rel, making its directory first. */
static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof dir, "%s", rel);
	if (strrchr(dir, '/') != NULL) {
		*strrchr(dir, '/') = '\0';
		make_dirs(dir);
	}
	snprintf(path, sizeof path, "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f == NULL)
		die("create", path);
	if (fputs(text, f) == EOF || fclose(f) == EOF)
		die("write", path);
}

/* root/rel as a symlink to target; target is used as given, so relative
 * links are tested as the kernel writes them. */
static void
link_to(const char *rel, const char *target)
{
	char path[PATH_MAX], dir[PATH_MAX];

	snprintf(dir, sizeof dir, "%s", rel);
	*strrchr(dir, '/') = '\0';
	make_dirs(dir);
	snprintf(path, sizeof path, "%s/%s", root, rel);
	if (symlink(target, path) == -1)
		die("symlink", path);
}

/* A disk's queue attributes, each NULL to leave the file out. */
static void
put_queue(const char *disk, const char *rot, const char *wc, const char *fua,
    const char *lbs, const char *pbs)
{
	const char *names[] = { "rotational", "write_cache", "fua",
	    "logical_block_size", "physical_block_size" };
	const char *values[] = { rot, wc, fua, lbs, pbs };
	char rel[PATH_MAX];
	size_t i;

	for (i = 0; i < 5; i++) {
		if (values[i] == NULL)
			continue;
		snprintf(rel, sizeof rel, "%s/queue/%s", disk, names[i]);
		put(rel, values[i]);
	}
}

/* A path the fake locate knows: where it is, as stat and statfs say. */
struct fake_path {
	const char *path;
	unsigned long major, minor;
	const char *fstype;	/* NULL: statfs does not know it */
};

/* locate over a table of fake_path ending in a NULL path; any other path
 * is not there (ENOENT), as in another mount namespace. */
static int
fake_locate(const char *path, struct storage_location *loc, const void *arg)
{
	const struct fake_path *f;

	for (f = arg; f->path != NULL; f++) {
		if (strcmp(f->path, path) != 0)
			continue;
		snprintf(loc->real, sizeof loc->real, "%s", f->path);
		loc->major = f->major;
		loc->minor = f->minor;
		loc->have_fstype = f->fstype != NULL;
		snprintf(loc->fstype, sizeof loc->fstype, "%s", f->fstype ? f->fstype : "");
		return 0;
	}
	errno = ENOENT;
	return -1;
}

/* The paths the loop, btrfs and overlay tests locate. */
static const struct fake_path fake_paths[] = {
	/* Loop devices' mounts and a backing file. */
	{ "/mnt/img", 7, 0, "ext2/ext3/ext4" },
	{ "/mnt/old", 7, 1, "ext2/ext3/ext4" },
	{ "/mnt/far", 7, 2, NULL },
	{ "/images/disk.img", 252, 0, "ext2/ext3/ext4" },
	/* btrfs subvolumes, each with an anonymous device number. */
	{ "/srv/db", 0, 46, "btrfs" },
	{ "/pool/x", 0, 47, "btrfs" },
	{ "/img/b", 0, 48, "btrfs" },
	{ "/vg/d", 0, 49, "btrfs" },
	{ "/lost", 0, 50, "btrfs" },
	{ "/var/tmp/b.img", 252, 0, "ext2/ext3/ext4" },
	/* An overlay, and the upper and work directories its cases name. */
	{ "/merged", 0, 60, "overlay" },
	{ "/var/lib/c/upper", 252, 0, "ext2/ext3/ext4" },
	{ "/var/lib/c/work/work", 252, 0, "ext2/ext3/ext4" },
	{ "/var/lib/a,b c/upper", 252, 0, "ext2/ext3/ext4" },
	{ "/var/lib/a,b c/work/work", 252, 0, "ext2/ext3/ext4" },
	{ "/hidden/upper", 0, 70, "tmpfs" },
	{ "/hidden/work/work", 252, 0, "ext2/ext3/ext4" },
	{ "/run/u", 0, 71, "tmpfs" },
	{ "/run/w/work", 0, 71, "tmpfs" },
	{ NULL, 0, 0, NULL }
};

/* Probe dir against the fake sysfs under root, the mountinfo file
 * root/mountinfo_rel (NULL: none) and paths. */
static int
probe_paths(const char *dir, const char *mountinfo_rel, const struct fake_path *paths,
    struct storage_info *si)
{
	char mountinfo[PATH_MAX];
	struct storage_sources src = { root, NULL, fake_locate, paths };

	if (mountinfo_rel != NULL) {
		snprintf(mountinfo, sizeof mountinfo, "%s/%s", root, mountinfo_rel);
		src.mountinfo_path = mountinfo;
	}
	return storage_probe_from(dir, &src, si);
}

static int
probe_fake(const char *dir, const char *mountinfo_rel, struct storage_info *si)
{
	return probe_paths(dir, mountinfo_rel, fake_paths, si);
}

/* Probe a directory "/d" on an ext4 on block device maj:min. */
static int
probe_dev(unsigned long maj, unsigned long min, struct storage_info *si)
{
	const struct fake_path paths[] = { { "/d", maj, min, "ext4" }, { NULL, 0, 0, NULL } };

	return probe_paths("/d", NULL, paths, si);
}

/* The one-line summary the reports print. */
static const char *
summary(const struct storage_info *si)
{
	static char buf[4096];

	report_storage_summary(si, buf, sizeof buf);
	return buf;
}

/* The i-th step that could not be followed, as the reports word it; "". */
static const char *
gap(const struct storage_info *si, size_t i)
{
	static char buf[STORAGE_CHAIN_LEN];
	size_t j;

	buf[0] = '\0';
	for (j = 0; j < si->nlayers; j++)
		if (si->layers[j].kind == STORAGE_LAYER_GAP && i-- == 0) {
			storage_layer_chain(si, j, buf, sizeof buf);
			break;
		}
	return buf;
}

/* Loop device name, numbered numbers, over the file backing: its queue
 * as the loop driver sets it, rotating and write back. */
static void
put_loop(const char *name, const char *numbers, const char *backing)
{
	char rel[PATH_MAX], target[PATH_MAX];

	snprintf(rel, sizeof rel, "devices/virtual/block/%s", name);
	put_queue(rel, "1\n", "write back\n", "0\n", "512\n", "512\n");
	snprintf(rel, sizeof rel, "devices/virtual/block/%s/loop/backing_file", name);
	put(rel, backing);
	snprintf(rel, sizeof rel, "dev/block/%s", numbers);
	snprintf(target, sizeof target, "../../devices/virtual/block/%s", name);
	link_to(rel, target);
}

static void
test_partition(void)
{
	struct storage_info si;
	const struct storage_device *d = &si.device;

	/* A SATA disk and its first partition, linked relatively as in /sys. */
	put_queue("devices/pci0/ata1/block/sda", "1\n", "write back\n", "0\n", "512\n", "4096\n");
	put("devices/pci0/ata1/block/sda/device/model", "ST4000NM0033-9ZM  \n");
	put("devices/pci0/ata1/block/sda/sda1/partition", "1\n");
	link_to("dev/block/8:1", "../../devices/pci0/ata1/block/sda/sda1");
	link_to("dev/block/8:0", "../../devices/pci0/ata1/block/sda");

	ok(probe_dev(8, 1, &si) == 0 && si.have_device, "partition 8:1 found");
	ok(strcmp(d->name, "sda") == 0, "partition climbs to its disk: %s", d->name);
	ok(d->have_model && strcmp(d->model, "ST4000NM0033-9ZM") == 0,
	    "model trimmed: '%s'", d->model);
	ok(d->rotational == 1, "rotational 1");
	ok(d->have_write_cache && strcmp(d->write_cache, "write back") == 0,
	    "write cache '%s'", d->write_cache);
	ok(d->fua == 0, "fua 0");
	ok(d->logical_block_bytes == 512, "logical block 512");
	ok(d->physical_block_bytes == 4096, "physical block 4096");
	ok(d->layers[0] == '\0', "no layers for a plain partition: '%s'", d->layers);
	ok(storage_device_count(&si) == 1 && si.nlayers == 2, "one device, two layers");
	ok(strcmp(summary(&si), "ext4 (sda ST4000NM0033-9ZM, write cache: write back)") == 0,
	    "summary '%s'", summary(&si));

	ok(probe_dev(8, 0, &si) == 0 && strcmp(d->name, "sda") == 0,
	    "the whole disk 8:0 is itself");
}

static void
test_device_mapper(void)
{
	char target[PATH_MAX];
	struct storage_info si;
	const struct storage_device *d = &si.device;

	/* dm-0 over the second partition of a virtio disk; the dev/block link
	 * is absolute, the slave link relative. */
	put_queue("devices/pci0/virtio1/block/vda", "0\n", "write through\n", NULL,
	    "512\n", "512\n");
	put("devices/pci0/virtio1/block/vda/vda2/partition", "2\n");
	put_queue("devices/virtual/block/dm-0", "0\n", "write back\n", "1\n", "4096\n", "4096\n");
	link_to("devices/virtual/block/dm-0/slaves/vda2",
	    "../../../../pci0/virtio1/block/vda/vda2");
	snprintf(target, sizeof target, "%s/devices/virtual/block/dm-0", root);
	link_to("dev/block/253:0", target);

	ok(probe_dev(253, 0, &si) == 0 && si.have_device, "dm 253:0 found");
	ok(strcmp(d->name, "vda") == 0, "dm-0 followed to the disk: %s", d->name);
	ok(strcmp(d->layers, "dm-0 -> vda") == 0, "layers '%s'", d->layers);
	ok(d->have_write_cache && strcmp(d->write_cache, "write through") == 0,
	    "the disk's cache, not dm-0's: '%s'", d->write_cache);
	ok(d->fua == -1, "fua missing: unknown");
	ok(!d->have_model && d->model[0] == '\0', "model missing: unknown");
	ok(d->rotational == 0 && d->logical_block_bytes == 512, "disk's queue read");
	ok(strcmp(summary(&si), "ext4 (dm-0 -> vda, write cache: write through)") == 0,
	    "summary '%s'", summary(&si));
}

static void
test_md(void)
{
	struct storage_info si;

	/* md0 mirrors sdc1 and sdb1 (created in that order: readdir may list
	 * them either way); dm-1 sits on md0. */
	put_queue("devices/pci0/ata2/block/sdb", "1\n", "write back\n", "0\n", "512\n", "512\n");
	put("devices/pci0/ata2/block/sdb/sdb1/partition", "1\n");
	put_queue("devices/pci0/ata3/block/sdc", "1\n", "write through\n", "0\n", "512\n", "512\n");
	put("devices/pci0/ata3/block/sdc/sdc1/partition", "1\n");
	put_queue("devices/virtual/block/md0", "1\n", "write back\n", "0\n", "512\n", "512\n");
	link_to("devices/virtual/block/md0/slaves/sdc1", "../../../../pci0/ata3/block/sdc/sdc1");
	link_to("devices/virtual/block/md0/slaves/sdb1", "../../../../pci0/ata2/block/sdb/sdb1");
	link_to("dev/block/9:0", "../../devices/virtual/block/md0");
	put_queue("devices/virtual/block/dm-1", "1\n", "write back\n", "0\n", "512\n", "512\n");
	link_to("devices/virtual/block/dm-1/slaves/md0", "../../md0");
	link_to("dev/block/253:1", "../../devices/virtual/block/dm-1");

	ok(probe_dev(9, 0, &si) == 0 && storage_device_count(&si) == 2,
	    "md 9:0: both mirrors are devices");
	ok(strcmp(si.device.name, "sdb") == 0 &&
	    strcmp(storage_device_at(&si, 1)->name, "sdc") == 0, "in sorted order");
	ok(strcmp(si.device.layers, "md0 -> sdb") == 0 &&
	    strcmp(storage_device_at(&si, 1)->layers, "md0 -> sdc") == 0,
	    "layers '%s', '%s'", si.device.layers, storage_device_at(&si, 1)->layers);
	ok(strcmp(summary(&si), "ext4 (md0 -> sdb, write cache: write back; "
	    "md0 -> sdc, write cache: write through)") == 0, "summary '%s'", summary(&si));

	ok(probe_dev(253, 1, &si) == 0 && storage_device_count(&si) == 2, "dm over md found");
	ok(strcmp(si.device.layers, "dm-1 -> md0 -> sdb") == 0, "layers '%s'", si.device.layers);
}

static void
test_unknowns(void)
{
	struct storage_info si;
	const struct storage_device *d = &si.device;

	/* A disk whose attributes are missing, empty or not numbers. */
	put_queue("devices/virtual/block/odd0", "yes\n", "\n", "2\n", "abc\n", "-4096\n");
	link_to("dev/block/240:0", "../../devices/virtual/block/odd0");
	ok(probe_dev(240, 0, &si) == 0 && si.have_device, "odd0 found");
	ok(d->rotational == -1, "rotational 'yes': unknown");
	ok(!d->have_write_cache, "empty write_cache: unknown");
	ok(d->fua == -1, "fua 2: unknown");
	ok(d->logical_block_bytes == -1 && d->physical_block_bytes == -1,
	    "block sizes not positive numbers: unknown");
	ok(strcmp(summary(&si), "ext4 (odd0, write cache: unknown)") == 0,
	    "summary '%s'", summary(&si));

	make_dirs("devices/virtual/block/bare0");
	link_to("dev/block/241:0", "../../devices/virtual/block/bare0");
	ok(probe_dev(241, 0, &si) == 0 && strcmp(d->name, "bare0") == 0,
	    "a device without attributes is still found");
	ok(d->rotational == -1 && d->fua == -1 && !d->have_model && !d->have_write_cache &&
	    d->logical_block_bytes == -1 && d->physical_block_bytes == -1,
	    "and every attribute is unknown");

	ok(probe_dev(8, 99, &si) == 0 && !si.have_device, "no dev/block entry: no device");
	ok(d->rotational == -1 && d->name[0] == '\0', "and the device stays unknown");
	ok(strcmp(gap(&si, 0), "device 8:99: not found in /sys") == 0,
	    "and says so: '%s'", gap(&si, 0));

	make_dirs("devices/virtual/block/dm-9/slaves");
	link_to("devices/virtual/block/dm-9/slaves/gone1", "../../nowhere");
	link_to("dev/block/253:9", "../../devices/virtual/block/dm-9");
	ok(probe_dev(253, 9, &si) == 0 && !si.have_device,
	    "a slave that cannot be followed: no device, not dm-9's own queue");
	ok(strcmp(gap(&si, 0), "dm-9 -> device gone1: not found in /sys") == 0,
	    "gap '%s'", gap(&si, 0));
}

static void
test_loop(void)
{
	struct storage_info si;
	const struct storage_device *d = &si.device;

	/* loop0's own queue says rotating, write back: the loop driver's
	 * defaults, nothing real. Its file is on ext4 on nvd0, write through. */
	put_loop("loop0", "7:0", "/images/disk.img\n");
	put_loop("loop1", "7:1", "/images/old.img (deleted)\n");
	put_loop("loop2", "7:2", "/elsewhere/x.img\n");
	put_queue("devices/pci0/nvme/block/nvd0", "0\n", "write through\n", "1\n", "4096\n", "4096\n");
	link_to("dev/block/252:0", "../../devices/pci0/nvme/block/nvd0");
	put("loop.mountinfo",
	    "1 0 252:0 / / rw - ext4 /dev/nvd0 rw\n"
	    "2 1 7:0 / /mnt/img rw,noatime - ext4 /dev/loop0 rw\n"
	    "3 1 7:1 / /mnt/old rw - ext4 /dev/loop1 rw\n");

	ok(probe_fake("/mnt/img", "loop.mountinfo", &si) == 0 && si.have_device,
	    "loop: a device found");
	ok(strcmp(d->name, "nvd0") == 0, "the backing file's disk, not loop0: %s", d->name);
	ok(d->rotational == 0 && strcmp(d->write_cache, "write through") == 0,
	    "its queue, not the loop's: rotational %d, %s", d->rotational, d->write_cache);
	ok(strcmp(d->layers, "loop0 -> ext4 on nvd0") == 0, "layers '%s'", d->layers);
	ok(strcmp(si.filesystem, "ext4") == 0 && strcmp(si.mount_options, "rw,noatime") == 0,
	    "the target's own filesystem and options: %s, %s", si.filesystem, si.mount_options);
	ok(si.nlayers == 4 && si.layers[1].kind == STORAGE_LAYER_LOOP &&
	    strcmp(si.layers[1].path, "/images/disk.img") == 0 &&
	    si.layers[2].kind == STORAGE_LAYER_FILESYSTEM &&
	    strcmp(si.layers[2].path, "/") == 0, "the loop's backing file, then its mount");
	ok(strcmp(summary(&si), "ext4 (loop0 -> ext4 on nvd0, write cache: write through)") == 0,
	    "summary '%s'", summary(&si));

	ok(probe_fake("/mnt/old", "loop.mountinfo", &si) == 0 && !si.have_device,
	    "a deleted backing file: no device");
	ok(strcmp(gap(&si, 0), "loop1 -> backing file /images/old.img: deleted") == 0,
	    "and says so: '%s'", gap(&si, 0));
	ok(strcmp(summary(&si), "ext4 (loop1 -> backing file /images/old.img: deleted)") == 0,
	    "summary '%s'", summary(&si));

	ok(probe_fake("/mnt/far", "loop.mountinfo", &si) == 0 && !si.have_device,
	    "a backing file not visible here: no device");
	ok(strcmp(gap(&si, 0), "loop2 -> backing file /elsewhere/x.img: not visible from "
	    "this mount namespace") == 0, "and says so: '%s'", gap(&si, 0));
	ok(!si.have_filesystem && strncmp(summary(&si), "unknown filesystem (loop2", 25) == 0,
	    "no mount, no statfs name: unknown filesystem");
}

static void
test_btrfs(void)
{
	struct storage_info si;

	/* btrfs gives each subvolume an anonymous device number (0:46 is not
	 * the mount's 0:45): the mount source names the device. */
	put_queue("devices/pci0/virtio2/block/vdb", "0\n", "write back\n", "0\n", "512\n", "512\n");
	put("devices/pci0/virtio2/block/vdb/vdb2/partition", "2\n");
	link_to("class/block/vdb2", "../../devices/pci0/virtio2/block/vdb/vdb2");
	link_to("fs/btrfs/1111-aaaa/devices/vdb2", "../../../../devices/pci0/virtio2/block/vdb/vdb2");
	/* A two-device btrfs mounted by its first device. */
	put_queue("devices/pci0/ata4/block/sdd", "1\n", "write back\n", "0\n", "512\n", "512\n");
	put_queue("devices/pci0/ata5/block/sde", "1\n", "write through\n", "0\n", "512\n", "512\n");
	link_to("class/block/sdd", "../../devices/pci0/ata4/block/sdd");
	link_to("class/block/sde", "../../devices/pci0/ata5/block/sde");
	link_to("fs/btrfs/2222-bbbb/devices/sde", "../../../../devices/pci0/ata5/block/sde");
	link_to("fs/btrfs/2222-bbbb/devices/sdd", "../../../../devices/pci0/ata4/block/sdd");
	make_dirs("fs/btrfs/features");
	/* A loop-backed btrfs, and one on a device-mapper volume named by
	 * its /dev/mapper name. */
	put_loop("loop3", "7:3", "/var/tmp/b.img\n");
	link_to("class/block/loop3", "../../devices/virtual/block/loop3");
	link_to("block/loop3", "../devices/virtual/block/loop3");
	put_queue("devices/virtual/block/dm-2", "0\n", "write back\n", "0\n", "512\n", "512\n");
	put("devices/virtual/block/dm-2/dm/name", "vg-data\n");
	link_to("devices/virtual/block/dm-2/slaves/sdd", "../../../../pci0/ata4/block/sdd");
	link_to("class/block/dm-2", "../../devices/virtual/block/dm-2");
	link_to("block/dm-2", "../devices/virtual/block/dm-2");
	put("btrfs.mountinfo",
	    "1 0 252:0 / / rw - ext4 /dev/nvd0 rw\n"
	    "2 1 0:45 / /srv rw,relatime - btrfs /dev/vdb2 rw,space_cache=v2,subvol=/\n"
	    "3 1 0:40 / /pool rw - btrfs /dev/sdd rw\n"
	    "4 1 0:41 / /img rw - btrfs /dev/loop3 rw\n"
	    "5 1 0:42 / /vg rw - btrfs /dev/mapper/vg-data rw\n"
	    "6 1 0:43 / /lost rw - btrfs /dev/nonesuch rw\n");

	ok(probe_fake("/srv/db", "btrfs.mountinfo", &si) == 0 && si.have_device &&
	    strcmp(si.device.name, "vdb") == 0, "btrfs: its device's disk, %s", si.device.name);
	ok(strcmp(si.filesystem, "btrfs") == 0 &&
	    strcmp(si.mount_options, "rw,relatime,space_cache=v2,subvol=/") == 0,
	    "its mount, though the device numbers differ: %s", si.mount_options);
	ok(si.device.layers[0] == '\0' &&
	    strcmp(summary(&si), "btrfs (vdb, write cache: write back)") == 0,
	    "summary '%s'", summary(&si));

	ok(probe_fake("/pool/x", "btrfs.mountinfo", &si) == 0 &&
	    storage_device_count(&si) == 2, "a two-device btrfs: both devices");
	ok(strcmp(si.device.name, "sdd") == 0 &&
	    strcmp(storage_device_at(&si, 1)->name, "sde") == 0, "sdd, then sde");
	ok(strcmp(summary(&si), "btrfs (sdd, write cache: write back; "
	    "sde, write cache: write through)") == 0, "summary '%s'", summary(&si));

	ok(probe_fake("/img/b", "btrfs.mountinfo", &si) == 0 && si.have_device &&
	    strcmp(si.device.name, "nvd0") == 0, "a loop-backed btrfs: the file's disk");
	ok(strcmp(si.device.layers, "loop3 -> ext4 on nvd0") == 0, "layers '%s'",
	    si.device.layers);

	ok(probe_fake("/vg/d", "btrfs.mountinfo", &si) == 0 && si.have_device &&
	    strcmp(si.device.layers, "dm-2 -> sdd") == 0,
	    "a /dev/mapper source found by its dm name: '%s'", si.device.layers);

	ok(probe_fake("/lost", "btrfs.mountinfo", &si) == 0 && !si.have_device &&
	    strcmp(gap(&si, 0), "device /dev/nonesuch: not found in /sys") == 0,
	    "a source not in sysfs: '%s'", gap(&si, 0));

	ok(probe_fake("/srv/db", NULL, &si) == 0 && !si.have_device &&
	    strcmp(gap(&si, 0), "its mount is not in mountinfo") == 0 &&
	    strcmp(si.filesystem, "btrfs") == 0, "no mountinfo: '%s'", gap(&si, 0));
}

static void
test_overlay(void)
{
	struct storage_info si;
	char line[1024];

	/* The overlay's options, as the kernel lists them, for each case. */
	const char *const cases[][2] = {
		{ "upperdir=/var/lib/c/upper,workdir=/var/lib/c/work", "ext4 on nvd0" },
		{ "upperdir=/var/lib/a\\134\\054b\\040c/upper,workdir=/var/lib/a\\134\\054b\\040c/work",
		    "ext4 on nvd0" },
		{ "upperdir=/var/lib/docker/overlay2/0123/diff,workdir=/var/lib/docker/overlay2/0123/work",
		    "upper directory /var/lib/docker/overlay2/0123/diff: not visible from this "
		    "mount namespace" },
		{ "upperdir=/hidden/upper,workdir=/hidden/work",
		    "upper directory /hidden/upper: not visible from this mount namespace" },
		{ "upperdir=.,workdir=../work",
		    "upper directory .: a relative path, which cannot be followed" },
		{ "", "no upper directory: a read-only overlay" },
		{ "upperdir=/run/u,workdir=/run/w", "tmpfs, no block device" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(line, sizeof line, "1 0 252:0 / / rw - ext4 /dev/nvd0 rw\n"
		    "2 1 0:60 / /merged rw,relatime - overlay overlay "
		    "rw,lowerdir=/var/lib/c/lower%s%s\n", cases[i][0][0] ? "," : "", cases[i][0]);
		put("overlay.mountinfo", line);
		ok(probe_fake("/merged", "overlay.mountinfo", &si) == 0 &&
		    strcmp(si.filesystem, "overlay") == 0, "overlay %zu probed", i);
		snprintf(line, sizeof line, "overlay (%s%s)", cases[i][1],
		    i < 2 ? ", write cache: write through" : "");
		ok(strcmp(summary(&si), line) == 0, "summary '%s'", summary(&si));
		ok(si.have_device == (i < 2), "a device only when the upper directory is here");
		ok(strcmp(gap(&si, 0), i >= 2 && i <= 5 ? cases[i][1] : "") == 0,
		    "unresolved '%s'", gap(&si, 0));
	}
	ok(probe_fake("/merged", NULL, &si) == 0 && !si.have_device &&
	    strcmp(gap(&si, 0), "its mount is not in mountinfo") == 0,
	    "no mountinfo: no upper directory to follow");
}

static void
test_too_many(void)
{
	char rel[PATH_MAX], target[PATH_MAX];
	struct storage_info si;
	int i;

	/* md9 over ten disks: eight devices are kept, then a gap says so. */
	for (i = 0; i < 10; i++) {
		snprintf(rel, sizeof rel, "devices/virtual/block/xd%d", i);
		put_queue(rel, "0\n", "write back\n", NULL, NULL, NULL);
		snprintf(rel, sizeof rel, "devices/virtual/block/md9/slaves/xd%d", i);
		snprintf(target, sizeof target, "../../xd%d", i);
		link_to(rel, target);
	}
	link_to("dev/block/9:9", "../../devices/virtual/block/md9");
	ok(probe_dev(9, 9, &si) == 0 && storage_device_count(&si) == STORAGE_MAX_DEVICES,
	    "ten mirrors: %d devices kept", STORAGE_MAX_DEVICES);
	ok(strcmp(gap(&si, 0), "md9 -> more layers or devices than syncprobe follows") == 0 &&
	    strcmp(gap(&si, 1), gap(&si, 0)) == 0, "the two left out say so: '%s'", gap(&si, 0));

	/* dm-100 -> dm-101 -> ... twenty deep: the tree is cut, and says so. */
	for (i = 0; i < 20; i++) {
		snprintf(rel, sizeof rel, "devices/virtual/block/dm-%d/slaves/dm-%d", 100 + i, 101 + i);
		snprintf(target, sizeof target, "../../dm-%d", 101 + i);
		link_to(rel, target);
	}
	put_queue("devices/virtual/block/dm-120", "0\n", "write back\n", NULL, NULL, NULL);
	link_to("dev/block/253:100", "../../devices/virtual/block/dm-100");
	ok(probe_dev(253, 100, &si) == 0 && !si.have_device &&
	    si.nlayers == STORAGE_MAX_LAYERS, "twenty stacked: %zu layers", si.nlayers);
	ok(si.layers[STORAGE_MAX_LAYERS - 1].kind == STORAGE_LAYER_GAP &&
	    si.layers[STORAGE_MAX_LAYERS - 1].gap == STORAGE_GAP_TOO_MANY,
	    "the last says the tree goes on");
}

static void
test_unescape(void)
{
	char s[64];

	snprintf(s, sizeof s, "%s", "/mnt/my\\040disk");
	storage_unescape(s);
	ok(strcmp(s, "/mnt/my disk") == 0, "\\040 is a space: '%s'", s);
	snprintf(s, sizeof s, "%s", "a\\011b\\012c\\134d");
	storage_unescape(s);
	ok(strcmp(s, "a\tb\nc\\d") == 0, "tab, newline, backslash");
	snprintf(s, sizeof s, "%s", "x\\04");
	storage_unescape(s);
	ok(strcmp(s, "x\\04") == 0, "a short escape stays as written");
	snprintf(s, sizeof s, "%s", "x\\089\\000");
	storage_unescape(s);
	ok(strcmp(s, "x\\089\\000") == 0, "non-octal and \\000 stay as written");
}

static void
test_parse_line(void)
{
	struct storage_mount m;

	ok(storage_mountinfo_parse_line("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - "
	    "ext3 /dev/root rw,errors=continue\n", &m) == 0, "proc(5)'s example parses");
	ok(m.major == 98 && m.minor == 0, "device 98:0");
	ok(strcmp(m.mount_point, "/mnt2") == 0, "mount point is field 5, not the root");
	ok(strcmp(m.fstype, "ext3") == 0, "fstype after the separator");
	ok(strcmp(m.options, "rw,noatime,errors=continue") == 0,
	    "mount and super options, rw once: '%s'", m.options);

	ok(storage_mountinfo_parse_line("27 1 254:0 / / rw,relatime - ext4 /dev/vda "
	    "rw,discard", &m) == 0 && strcmp(m.fstype, "ext4") == 0 &&
	    strcmp(m.options, "rw,relatime,discard") == 0, "no optional fields");
	ok(storage_mountinfo_parse_line("40 27 259:3 / /var/lib/pg rw shared:7 master:2 "
	    "propagate_from:1 - xfs /dev/nvme0n1p3 rw,attr2,nobarrier", &m) == 0 &&
	    strcmp(m.fstype, "xfs") == 0 && m.major == 259 && m.minor == 3 &&
	    strcmp(m.options, "rw,attr2,nobarrier") == 0, "three optional fields");
	ok(storage_mountinfo_parse_line("50 27 0:45 / /mnt/a\\040b\\134c rw - tmpfs "
	    "my\\040tmp rw,size=1k", &m) == 0 && strcmp(m.mount_point, "/mnt/a b\\c") == 0,
	    "escaped mount point decoded: '%s'", m.mount_point);
	ok(storage_mountinfo_parse_line("51 27 0:46 / /x rw - fuse.sshfs  rw", &m) == 0 &&
	    strcmp(m.fstype, "fuse.sshfs") == 0, "an empty source field");
	ok(m.source[0] == '\0' && m.upperdir[0] == '\0', "no source, no upper directory");
	ok(storage_mountinfo_parse_line("52 27 0:47 / /m rw - overlay my\\040ov "
	    "rw,lowerdir=/l,upperdir=/u\\134\\054v\\040w,workdir=/w\\134\\134x,uuid=on", &m) == 0 &&
	    strcmp(m.source, "my ov") == 0, "source decoded: '%s'", m.source);
	ok(strcmp(m.upperdir, "/u,v w") == 0 && strcmp(m.workdir, "/w\\x") == 0,
	    "upper and work directories decoded: '%s', '%s'", m.upperdir, m.workdir);
	ok(storage_mountinfo_parse_line("53 27 0:48 / /n rw - overlay o rw,xupperdir=/a,"
	    "upperdir,upperdirx=/b", &m) == 0 && m.upperdir[0] == '\0',
	    "only upperdir= itself is the upper directory");

	ok(storage_mountinfo_parse_line("36 35 98:0 /mnt1 /mnt2 rw ext3 /dev/root rw",
	    &m) == -1, "no separator: malformed");
	ok(storage_mountinfo_parse_line("36 35 98:0 /mnt1 /mnt2 rw - ext3", &m) == -1,
	    "too few fields: malformed");
	ok(storage_mountinfo_parse_line("36 35 98-0 / /mnt rw - ext3 /dev/root rw",
	    &m) == -1, "bad major:minor: malformed");
	ok(storage_mountinfo_parse_line("36 35 98:0x / /mnt rw - ext3 /dev/root rw",
	    &m) == -1, "trailing junk after the minor: malformed");
	ok(storage_mountinfo_parse_line("36 35 -8:0 / /mnt rw - ext3 /dev/root rw",
	    &m) == -1, "a negative major: malformed");
	ok(storage_mountinfo_parse_line("36 35 8: / /mnt rw - ext3 /dev/root rw",
	    &m) == -1, "no minor: malformed");
	ok(storage_mountinfo_parse_line("", &m) == -1, "empty line: malformed");
}

static void
test_has_option(void)
{
	ok(storage_has_option("a,b,c", "a") && storage_has_option("a,b,c", "b") &&
	    storage_has_option("a,b,c", "c"), "option found first, middle, last");
	ok(!storage_has_option("ab,c", "a") && !storage_has_option("nobarrierx", "nobarrier") &&
	    !storage_has_option("", "a"), "an option is not matched inside another");
}

static void
test_path_under(void)
{
	ok(storage_path_under("/a/b", "/a"), "/a holds /a/b");
	ok(storage_path_under("/a", "/a"), "/a holds itself");
	ok(!storage_path_under("/ab", "/a"), "/a does not hold /ab");
	ok(!storage_path_under("/a", "/a/b"), "/a/b does not hold /a");
	ok(storage_path_under("/anything", "/"), "/ holds everything");
	ok(storage_path_under("/", "/"), "/ holds itself");
}

static void
test_mountinfo_find(void)
{
	char path[PATH_MAX];
	struct storage_mount m;

	put("mountinfo",
	    "1 0 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	    "2 1 254:0 /srv /data rw,noatime - ext4 /dev/vda rw,data=ordered\n"
	    "3 2 8:1 / /data/pg rw - xfs /dev/sda1 rw,nobarrier\n"
	    "4 1 0:40 / /mnt/my\\040disk rw - tmpfs tmpfs rw,size=1k\n"
	    "5 2 0:41 / /data/pgx rw - tmpfs tmpfs rw\n"
	    "this line is not a mount\n"
	    "6 1 0:50 / /stack rw - tmpfs tmpfs rw,size=1k\n"
	    "7 6 0:51 / /stack rw - ramfs ramfs rw,size=2k\n");
	snprintf(path, sizeof path, "%s/mountinfo", root);

	ok(storage_mountinfo_find(path, "/data/pg/wal", 8, 1, &m) == 0 &&
	    strcmp(m.mount_point, "/data/pg") == 0 && strcmp(m.fstype, "xfs") == 0 &&
	    m.dev_matched, "the deepest mount of the device");
	ok(strcmp(m.options, "rw,nobarrier") == 0, "its options: '%s'", m.options);
	ok(storage_mountinfo_find(path, "/data/pgx/a", 0, 41, &m) == 0 &&
	    strcmp(m.mount_point, "/data/pgx") == 0, "/data/pg is no prefix of /data/pgx");
	ok(storage_mountinfo_find(path, "/data/other", 254, 0, &m) == 0 &&
	    strcmp(m.mount_point, "/data") == 0 &&
	    strcmp(m.options, "rw,noatime,data=ordered") == 0,
	    "a bind mount of the root device: '%s'", m.options);
	ok(storage_mountinfo_find(path, "/home/x", 254, 0, &m) == 0 &&
	    strcmp(m.mount_point, "/") == 0, "the root mount");
	ok(storage_mountinfo_find(path, "/data/pg/x", 254, 0, &m) == 0 &&
	    strcmp(m.mount_point, "/data") == 0 && m.dev_matched,
	    "a longer mount point of another device does not win");
	ok(storage_mountinfo_find(path, "/mnt/my disk/sub", 0, 40, &m) == 0 &&
	    strcmp(m.mount_point, "/mnt/my disk") == 0 && strcmp(m.fstype, "tmpfs") == 0,
	    "an escaped mount point matches the real path");
	ok(storage_mountinfo_find(path, "/stack/f", 0, 51, &m) == 0 &&
	    strcmp(m.fstype, "ramfs") == 0, "stacked mounts: the one on top");
	ok(storage_mountinfo_find(path, "/data/pg/sub", 0, 99, &m) == 0 &&
	    strcmp(m.mount_point, "/data/pg") == 0 && !m.dev_matched,
	    "no mount of the device (btrfs subvolume): the longest prefix, unmatched");

	snprintf(path, sizeof path, "%s/no-such-mountinfo", root);
	ok(storage_mountinfo_find(path, "/", 254, 0, &m) == -1, "missing file: -1");
}

static void
test_fs_magic(void)
{
	const char *n;

	ok((n = platform_fs_magic_name(0xEF53UL)) && strcmp(n, "ext2/ext3/ext4") == 0,
	    "0xEF53 is ext2/ext3/ext4, no guess at which");
	ok((n = platform_fs_magic_name(0x58465342UL)) && strcmp(n, "xfs") == 0, "xfs");
	ok((n = platform_fs_magic_name(0x01021994UL)) && strcmp(n, "tmpfs") == 0, "tmpfs");
	ok((n = platform_fs_magic_name(0x858458F6UL)) && strcmp(n, "ramfs") == 0, "ramfs");
	ok((n = platform_fs_magic_name(0x2FC12FC1UL)) && strcmp(n, "zfs") == 0, "zfs");
	ok((n = platform_fs_magic_name((unsigned long)(long)(int32_t)0x9123683EUL)) &&
	    strcmp(n, "btrfs") == 0, "a sign-extended f_type still matches");
	ok(platform_fs_magic_name(0x12345678UL) == NULL, "an unknown magic: NULL");
	ok(platform_fs_magic_name(0) == NULL, "zero: NULL");
}

static void
test_probe(void)
{
	char dir[PATH_MAX], disk[PATH_MAX], link[PATH_MAX];
	struct storage_info si;
	unsigned long maj, min;
	struct stat st;

	/* The temporary directory itself, with a made-up disk at its device
	 * number, so the whole chain runs whatever this machine has. */
	snprintf(dir, sizeof dir, "%s/target", root);
	make_dirs("target");
	if (stat(dir, &st) == -1)
		die("stat", dir);
	platform_dev_numbers(st.st_dev, &maj, &min);
	make_dirs("probe/devices/virtual/block/fake0/queue");
	put("probe/devices/virtual/block/fake0/queue/write_cache", "write back\n");
	snprintf(link, sizeof link, "probe/dev/block/%lu:%lu", maj, min);
	snprintf(disk, sizeof disk, "%s/probe/devices/virtual/block/fake0", root);
	link_to(link, disk);
	snprintf(disk, sizeof disk, "%s/probe", root);

	ok(storage_probe(dir, disk, "/proc/self/mountinfo", &si) == 0, "probe the temp dir");
	if (maj != 0)
		ok(si.have_device && strcmp(si.device.name, "fake0") == 0 &&
		    si.device.rotational == -1, "its device %lu:%lu is the fake disk", maj, min);
	else
		ok(!si.have_device, "major 0: no device");

	ok(storage_probe(dir, NULL, NULL, &si) == 0 && !si.have_device &&
	    !si.have_mount_options && si.device.rotational == -1,
	    "no sysfs, no mountinfo: those parts unknown");
	ok(storage_probe("/nonexistent/syncprobe", disk, NULL, &si) == -1 && errno == ENOENT,
	    "a missing directory: -1, ENOENT");
}

static int
remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path) == -1)
		fprintf(stderr, "test_storage: remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* Remove the mkdtemp tree, children first, never following its links. */
static void
remove_tree(void)
{
	if (nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == -1)
		fprintf(stderr, "test_storage: remove %s: %s\n", root, strerror(errno));
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof root, "%s/syncprobe-storage.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(root) == NULL)
		die("mkdtemp", root);

	test_partition();
	test_device_mapper();
	test_md();
	test_unknowns();
	test_loop();
	test_btrfs();
	test_overlay();
	test_too_many();
	test_unescape();
	test_parse_line();
	test_has_option();
	test_path_under();
	test_mountinfo_find();
	test_fs_magic();
	test_probe();

	remove_tree();
	return tap_done();
}
