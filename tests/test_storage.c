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

#include "platform.h"
#include "storage.h"
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

static void
test_partition(void)
{
	struct storage_device d;

	/* A SATA disk and its first partition, linked relatively as in /sys. */
	put_queue("devices/pci0/ata1/block/sda", "1\n", "write back\n", "0\n", "512\n", "4096\n");
	put("devices/pci0/ata1/block/sda/device/model", "ST4000NM0033-9ZM  \n");
	put("devices/pci0/ata1/block/sda/sda1/partition", "1\n");
	link_to("dev/block/8:1", "../../devices/pci0/ata1/block/sda/sda1");
	link_to("dev/block/8:0", "../../devices/pci0/ata1/block/sda");

	ok(storage_sysfs_device(root, 8, 1, &d) == 0, "partition 8:1 found");
	ok(strcmp(d.name, "sda") == 0, "partition climbs to its disk: %s", d.name);
	ok(d.have_model && strcmp(d.model, "ST4000NM0033-9ZM") == 0,
	    "model trimmed: '%s'", d.model);
	ok(d.rotational == 1, "rotational 1");
	ok(d.have_write_cache && strcmp(d.write_cache, "write back") == 0,
	    "write cache '%s'", d.write_cache);
	ok(d.fua == 0, "fua 0");
	ok(d.logical_block_bytes == 512, "logical block 512");
	ok(d.physical_block_bytes == 4096, "physical block 4096");
	ok(d.layers[0] == '\0', "no layers for a plain partition: '%s'", d.layers);

	ok(storage_sysfs_device(root, 8, 0, &d) == 0 && strcmp(d.name, "sda") == 0,
	    "the whole disk 8:0 is itself");
}

static void
test_device_mapper(void)
{
	char target[PATH_MAX];
	struct storage_device d;

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

	ok(storage_sysfs_device(root, 253, 0, &d) == 0, "dm 253:0 found");
	ok(strcmp(d.name, "vda") == 0, "dm-0 followed to the disk: %s", d.name);
	ok(strcmp(d.layers, "dm-0 -> vda") == 0, "layers '%s'", d.layers);
	ok(d.have_write_cache && strcmp(d.write_cache, "write through") == 0,
	    "the disk's cache, not dm-0's: '%s'", d.write_cache);
	ok(d.fua == -1, "fua missing: unknown");
	ok(!d.have_model && d.model[0] == '\0', "model missing: unknown");
	ok(d.rotational == 0 && d.logical_block_bytes == 512, "disk's queue read");
}

static void
test_md(void)
{
	struct storage_device d;

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

	ok(storage_sysfs_device(root, 9, 0, &d) == 0, "md 9:0 found");
	ok(strcmp(d.name, "sdb") == 0, "first slave in sorted order: %s", d.name);
	ok(strcmp(d.layers, "md0 -> sdb (first of 2)") == 0, "layers '%s'", d.layers);
	ok(d.have_write_cache && strcmp(d.write_cache, "write back") == 0, "sdb's cache");

	ok(storage_sysfs_device(root, 253, 1, &d) == 0, "dm over md found");
	ok(strcmp(d.layers, "dm-1 -> md0 -> sdb (first of 2)") == 0, "layers '%s'", d.layers);
}

static void
test_unknowns(void)
{
	struct storage_device d;

	/* A disk whose attributes are missing, empty or not numbers. */
	put_queue("devices/virtual/block/odd0", "yes\n", "\n", "2\n", "abc\n", "-4096\n");
	link_to("dev/block/240:0", "../../devices/virtual/block/odd0");
	ok(storage_sysfs_device(root, 240, 0, &d) == 0, "odd0 found");
	ok(d.rotational == -1, "rotational 'yes': unknown");
	ok(!d.have_write_cache, "empty write_cache: unknown");
	ok(d.fua == -1, "fua 2: unknown");
	ok(d.logical_block_bytes == -1 && d.physical_block_bytes == -1,
	    "block sizes not positive numbers: unknown");

	make_dirs("devices/virtual/block/bare0");
	link_to("dev/block/241:0", "../../devices/virtual/block/bare0");
	ok(storage_sysfs_device(root, 241, 0, &d) == 0 && strcmp(d.name, "bare0") == 0,
	    "a device without attributes is still found");
	ok(d.rotational == -1 && d.fua == -1 && !d.have_model && !d.have_write_cache &&
	    d.logical_block_bytes == -1 && d.physical_block_bytes == -1,
	    "and every attribute is unknown");

	ok(storage_sysfs_device(root, 8, 99, &d) == -1, "no dev/block entry: not found");
	ok(d.rotational == -1 && d.name[0] == '\0', "and the device stays unknown");

	make_dirs("devices/virtual/block/dm-9/slaves");
	link_to("devices/virtual/block/dm-9/slaves/gone1", "../../nowhere");
	link_to("dev/block/253:9", "../../devices/virtual/block/dm-9");
	ok(storage_sysfs_device(root, 253, 9, &d) == -1,
	    "a slave that cannot be followed: unknown, not dm-9's own queue");
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
