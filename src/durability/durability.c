/* durability.c: the durability writer and verifier (durability.h) and the
 * handling of their file. syncprobe runs as root in directories others
 * can write, so the directory is opened once and the file reached only
 * through it (openat, O_NOFOLLOW). The writer creates its file
 * exclusively, checks that it is a regular file and, when it reopens it,
 * the same one, and writes nothing else. The verifier only reads, and
 * believes a file only once its header says what it is. */
#include "config.h"

#include "durability/durability.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/method.h"
#include "util/diag.h"
#include "util/platform.h"
#include "report/report.h"
#include "util/space.h"
#include "util/status.h"

#define WHY_LEN       512			/* why, without a path */
#define ERR_LEN       (PATH_MAX + WHY_LEN + 64)	/* a path or two and why */
#define CREATE_FLAGS  (O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC)
#define REOPEN_FLAGS  (O_RDWR | O_NOFOLLOW | O_CLOEXEC)
#define VERIFY_FLAGS  (O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)

/* Set by the handler of SIGINT, SIGTERM and SIGHUP: the writer stops
 * before its next record. The signal path's one piece of global state. */
static volatile sig_atomic_t stop_requested;

/* Where the durability file is: a directory held open and a name in it. */
struct place {
	char path[PATH_MAX];	/* for messages and the header line */
	char dir[PATH_MAX];
	char name[PATH_MAX];
	int dirfd;
};

struct writer {
	const struct options *o;
	const struct method *method;
	struct durable_header header;
	struct place place;
	int fd;
	unsigned char *block;	/* one block, aligned for direct I/O */
};

/* ---- Adapters: the only code here that knows the method table and the
 * platform's open and sync calls; repoint them when those change. ---- */

/* The one method the writer uses: -m's, else the platform's default
 * wal_sync_method. NULL, with the reason in err, when it cannot run. */
static const struct method *
method_for(const struct options *o, char *err, size_t errlen)
{
	const struct method *m = NULL;
	const char *why;
	size_t i;

	for (i = 0; i < METHOD_COUNT; i++)
		if (o->methods == 1u << i)
			m = &method_table[i];
	if (m == NULL)
		m = method_platform_default();
	if ((why = method_unavailable(m)) != NULL) {
		snprintf(err, errlen, "--methods '%s': %s", m->name, why);
		return NULL;
	}
	return m;
}

/* The open flags that make each write synchronous (open_* methods). */
static int
open_flags_for(const struct method *m)
{
	return method_open_flags(m);
}

static int
open_direct_for(int dirfd, const char *name, int flags, const char **what)
{
	return platform_open_direct(dirfd, name, flags, what);
}

/* The call that makes the record durable (none for open_* methods: their
 * write returned only once it was), and its name for messages. */
static int
sync_for(const struct method *m, int fd)
{
	return method_sync(m, fd);
}

static const char *
sync_name_for(const struct method *m)
{
	return method_sync_op(m);
}

/* ---- The place of the file ---- */

