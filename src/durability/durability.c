/* durability.c: the durability writer and verifier (durability.h). The
 * file is reached as util/safefile reaches every file syncprobe makes
 * (a held directory, exclusive creation, an identity check on the
 * reopen, removal only while the name is ours): the writer writes to
 * nothing but the file it created, and the verifier only reads, and
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

#include "durability/durability_acks_on.h"
#include "durability/durability_report.h"
#include "durability/durability_verdict.h"
#include "probe/method.h"
#include "util/diag.h"
#include "report/report.h"
#include "util/cleanup.h"
#include "util/platform.h"
#include "util/relay.h"
#include "util/safefile.h"
#include "util/space.h"
#include "util/status.h"

#define WHY_LEN       512			/* why, without a path */
#define ERR_LEN       (PATH_MAX + WHY_LEN + 128)	/* a path and why, with words around them */
#define EXISTS_HINT   "an earlier run's file? verify it with syncprobe durability verify, or remove it"

struct writer {
	const struct durability_write_options *o;
	const struct method *method;
	struct durable_header header;
	struct safefile file;
	char named[PATH_MAX];	/* its absolute path, for the header line */
	enum durable_acks_on acks_on;	/* where standard output goes */
	bool pipe_ignored;	/* SIGPIPE was ignored at start */
	int out_errno;		/* why standard output failed, or 0 */
	bool out_stalled;	/* ... its reader took nothing in time */
	uint64_t deadline_ns;	/* --for's end (0: none): output waits no longer */
	int fd;
	unsigned char *block;	/* one block, aligned for direct I/O */
};

/* ---- Adapters: the only code here that knows the method table and the
 * platform's open and sync calls; repoint them when those change. ---- */

/* The one method the writer uses: -m's, else the platform's default
 * wal_sync_method. NULL, with the reason in err, when it cannot run. */
static const struct method *
method_for(const struct durability_write_options *o, char *err, size_t errlen)
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

/* From -f FILE, or DIR (default .) and DURABILITY_FILE_NAME. */
static int
locate_file(struct safefile *sf, const char *dir, const char *filename, char *err,
    size_t errlen)
{
	return safefile_locate(sf, dir != NULL ? dir : ".", DURABILITY_FILE_NAME, filename,
	    err, errlen);
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

/* SIGINT, SIGTERM and SIGHUP end the writer after the record in hand
 * (cleanup_stop_flag); until the header line is out, these and every
 * other terminating signal remove the file (util/cleanup). SIGPIPE is
 * ignored here (cleanup leaves an ignored signal ignored), so that a
 * closed standard output comes back as EPIPE while the writer can still
 * decide the file's fate and say it; then it dies of SIGPIPE, as a
 * pipeline expects (out_closed). Returns whether SIGPIPE was ignored at
 * start (as under nohup): EPIPE is then an error like any other. */
static bool
install_signals(void)
{
	struct sigaction old;
	bool ignored = sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_IGN;

	signal(SIGPIPE, SIG_IGN);
	cleanup_install();
	return ignored;
}

/* Whether standard output failed as a closed pipe that SIGPIPE, had it
 * not been ignored here, would have ended the writer on. */
static bool
out_closed(const struct writer *w)
{
	return w->out_errno == EPIPE && !w->pipe_ignored;
}

/* Die of SIGPIPE, as the write into the closed pipe would have: the shell
 * sees 141, and a pipeline's reader that stopped early no error. */
static void
die_of_sigpipe(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGPIPE);
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
	w->fd = safefile_create(&w->file, NULL, EXISTS_HINT, err, errlen);
	return w->fd == -1 ? -1 : 0;
}

/* Zeros to --file-size, then the header in block 0, synced with the
 * directory entry before any record: every record is then an overwrite
 * of allocated blocks, as a database's preallocated log is, and the file
 * never grows past the size the space check allowed. A stop signal ends
 * it at the next block (a large file takes seconds): 0 then, with the
 * stop flag set. */
