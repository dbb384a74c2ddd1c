/* progress.h: a one-line live status on stderr while the run goes: which
 * target, group and row, and how long the whole run still needs. Only on a
 * terminal, never on stdout, never with --quiet; cut to the terminal's
 * width so that it never wraps, and erased before the report prints. */
#ifndef SYNCPROBE_PROGRESS_H
#define SYNCPROBE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_INTERVAL_NS 200000000ULL	/* redraw at most 5 times a second */
#define PROGRESS_DEFAULT_COLUMNS 80	/* when neither the terminal nor COLUMNS says */
#define PROGRESS_LINE_LEN 1024

struct progress {
	bool enabled;
	bool shown;
	uint64_t drawn_ns;	/* when it was last drawn */
};

/* What the line says. */
struct progress_line {
	const char *target;		/* the path */
	size_t target_no, ntargets;	/* from 1; the number only when ntargets > 1 */
	size_t group_no, ngroups;
	const char *group;
	const char *row;
	size_t row_no, nrows;		/* among the rows expected to run */
	double secs_left;		/* the whole run's; < 0: unknown (-n) */
};

/* Enabled when stderr is a terminal and quiet is false. */
void progress_init(struct progress *p, bool quiet);

/* "/var/tmp: group 2/5 two, fdatasync (direct), row 9/24, 6.1 s left",
 * in at most columns - 1 characters: the path cut in the middle first,
 * then the end of the line. Control characters show as '?'. */
void progress_format(const struct progress_line *l, int columns, char *buf, size_t len);

/* Draw the line, unless it was drawn less than PROGRESS_INTERVAL_NS ago. */
void progress_show(struct progress *p, const struct progress_line *l);

/* Whether a line would be drawn now (enabled, and not drawn less than
 * PROGRESS_INTERVAL_NS ago): a caller can skip making its text. */
bool progress_due(const struct progress *p);

/* Draw text (a command's own status line) as the line, unless it was drawn
 * less than PROGRESS_INTERVAL_NS ago: control characters as '?', cut to
 * the terminal's width. */
void progress_show_text(struct progress *p, const char *text);
void progress_clear(struct progress *p);

/* The terminal's width: TIOCGWINSZ on stderr, else $COLUMNS, else 80. */
int progress_columns(void);

#endif
