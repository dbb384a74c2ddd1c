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

void
platform_system(char *os, char *release, char *machine, size_t len)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(os, len, "%s", u.sysname);
		snprintf(release, len, "%s", u.release);
		snprintf(machine, len, "%s", u.machine);
	} else {
		snprintf(os, len, "unknown");
		snprintf(release, len, "unknown");
		snprintf(machine, len, "unknown");
	}
}
