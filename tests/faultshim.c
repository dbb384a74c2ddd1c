/* faultshim.c: an LD_PRELOAD library for tests/cli_faults.sh that makes one
 * system call fail, so that syncprobe's error paths (the message, the exit
 * status, the test file removed) can be tested without a failing disk.
 *
 *   SYNCPROBE_FAULT=OP:ERRNO:N[,OP:ERRNO:N]...
 *
 * fails the Nth call (counting from 1) of OP with ERRNO, and no other call.
 * OP is pwrite, fdatasync, fsync, close, open (any open) or open_direct (an
 * open with O_DIRECT), or an allocation: malloc, calloc or posix_memalign
 * (counted whatever SYNCPROBE_FAULT_PATH says; ERRNO ENOMEM); ERRNO is a
 * name such as EIO or ENOSPC. The failed call is not passed on: nothing
 * is written, synced, opened or allocated. ERRNO SHORT, for pwrite only,
 * is a short write instead: half the bytes are written, and the call
 * returns that count. ERRNO SIGINT, SIGTERM or SIGHUP fails nothing: that
 * signal is sent to the process that loaded the shim right before the Nth
 * call, which then goes on (a user's Ctrl-C at a point the test chooses,
 * not a moment). A process it forks (-t group's committers) counts its
 * calls on from the count at the fork, and signals the same process.
 *
 *   SYNCPROBE_FAULT_PATH=TEXT
 *
 * counts only calls on files whose path contains TEXT: opens of such a
 * path, opens relative to a directory opened so (openat), and pwrite,
 * fsync, fdatasync and close of the descriptors they returned. Set to the
 * target directory, it keeps the count on the test file and its directory
 * whatever else the program opens.
 *
 *   SYNCPROBE_SWAP=KIND:N   (and SYNCPROBE_SWAP_DECOY=FILE for symlink)
 *
 * plays the part of someone else who can write to the target directory,
 * right before the Nth reopen of the test file (an open, without O_CREAT,
 * of a name that starts ".syncprobe.", or of the durability writer's
 * "syncprobe-durability"), and then lets that open go on:
 * KIND symlink renames the test file to NAME.moved and puts a symbolic
 * link to FILE in its place; file does the same with a new regular file
 * holding "someone else's file\n"; renamedir renames the directory named
 * by SYNCPROBE_FAULT_PATH to PATH.renamed. Logged as "swap KIND N".
 *
 *   SYNCPROBE_FAULT_SYNC_DELAY_US=N
 *
 * makes the disk slow instead of failing: every fdatasync and fsync, and
 * every pwrite to a descriptor opened with O_DSYNC or O_SYNC, sleeps N
 * microseconds before the real call (on files under SYNCPROBE_FAULT_PATH
 * only, when that is set), as a disk that takes N us to flush would. The
 * benches load it into a PostgreSQL server and into syncprobe alike
 * (bench/pgbench_delay.sh, bench/slowdisk.sh).
 *
 *   SYNCPROBE_FAULT_SYNC_DELAY_EVERY=N   SYNCPROBE_FAULT_SYNC_DELAY_REOPEN=K
 *
 * make that delay a stall now and then instead: only every Nth of the
 * syncs it would slow sleeps (default 1, every one), and with K only those
 * on the descriptor the Kth reopen of the test file returned (counted as
 * SYNCPROBE_SWAP counts them), so that a test can aim the stalls at one
 * row. Each delay is logged as "delay N", N its number among the syncs
 * that were candidates.
 *
 *   SYNCPROBE_FAULT_LOG=FILE
 *
 * appends "loaded" when the library is loaded, "OP N ERRNO" for each
 * failure it injected, and at exit "calls OP N" for each OP called, so a
 * test can tell that preloading works here, that the error syncprobe
 * reports is the injected one, and how often a call was made (a retry).
 *
 * Built by a plain rule in Makefile.am (no libtool), never linked into
 * syncprobe. The real calls are found with dlsym(RTLD_NEXT), which also
 * lets it sit in front of a sanitizer's interceptors.
 *
 * Portable between C libraries: glibc has large-file entry points of their
 * own (pwrite64, open64, openat64) and fortified ones (__open_2); musl
 * maps the 64 names to the plain ones with macros (pwrite64 is pwrite
 * there), so each such definition is made only where its name is not a
 * macro (LFS64 below). */

