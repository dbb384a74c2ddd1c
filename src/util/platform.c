/* platform.c: the only file with #if HAVE_*: sync calls, direct I/O, clocks
 * and the facts about this system that the other modules ask for. */
#include "config.h"

#include "util/platform.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
#if HAVE_DECL_PR_SET_PDEATHSIG
#include <sys/prctl.h>
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

uint64_t
platform_wall_ns(void)
{
	struct timespec ts;

	/* CLOCK_REALTIME exists everywhere and cannot fail with a valid
	 * pointer; a clock before 1970 is no time to stamp anything with. */
	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec < 0)
		return 0;
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t
platform_thread_cpu_ns(void)
{
#if defined(_POSIX_THREAD_CPUTIME) && _POSIX_THREAD_CPUTIME >= 0
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
#endif
	return platform_now_ns();
}

/* The cost of one clock read: the quickest of several short trials. A
 * trial that the scheduler preempts only comes out slower, so the
 * quickest is the one nothing disturbed; one long average took in any
 * preemption and, on a loaded machine, came out a thousand times too
 * high, so that operations of milliseconds were calibrated for batches. */
uint64_t
platform_clock_read_ns(void)
{
	enum { TRIALS = 16, READS = 64 };
	uint64_t start, spent, quickest = UINT64_MAX, sink = 0;
	unsigned t, i;

	for (t = 0; t < TRIALS; t++) {
		start = platform_now_ns();
		for (i = 0; i < READS; i++)
			sink += platform_now_ns();
		spent = platform_now_ns() - start;
		if (spent < quickest)
			quickest = spent;
	}
	/* sink keeps the reads from being optimised away. */
	return quickest / READS > 0 ? quickest / READS : (sink & 1) + 1;
}

int
platform_dsync_flag(void)
{
#if HAVE_DECL_O_DSYNC
	return O_DSYNC;
#else
	return 0;
#endif
}

const char *
platform_dsync_unavailable(void)
{
#if HAVE_DECL_O_DSYNC
	return NULL;
#else
	return "O_DSYNC is not available on this system";
#endif
}

int
platform_sync_flag(void)
{
#if HAVE_DECL_O_SYNC
	return O_SYNC;
#else
	return 0;
#endif
}

const char *
platform_sync_unavailable(void)
{
#if HAVE_DECL_O_SYNC
	return NULL;
#else
	return "O_SYNC is not available on this system";
#endif
}

int
platform_fdatasync(int fd)
{
#if HAVE_FDATASYNC
	return fdatasync(fd);
#else
	(void)fd;
	errno = ENOSYS;
	return -1;
#endif
}

const char *
platform_fdatasync_unavailable(void)
{
#if HAVE_FDATASYNC
	return NULL;
#else
	return "fdatasync() is not available on this system";
#endif
}

int
platform_fsync(int fd)
{
	return fsync(fd);
}

int
platform_full_fsync(int fd)
{
#if HAVE_DECL_F_FULLFSYNC
	return fcntl(fd, F_FULLFSYNC) == -1 ? -1 : 0;
#else
	(void)fd;
	errno = ENOSYS;
	return -1;
#endif
}

const char *
platform_full_fsync_unavailable(void)
{
#if HAVE_DECL_F_FULLFSYNC
	return NULL;
#else
	return "F_FULLFSYNC is not available on this system";
#endif
}

bool
platform_prefers_sync_call(void)
{
#if defined(__linux__) || defined(__FreeBSD__)
	return true;
#else
	return false;
#endif
}

/* Signals that end a process by default wherever they exist (POSIX):
 * asked for by someone (a terminal, kill, a timer or a limit), or a crash. */
static const int posix_terminating[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
	SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS, SIGTRAP,
};

size_t
platform_terminating_signals(int *sigs, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof posix_terminating / sizeof posix_terminating[0] && n < max; i++)
		sigs[n++] = posix_terminating[i];
	/* Where they exist and end a process by default. SIGIO is not here:
	 * BSD ignores it; on Linux it is SIGPOLL. */
#ifdef SIGPOLL
	if (n < max)
		sigs[n++] = SIGPOLL;
#endif
#ifdef SIGEMT
	if (n < max)
		sigs[n++] = SIGEMT;
#endif
	/* Linux's own; SIGPWR is ignored by default elsewhere (illumos). */
#if defined(__linux__) && defined(SIGSTKFLT)
	if (n < max)
		sigs[n++] = SIGSTKFLT;
