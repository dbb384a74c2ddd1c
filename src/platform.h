/* platform.h: everything that differs between systems, behind one interface.
 * platform.c is the only file that tests HAVE_* macros. */
#ifndef SYNCPROBE_PLATFORM_H
#define SYNCPROBE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/utsname.h>

#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_USEC 1000ULL

/* How an open_* method makes each write durable. */
enum open_sync {
	OPEN_SYNC_NONE,
	OPEN_SYNC_DSYNC,	/* O_DSYNC: data, and metadata needed to read it */
	OPEN_SYNC_SYNC		/* O_SYNC: data and all metadata */
};

/* The call that follows the writes of a write-then-sync method. */
enum sync_call {
	SYNC_CALL_NONE,
	SYNC_CALL_FDATASYNC,
	SYNC_CALL_FSYNC,
	SYNC_CALL_FULLFSYNC	/* fcntl(F_FULLFSYNC): flush the drive's cache too */
};

/* Monotonic time in nanoseconds (clock_gettime, through the vDSO on Linux). */
uint64_t platform_now_ns(void);

/* Open flags for an open_* kind; returns -1 and sets *reason when the
 * system has no such flag. */
int platform_open_sync_flags(enum open_sync kind, const char **reason);

/* NULL when the sync call exists here, else why it does not. */
const char *platform_sync_unavailable(enum sync_call call);

/* Run one sync call on fd; 0 or -1 with errno. */
int platform_sync(int fd, enum sync_call call);

/* The name of the sync call, for error messages. */
const char *platform_sync_name(enum sync_call call);

/* Open path for direct I/O (O_DIRECT, or F_NOCACHE after opening).
 * Returns the descriptor or -1 with errno; *what names the failed step. */
int platform_open_direct(const char *path, int flags, const char **what);

/* NULL when this system has some form of direct I/O, else why not. */
const char *platform_direct_unavailable(void);

/* Whether F_FULLFSYNC exists (macOS): fsync there does not flush the drive. */
bool platform_has_full_fsync(void);

/* The wal_sync_method PostgreSQL picks by default on this system. */
const char *platform_default_wal_sync_method(void);

/* Memory and file-offset alignment that direct I/O on fd needs, in bytes:
 * what the system reports (statx STATX_DIOALIGN), else the page size. */
size_t platform_direct_mem_align(int fd);
size_t platform_direct_offset_align(int fd);

/* Allocate size bytes aligned to align (a power of two); NULL on failure. */
void *platform_aligned_alloc(size_t align, size_t size);

/* The type of the filesystem holding path, as a name ("xfs", "tmpfs"):
 * statfs's f_fstypename where the system has it, else the statfs magic
 * number looked up in platform_fs_magic_name(). Returns 0, or -1 when
 * statfs failed or the type is not one we know (buf is then ""). */
int platform_fs_type(const char *path, char *buf, size_t len);

/* The filesystem a Linux statfs f_type magic number stands for, or NULL
 * when it is not in the table. ext2, ext3 and ext4 share one magic, so
 * that one is "ext2/ext3/ext4", never a guess at which. */
const char *platform_fs_magic_name(unsigned long magic);

/* A device number's major and minor parts, as /sys/dev/block names them. */
void platform_dev_numbers(dev_t dev, unsigned long *maj, unsigned long *min);

/* The operating system a run happened on (uname), for reports. */
struct system_info {
	char os[sizeof ((struct utsname *)0)->sysname];
	char release[sizeof ((struct utsname *)0)->release];
	char machine[sizeof ((struct utsname *)0)->machine];
};

void platform_system(struct system_info *sys);

#endif