/* The shim defines open() and pwrite() itself, so it must see the plain
 * declarations: not the large-file renames, not the fortified inlines. */
#undef _FORTIFY_SOURCE
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define MAX_FAULTS  8
#define MAX_FD      1024	/* descriptors above this are never counted */
#define EXIT_CONFIG 125	/* a bad SYNCPROBE_FAULT: the test is wrong */

#ifndef O_DIRECT
#define O_DIRECT 0	/* no direct I/O here: open_direct never matches */
#endif

enum fault_op {
	OP_PWRITE, OP_FDATASYNC, OP_FSYNC, OP_CLOSE, OP_OPEN, OP_OPEN_DIRECT,
	OP_MALLOC, OP_CALLOC, OP_POSIX_MEMALIGN, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"pwrite", "fdatasync", "fsync", "close", "open", "open_direct",
	"malloc", "calloc", "posix_memalign"
};

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{ "EIO",    EIO },    { "ENOSPC", ENOSPC }, { "EFBIG",  EFBIG },
	{ "EDQUOT", EDQUOT }, { "EROFS",  EROFS },  { "EACCES", EACCES },
	{ "EPERM",  EPERM },  { "EINVAL", EINVAL }, { "EINTR",  EINTR },
	{ "ENOMEM", ENOMEM }, { "EBADF",  EBADF },
	{ "SHORT",  0 },	/* pwrite: write half, return that */
};

/* The signals a fault can send instead of failing the call. */
static const struct {
	const char *name;
	int value;
} signal_names[] = {
	{ "SIGINT", SIGINT }, { "SIGTERM", SIGTERM }, { "SIGHUP", SIGHUP },
};

struct fault {
	enum fault_op op;
	const char *errname;
	int err;
	int sig;	/* a signal to send instead, or 0 */
	unsigned long nth;
};

static struct fault faults[MAX_FAULTS];
static size_t nfaults;
/* Atomic: the group-commit experiment's threads allocate at once, and
 * two of them must never take the same call number (both failed) or
 * step past the Nth together (none failed). */
static atomic_ulong calls[OP_COUNT];
static const char *only_path;		/* SYNCPROBE_FAULT_PATH, or NULL */
static unsigned long sync_delay_us;	/* SYNCPROBE_FAULT_SYNC_DELAY_US */
static pid_t loader;			/* the process that loaded the shim */
static unsigned long delay_every = 1;	/* SYNCPROBE_FAULT_SYNC_DELAY_EVERY */
static unsigned long delay_reopen;	/* SYNCPROBE_FAULT_SYNC_DELAY_REOPEN, or 0 */
static unsigned long delay_candidates, delay_reopens;
static int delay_fd = -1;		/* the Kth reopen's descriptor, while open */
static unsigned char tracked[MAX_FD];	/* fds of files under only_path */

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef int (*fd_fn)(int);
typedef int (*open_fn)(const char *, int, ...);
typedef int (*open2_fn)(const char *, int);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*openat2_fn)(int, const char *, int);
typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef int (*memalign_fn)(void **, size_t, size_t);
typedef void *(*aligned_fn)(size_t, size_t);

/* A large-file entry point of its own: defined only where the C library
 * does not map the name to the plain call with a macro (musl does). */
#if defined(pwrite64) || defined(open64) || defined(openat64)
#define LFS64 0
#else
#define LFS64 1
#endif