static int
prefill(struct writer *w, char *err, size_t errlen)
{
	const struct durable_geometry *g = &w->header.geo;
	uint64_t off;

	memset(w->block, 0, g->block_bytes);
	for (off = g->block_bytes; off < g->file_bytes; off += g->block_bytes) {
		size_t len = g->file_bytes - off < g->block_bytes ?
		    (size_t)(g->file_bytes - off) : g->block_bytes;

		if (*cleanup_stop_flag())
			return 0;
		if (write_at(w->fd, w->block, len, off) == -1)
			goto fail;
	}
	durable_header_encode(w->block, &w->header);
	if (write_at(w->fd, w->block, g->block_bytes, 0) == -1)
		goto fail;
	return safefile_sync(&w->file, w->fd, err, errlen);
fail:
	snprintf(err, errlen, "write %s: %s%s", w->file.path, strerror(errno),
	    errno == ENOSPC || errno == EDQUOT || errno == EFBIG ?
	    " (use a smaller --file-size)" : "");
	return -1;
}

/* Reopen the file with the method's flags (O_DSYNC, O_DIRECT, ...),
 * checked to be the file created; then write only through the new
 * descriptor. Returns 0, 1 when direct I/O is refused here,
 * SAFEFILE_REPLACED when the name leads elsewhere now, or -1 (w->fd is
 * then still the created file's). */
static int
reopen_for_method(struct writer *w, char *err, size_t errlen)
{
	const char *what = "open";
	int fd = safefile_reopen(&w->file, open_flags_for(w->method),
	    w->header.direct, &what), e;

	if (fd == SAFEFILE_REPLACED) {
		snprintf(err, errlen, "%s: replaced while syncprobe was creating it "
		    "(nothing written to what is there now)", w->file.path);
		return SAFEFILE_REPLACED;
	}
	if (fd == -1) {
		e = errno;
		if (!w->header.direct || !safefile_direct_refused(e)) {
			snprintf(err, errlen, "%s %s: %s", what, w->file.path, strerror(e));
			return -1;
		}
		snprintf(err, errlen, "%s %s: %s (direct I/O refused here: use --direct=off)",
		    what, w->file.path, strerror(e));
		return 1;
	}
	if (close(w->fd) == -1) {
		e = errno;
		(void)close(fd);
		snprintf(err, errlen, "close %s: %s", w->file.path, strerror(e));
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
	    "aligned memory (use a larger -b or --direct=off)", w->file.path, off_align,
	    mem_align);
	return -1;
}

/* One line on standard output, written whole: a record is acknowledged
 * only once its line is out. A reader that takes nothing is waited for
 * until --for's end or a stop signal, no longer (util/relay). -1 with
 * w->out_errno set when it cannot be: the caller knows what then becomes
 * of the file, and says it. */
static int
print_line(struct writer *w, const char *line)
{
	size_t done;

	switch (relay_write(STDOUT_FILENO, line, strlen(line), w->deadline_ns, &done)) {
	case RELAY_DONE:
		return 0;
	case RELAY_STALLED:
		w->out_stalled = true;
		w->out_errno = EAGAIN;
		break;
	case RELAY_FAILED:
		w->out_errno = errno != 0 ? errno : EIO;
		break;
	}
	return -1;
}

/* Why standard output failed, for a message. */
static const char *
out_failure(const struct writer *w)
{
	if (!w->out_stalled)
		return strerror(w->out_errno);
	return *cleanup_stop_flag() ? "its reader took nothing until a stop signal" :
	    "its reader took nothing until --for ended";
}

/* The file's path for the header line, absolute, so that the verifier
 * finds the writer's path from any directory: the held directory as
 * realpath(3) resolves it now, and the name; the path as given when that
 * fails or does not fit. */
