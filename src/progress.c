/* progress.c: the live status line. Drawn between timed slices, never
 * inside one, so it costs the measurement nothing. */
#include "config.h"

#include "progress.h"

#include <stdio.h>
#include <unistd.h>

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
	if (!p->enabled)
		return;
	if (secs_left >= 0.0)
		fprintf(stderr, "\r\033[K%.30s: %s: %.1fs left, %llu ops", target, row,
		    secs_left, (unsigned long long)ops);
	else
		fprintf(stderr, "\r\033[K%.30s: %s: %llu ops", target, row,
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