static pwrite_fn real_pwrite;
static pwrite64_fn real_pwrite64;
static fd_fn real_fdatasync, real_fsync, real_close;
static open_fn real_open, real_open64;
static open2_fn real_open_2, real_open64_2;
static openat_fn real_openat, real_openat64;
static openat2_fn real_openat_2, real_openat64_2;
static malloc_fn real_malloc;
static calloc_fn real_calloc;
static memalign_fn real_posix_memalign;
static aligned_fn real_aligned_alloc;

/* Our definitions of glibc's entry points for a fortified open() without a
 * mode; declared here because no header does outside fortified builds. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

/* SYNCPROBE_SWAP: what to do to the test file, and before which reopen. */
enum swap_kind { SWAP_NONE, SWAP_SYMLINK, SWAP_FILE, SWAP_RENAMEDIR };
static const char *const swap_names[] = { "none", "symlink", "file", "renamedir" };
static enum swap_kind swap_kind;
static unsigned long swap_nth, swap_calls;

static void *
next_symbol(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void
resolve(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	real_pwrite = (pwrite_fn)next_symbol("pwrite");
	real_pwrite64 = (pwrite64_fn)next_symbol("pwrite64");
	real_fdatasync = (fd_fn)next_symbol("fdatasync");
	real_fsync = (fd_fn)next_symbol("fsync");
	real_close = (fd_fn)next_symbol("close");
	real_open = (open_fn)next_symbol("open");
	real_open64 = (open_fn)next_symbol("open64");
	real_open_2 = (open2_fn)next_symbol("__open_2");
	real_open64_2 = (open2_fn)next_symbol("__open64_2");
	real_openat = (openat_fn)next_symbol("openat");
	real_openat64 = (openat_fn)next_symbol("openat64");
	real_openat_2 = (openat2_fn)next_symbol("__openat_2");
	real_openat64_2 = (openat2_fn)next_symbol("__openat64_2");
	real_malloc = (malloc_fn)next_symbol("malloc");
	real_calloc = (calloc_fn)next_symbol("calloc");
	real_posix_memalign = (memalign_fn)next_symbol("posix_memalign");
	real_aligned_alloc = (aligned_fn)next_symbol("aligned_alloc");
}

static void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die_config(const char *spec, const char *why) __attribute__((noreturn));

/* Append a line to SYNCPROBE_FAULT_LOG through the real calls, so that
 * logging is never counted or failed itself. */
static void
shim_log(const char *fmt, ...)
{
	const char *path = getenv("SYNCPROBE_FAULT_LOG");
	char line[160];
	va_list ap;
	int fd, n, saved = errno;

	if (path == NULL || *path == '\0' || real_open == NULL || real_close == NULL)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof line)
		n = (int)sizeof line - 1;
	fd = real_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n)
			n = -1;
		real_close(fd);
	}
	errno = saved;
}

static void
die_config(const char *spec, const char *why)
{
	fprintf(stderr, "faultshim: SYNCPROBE_FAULT '%s': %s\n", spec, why);
	_exit(EXIT_CONFIG);
}

