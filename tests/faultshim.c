/* faultshim.c: an LD_PRELOAD library for tests/cli_faults.sh that makes one
 * system call fail, so that syncprobe's error paths (the message, the exit
 * status, the test file removed) can be tested without a failing disk.
 *
 *   SYNCPROBE_FAULT=OP:ERRNO:N[,OP:ERRNO:N]...
 *
 * fails the Nth call (counting from 1) of OP with ERRNO, and no other call.
 * OP is pwrite, fdatasync, fsync, close, open (any open) or open_direct (an
 * open with O_DIRECT); ERRNO is a name such as EIO or ENOSPC. The failed
 * call is not passed on: nothing is written, synced or opened.
 *
 *   SYNCPROBE_FAULT_PATH=TEXT
 *
 * counts only calls on files whose path contains TEXT: opens (and mkstemp)
 * of such a path, and pwrite, fsync, fdatasync and close of the descriptors
 * they returned. Set to the target directory, it keeps the count on the
 * test file and its directory whatever else the program opens.
 *
 *   SYNCPROBE_FAULT_SYNC_DELAY_US=N
 *
 * makes every fdatasync and fsync that counts (see SYNCPROBE_FAULT_PATH)
 * last N microseconds longer: the real call, then a sleep, as a disk that
 * takes that long to flush would block the caller. For bench/
 * pgbench_delay.sh, which loads it into a PostgreSQL server and into
 * syncprobe alike to compare them on a disk that flushes in milliseconds.
 *
 *   SYNCPROBE_FAULT_LOG=FILE
 *
 * appends "loaded" when the library is loaded and "OP N ERRNO" for each
 * failure it injected, so a test can tell that preloading works here and
 * that the error syncprobe reports is the injected one.
 *
 * Built by a plain rule in Makefile.am (no libtool), never linked into
 * syncprobe. The real calls are found with dlsym(RTLD_NEXT), which also
 * lets it sit in front of a sanitizer's interceptors. */

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
#include <stdarg.h>
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
	OP_PWRITE, OP_FDATASYNC, OP_FSYNC, OP_CLOSE, OP_OPEN, OP_OPEN_DIRECT, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"pwrite", "fdatasync", "fsync", "close", "open", "open_direct"
};

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{ "EIO",    EIO },    { "ENOSPC", ENOSPC }, { "EFBIG",  EFBIG },
	{ "EDQUOT", EDQUOT }, { "EROFS",  EROFS },  { "EACCES", EACCES },
	{ "EPERM",  EPERM },  { "EINVAL", EINVAL }, { "EINTR",  EINTR },
	{ "ENOMEM", ENOMEM }, { "EBADF",  EBADF },
};

struct fault {
	enum fault_op op;
	const char *errname;
	int err;
	unsigned long nth;
};

static struct fault faults[MAX_FAULTS];
static size_t nfaults;
static unsigned long calls[OP_COUNT];
static const char *only_path;		/* SYNCPROBE_FAULT_PATH, or NULL */
static unsigned long sync_delay_us;	/* SYNCPROBE_FAULT_SYNC_DELAY_US */
static unsigned char tracked[MAX_FD];	/* fds of files under only_path */

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);
typedef int (*fd_fn)(int);
typedef int (*open_fn)(const char *, int, ...);
typedef int (*open2_fn)(const char *, int);
typedef int (*mkstemp_fn)(char *);

static pwrite_fn real_pwrite;
static pwrite64_fn real_pwrite64;
static fd_fn real_fdatasync, real_fsync, real_close;
static open_fn real_open, real_open64;
static open2_fn real_open_2, real_open64_2;
static mkstemp_fn real_mkstemp, real_mkstemp64;

/* Our definitions of glibc's entry points for a fortified open() without a
 * mode; declared here because no header does outside fortified builds. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

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
	real_mkstemp = (mkstemp_fn)next_symbol("mkstemp");
	real_mkstemp64 = (mkstemp_fn)next_symbol("mkstemp64");
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
		die_config(spec, "unknown OP (pwrite, fdatasync, fsync, close, open, open_direct)");
	f->op = (enum fault_op)i;
	for (i = 0; i < sizeof errno_names / sizeof errno_names[0]; i++)
		if (strcmp(errno_names[i].name, err) == 0)
			break;
	if (i == sizeof errno_names / sizeof errno_names[0])
		die_config(spec, "unknown ERRNO name");
	f->errname = errno_names[i].name;
	f->err = errno_names[i].value;
	errno = 0;
	f->nth = strtoul(nth, &end, 10);
	if (*nth == '\0' || *end != '\0' || errno != 0 || f->nth == 0)
		die_config(spec, "N must be a whole number from 1");
	nfaults++;
}

/* SYNCPROBE_FAULT_SYNC_DELAY_US: microseconds, 0 when unset. */
static unsigned long
parse_delay(const char *s)
{
	unsigned long v;
	char *end;

	if (s == NULL || *s == '\0')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || errno != 0 || v > 10000000UL)
		die_config(s, "SYNCPROBE_FAULT_SYNC_DELAY_US must be microseconds, at most 10 s");
	return v;
}

