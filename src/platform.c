/* platform.c: the only file with #if HAVE_*: sync calls, direct I/O, clocks
 * and the facts about this system that the other modules ask for. */
#include "config.h"

#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if HAVE_STRUCT_STATFS_F_FSTYPENAME
#include <sys/param.h>
#include <sys/mount.h>
#elif HAVE_SYS_VFS_H && HAVE_STATFS
#include <sys/vfs.h>
#endif
#if HAVE_SYS_SYSMACROS_H
#include <sys/sysmacros.h>
#endif

/* Linux statfs magic numbers (linux/magic.h and the filesystems' own
 * sources), written out so that no Linux header is needed to build. */
static const struct fs_magic {
	unsigned long magic;
	const char *name;
} fs_magic_table[] = {
	{ 0xEF53UL,     "ext2/ext3/ext4" },	/* one magic for all three */
	{ 0x58465342UL, "xfs" },
	{ 0x9123683EUL, "btrfs" },
	{ 0x2FC12FC1UL, "zfs" },
	{ 0xF2F52010UL, "f2fs" },
	{ 0xCA451A4EUL, "bcachefs" },
	{ 0x3153464AUL, "jfs" },
	{ 0x52654973UL, "reiserfs" },
	{ 0x3434UL,     "nilfs2" },
	{ 0x01161970UL, "gfs2" },
	{ 0x7461636FUL, "ocfs2" },
	{ 0x01021994UL, "tmpfs" },
	{ 0x858458F6UL, "ramfs" },
	{ 0x958458F6UL, "hugetlbfs" },
	{ 0x6969UL,     "nfs" },
	{ 0xFF534D42UL, "cifs" },
	{ 0xFE534D42UL, "smb2" },
	{ 0x517BUL,     "smb" },
	{ 0x00C36400UL, "ceph" },
	{ 0x01021997UL, "9p" },
	{ 0x794C7630UL, "overlay" },
	{ 0x65735546UL, "fuse" },
	{ 0xF15FUL,     "ecryptfs" },
	{ 0x4D44UL,     "vfat" },
	{ 0x2011BAB0UL, "exfat" },
	{ 0x73717368UL, "squashfs" },
	{ 0x9660UL,     "iso9660" },
	{ 0x15013346UL, "udf" },
};

uint64_t
platform_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail with a valid pointer; no check needed. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

int
platform_open_sync_flags(enum open_sync kind, const char **reason)
{
	switch (kind) {
	case OPEN_SYNC_NONE:
		return 0;
	case OPEN_SYNC_DSYNC:
#if HAVE_DECL_O_DSYNC
		return O_DSYNC;
#else
		*reason = "O_DSYNC is not available on this system";
		return -1;
#endif
	case OPEN_SYNC_SYNC:
#if HAVE_DECL_O_SYNC
		return O_SYNC;
#else
		*reason = "O_SYNC is not available on this system";
		return -1;
#endif
	}
	*reason = "unknown open flag";
	return -1;
}

const char *
platform_sync_unavailable(enum sync_call call)
{
	switch (call) {
	case SYNC_CALL_FULLFSYNC:
#if HAVE_DECL_F_FULLFSYNC
		return NULL;
#else
		return "F_FULLFSYNC is not available on this system";
#endif
	case SYNC_CALL_NONE:
	case SYNC_CALL_FDATASYNC:	/* falls back to fsync where missing */
	case SYNC_CALL_FSYNC:
		return NULL;
	}
	return "unknown sync call";
}

int
platform_sync(int fd, enum sync_call call)
{
	switch (call) {
	case SYNC_CALL_NONE:
		return 0;
	case SYNC_CALL_FDATASYNC:
#if HAVE_FDATASYNC
		return fdatasync(fd);
#else
		return fsync(fd);
#endif
	case SYNC_CALL_FSYNC:
		return fsync(fd);
	case SYNC_CALL_FULLFSYNC:
#if HAVE_DECL_F_FULLFSYNC
		return fcntl(fd, F_FULLFSYNC) == -1 ? -1 : 0;
#else
		errno = ENOSYS;
		return -1;
#endif
	}
	errno = EINVAL;
	return -1;
}

const char *
platform_sync_name(enum sync_call call)
{
	switch (call) {
	case SYNC_CALL_NONE:
		return "write";
	case SYNC_CALL_FDATASYNC:
#if HAVE_FDATASYNC
		return "fdatasync";
#else
		return "fsync";
#endif
	case SYNC_CALL_FSYNC:
		return "fsync";
	case SYNC_CALL_FULLFSYNC:
		return "fcntl(F_FULLFSYNC)";
	}
	return "sync";
}