/* Parse one OP:ERRNO:N. */
static void
parse_fault(const char *spec, const char *item, size_t len)
{
	char buf[64], *op, *err, *nth, *end;
	struct fault *f;
	size_t i;

	if (len >= sizeof buf)
		die_config(spec, "entry too long");
	if (nfaults == MAX_FAULTS)
		die_config(spec, "too many entries");
	memcpy(buf, item, len);
	buf[len] = '\0';
	op = buf;
	if ((err = strchr(op, ':')) == NULL || (nth = strchr(err + 1, ':')) == NULL)
		die_config(spec, "want OP:ERRNO:N");
	*err++ = '\0';
	*nth++ = '\0';
	f = &faults[nfaults];
	for (i = 0; i < OP_COUNT && strcmp(op_names[i], op) != 0; i++)
		;
	if (i == OP_COUNT)
		die_config(spec, "unknown OP (pwrite, fdatasync, fsync, close, open, open_direct, "
		    "malloc, calloc, posix_memalign)");
	f->op = (enum fault_op)i;
	f->sig = 0;
	for (i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
		if (strcmp(signal_names[i].name, err) == 0) {
			f->errname = signal_names[i].name;
			f->sig = signal_names[i].value;
		}
	for (i = 0; f->sig == 0 && i < sizeof errno_names / sizeof errno_names[0]; i++)
		if (strcmp(errno_names[i].name, err) == 0)
			break;
	if (f->sig == 0 && i == sizeof errno_names / sizeof errno_names[0])
		die_config(spec, "unknown ERRNO name");
	if (f->sig == 0) {
		f->errname = errno_names[i].name;
		f->err = errno_names[i].value;
	}
	if (f->sig == 0 && f->err == 0 && f->op != OP_PWRITE)
		die_config(spec, "SHORT is for pwrite only");
	errno = 0;
	f->nth = strtoul(nth, &end, 10);
	if (*nth == '\0' || *end != '\0' || errno != 0 || f->nth == 0)
		die_config(spec, "N must be a whole number from 1");
	nfaults++;
}

/* A whole number from min to max from the variable name, or dflt when it
 * is not set. */
static unsigned long
env_number(const char *name, unsigned long min, unsigned long max, unsigned long dflt)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (s == NULL || *s == '\0')
		return dflt;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "faultshim: %s '%s': must be %lu..%lu\n", name, s, min, max);
		_exit(EXIT_CONFIG);
	}
	return v;
}

static void
parse_delay(void)
{
	sync_delay_us = env_number("SYNCPROBE_FAULT_SYNC_DELAY_US", 0, 10000000UL, 0);
	delay_every = env_number("SYNCPROBE_FAULT_SYNC_DELAY_EVERY", 1, 1000000000UL, 1);
	delay_reopen = env_number("SYNCPROBE_FAULT_SYNC_DELAY_REOPEN", 1, 1000000000UL, 0);
}

/* Parse SYNCPROBE_SWAP=KIND:N. */
static void
parse_swap(const char *spec)
{
	const char *colon = strchr(spec, ':');
	char *end;
	size_t i;

	for (i = 1; i < sizeof swap_names / sizeof swap_names[0]; i++)
		if (colon != NULL && strlen(swap_names[i]) == (size_t)(colon - spec) &&
		    strncmp(swap_names[i], spec, (size_t)(colon - spec)) == 0)
			break;
	if (i == sizeof swap_names / sizeof swap_names[0])
		die_config(spec, "SYNCPROBE_SWAP wants symlink:N, file:N or renamedir:N");
	swap_kind = (enum swap_kind)i;
	errno = 0;
	swap_nth = strtoul(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || errno != 0 || swap_nth == 0)
		die_config(spec, "N must be a whole number from 1");
}

__attribute__((constructor)) static void
shim_init(void)
{
	const char *spec = getenv("SYNCPROBE_FAULT");
	const char *p;

	resolve();
	loader = getpid();
	only_path = getenv("SYNCPROBE_FAULT_PATH");
	if (only_path != NULL && *only_path == '\0')
		only_path = NULL;
	parse_delay();
	if (spec != NULL && *spec != '\0') {
		for (p = spec;;) {
			size_t len = strcspn(p, ",");

			parse_fault(spec, p, len);
			p += len;
			if (*p == '\0')
				break;
			p++;
		}
	}
	if ((p = getenv("SYNCPROBE_SWAP")) != NULL && *p != '\0')
		parse_swap(p);
	shim_log("loaded\n");
}

/* At exit, how many times each call was made (and counted). */
__attribute__((destructor)) static void
shim_report(void)
{
	size_t i;

	for (i = 0; i < OP_COUNT; i++)
		if (atomic_load(&calls[i]) > 0)
			shim_log("calls %s %lu\n", op_names[i], atomic_load(&calls[i]));
}