static void
name_absolute(struct writer *w)
{
	char dir[PATH_MAX];
	int n = -1;

	if (realpath(w->file.dir, dir) != NULL)
		n = snprintf(w->named, sizeof w->named, "%s%s%s", dir,
		    strcmp(dir, "/") == 0 ? "" : "/", w->file.name);
	if (n < 0 || (size_t)n >= sizeof w->named)
		snprintf(w->named, sizeof w->named, "%s", w->file.path);
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
	w->header.direct = w->o->direct;
	if (w->header.direct && platform_direct_unavailable() != NULL) {
		snprintf(err, errlen, "--direct=on: %s", platform_direct_unavailable());
		return STATUS_USAGE;
	}
	w->header.run_id = new_run_id();
	w->header.geo.block_bytes = (uint32_t)w->o->block_bytes;
	w->header.geo.file_bytes = w->o->file_bytes;
	w->header.geo.pattern = w->o->pattern;
	snprintf(w->header.method, sizeof w->header.method, "%s", w->method->name);
	if (locate_file(&w->file, w->o->dir, w->o->filename, err, errlen) == -1 ||
	    safefile_open_dir(&w->file, err, errlen) == -1)
		return STATUS_USAGE;
	name_absolute(w);
	if (space_check(w->file.dirfd, w->o->file_bytes, "use a smaller --file-size",
	    why, sizeof why) == -1) {
		snprintf(err, errlen, "%s: %s", w->file.dir, why);
		return STATUS_USAGE;
	}
	/* Said in the header line, and on stderr once the run starts. */
	w->acks_on = durability_acks_on(STDOUT_FILENO, w->file.dirfd, w->file.dir);
	w->block = platform_aligned_alloc(page > 0 ? (size_t)page : 4096, w->o->block_bytes);
	if (w->block == NULL) {
		snprintf(err, errlen, "record buffer: out of memory");
		return STATUS_IO;
	}
	return 0;
}

/* A stop signal before the first acknowledgement: nothing was promised,
 * so the file goes and the writer dies of the signal, as the probe does. */
static void
stop_before_acks(struct writer *w)
{
	char why[ERR_LEN];

	if (safefile_remove(&w->file, why, sizeof why) == -1)
		diag_error("%s: left behind (%s)", w->file.path, why);
	cleanup_die();
}

/* A setup that failed once the file was made: nothing from it was
 * acknowledged, so it is removed, and when standard output was what
 * failed, err says so and what became of the file. A closed pipe, the
 * file removed: the writer dies of SIGPIPE, silent, as a signal before
 * the first acknowledgement leaves it (stop_before_acks). */
static void
writer_discard(struct writer *w, char *err, size_t errlen)
{
	/* why names the file itself ("remove PATH: ..."), so the message
	 * below does not repeat the path and always fits err. */
	char why[PATH_MAX + WHY_LEN];
	bool removed = safefile_remove(&w->file, why, sizeof why) == 0;

	if (w->out_errno == 0) {
		if (!removed)
			diag_error("%s: left behind (%s)", w->file.path, why);
		return;
	}
	if (removed && out_closed(w))
		die_of_sigpipe();
	if (removed)
		snprintf(err, errlen, "write standard output: %s (the acknowledgements have "
		    "nowhere to go; %s removed, nothing was acknowledged)",
		    out_failure(w), w->file.path);
	else
		snprintf(err, errlen, "write standard output: %s (nothing was acknowledged; "
		    "the file was left behind: %s)", out_failure(w), why);
}

/* Create, fill and reopen the file, and print the header line. Returns
 * the exit status, 0 when the records can start; err is empty when the
 * message was already printed. A file this made is removed again on
 * failure (writer_discard). */
