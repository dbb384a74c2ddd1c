/* progress.h: a one-line live status on stderr while a row runs. Only on a
 * terminal, never on stdout, never with --quiet; erased before the report. */
#ifndef SYNCPROBE_PROGRESS_H
#define SYNCPROBE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define PROGRESS_INTERVAL_NS 200000000ULL	/* redraw at most 5 times a second */

struct progress {
	bool enabled;
	bool shown;
};

/* Enabled when stderr is a terminal and quiet is false. */
void progress_init(struct progress *p, bool quiet);
void progress_show(struct progress *p, const char *target, const char *row,
    double secs_left, uint64_t ops);
void progress_clear(struct progress *p);

#endif