/* Count a call of op; true (errno set) when this call is to fail. */
static int
inject(enum fault_op op)
{
	unsigned long n = atomic_fetch_add(&calls[op], 1) + 1;	/* this call's number */
	size_t i;

	for (i = 0; i < nfaults; i++)
		if (faults[i].op == op && faults[i].nth == n) {
			shim_log("%s %lu %s\n", op_names[op], n, faults[i].errname);
			if (faults[i].sig != 0) {
				kill(loader, faults[i].sig);
				return 0;	/* the call goes on */
			}
			errno = faults[i].err;
			return 1;
		}
	return 0;
}

/* Whether calls on this path, or on this descriptor, are counted. */
static int
path_counts(const char *path)
{
	return only_path == NULL || (path != NULL && strstr(path, only_path) != NULL);
}

static int
fd_counts(int fd)
{
	return only_path == NULL || (fd >= 0 && fd < MAX_FD && tracked[fd]);
}

static int
inject_fd(enum fault_op op, int fd)
{
	return fd_counts(fd) && inject(op);
}

static int
inject_open(int flags)
{
	int fail;

	/* Both counters move, whichever of them fails the call. */
	fail = inject(OP_OPEN);
	if ((flags & O_DIRECT) && O_DIRECT != 0)
		fail |= inject(OP_OPEN_DIRECT);
	return fail;
}

static int
needs_mode(int flags)
{
#ifdef O_TMPFILE
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return 1;
#endif
	return (flags & O_CREAT) != 0;
}

/* The interposed calls. Each counts itself, fails when its turn has come,
 * and otherwise hands over to the real call untouched. */
/* The slow disk: sleep before a sync call, or a write that is one (always
 * is_sync; else an O_DSYNC/O_SYNC descriptor), on a counted descriptor. */
static void
slow_disk(int fd, int is_sync)
{
	struct timespec ts;

	if (sync_delay_us == 0 || (only_path != NULL && !fd_counts(fd)))
		return;
	if (!is_sync && !(fcntl(fd, F_GETFL) & O_DSYNC))
		return;
	if (delay_reopen != 0 && fd != delay_fd)
		return;
	if (++delay_candidates % delay_every != 0)
		return;
	shim_log("delay %lu\n", delay_candidates);
	ts.tv_sec = (time_t)(sync_delay_us / 1000000UL);
	ts.tv_nsec = (long)(sync_delay_us % 1000000UL) * 1000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

ssize_t
pwrite(int fd, const void *buf, size_t len, off_t off)
{
	resolve();
	if (!inject_fd(OP_PWRITE, fd)) {
		slow_disk(fd, 0);
		return real_pwrite(fd, buf, len, off);
	}
	/* errno 0: the SHORT write, half of it really written. */
	return errno == 0 ? real_pwrite(fd, buf, len / 2, off) : -1;
}

#if LFS64
ssize_t
pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	resolve();
	if (!inject_fd(OP_PWRITE, fd)) {
		slow_disk(fd, 0);
		return real_pwrite64(fd, buf, len, off);
	}
	return errno == 0 ? real_pwrite64(fd, buf, len / 2, off) : -1;
}
#endif

int
fdatasync(int fd)
{
	resolve();
	if (inject_fd(OP_FDATASYNC, fd))
		return -1;
	slow_disk(fd, 1);
	return real_fdatasync(fd);
}

int
fsync(int fd)
{
	resolve();
	if (inject_fd(OP_FSYNC, fd))
		return -1;
	slow_disk(fd, 1);
	return real_fsync(fd);
}

int
close(int fd)
{
	int failed;

	resolve();
	failed = inject_fd(OP_CLOSE, fd);
	if (fd >= 0 && fd < MAX_FD)
		tracked[fd] = 0;
	if (fd == delay_fd)
		delay_fd = -1;
	/* As on Linux, the descriptor is gone even when close fails, so an
	 * injected failure leaks nothing. */
	if (real_close(fd) == -1 || failed)
		return -1;
	return 0;
}