#endif
#if defined(__linux__) && defined(SIGPWR)
	if (n < max)
		sigs[n++] = SIGPWR;
#endif
#ifdef SIGRTMIN
	{
		int sig;

		/* The C library keeps the first few for itself: SIGRTMIN is
		 * the first left to programs. */
		for (sig = SIGRTMIN; sig <= SIGRTMAX && n < max; sig++)
			sigs[n++] = sig;
	}
#endif
	return n;
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
platform_open_direct(int dirfd, const char *name, int flags, const char **what)
{
#if HAVE_DECL_O_DIRECT
	*what = "open with O_DIRECT";
	return openat(dirfd, name, flags | O_DIRECT);
#elif HAVE_DECL_F_NOCACHE
	int fd;

	*what = "open";
	fd = openat(dirfd, name, flags);
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
	(void)dirfd;
	(void)name;
	(void)flags;
	*what = "open for direct I/O";
	errno = ENOTSUP;
	return -1;
#endif
}

int
platform_file_id(int fd, dev_t *dev, ino_t *ino)
{
	struct stat st;
#if HAVE_STATX
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_INO, &stx) == 0 && (stx.stx_mask & STATX_INO)) {
		*dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
		*ino = (ino_t)stx.stx_ino;
		return 0;
	}
	/* A kernel without statx (ENOSYS): fstat, times and all. */
#endif
	if (fstat(fd, &st) == -1)
		return -1;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return 0;
}

static size_t
page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

void
platform_direct_align(int fd, size_t *mem_align, size_t *offset_align)
{
	*mem_align = page_size();
	/* Unknown: the smallest unit any device has; a smaller write is
	 * refused by the kernel with EINVAL, which the probe reports. */
	*offset_align = 512;
#if HAVE_STATX && HAVE_DECL_STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		if (stx.stx_dio_mem_align > *mem_align)
			*mem_align = stx.stx_dio_mem_align;
		if (stx.stx_dio_offset_align > 0)
			*offset_align = stx.stx_dio_offset_align;
	}
#else
	(void)fd;
#endif
}

int
platform_preallocate(int fd, uint64_t bytes)
{
#if HAVE_POSIX_FALLOCATE
	int rc;

	/* posix_fallocate returns the error instead of setting errno; a
	 * filesystem without it says EINVAL or EOPNOTSUPP: fall back. */
	do
		rc = posix_fallocate(fd, 0, (off_t)bytes);
	while (rc == EINTR);
	if (rc == 0)
		return 0;
	if (rc != EINVAL && rc != EOPNOTSUPP) {
		errno = rc;
		return -1;
	}
#endif
	return ftruncate(fd, (off_t)bytes);
}

void *
platform_shared_alloc(size_t size)
{
#if HAVE_DECL_MAP_ANONYMOUS
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
#elif HAVE_DECL_MAP_ANON
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANON, -1, 0);
#else
	void *p = MAP_FAILED;

	errno = ENOSYS;
#endif
	/* Anonymous memory comes zeroed. */
	return p == MAP_FAILED ? NULL : p;
}

void
platform_shared_free(void *p, size_t size)
{
	if (p != NULL)
		munmap(p, size);
}

int
platform_shared_mutex_init(pthread_mutex_t *m, bool robust)
{
	pthread_mutexattr_t a;
	int err;

	if ((err = pthread_mutexattr_init(&a)) != 0)
		return err;
	if ((err = pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED)) == 0 &&
	    (!robust || (err = pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST)) == 0))
		err = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return err;
}

int
platform_shared_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int err;

	if ((err = pthread_condattr_init(&a)) != 0)
		return err;
	if ((err = pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED)) == 0)
		err = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return err;
}

void
platform_die_with_parent(pid_t parent)
{
#if HAVE_DECL_PR_SET_PDEATHSIG
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	/* The parent may have died before the request was made. */
	if (getppid() != parent)
		_exit(1);
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
		snprintf(sys->host, sizeof sys->host, "%s", u.nodename);
	} else {
		snprintf(sys->host, sizeof sys->host, "unknown");
		snprintf(sys->os, sizeof sys->os, "unknown");
		snprintf(sys->release, sizeof sys->release, "unknown");
		snprintf(sys->machine, sizeof sys->machine, "unknown");
	}
}

int
platform_terminal_columns(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return -1;
}