const char *
platform_direct_unavailable(void)
{
#if HAVE_DECL_O_DIRECT || HAVE_DECL_F_NOCACHE
	return NULL;
#else
	return "this system has neither O_DIRECT nor F_NOCACHE";
#endif
}

int
platform_open_direct(const char *path, int flags, const char **what)
{
#if HAVE_DECL_O_DIRECT
	*what = "open with O_DIRECT";
	return open(path, flags | O_DIRECT);
#elif HAVE_DECL_F_NOCACHE
	int fd;

	*what = "open";
	fd = open(path, flags);
	if (fd == -1)
		return -1;
	*what = "fcntl(F_NOCACHE)";
	if (fcntl(fd, F_NOCACHE, 1) == -1) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
#else
	(void)path;
	(void)flags;
	*what = "open for direct I/O";
	errno = ENOTSUP;
	return -1;
#endif
}

bool
platform_has_full_fsync(void)
{
	return HAVE_DECL_F_FULLFSYNC != 0;
}

const char *
platform_default_wal_sync_method(void)
{
	/* PostgreSQL prefers fdatasync where open_datasync is known to be slow
	 * or broken (Linux, FreeBSD), else the first available of its list,
	 * which starts with open_datasync. */
#if defined(__linux__) || defined(__FreeBSD__)
	return "fdatasync";
#else
	return HAVE_DECL_O_DSYNC ? "open_datasync" : "fdatasync";
#endif
}

static size_t
page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

size_t
platform_direct_mem_align(int fd)
{
#if HAVE_STATX && HAVE_DECL_STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_mem_align > 0)
		return page_size() > stx.stx_dio_mem_align ?
		    page_size() : stx.stx_dio_mem_align;
#else
	(void)fd;
#endif
	return page_size();
}

size_t
platform_direct_offset_align(int fd)
{
#if HAVE_STATX && HAVE_DECL_STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0)
		return stx.stx_dio_offset_align;
#else
	(void)fd;
#endif
	/* Unknown: assume the smallest unit any device has; a smaller write
	 * is refused by the kernel with EINVAL, which the probe reports. */
	return 512;
}

void *
platform_aligned_alloc(size_t align, size_t size)
{
	void *p = NULL;

#if HAVE_POSIX_MEMALIGN
	if (posix_memalign(&p, align, size) != 0)
		return NULL;
#else
	p = aligned_alloc(align, (size + align - 1) / align * align);
#endif
	return p;
}

const char *
platform_fs_magic_name(unsigned long magic)
{
	size_t i;

	/* f_type is a signed long on some systems: compare the 32 bits that
	 * every magic number fits in, whatever sign extension happened. */
	magic &= 0xFFFFFFFFUL;
	for (i = 0; i < sizeof fs_magic_table / sizeof fs_magic_table[0]; i++)
		if (fs_magic_table[i].magic == magic)
			return fs_magic_table[i].name;
	return NULL;
}

int
platform_fs_type(const char *path, char *buf, size_t len)
{
	if (len > 0)
		buf[0] = '\0';
#if HAVE_STRUCT_STATFS_F_FSTYPENAME
	struct statfs sf;

	if (statfs(path, &sf) == -1 || sf.f_fstypename[0] == '\0')
		return -1;
	snprintf(buf, len, "%s", sf.f_fstypename);
	return 0;
#elif HAVE_SYS_VFS_H && HAVE_STATFS
	struct statfs sf;
	const char *name;

	if (statfs(path, &sf) == -1)
		return -1;
	name = platform_fs_magic_name((unsigned long)sf.f_type);
	if (name == NULL)
		return -1;
	snprintf(buf, len, "%s", name);
	return 0;
#else
	(void)path;
	return -1;
#endif
}

void
platform_dev_numbers(dev_t dev, unsigned long *maj, unsigned long *min)
{
	/* major() and minor() come from sys/sysmacros.h with glibc and from
	 * sys/types.h elsewhere. */
	*maj = (unsigned long)major(dev);
	*min = (unsigned long)minor(dev);
}

void
platform_system(struct system_info *sys)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(sys->os, sizeof sys->os, "%s", u.sysname);
		snprintf(sys->release, sizeof sys->release, "%s", u.release);
		snprintf(sys->machine, sizeof sys->machine, "%s", u.machine);
	} else {
		snprintf(sys->os, sizeof sys->os, "unknown");
		snprintf(sys->release, sizeof sys->release, "unknown");
		snprintf(sys->machine, sizeof sys->machine, "unknown");
	}
}