static int
writer_create(struct writer *w, char *err, size_t errlen)
{
	char line[DURABLE_LINE_MAX];
	int rc, reopened = 0;

	if (create_file(w, err, errlen) == -1)
		return STATUS_USAGE;
	rc = prefill(w, err, errlen) == -1 ? STATUS_IO : 0;
	if (rc == 0 && *cleanup_stop_flag())
		stop_before_acks(w);
	if (rc == 0 && (reopened = reopen_for_method(w, err, errlen)) == SAFEFILE_REPLACED) {
		/* What the name leads to is not ours: nothing to remove. */
		safefile_close(&w->file);
		return STATUS_IO;
	}
	if (rc == 0 && reopened != 0)
		rc = reopened == 1 ? STATUS_USAGE : STATUS_IO;
	if (rc == 0 && w->header.direct && check_direct_alignment(w, err, errlen) == -1)
		rc = STATUS_USAGE;
	if (rc == 0 && durable_header_line(line, sizeof line, &w->header, w->acks_on, w->named) == -1) {
		snprintf(err, errlen, "%s: path too long for the header line", w->file.path);
		rc = STATUS_USAGE;
	}
	if (rc == 0 && *cleanup_stop_flag())
		stop_before_acks(w);
	/* From the header line on, the verifier looks for the file: a signal
	 * must leave it. */
	if (rc == 0)
		safefile_keep(&w->file);
	if (rc == 0 && print_line(w, line) == -1)
		rc = STATUS_IO;
	if (rc != 0) {
		writer_discard(w, err, errlen);
		return rc;
	}
	/* Only now that the run has started (every refusal comes before):
	 * it is worth restarting with the acknowledgements sent elsewhere. */
	if (w->acks_on != DURABLE_ACKS_ELSEWHERE && !w->o->quiet)
		diag_error("warning: %s", durability_acks_on_warning(w->acks_on));
	return 0;
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
		diag_error("write %s: %s", w->file.path, strerror(errno));
		return -1;
	}
	if (sync_for(w->method, w->fd) == -1) {
		diag_error("%s %s: %s", sync_name_for(w->method),
		    w->file.path, strerror(errno));
		return -1;
	}
	durable_ack_line(line, sizeof line, w->header.run_id, seq, off);
	return print_line(w, line);
}

/* Records until stopped; the number of the last acknowledged one in
 * *last and why it stopped in *why. */
static void
writer_loop(struct writer *w, uint64_t *last, enum durable_end *why)
{
	uint64_t deadline = w->o->for_ns ? platform_now_ns() + w->o->for_ns : 0;
	uint64_t seq;

	*last = 0;
	w->deadline_ns = deadline;
	for (seq = 1;; seq++) {
		if (*cleanup_stop_flag()) {
			*why = DURABLE_END_SIGNAL;
			return;
		}
		if (w->o->records && seq > w->o->records) {
			*why = DURABLE_END_COUNT;
			return;
		}
		/* The one clock read of the loop, and only with --for. */
		if (deadline && platform_now_ns() >= deadline) {
			*why = DURABLE_END_TIME;
			return;
		}
		if (write_record(w, seq) == -1) {
			/* Synced, but its line never reached the reader: not
			 * acknowledged, and the run ends as it was asked to. */
			*why = !w->out_stalled ? DURABLE_END_ERROR : *cleanup_stop_flag() ?
			    DURABLE_END_SIGNAL : DURABLE_END_TIME;
			return;
		}
		*last = seq;
	}
}

/* Standard output failed after the header line: the file is kept (what
 * reached the reader promised records in it), and the one line on stderr
 * says so. A closed pipe is no error: the note a stop signal gives
 * (unless -q), then death by SIGPIPE; any other failure is exit 1. */
static int
writer_report_out_failed(const struct writer *w, uint64_t last, bool closed_ok)
{
	if (out_closed(w) && closed_ok) {
		if (!w->o->quiet)
			diag_error("%s: kept, %llu records acknowledged (stopped: standard "
			    "output closed); after the power cut, check it with syncprobe "
			    "durability verify", w->file.path, (unsigned long long)last);
		die_of_sigpipe();
	}
	diag_error("write standard output: %s (the acknowledgements have nowhere to go; "
	    "%s kept, %llu records acknowledged: check it with syncprobe durability verify)",
	    out_failure(w), w->file.path, (unsigned long long)last);
	return STATUS_IO;
}

/* The end line (unless standard output is what failed) and the close;
 * the exit status. */
static int
writer_finish(struct writer *w, uint64_t last, enum durable_end why)
{
	char line[DURABLE_LINE_MAX];
	int rc = why == DURABLE_END_ERROR && w->out_errno == 0 ? STATUS_IO : 0;
	bool closed_ok = true;

	if (w->out_errno == 0) {
		durable_end_line(line, sizeof line, w->header.run_id, last, why);
		(void)print_line(w, line);
	}
	if (close(w->fd) == -1) {
		diag_error("close %s: %s", w->file.path, strerror(errno));
		rc = STATUS_IO;
		closed_ok = false;
	}
	w->fd = -1;
	if (w->out_errno != 0)
		return writer_report_out_failed(w, last, closed_ok);
	if (!w->o->quiet)
		diag_error("%s: kept, %llu records acknowledged (stopped: "
		    "%s); after the power cut, check it with syncprobe durability verify",
		    w->file.path, (unsigned long long)last, durable_end_name(why));
	return rc;
}

