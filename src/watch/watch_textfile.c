/* watch_textfile.c: --textfile's file, replaced whole after every interval
 * (watch_textfile.h). */
#include "config.h"

#include "watch/watch_textfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/row.h"
#include "watch/watch_metrics.h"

/* The copy being written: not a .prom name, so the collector never reads
 * it, and the test file's prefix, so that it is recognisably syncprobe's. */
#define COPY_PREFIX ".syncprobe.textfile."
/* The text: a sample of the live set carries the labels once, and a path
 * escaped takes at most three bytes a byte (U+FFFD for each invalid one). */
#define TEXT_SAMPLES     32
#define TEXT_SAMPLE_LEN  256	/* a sample's name, other labels and value */
#define TEXT_FIXED_LEN   4096	/* HELP and TYPE lines */
#define TEXT_MODE        0644

int
watch_textfile_check_name(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t n = strlen(base), suffix = strlen(WATCH_TEXTFILE_SUFFIX);

	if (n <= suffix || strcmp(base + n - suffix, WATCH_TEXTFILE_SUFFIX) != 0) {
		snprintf(err, errlen, "must name a file NAME%s (the only files "
		    "node_exporter's textfile collector reads)", WATCH_TEXTFILE_SUFFIX);
		return -1;
	}
	return 0;
}

enum exit_status
watch_textfile_open(struct watch_textfile *tf, const char *path,
    const struct watch_setup *s, char *err, size_t errlen)
{
	memset(tf, 0, sizeof *tf);
	/* Not even one of ours from an earlier run: a file of that name may
	 * be anyone's, and syncprobe replaces only what it made. */
	if (safefile_claim(&tf->file, path, "--textfile", "--textfile writes only a file of "
	    "its own: remove it, or name another", err, errlen) == -1)
		return STATUS_USAGE;
	tf->cap = TEXT_SAMPLES * (3 * strlen(s->path) + TEXT_SAMPLE_LEN) + TEXT_FIXED_LEN;
	if ((tf->text = malloc(tf->cap)) == NULL ||
	    (tf->mem = fmemopen(tf->text, tf->cap, "w")) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		safefile_close(&tf->file);
		free(tf->text);
		tf->text = NULL;
		return STATUS_IO;
	}
	tf->is_open = true;
	return STATUS_OK;
}

/* The metrics into tf->text; their length, or -1 with err. */
static long
render(struct watch_textfile *tf, const struct watch_setup *s,
    const struct watch_tally *t, const struct watch_figures *last, char *err, size_t errlen)
{
	long len;

	rewind(tf->mem);
	clearerr(tf->mem);
	watch_metrics_live(tf->mem, s, t, last);
	len = fflush(tf->mem) == 0 && !ferror(tf->mem) ? ftell(tf->mem) : -1;
	if (len < 0 || (size_t)len >= tf->cap) {
		snprintf(err, errlen, "%s: the metrics do not fit in %zu bytes", tf->file.path,
		    tf->cap);
		return -1;
	}
	return len;
}

/* All of text to fd, a write cut short or interrupted continued; 0, or -1
 * with errno. */
static int
write_all(int fd, const char *text, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, text, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The copy written, synced before it is renamed into place (a crash then
 * leaves the old text or the new, never an empty file), and closed. 0, or
 * -1 with err. */
static int
fill_copy(struct safefile *copy, int fd, const char *text, size_t len, char *err,
    size_t errlen)
{
	const char *what = "chmod";

	/* Readable by all, as the collector's own user must read it: it says
	 * nothing a directory listing does not. */
	if (fchmod(fd, TEXT_MODE) == 0 && (what = "write", write_all(fd, text, len) == 0)) {
		what = "fsync";
		if (fsync(fd) == 0) {
			what = "close";
			if (close(fd) == 0)
				return 0;
			fd = -1;
		}
	}
	snprintf(err, errlen, "%s %s: %s", what, copy->path, strerror(errno));
	if (fd >= 0)
		(void)close(fd);
	return -1;
}

int
watch_textfile_update(struct watch_textfile *tf, const struct watch_setup *s,
    const struct watch_tally *t, const struct watch_figures *last, char *err,
    size_t errlen)
{
	struct safefile copy;
	char ignored[8];
	long len;
	int fd;

	if ((len = render(tf, s, t, last, err, errlen)) == -1)
		return -1;
	if ((fd = safefile_create_beside(&copy, &tf->file, COPY_PREFIX, err, errlen)) == -1)
		return -1;
	if (fill_copy(&copy, fd, tf->text, (size_t)len, err, errlen) == 0 &&
	    safefile_replace(&tf->file, &copy, err, errlen) == 0)
		return 0;
	(void)safefile_remove(&copy, ignored, sizeof ignored);
	return -1;
}

int
watch_textfile_close(struct watch_textfile *tf, char *err, size_t errlen)
{
	int rc;

	if (!tf->is_open)
		return 0;
	rc = safefile_remove(&tf->file, err, errlen);
	(void)fclose(tf->mem);
	free(tf->text);
	tf->mem = NULL;
	tf->text = NULL;
	tf->is_open = false;
	return rc;
}
