/* watch_svgfile.h: --svg=FILE, the picture of the run (watch_svg.h) put in
 * FILE when watch ends, as every file syncprobe creates is made: FILE's
 * directory held from the start, where a FILE already there (a symbolic
 * link included, never followed) is refused before anything is measured;
 * at the end FILE created exclusively, never through a link, written,
 * synced and kept. A picture that could not be written whole is removed. */
#ifndef SYNCPROBE_WATCH_SVGFILE_H
#define SYNCPROBE_WATCH_SVGFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/safefile.h"
#include "util/status.h"
#include "watch/watch_plot.h"
#include "watch/watch_result.h"

struct watch_svgfile {
	struct safefile file;	/* FILE's held directory, and FILE once made */
	bool is_open;		/* watch_svgfile_open succeeded, the directory held */
};

/* Hold FILE's directory and refuse FILE when anything has its name.
 * STATUS_OK, or STATUS_USAGE with err (nothing held). */
enum exit_status watch_svgfile_open(struct watch_svgfile *sf, const char *path, char *err,
    size_t errlen);

/* Create FILE and write the picture of the run in it, then let go of the
 * directory. 0, or -1 with err (no FILE left). */
int watch_svgfile_write(struct watch_svgfile *sf, const struct watch_setup *s,
    const struct watch_summary *sum, const struct watch_plot *p, char *err, size_t errlen);

/* Let go of the directory (after watch_svgfile_write, or instead of it).
 * Nothing to do is fine. */
void watch_svgfile_close(struct watch_svgfile *sf);

#endif
