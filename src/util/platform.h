/* platform.h: everything that differs between systems, behind one interface.
 * platform.c is the only file that tests HAVE_* macros. */
#ifndef SYNCPROBE_PLATFORM_H
#define SYNCPROBE_PLATFORM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include "util/units.h"

/* Monotonic time in nanoseconds (clock_gettime, through the vDSO on Linux). */
uint64_t platform_now_ns(void);

/* The wall clock (CLOCK_REALTIME), in nanoseconds since the Unix epoch: for
 * stamps only, never for measuring (it steps when the clock is set). */
uint64_t platform_wall_ns(void);

/* The CPU time the calling thread has used, in nanoseconds; the monotonic
 * clock where the system keeps no CPU clock per thread. */
uint64_t platform_thread_cpu_ns(void);

/* What one platform_now_ns() costs here, in nanoseconds (at least 1). */
uint64_t platform_clock_read_ns(void);

/* The parts of the sync methods (method.c's table) that differ between
 * systems. A flag is 0 and a call fails with ENOSYS where the system lacks
 * it; the *_unavailable functions say why (NULL: it is there). */
int platform_dsync_flag(void);			/* O_DSYNC */
const char *platform_dsync_unavailable(void);
int platform_sync_flag(void);			/* O_SYNC */
const char *platform_sync_unavailable(void);
int platform_fdatasync(int fd);
const char *platform_fdatasync_unavailable(void);
int platform_fsync(int fd);
int platform_full_fsync(int fd);		/* fcntl(F_FULLFSYNC) */
const char *platform_full_fsync_unavailable(void);

/* Whether PostgreSQL's default here is a sync call rather than an open
 * flag: it prefers fdatasync where open_datasync is known to be slow or
 * broken (Linux, FreeBSD). */
bool platform_prefers_sync_call(void);

/* The signals whose default action ends the process here, SIGKILL and
 * SIGSTOP aside (they cannot be caught): POSIX's, the crashes' included,
 * this system's own, and the realtime signals the C library leaves to
 * programs. Fills sigs with up to max of them; returns how many. */
#define PLATFORM_MAX_SIGNALS 128
size_t platform_terminating_signals(int *sigs, size_t max);

/* The device and inode of the file open on fd, for telling one file from
 * another; 0 or -1 with errno. Only those are asked for (statx STATX_INO
 * where the system has it): since Linux 6.13 a stat that reads a file's
 * times makes its next write update them at full precision, dirtying the
 * inode, so the fsync after it writes the inode too, about 50 us more a
 * flush on ext4 here; a check in the timed loop must not do that. */
int platform_file_id(int fd, dev_t *dev, ino_t *ino);

/* Open name in the directory dirfd for direct I/O (O_DIRECT, or F_NOCACHE
 * after opening). Returns the descriptor or -1 with errno; *what names the
 * failed step. */
int platform_open_direct(int dirfd, const char *name, int flags, const char **what);

/* NULL when this system has some form of direct I/O, else why not. */
const char *platform_direct_unavailable(void);

/* Memory and file-offset alignment that direct I/O on fd needs, in bytes:
 * what the system reports (statx STATX_DIOALIGN); else the page size for
 * memory and 512 bytes, the smallest unit of any device, for offsets. */
void platform_direct_align(int fd, size_t *mem_align, size_t *offset_align);

/* Give the file open on fd bytes of allocated, never written space, as a
 * database preallocates a log segment: posix_fallocate where the system
 * has it (fallocate on Linux: unwritten extents, the file's size set),
 * else ftruncate (a sparse file). 0, or -1 with errno. */
int platform_preallocate(int fd, uint64_t bytes);

/* Allocate size bytes aligned to align (a power of two); NULL on failure. */
void *platform_aligned_alloc(size_t align, size_t size);

/* size bytes of zeroed memory that the processes this one forks later
 * share with it (anonymous MAP_SHARED memory), page-aligned; NULL with
 * errno on failure. platform_shared_free() gives it back. */
void *platform_shared_alloc(size_t size);
void platform_shared_free(void *p, size_t size);

/* A mutex (robust: a holder that dies leaves it to the next locker, who
 * gets EOWNERDEAD) and a condition variable that processes sharing the
 * memory they are in can use (PTHREAD_PROCESS_SHARED). 0, or an error
 * number. */
int platform_shared_mutex_init(pthread_mutex_t *m, bool robust);
int platform_shared_cond_init(pthread_cond_t *c);

/* In a child just forked from parent: ask the system to kill it when the
 * parent dies, even of SIGKILL (Linux's PR_SET_PDEATHSIG; nothing where
 * there is no such thing), and end it at once if the parent is already
 * gone. */
void platform_die_with_parent(pid_t parent);

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
	char host[sizeof ((struct utsname *)0)->nodename];	/* the node name */
};

void platform_system(struct system_info *sys);

/* The width of the terminal on fd (TIOCGWINSZ), or -1 when fd is not a
 * terminal or it does not say. */
int platform_terminal_columns(int fd);

#endif