/* Someone else's move, as SYNCPROBE_SWAP says, before the reopen of
 * path (relative to dirfd) goes on. Done with the real calls; a step that
 * fails is logged, and the open then sees whatever is there. */
static void
swap_now(int dirfd, const char *path)
{
	const char *decoy = getenv("SYNCPROBE_SWAP_DECOY");
	char moved[4096];
	int fd, ok = 0;

	snprintf(moved, sizeof moved, "%s.moved", path);
	switch (swap_kind) {
	case SWAP_NONE:
		return;
	case SWAP_RENAMEDIR:
		snprintf(moved, sizeof moved, "%s.renamed", only_path ? only_path : ".");
		ok = only_path != NULL && rename(only_path, moved) == 0;
		break;
	case SWAP_SYMLINK:
		ok = renameat(dirfd, path, dirfd, moved) == 0 &&
		    symlinkat(decoy ? decoy : "/nonexistent", dirfd, path) == 0;
		break;
	case SWAP_FILE:
		ok = renameat(dirfd, path, dirfd, moved) == 0 &&
		    (fd = real_openat(dirfd, path, O_WRONLY | O_CREAT | O_EXCL, 0644)) >= 0;
		if (ok) {
			ok = write(fd, "someone else's file\n", 20) == 20;
			real_close(fd);
		}
		break;
	}
	shim_log("swap %s %lu%s\n", swap_names[swap_kind], swap_calls, ok ? "" : " failed");
}

/* Whether an open of path with flags opens the test file (or the
 * durability file) again: no O_CREAT, a name that starts ".syncprobe." or
 * is "syncprobe-durability". */
static int
is_test_file_reopen(const char *path, int flags)
{
	const char *base;

	if (path == NULL || (flags & O_CREAT))
		return 0;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strncmp(base, ".syncprobe.", 11) == 0 || strcmp(base, "syncprobe-durability") == 0;
}

/* Whether this open is a reopen of the test file, and the one to swap. */
static void
maybe_swap(int dirfd, const char *path, int flags)
{
	if (swap_kind == SWAP_NONE || !is_test_file_reopen(path, flags))
		return;
	if (++swap_calls == swap_nth)
		swap_now(dirfd, path);
}

/* Whether an open relative to dirfd is counted: a counted path, or any
 * name in a directory opened on one. */
static int
openat_counts(int dirfd, const char *path)
{
	return path_counts(path) || (dirfd >= 0 && dirfd < MAX_FD && tracked[dirfd]);
}

/* glibc's eight ways into open: open, open64, openat and openat64 (the
 * mode only when a file is created), and the fortified __open_2,
 * __open64_2, __openat_2 and __openat64_2 (no mode). */
enum open_entry {
	ENTRY_OPEN, ENTRY_OPEN64, ENTRY_OPEN_2, ENTRY_OPEN64_2,
	ENTRY_OPENAT, ENTRY_OPENAT64, ENTRY_OPENAT_2, ENTRY_OPENAT64_2
};

static int
real_open_entry(enum open_entry entry, int dirfd, const char *path, int flags, mode_t mode)
{
	switch (entry) {
	case ENTRY_OPEN64:
		if (real_open64 != NULL)
			return real_open64(path, flags, mode);
		break;
	case ENTRY_OPEN_2:
		if (real_open_2 != NULL)
			return real_open_2(path, flags);
		break;
	case ENTRY_OPEN64_2:
		if (real_open64_2 != NULL)
			return real_open64_2(path, flags);
		break;
	case ENTRY_OPENAT64:
		if (real_openat64 != NULL)
			return real_openat64(dirfd, path, flags, mode);
		return real_openat(dirfd, path, flags, mode);
	case ENTRY_OPENAT_2:
		if (real_openat_2 != NULL)
			return real_openat_2(dirfd, path, flags);
		return real_openat(dirfd, path, flags, mode);
	case ENTRY_OPENAT64_2:
		if (real_openat64_2 != NULL)
			return real_openat64_2(dirfd, path, flags);
		return real_openat(dirfd, path, flags, mode);
	case ENTRY_OPENAT:
		return real_openat(dirfd, path, flags, mode);
	case ENTRY_OPEN:
		break;
	}
	return real_open(path, flags, mode);
}

