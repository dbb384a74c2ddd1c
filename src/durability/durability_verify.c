/* durability_verify.c: the durability verifier (durability.h): after the
 * power cut, the writer's acknowledgements read and every record the file
 * can still hold checked. It only reads (and, with --remove, removes the
 * file once judged, only while the name is still the writer's), and
 * believes a file only once its header says what it is. */
#include "config.h"

#include "durability/durability.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "durability/durability_file.h"
#include "durability/durability_report.h"
#include "durability/durability_verdict.h"
#include "util/diag.h"
#include "util/safefile.h"
#include "util/status.h"

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
	char line[DURABLE_LINE_MAX + 2], why[DURABILITY_WHY_LEN];
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
	char err[DURABILITY_ERR_LEN];

	if (v->header != DURABLE_HEADER_OK) {
		diag_error("%s: not removed (its header is lost, so it "
		    "cannot be told from another file: remove it by hand)", pl->path);
		return 0;
	}
	if (safefile_remove(pl, err, sizeof err) == -1) {
		diag_error("%s", err);
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
	char err[DURABILITY_ERR_LEN];
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
		diag_error("%s", err);
		return STATUS_USAGE;
	}
	/* Only the writer's file can have lost what it acknowledged: a file
	 * elsewhere, empty or damaged, is no evidence of anything. */
	if (!ours) {
		diag_error("%s: not this run's durability file (the acknowledgements' "
		    "file is %s; left untouched)", pl->path, v->acks.file);
		rc = STATUS_USAGE;
	} else if (check_header(v, fd, pl, err, sizeof err) == -1) {
		diag_error("%s", err);
		rc = STATUS_USAGE;
	} else if (check_slots(v, fd, err, sizeof err) == -1) {
		diag_error("%s", err);
		rc = STATUS_IO;
	} else {
		*judged = true;
		if (o->remove)
			rc = remove_verified(v, pl);
	}
	(void)close(fd);	/* read only: a failed close loses nothing */
	return rc;
}

void
durability_verify_defaults(struct durability_verify_options *o)
{
	memset(o, 0, sizeof *o);
	o->format = &durability_formats[0];
}

int
durability_verify(const struct durability_verify_options *o)
{
	struct durability_verdict v;
	struct safefile pl;
	char err[DURABILITY_ERR_LEN];
	bool judged;
	int rc;

	memset(&v, 0, sizeof v);
	v.acks_path = o->acks;
	pl.dirfd = -1;
	if (durability_locate(&pl, o->dir, o->filename, err, sizeof err) == -1 ||
	    read_acks(&v, err, sizeof err) == -1 ||
	    safefile_open_dir(&pl, err, sizeof err) == -1) {
		diag_error("%s", err);
		safefile_close(&pl);
		return STATUS_USAGE;
	}
	v.file = pl.path;
	rc = verify_file(&v, o, &pl, &judged);
	safefile_close(&pl);
	if (!judged)
		return rc;
	o->format->write(stdout, &v);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		diag_error("write standard output: %s", strerror(errno));
		rc = STATUS_IO;
	}
	return durability_verdict_lost(&v) ? STATUS_LOST : rc;
}
