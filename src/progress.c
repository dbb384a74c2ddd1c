/* progress.c: the live status line. Drawn between timed slices, never
 * inside one, so it costs the measurement nothing. */
#include "config.h"

#include "progress.h"

#include <stdio.h>
#include <unistd.h>

#include "escape.h"

#define PROGRESS_TARGET_BYTES 30	/* of the target's path, at most */

void
progress_init(struct progress *p, bool quiet)
{
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->shown = false;
}

void
progress_show(struct progress *p, const char *target, const char *row,
    double secs_left, uint64_t ops)
{
	char cut[PROGRESS_TARGET_BYTES + 1], shown[ESCAPE_LEN(PROGRESS_TARGET_BYTES)];

	if (!p->enabled)
		return;
	/* Cut, then escaped: a path's escape sequences must not reach the
	 * terminal, and an escape must not be cut in half. */
	snprintf(cut, sizeof cut, "%s", target);
	escape_for_terminal(cut, shown, sizeof shown);
	if (secs_left >= 0.0)
		fprintf(stderr, "\r\033[K%s: %s: %.1fs left, %llu ops", shown, row,
		    secs_left, (unsigned long long)ops);
	else
		fprintf(stderr, "\r\033[K%s: %s: %llu ops", shown, row,
		    (unsigned long long)ops);
	fflush(stderr);
	p->shown = true;
}

void
progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}