void
durability_write_defaults(struct durability_write_options *o)
{
	memset(o, 0, sizeof *o);
	o->block_bytes = DEFAULT_BLOCK_BYTES;
	o->file_bytes = DEFAULT_FILE_BYTES;
	o->pattern = PATTERN_OVERWRITE;
}

int
durability_write(const struct durability_write_options *o)
{
	struct writer w;
	char err[ERR_LEN] = "";
	enum durable_end why;
	uint64_t last;
	int rc;

	memset(&w, 0, sizeof w);
	w.o = o;
	w.fd = -1;
	w.file.dirfd = -1;
	w.pipe_ignored = install_signals();
	/* Until the records start (and set it from there), --for from now. */
	w.deadline_ns = o->for_ns ? platform_now_ns() + o->for_ns : 0;
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
	safefile_close(&w.file);
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

/* The acknowledgements' file, to read. Opened without waiting: a FIFO
 * that no one writes to would block the open for ever, with nothing said.
 * Then read as a blocking stream, so that a FIFO's writer, when there is
 * one, is waited for; a FIFO without one reads as empty at once. */
static FILE *
open_acks(const char *path, bool *fifo)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), flags, e;
	FILE *f;

	*fifo = false;
	if (fd == -1)
		return NULL;
	if (fstat(fd, &st) == -1 || (flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1 || (f = fdopen(fd, "r")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	*fifo = S_ISFIFO(st.st_mode);
	return f;
}

/* Why acknowledgements without a whole header line cannot be read. */
static void
no_header(const struct durability_verdict *v, bool fifo, char *err, size_t errlen)
{
	if (v->last_line_cut)
		snprintf(err, errlen, "%s: the header line is cut short (the output ended "
		    "inside it: the writer stopped before its first record)", v->acks_path);
	else if (fifo)
		snprintf(err, errlen, "%s: a FIFO with no writer: nothing to read (start "
		    "what writes the acknowledgements into it first, or give the saved file)",
		    v->acks_path);
	else
		snprintf(err, errlen, "%s: no header line (empty: did the writer start?)",
		    v->acks_path);
}

static int
read_acks(struct durability_verdict *v, char *err, size_t errlen)
{
	char line[DURABLE_LINE_MAX + 2], why[WHY_LEN];
	bool from_stdin = strcmp(v->acks_path, "-") == 0, fifo = false;
	FILE *f = from_stdin ? stdin : open_acks(v->acks_path, &fifo);
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
		no_header(v, fifo, err, errlen);
		rc = -1;
	}
	if (!from_stdin)
		(void)fclose(f);	/* read only: nothing to lose */
	return rc == 0 ? 0 : -1;
}

/* Read and judge the header; 0 to go on (header intact and this run's,
 * or lost where the acknowledgements say this file was), -1 to refuse. */
static int
check_header(struct durability_verdict *v, int fd, const struct safefile *pl,
    char *err, size_t errlen)
{
	unsigned char buf[DURABLE_HEADER_BYTES];
	struct durable_header h;
	const struct durable_header *want = &v->acks.header;
	char have_run[DURABLE_RUN_ID_LEN], want_run[DURABLE_RUN_ID_LEN];
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
	case DURABLE_HEADER_EMPTY:
		/* Damage, or zeros, where the writer's synced header was
		 * (verify_file checked that this is the writer's path): lost. */
		return 0;
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
		snprintf(err, errlen, "%s: not this run's durability file (it is of run %s, "
		    "and %s holds the acknowledgements of run %s; left untouched)", pl->path,
		    have_run, v->acks_path, want_run);
		return -1;
	}
	if (h.geo.block_bytes != want->geo.block_bytes || h.geo.file_bytes != want->geo.file_bytes ||
	    h.geo.pattern != want->geo.pattern) {
		snprintf(err, errlen, "%s: its header and the acknowledgements' header line "
		    "disagree on the geometry of run %s", pl->path, have_run);
		return -1;
	}
	/* The report says how the records were written: from the file's
	 * header, which the acknowledgements must not contradict. */
	if (strcmp(h.method, want->method) != 0 || h.direct != want->direct) {
		snprintf(err, errlen, "%s: its header and the acknowledgements' header line "
		    "disagree on how run %s wrote (method=%s direct=%s in the file, method=%s "
		    "direct=%s in %s)", pl->path, have_run, h.method, h.direct ? "on" : "off",
		    want->method, want->direct ? "on" : "off", v->acks_path);
		return -1;
	}
	return 0;
}