/* From -f FILE, or TARGET (default .) and DURABILITY_FILE_NAME. */
static int
place_resolve(struct place *pl, const struct options *o, char *err, size_t errlen)
{
	const char *slash;
	int n;

	memset(pl, 0, sizeof *pl);
	pl->dirfd = -1;
	if (o->filename != NULL) {
		n = snprintf(pl->path, sizeof pl->path, "%s", o->filename);
		slash = strrchr(pl->path, '/');
		if (slash == NULL)
			snprintf(pl->dir, sizeof pl->dir, ".");
		else
			snprintf(pl->dir, sizeof pl->dir, "%.*s", slash == pl->path ? 1 :
			    (int)(slash - pl->path), pl->path);
		snprintf(pl->name, sizeof pl->name, "%s", slash ? slash + 1 : pl->path);
	} else {
		const char *dir = o->ntargets ? o->targets[0] : ".";

		snprintf(pl->dir, sizeof pl->dir, "%s", dir);
		snprintf(pl->name, sizeof pl->name, "%s", DURABILITY_FILE_NAME);
		n = snprintf(pl->path, sizeof pl->path, "%s%s%s", dir,
		    dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", DURABILITY_FILE_NAME);
	}
	if (n < 0 || (size_t)n >= sizeof pl->path) {
		snprintf(err, errlen, "%.60s...: %s", pl->path, strerror(ENAMETOOLONG));
		return -1;
	}
	if (pl->name[0] == '\0' || strcmp(pl->name, ".") == 0 || strcmp(pl->name, "..") == 0) {
		snprintf(err, errlen, "%s: names no file (give -f a file name)", pl->path);
		return -1;
	}
	return 0;
}

static int
place_open_dir(struct place *pl, char *err, size_t errlen)
{
	pl->dirfd = open(pl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pl->dirfd >= 0)
		return 0;
	if (errno == ENOTDIR)
		snprintf(err, errlen, "%s: not a directory (give a directory)", pl->dir);
	else
		snprintf(err, errlen, "%s: %s (give an existing directory)", pl->dir, strerror(errno));
	return -1;
}

static void
place_close(struct place *pl)
{
	/* A read-only directory descriptor: a failed close loses nothing. */
	if (pl->dirfd >= 0)
		(void)close(pl->dirfd);
	pl->dirfd = -1;
}

/* Whether the name still leads to the file open as fd (no one swapped
 * it since), which must be a regular file. */
static bool
place_holds(const struct place *pl, int fd)
{
	struct stat named, opened;

	if (fstat(fd, &opened) == -1 || !S_ISREG(opened.st_mode))
		return false;
	if (fstatat(pl->dirfd, pl->name, &named, AT_SYMLINK_NOFOLLOW) == -1)
		return false;
	return named.st_dev == opened.st_dev && named.st_ino == opened.st_ino;
}

/* Remove the name, if it is still the file open as fd. */
static int
place_remove(const struct place *pl, int fd, char *err, size_t errlen)
{
	if (!place_holds(pl, fd)) {
		snprintf(err, errlen, "%s: not removed (it is no longer the file that was "
		    "opened)", pl->path);
		return -1;
	}
	if (unlinkat(pl->dirfd, pl->name, 0) == -1) {
		snprintf(err, errlen, "remove %s: %s", pl->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- Small I/O helpers ---- */

/* All len bytes at off, or -1 with errno (ENOSPC for a short write). */
static int
write_at(int fd, const unsigned char *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

/* Up to len bytes at off: fewer only where the file ends; -1 with errno. */
static ssize_t
read_at(int fd, unsigned char *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* One line on stderr, the form every error takes; the caller decides the
 * exit status. */
static void
report_error(const char *msg)
{
	diag_error("%s", msg);
}

/* ---- The writer ---- */

static void
on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* SIGINT, SIGTERM and SIGHUP end the writer after the record in hand and
 * keep the file; one ignored at start (nohup) stays ignored. A closed
 * standard output is an error to report (EPIPE), not a silent death. */
static void
install_stop_handlers(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;	/* stdout's write must not fail EINTR */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof stops / sizeof stops[0]; i++) {
		if (sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(stops[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
}

/* 64 random bits, so that no two runs share an id; the clock and the pid
 * where /dev/urandom cannot be read. */
static uint64_t
new_run_id(void)
{
	uint64_t id = 0, z;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &id, sizeof id) != (ssize_t)sizeof id)
			id = 0;
		if (close(fd) == -1)
			id = 0;
	}
	if (id == 0) {
		z = platform_now_ns() ^ ((uint64_t)time(NULL) << 20) ^ ((uint64_t)getpid() << 40);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		id = z ^ (z >> 31);
	}
	return id ? id : 1;
}

static int
create_file(struct writer *w, char *err, size_t errlen)
{
	struct stat st;
	int e;

	w->fd = openat(w->place.dirfd, w->place.name, CREATE_FLAGS, 0600);
	if (w->fd == -1) {
		e = errno;
		if (e == EEXIST)
			snprintf(err, errlen, "%s: already exists (an earlier run's file? verify "
			    "it with syncprobe durability verify, or remove it)", w->place.path);
		else
			snprintf(err, errlen, "create %s: %s%s", w->place.path, strerror(e),
			    e == EACCES || e == EPERM || e == EROFS ?
			    " (try a directory you can write)" : "");
		return -1;
	}
	if (fstat(w->fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file after creating it", w->place.path);
		return -1;
	}
	return 0;
}

/* Zeros to --file-size, then the header in block 0, synced with the
 * directory entry before any record: every record is then an overwrite
 * of allocated blocks, as a database's preallocated log is, and the file
 * never grows past the size the space check allowed. */
static int
prefill(struct writer *w, char *err, size_t errlen)
{
	const struct durable_geometry *g = &w->header.geo;
	uint64_t off;

	memset(w->block, 0, g->block_bytes);
	for (off = g->block_bytes; off < g->file_bytes; off += g->block_bytes) {
		size_t len = g->file_bytes - off < g->block_bytes ?
		    (size_t)(g->file_bytes - off) : g->block_bytes;

		if (write_at(w->fd, w->block, len, off) == -1)
			goto fail;
	}
	durable_header_encode(w->block, &w->header);
	if (write_at(w->fd, w->block, g->block_bytes, 0) == -1)
		goto fail;
	if (fsync(w->fd) == -1) {
		snprintf(err, errlen, "fsync %s: %s", w->place.path, strerror(errno));
		return -1;
	}
	/* Some filesystems refuse fsync on a directory (EINVAL): nothing to
	 * do about that here. */
	if (fsync(w->place.dirfd) == -1 && errno != EINVAL && errno != EBADF) {
		snprintf(err, errlen, "fsync %s: %s", w->place.dir, strerror(errno));
		return -1;
	}
	return 0;
fail:
	snprintf(err, errlen, "write %s: %s%s", w->place.path, strerror(errno),
	    errno == ENOSPC || errno == EDQUOT || errno == EFBIG ?
	    " (use a smaller --file-size)" : "");
	return -1;
}

/* Reopen the file with the method's flags (O_DSYNC, O_DIRECT, ...) and
 * check that the name still leads to the file created; then write only
 * through the new descriptor. Returns 0, 1 when direct I/O is refused
 * here, or -1 (w->fd is then still the created file's). */
static int
reopen_for_method(struct writer *w, char *err, size_t errlen)
{
	int flags = REOPEN_FLAGS | open_flags_for(w->method), fd, e;
	const char *what = "open";

	/* Relative to the held directory, never by path; the identity check
	 * below catches a file swapped in under the same name. */
	if (w->header.direct)
		fd = open_direct_for(w->place.dirfd, w->place.name, flags | O_NOFOLLOW, &what);
	else
		fd = openat(w->place.dirfd, w->place.name, flags | O_NOFOLLOW);
	if (fd == -1) {
		e = errno;
		snprintf(err, errlen, "%s %s: %s", what, w->place.path, strerror(e));
		if (!w->header.direct || (e != EINVAL && e != ENOTSUP && e != EOPNOTSUPP))
			return -1;
		snprintf(err, errlen, "%s %s: %s (direct I/O refused here: use --direct=off)",
		    what, w->place.path, strerror(e));
		return 1;
	}
	if (!place_holds(&w->place, w->fd) || !place_holds(&w->place, fd)) {
		(void)close(fd);	/* nothing was written through it */
		snprintf(err, errlen, "%s: replaced while syncprobe was creating it "
		    "(nothing written to what is there now)", w->place.path);
		return -1;
	}
	if (close(w->fd) == -1) {
		e = errno;
		(void)close(fd);
		snprintf(err, errlen, "close %s: %s", w->place.path, strerror(e));
		return -1;
	}
	w->fd = fd;
	return 0;
}

/* Direct I/O needs the block size and the buffer to suit the device. */
static int
check_direct_alignment(const struct writer *w, char *err, size_t errlen)
{
	size_t off_align, mem_align;

	platform_direct_align(w->fd, &mem_align, &off_align);
	if (w->header.geo.block_bytes % off_align == 0 && (uintptr_t)w->block % mem_align == 0)
		return 0;
	snprintf(err, errlen, "%s: direct I/O here needs %zu-byte writes and %zu-byte "
	    "aligned memory (use a larger -b or --direct=off)", w->place.path, off_align,
	    mem_align);
	return -1;
}

static int
print_line(const char *line, const char *path)
{
	if (fputs(line, stdout) == EOF || fflush(stdout) == EOF) {
		diag_error("write standard output: %s (the acknowledgements "
		    "have nowhere to go; %s kept)", strerror(errno), path);
		return -1;
	}
	return 0;
}

/* Check the options against this system, open the directory and check
 * the space. Returns the exit status: 0 when the file can be created. */
static int
writer_prepare(struct writer *w, char *err, size_t errlen)
{
	char why[WHY_LEN];
	long page = sysconf(_SC_PAGESIZE);

	if ((w->method = method_for(w->o, err, errlen)) == NULL)
		return STATUS_USAGE;
	w->header.direct = w->o->direct == DIRECT_ON;
	if (w->header.direct && platform_direct_unavailable() != NULL) {
		snprintf(err, errlen, "--direct=on: %s", platform_direct_unavailable());
		return STATUS_USAGE;
	}
	w->header.run_id = new_run_id();
	w->header.geo.block_bytes = (uint32_t)w->o->block_bytes;
	w->header.geo.file_bytes = w->o->file_bytes;
	w->header.geo.pattern = w->o->pattern;
	snprintf(w->header.method, sizeof w->header.method, "%s", w->method->name);
	if (place_resolve(&w->place, w->o, err, errlen) == -1)
		return STATUS_USAGE;
	if (strchr(w->place.path, '\n') != NULL) {
		snprintf(err, errlen, "%s: a newline in the path cannot go in the "
		    "acknowledgements", w->place.path);
		return STATUS_USAGE;
	}
	if (place_open_dir(&w->place, err, errlen) == -1)
		return STATUS_USAGE;
	if (space_check(w->place.dirfd, w->o->file_bytes, why, sizeof why) == -1) {
		snprintf(err, errlen, "%s: %s", w->place.dir, why);
		return STATUS_USAGE;
	}
	w->block = platform_aligned_alloc(page > 0 ? (size_t)page : 4096, w->o->block_bytes);
	if (w->block == NULL) {
		snprintf(err, errlen, "record buffer: out of memory");
		return STATUS_IO;
	}
	return 0;
}

/* Create, fill and reopen the file, and print the header line. Returns
 * the exit status, 0 when the records can start; err is empty when the
 * message was already printed. A file this made is removed again on
 * failure: nothing from it was acknowledged. */
static int
writer_create(struct writer *w, char *err, size_t errlen)
{
	char line[DURABLE_LINE_MAX], why[ERR_LEN];
	int rc;

	if (create_file(w, err, errlen) == -1)
		return w->fd >= 0 ? STATUS_IO : STATUS_USAGE;
	rc = prefill(w, err, errlen) == -1 ? STATUS_IO : 0;
	if (rc == 0 && (rc = reopen_for_method(w, err, errlen)) != 0)
		rc = rc == 1 ? STATUS_USAGE : STATUS_IO;
	if (rc == 0 && w->header.direct && check_direct_alignment(w, err, errlen) == -1)
		rc = STATUS_USAGE;
	if (rc == 0 && durable_header_line(line, sizeof line, &w->header, w->place.path) == -1) {
		snprintf(err, errlen, "%s: path too long for the header line", w->place.path);
		rc = STATUS_USAGE;
	}
	if (rc == 0 && print_line(line, w->place.path) == -1) {
		err[0] = '\0';
		rc = STATUS_IO;
	}
	if (rc != 0 && place_remove(&w->place, w->fd, why, sizeof why) == -1)
		diag_error("%s: left behind (%s)", w->place.path, why);
	return rc;
}

/* One record: write, sync, and only then acknowledge. */
static int
write_record(struct writer *w, uint64_t seq)
{
	const struct durable_geometry *g = &w->header.geo;
	uint64_t off = durable_offset_of(g, seq);
	char line[DURABLE_LINE_MAX];

	durable_record_encode(w->block, g, w->header.run_id, seq);
	if (write_at(w->fd, w->block, g->block_bytes, off) == -1) {
		diag_error("write %s: %s", w->place.path, strerror(errno));
		return -1;
	}
	if (sync_for(w->method, w->fd) == -1) {
		diag_error("%s %s: %s", sync_name_for(w->method),
		    w->place.path, strerror(errno));
		return -1;
	}
	durable_ack_line(line, sizeof line, w->header.run_id, seq, off);
	return print_line(line, w->place.path);
}

/* Records until stopped; the number of the last acknowledged one in
 * *last and why it stopped in *why. */
static void
writer_loop(struct writer *w, uint64_t *last, enum durable_end *why)
{
	uint64_t deadline = w->o->for_ns ? platform_now_ns() + w->o->for_ns : 0;
	uint64_t seq;

	*last = 0;
	for (seq = 1;; seq++) {
		if (stop_requested) {
			*why = DURABLE_END_SIGNAL;
			return;
		}
		if (w->o->ops_per_test && seq > w->o->ops_per_test) {
			*why = DURABLE_END_COUNT;
			return;
		}
		/* The one clock read of the loop, and only with --for. */
		if (deadline && platform_now_ns() >= deadline) {
			*why = DURABLE_END_TIME;
			return;
		}
		if (write_record(w, seq) == -1) {
			*why = DURABLE_END_ERROR;
			return;
		}
		*last = seq;
	}
}

/* The end line (unless standard output is what failed) and the close;
 * the exit status. */
static int
writer_finish(struct writer *w, uint64_t last, enum durable_end why)
{
	char line[DURABLE_LINE_MAX];
	int rc = why == DURABLE_END_ERROR ? STATUS_IO : 0;

	if (!ferror(stdout)) {
		durable_end_line(line, sizeof line, w->header.run_id, last, why);
		if (print_line(line, w->place.path) == -1)
			rc = STATUS_IO;
	}
	if (close(w->fd) == -1) {
		diag_error("close %s: %s", w->place.path, strerror(errno));
		rc = STATUS_IO;
	}
	w->fd = -1;
	if (!w->o->quiet)
		diag_error("%s: kept, %llu records acknowledged (stopped: "
		    "%s); after the power cut, check it with syncprobe durability verify",
		    w->place.path, (unsigned long long)last, durable_end_name(why));
	return rc;
}

static int
durability_write(const struct options *o)
{
	struct writer w;
	char err[ERR_LEN] = "";
	enum durable_end why;
	uint64_t last;
	int rc;

	memset(&w, 0, sizeof w);
	w.o = o;
	w.fd = -1;
	w.place.dirfd = -1;
	install_stop_handlers();
	rc = writer_prepare(&w, err, sizeof err);
	if (rc == 0)
		rc = writer_create(&w, err, sizeof err);
	if (rc == 0) {
		writer_loop(&w, &last, &why);
		rc = writer_finish(&w, last, why);
	} else if (err[0] != '\0') {
		report_error(err);
	}
	if (w.fd >= 0)
		(void)close(w.fd);	/* a failed setup: the file is gone or unused */
	place_close(&w.place);
	free(w.block);
	return rc;
}

/* ---- The verifier ---- */

/* One line of f into buf without its newline: 1, or 0 at the end of the
 * input, -1 when the line is too long or holds a NUL byte. *cut is set
 * when the input ends inside a line (not counted: the writer may have
 * been cut off while printing it). */
static int
read_line(FILE *f, char *buf, size_t len, bool *cut)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || n + 1 >= len)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	if (c == EOF) {
		*cut = n > 0;
		return 0;
	}
	return 1;
}

static int
read_acks(struct durability_verdict *v, char *err, size_t errlen)
{
	char line[DURABLE_LINE_MAX + 2], why[WHY_LEN];
	bool from_stdin = strcmp(v->acks_path, "-") == 0;
	FILE *f = from_stdin ? stdin : fopen(v->acks_path, "r");
	int rc;

	if (from_stdin)
		v->acks_path = "standard input";
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", v->acks_path, strerror(errno));
		return -1;
	}
	durable_acks_init(&v->acks);
	while ((rc = read_line(f, line, sizeof line, &v->last_line_cut)) == 1)
		if (durable_acks_feed(&v->acks, line, why, sizeof why) == -1)
			break;
	if (rc == 1 || rc == -1) {
		snprintf(err, errlen, "%s line %llu: %s", v->acks_path,
		    (unsigned long long)v->acks.lines + (rc == -1),
		    rc == 1 ? why : "too long, or binary (not the writer's output)");
	} else if (ferror(f)) {
		snprintf(err, errlen, "read %s: %s", v->acks_path, strerror(errno));
		rc = -1;
	} else if (!v->acks.have_header) {
		snprintf(err, errlen, "%s: no header line (empty: did the writer start?)",
		    v->acks_path);
		rc = -1;
	}
	if (!from_stdin)
		(void)fclose(f);	/* read only: nothing to lose */
	return rc == 0 ? 0 : -1;
}

/* Open the durability file for reading and refuse what is not a regular
 * file. Returns the descriptor, or -1 (*gone: there is no such file). */
static int
open_for_verify(const struct place *pl, bool *gone, char *err, size_t errlen)
{
	struct stat st;
	int fd = openat(pl->dirfd, pl->name, VERIFY_FLAGS);

	*gone = fd == -1 && errno == ENOENT;
	if (fd == -1) {
		if (errno == ELOOP)
			snprintf(err, errlen, "%s: a symbolic link (refused: the writer never "
			    "makes one)", pl->path);
		else
			snprintf(err, errlen, "%s: %s", pl->path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (refused)", pl->path);
		close(fd);
		return -1;
	}
	return fd;
}

/* Read and judge the header; 0 to go on (header intact and this run's,
 * or lost where the acknowledgements say this file was), -1 to refuse. */
static int
check_header(struct durability_verdict *v, int fd, const struct place *pl,
    char *err, size_t errlen)
{
	unsigned char buf[DURABLE_HEADER_BYTES];
	struct durable_header h;
	const struct durable_header *want = &v->acks.header;
	char have_run[DURABLE_RUN_ID_LEN], want_run[DURABLE_RUN_ID_LEN];
	const char *named;
	ssize_t n = read_at(fd, buf, sizeof buf, 0);

	if (n < 0) {
		snprintf(err, errlen, "read %s: %s", pl->path, strerror(errno));
		return -1;
	}
	v->header = durable_header_decode(buf, (size_t)n, &h);
	switch (v->header) {
	case DURABLE_HEADER_OK:
		break;
	case DURABLE_HEADER_DAMAGED:
		return 0;
	case DURABLE_HEADER_EMPTY:
		/* Zeros where a synced header was: a loss, if this is the
		 * file the writer named; else just not a durability file. */
		named = strrchr(v->acks.file, '/');
		if (strcmp(named ? named + 1 : v->acks.file, pl->name) == 0)
			return 0;
		/* fall through */
	case DURABLE_HEADER_FOREIGN:
		snprintf(err, errlen, "%s: not a durability file (no syncprobe header; left "
		    "untouched)", pl->path);
		return -1;
	case DURABLE_HEADER_VERSION:
		snprintf(err, errlen, "%s: a durability file of another format version "
		    "(this syncprobe reads %u)", pl->path, DURABLE_FORMAT_VERSION);
		return -1;
	}
	durable_run_id_format(h.run_id, have_run);
	durable_run_id_format(want->run_id, want_run);
	if (h.run_id != want->run_id) {
		snprintf(err, errlen, "%s: the durability file of run %s, and %s holds the "
		    "acknowledgements of run %s (not this run)", pl->path, have_run,
		    v->acks_path, want_run);
		return -1;
	}
	if (h.geo.block_bytes != want->geo.block_bytes || h.geo.file_bytes != want->geo.file_bytes ||
	    h.geo.pattern != want->geo.pattern) {
		snprintf(err, errlen, "%s: its header and the acknowledgements' header line "
		    "disagree on the geometry of run %s", pl->path, have_run);
		return -1;
	}
	return 0;
}

/* Keep the DURABILITY_LISTED smallest lost numbers, in order. */
static void
list_lost(struct durability_verdict *v, uint64_t seq)
{
	unsigned i;

	if (v->nlisted == DURABILITY_LISTED && seq >= v->lost_first[DURABILITY_LISTED - 1])
		return;
	i = v->nlisted < DURABILITY_LISTED ? v->nlisted++ : DURABILITY_LISTED - 1;
	for (; i > 0 && v->lost_first[i - 1] > seq; i--)
		v->lost_first[i] = v->lost_first[i - 1];
	v->lost_first[i] = seq;
}

/* Count one slot: found is the record's number when st is OK; a block
 * that is no intact record may be the write in flight, torn. */
static void
tally(struct durability_verdict *v, const unsigned char *block, unsigned char *scratch,
    uint64_t slot, enum durable_record_status st, uint64_t found)
{
	const struct durable_geometry *g = &v->acks.header.geo;
	uint64_t expected = durable_expected(g, v->acks.last_seq, slot), older, newer;
	enum durable_verdict verdict = durable_judge(st, found, expected);

	if (st == DURABLE_RECORD_OK) {
		v->intact++;
		if (found > v->acks.last_seq)
			v->unacked++;
		if (found > v->newest)
			v->newest = found;
	}
	if (verdict == DURABLE_CORRUPT && st == DURABLE_RECORD_CORRUPT &&
	    durable_record_sectors(block, g, v->acks.header.run_id, slot, scratch,
	    &older, &newer) == 0)
		verdict = durable_judge_torn(older, newer, expected, v->acks.last_seq);
	if (expected != 0)
		v->expected++;
	switch (verdict) {
	case DURABLE_NOTHING_EXPECTED:
		break;
	case DURABLE_KEPT:
		v->kept++;
		break;
	case DURABLE_TORN:
		v->torn++;
		break;
	case DURABLE_MISSING:
		v->missing++;
		list_lost(v, expected);
		break;
	case DURABLE_CORRUPT:
		v->corrupt++;
		list_lost(v, expected);
		break;
	}
}

/* Every slot the writer used, against the acknowledgements. */
static int
check_slots(struct durability_verdict *v, int fd, char *err, size_t errlen)
{
	const struct durable_geometry *g = &v->acks.header.geo;
	unsigned char *buf = malloc(g->block_bytes), *scratch = malloc(g->block_bytes);
	uint64_t slot;
	int rc = 0;

	if (buf == NULL || scratch == NULL) {
		snprintf(err, errlen, "read buffer: out of memory");
		rc = -1;
	}
	v->slots = durable_slots(g);
	for (slot = 1; slot <= v->slots && rc == 0; slot++) {
		/* No file (fd -1): every block is past its end. */
		ssize_t n = fd < 0 ? 0 : read_at(fd, buf, g->block_bytes, slot * g->block_bytes);
		enum durable_record_status st;
		uint64_t found = 0;

		if (n < 0) {
			snprintf(err, errlen, "read %s: %s", v->file, strerror(errno));
			rc = -1;
			break;
		}
		st = durable_record_check(buf, (size_t)n, g, v->acks.header.run_id, slot, &found);
		tally(v, buf, scratch, slot, st, found);
	}
	free(buf);
	free(scratch);
	return rc;
}

bool
durability_lost(const struct durability_verdict *v)
{
	return v->header != DURABLE_HEADER_OK || v->missing > 0 || v->corrupt > 0;
}

/* --remove: only a file whose header says it is this run's. */
static int
remove_verified(struct durability_verdict *v, const struct place *pl, int fd)
{
	char err[ERR_LEN];

	if (v->header != DURABLE_HEADER_OK) {
		diag_error("%s: not removed (its header is lost, so it "
		    "cannot be told from another file: remove it by hand)", pl->path);
		return 0;
	}
	if (place_remove(pl, fd, err, sizeof err) == -1) {
		report_error(err);
		return STATUS_IO;
	}
	v->removed = true;
	return 0;
}

/* Open and check the file against v's acknowledgements. Returns the exit
 * status so far; *judged says whether v holds a whole verdict (it does
 * even when --remove then failed). */
static int
verify_file(struct durability_verdict *v, const struct options *o, struct place *pl,
    bool *judged)
{
	char err[ERR_LEN];
	bool gone;
	int fd, rc = 0;

	*judged = false;
	if ((fd = open_for_verify(pl, &gone, err, sizeof err)) == -1) {
		/* The very path the writer created, and synced with its
		 * directory before the first acknowledgement: lost. */
		if (gone && strcmp(pl->path, v->acks.file) == 0) {
			v->file_gone = true;
			v->header = DURABLE_HEADER_EMPTY;
			*judged = check_slots(v, -1, err, sizeof err) == 0;
			return 0;
		}
		report_error(err);
		return STATUS_USAGE;
	}
	if (check_header(v, fd, pl, err, sizeof err) == -1) {
		report_error(err);
		rc = STATUS_USAGE;
	} else if (check_slots(v, fd, err, sizeof err) == -1) {
		report_error(err);
		rc = STATUS_IO;
	} else {
		*judged = true;
		if (o->remove)
			rc = remove_verified(v, pl, fd);
	}
	(void)close(fd);	/* read only: a failed close loses nothing */
	return rc;
}

static int
durability_verify(const struct options *o)
{
	struct durability_verdict v;
	struct place pl;
	char err[ERR_LEN];
	bool judged;
	int rc;

	memset(&v, 0, sizeof v);
	v.acks_path = o->acks;
	if (place_resolve(&pl, o, err, sizeof err) == -1 || read_acks(&v, err, sizeof err) == -1 ||
	    place_open_dir(&pl, err, sizeof err) == -1) {
		report_error(err);
		place_close(&pl);
		return STATUS_USAGE;
	}
	v.file = pl.path;
	rc = verify_file(&v, o, &pl, &judged);
	place_close(&pl);
	if (!judged)
		return rc;
	if (o->format->kind == REPORT_JSON)
		durability_report_json(stdout, &v);
	else
		durability_report_text(stdout, &v);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		diag_error("write standard output: %s", strerror(errno));
		rc = STATUS_IO;
	}
	return durability_lost(&v) ? STATUS_LOST : rc;
}

int
durability_main(const struct options *o)
{
	if (o->durability == DURABILITY_WRITE)
		return durability_write(o);
	return durability_verify(o);
}