__attribute__((constructor)) static void
shim_init(void)
{
	const char *spec = getenv("SYNCPROBE_FAULT");
	const char *p;

	resolve();
	only_path = getenv("SYNCPROBE_FAULT_PATH");
	if (only_path != NULL && *only_path == '\0')
		only_path = NULL;
	sync_delay_us = parse_delay(getenv("SYNCPROBE_FAULT_SYNC_DELAY_US"));
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
	shim_log("loaded\n");
}

/* Count a call of op; true (errno set) when this call is to fail. */
static int
inject(enum fault_op op)
{
	size_t i;

	calls[op]++;
	for (i = 0; i < nfaults; i++)
		if (faults[i].op == op && faults[i].nth == calls[op]) {
			shim_log("%s %lu %s\n", op_names[op], calls[op], faults[i].errname);
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

/* Remember a descriptor opened on a counted path. */
static int
track(const char *path, int fd)
{
	if (only_path != NULL && fd >= 0 && fd < MAX_FD)
		tracked[fd] = path_counts(path);
	return fd;
}

static int
inject_open(const char *path, int flags)
{
	int fail;

	if (!path_counts(path))
		return 0;
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
ssize_t
pwrite(int fd, const void *buf, size_t len, off_t off)
{
	resolve();
	return inject_fd(OP_PWRITE, fd) ? -1 : real_pwrite(fd, buf, len, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t len, off64_t off)
{
	resolve();
	return inject_fd(OP_PWRITE, fd) ? -1 : real_pwrite64(fd, buf, len, off);
}

/* A slower disk: the sync returns sync_delay_us later. */
static int
delayed(int fd, int rc)
{
	struct timespec ts;
	int saved = errno;

	if (sync_delay_us == 0 || !fd_counts(fd))
		return rc;
	ts.tv_sec = (time_t)(sync_delay_us / 1000000UL);
	ts.tv_nsec = (long)(sync_delay_us % 1000000UL) * 1000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
	errno = saved;
	return rc;
}

int
fdatasync(int fd)
{
	resolve();
	return inject_fd(OP_FDATASYNC, fd) ? -1 : delayed(fd, real_fdatasync(fd));
}

int
fsync(int fd)
{
	resolve();
	return inject_fd(OP_FSYNC, fd) ? -1 : delayed(fd, real_fsync(fd));
}

int
close(int fd)
{
	int failed;

	resolve();
	failed = inject_fd(OP_CLOSE, fd);
	if (fd >= 0 && fd < MAX_FD)
		tracked[fd] = 0;
	/* As on Linux, the descriptor is gone even when close fails, so an
	 * injected failure leaks nothing. */
	if (real_close(fd) == -1 || failed)
		return -1;
	return 0;
}

/* glibc's four ways into open: open and open64 (the mode only when a file
 * is created), and the fortified __open_2 and __open64_2 (no mode). */
enum open_entry { ENTRY_OPEN, ENTRY_OPEN64, ENTRY_OPEN_2, ENTRY_OPEN64_2 };

static int
shim_open(enum open_entry entry, const char *path, int flags, mode_t mode)
{
	resolve();
	if (inject_open(path, flags))
		return -1;
	if (entry == ENTRY_OPEN64 && real_open64 != NULL)
		return track(path, real_open64(path, flags, mode));
	if (entry == ENTRY_OPEN_2 && real_open_2 != NULL)
		return track(path, real_open_2(path, flags));
	if (entry == ENTRY_OPEN64_2 && real_open64_2 != NULL)
		return track(path, real_open64_2(path, flags));
	return track(path, real_open(path, flags, mode));
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

int
open(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(ENTRY_OPEN, path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode;

	MODE_ARG(flags, mode);
	return shim_open(ENTRY_OPEN64, path, flags, mode);
}

int
__open_2(const char *path, int flags)
{
	return shim_open(ENTRY_OPEN_2, path, flags, 0);
}

int
__open64_2(const char *path, int flags)
{
	return shim_open(ENTRY_OPEN64_2, path, flags, 0);
}

/* mkstemp opens inside the C library, out of our reach: only watched, so
 * that the descriptor of the file it creates is counted. */
int
mkstemp(char *template)
{
	resolve();
	return track(template, real_mkstemp(template));
}

int
mkstemp64(char *template)
{
	resolve();
	return track(template, (real_mkstemp64 ? real_mkstemp64 : real_mkstemp)(template));
}