/* Whether pl is where the writer made its file: the name of the
 * acknowledgements' file= in the same directory (device and inode, however
 * either path spells it). */
static bool
at_writers_path(const struct durability_verdict *v, const struct safefile *pl)
{
	const char *file = v->acks.file, *slash = strrchr(file, '/');
	char dir[PATH_MAX];
	struct stat want, have;

	if (strcmp(slash ? slash + 1 : file, pl->name) != 0)
		return false;
	if (slash == NULL)
		snprintf(dir, sizeof dir, ".");
	else if (slash == file)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
	return stat(dir, &want) == 0 && fstat(pl->dirfd, &have) == 0 &&
	    want.st_dev == have.st_dev && want.st_ino == have.st_ino;
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
		durability_verdict_tally(v, buf, scratch, slot, st, found);
	}
	free(buf);
	free(scratch);
	return rc;
}

/* --remove: only a file whose header says it is this run's, and only
 * while its name still leads to it. */
static int
remove_verified(struct durability_verdict *v, struct safefile *pl)
{
	char err[ERR_LEN];

	if (v->header != DURABLE_HEADER_OK) {
		diag_error("%s: not removed (its header is lost, so it "
		    "cannot be told from another file: remove it by hand)", pl->path);
		return 0;
	}
	if (safefile_remove(pl, err, sizeof err) == -1) {
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
verify_file(struct durability_verdict *v, const struct durability_verify_options *o,
    struct safefile *pl, bool *judged)
{
	char err[ERR_LEN];
	bool gone, ours;
	int fd, rc = 0;

	*judged = false;
	ours = at_writers_path(v, pl);
	if ((fd = safefile_open_existing(pl, &gone, err, sizeof err)) == -1) {
		/* The very path the writer created, and synced with its
		 * directory before the first acknowledgement: lost. */
		if (gone && ours) {
			v->file_gone = true;
			v->header = DURABLE_HEADER_EMPTY;
			*judged = check_slots(v, -1, err, sizeof err) == 0;
			return 0;
		}
		report_error(err);
		return STATUS_USAGE;
	}
	/* Only the writer's file can have lost what it acknowledged: a file
	 * elsewhere, empty or damaged, is no evidence of anything. */
	if (!ours) {
		diag_error("%s: not this run's durability file (the acknowledgements' "
		    "file is %s; left untouched)", pl->path, v->acks.file);
		rc = STATUS_USAGE;
	} else if (check_header(v, fd, pl, err, sizeof err) == -1) {
		report_error(err);
		rc = STATUS_USAGE;
	} else if (check_slots(v, fd, err, sizeof err) == -1) {
		report_error(err);
		rc = STATUS_IO;
	} else {
		*judged = true;
		if (o->remove)
			rc = remove_verified(v, pl);
	}
	(void)close(fd);	/* read only: a failed close loses nothing */
	return rc;
}

int
durability_verify(const struct durability_verify_options *o)
{
	struct durability_verdict v;
	struct safefile pl;
	char err[ERR_LEN];
	bool judged;
	int rc;

	memset(&v, 0, sizeof v);
	v.acks_path = o->acks;
	pl.dirfd = -1;
	if (locate_file(&pl, o->dir, o->filename, err, sizeof err) == -1 ||
	    read_acks(&v, err, sizeof err) == -1 ||
	    safefile_open_dir(&pl, err, sizeof err) == -1) {
		report_error(err);
		safefile_close(&pl);
		return STATUS_USAGE;
	}
	v.file = pl.path;
	rc = verify_file(&v, o, &pl, &judged);
	safefile_close(&pl);
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
	return durability_verdict_lost(&v) ? STATUS_LOST : rc;
}
