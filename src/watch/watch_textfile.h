/* watch_textfile.h: --textfile=FILE, watch's live metrics for
 * node_exporter's textfile collector, which reads every *.prom file of a
 * directory at each scrape. After every interval FILE is replaced whole:
 * written beside it under a name of syncprobe's own (util/safefile), synced,
 * and renamed over it, so that a reader sees the old text or the new, never
 * a part. FILE is never followed through a symbolic link and never a file
 * syncprobe did not make in this run: one already there when the run
 * starts is refused, one put in its place while it runs stops the run.
 * It is removed on every way out, signals included. The text is written in
 * memory set aside at the start: nothing is allocated per interval. */
#ifndef SYNCPROBE_WATCH_TEXTFILE_H
#define SYNCPROBE_WATCH_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/safefile.h"
#include "util/status.h"
#include "watch/watch_interval.h"
#include "watch/watch_result.h"

/* The collector reads only files ending so. */
#define WATCH_TEXTFILE_SUFFIX ".prom"

struct watch_textfile {
	struct safefile file;	/* FILE: its held directory, and the file put there */
	char *text;		/* the text, written here first */
	size_t cap;
	FILE *mem;		/* a stream onto text */
	bool is_open;		/* watch_textfile_open succeeded */
};

/* Whether path names a file the collector reads: a name ending in .prom.
 * 0, or -1 with why in err. */
int watch_textfile_check_name(const char *path, char *err, size_t errlen);

/* Hold FILE's directory, refuse FILE when anything has its name already,
 * and set aside the memory the text of s's labels needs. STATUS_OK, or
 * STATUS_USAGE (nothing made) or STATUS_IO (out of memory) with err. */
enum exit_status watch_textfile_open(struct watch_textfile *tf, const char *path,
    const struct watch_setup *s, char *err, size_t errlen);

/* Put the live metrics after the intervals of t (the last, last, or NULL)
 * in FILE. 0, or -1 with err (the copy beside it removed). */
int watch_textfile_update(struct watch_textfile *tf, const struct watch_setup *s,
    const struct watch_tally *t, const struct watch_figures *last, char *err,
    size_t errlen);

/* Remove FILE, if it is still the one put there, and let go of its
 * directory and memory. 0, or -1 with err. Nothing to do is 0. */
int watch_textfile_close(struct watch_textfile *tf, char *err, size_t errlen);

#endif
