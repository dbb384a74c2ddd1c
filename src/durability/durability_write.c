/* durability_write.c: the durability writer (durability.h): records
 * written and synced into a file it created, each acknowledged on
 * standard output only after its sync returned. The file is reached as
 * util/safefile reaches every file syncprobe makes (a held directory,
 * exclusive creation, an identity check on the reopen, removal only while
 * the name is ours): it writes to nothing but the file it created. */
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
#include "durability/durability_file.h"
#include "probe/method.h"
#include "util/cleanup.h"
#include "util/diag.h"
#include "util/platform.h"
#include "util/relay.h"
#include "util/safefile.h"
#include "util/space.h"
#include "util/status.h"

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
	char why[DURABILITY_WHY_LEN];
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
	if (durability_locate(&w->file, w->o->dir, w->o->filename, err, errlen) == -1 ||
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
	char why[DURABILITY_ERR_LEN];

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
	char why[PATH_MAX + DURABILITY_WHY_LEN];
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
	char err[DURABILITY_ERR_LEN] = "";
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
		diag_error("%s", err);
	}
	if (w.fd >= 0)
		(void)close(w.fd);	/* a failed setup: the file is gone or unused */
	safefile_close(&w.file);
	free(w.block);
	return rc;
}