/* Every open: counted (and failed, when its turn has come) if it is on a
 * counted path or in a counted directory; its descriptor then counted
 * too. dirfd is AT_FDCWD for the open() family. */
static int
shim_open(enum open_entry entry, int dirfd, const char *path, int flags, mode_t mode)
{
	int counts, fd;

	resolve();
	counts = openat_counts(dirfd, path);
	maybe_swap(dirfd, path, flags);
	if (counts && inject_open(flags))
		return -1;
	fd = real_open_entry(entry, dirfd, path, flags, mode);
	if (fd >= 0 && delay_reopen != 0 && is_test_file_reopen(path, flags) &&
	    ++delay_reopens == delay_reopen)
		delay_fd = fd;
	if (only_path != NULL && fd >= 0 && fd < MAX_FD)
		tracked[fd] = (unsigned char)counts;
	return fd;
}

/* The mode argument, present only when open() may create a file. */
#define MODE_ARG(flags, mode) do {				\
	va_list ap_;						\
								\
	(mode) = 0;						\
	if (needs_mode(flags)) {				\
		va_start(ap_, flags);				\
		(mode) = (mode_t)va_arg(ap_, int);		\
		va_end(ap_);					\
	}							\
} while (0)

/* One family of entry points, the plain names and (where they are their
 * own functions) the large-file ones: the same definitions, so made by
 * one macro. SHIM_OPEN_FAMILY(SUFFIX) defines open, __open_2, openat and
 * __openat_2 with SUFFIX (nothing, or 64) after "open". */
#define SHIM_OPEN_FAMILY(sfx)						\
int									\
open##sfx(const char *path, int flags, ...)				\
{									\
	mode_t mode;							\
									\
	MODE_ARG(flags, mode);						\
	return shim_open(ENTRY_OPEN##sfx, AT_FDCWD, path, flags, mode);	\
}									\
									\
int									\
__open##sfx##_2(const char *path, int flags)				\
{									\
	return shim_open(ENTRY_OPEN##sfx##_2, AT_FDCWD, path, flags, 0);	\
}									\
									\
int									\
openat##sfx(int dirfd, const char *path, int flags, ...)		\
{									\
	mode_t mode;							\
									\
	MODE_ARG(flags, mode);						\
	return shim_open(ENTRY_OPENAT##sfx, dirfd, path, flags, mode);	\
}									\
									\
int									\
__openat##sfx##_2(int dirfd, const char *path, int flags)		\
{									\
	return shim_open(ENTRY_OPENAT##sfx##_2, dirfd, path, flags, 0);	\
}

SHIM_OPEN_FAMILY()
#if LFS64
SHIM_OPEN_FAMILY(64)
#endif

/* The allocations. Looking the real ones up must not allocate (glibc's and
 * musl's dlsym do not), so no bootstrap heap is needed. Where a program
 * defines malloc, musl's aligned_alloc (and posix_memalign) fail with
 * ENOMEM unless aligned_alloc is defined too: so it is, passed on. */
void *
malloc(size_t size)
{
	resolve();
	return inject(OP_MALLOC) ? NULL : real_malloc(size);
}

void *
calloc(size_t n, size_t size)
{
	resolve();
	return inject(OP_CALLOC) ? NULL : real_calloc(n, size);
}

int
posix_memalign(void **p, size_t align, size_t size)
{
	resolve();
	return inject(OP_POSIX_MEMALIGN) ? ENOMEM : real_posix_memalign(p, align, size);
}

void *
aligned_alloc(size_t align, size_t size)
{
	resolve();
	return real_aligned_alloc(align, size);
}
