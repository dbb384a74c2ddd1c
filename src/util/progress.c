/* progress.c: the live status line. Drawn between timed slices, never
 * inside one, so it costs the measurement nothing. */
#include "config.h"

#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/platform.h"

#define ELLIPSIS     "..."
#define MIN_PATH     8	/* narrower than this, the path is left out */
#define MAX_COLUMNS  (PROGRESS_LINE_LEN - 1)
#define PROGRESS_PATH_BYTES 1024	/* of a path, escaped, then cut to fit */

void
progress_init(struct progress *p, bool quiet)
{
	p->enabled = !quiet && isatty(STDERR_FILENO);
	p->shown = false;
	p->drawn_ns = 0;
}

int
progress_columns(void)
{
	int cols = platform_terminal_columns(STDERR_FILENO);
	const char *env = getenv("COLUMNS");

	if (cols <= 0 && env != NULL)
		cols = atoi(env);
	if (cols <= 0)
		cols = PROGRESS_DEFAULT_COLUMNS;
	return cols > MAX_COLUMNS ? MAX_COLUMNS : cols;
}

static bool
utf8_continuation(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

/* s in at most room bytes: whole, or its start and end around "...", cut
 * between UTF-8 characters, never inside one. */
static void
cut_middle(const char *s, size_t room, char *buf, size_t len)
{
	size_t n = strlen(s), head, tail;

	if (n <= room) {
		/* room is below len: the whole of s fits */
		if (snprintf(buf, len, "%s", s) < 0)
			buf[0] = '\0';
		return;
	}
	head = (room - strlen(ELLIPSIS)) / 2;
	tail = room - strlen(ELLIPSIS) - head;
	while (head > 0 && utf8_continuation(s[head]))
		head--;
	while (tail > 0 && utf8_continuation(s[n - tail]))
		tail--;
	snprintf(buf, len, "%.*s%s%s", (int)head, s, ELLIPSIS, s + n - tail);
}

/* s in at most room bytes: its end cut off, between UTF-8 characters. */
static void
cut_end(char *s, size_t room)
{
	size_t n = room;

	if (strlen(s) <= room)
		return;
	while (n > 0 && utf8_continuation(s[n]))
		n--;
	s[n] = '\0';
}

/* Control characters would move the cursor: show them as '?'. */
static void
make_printable(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7F)
			*s = '?';
}

void
progress_format(const struct progress_line *l, int columns, char *buf, size_t len)
{
	char target[32] = "", rest[256], left[32] = "", path[PROGRESS_LINE_LEN];
	char shown[ESCAPE_LEN(PROGRESS_PATH_BYTES)];
	size_t room, fixed;

	if (l->ntargets > 1)
		snprintf(target, sizeof target, "target %zu/%zu ", l->target_no, l->ntargets);
	if (l->secs_left >= 0.0)
		snprintf(left, sizeof left, ", %.1f s left", l->secs_left);
	snprintf(rest, sizeof rest, "group %zu/%zu %s, %s, row %zu/%zu%s", l->group_no,
	    l->ngroups, l->group, l->row, l->row_no, l->nrows, left);
	room = columns > 1 ? (size_t)columns - 1 : 1;
	if (room > len - 1)
		room = len - 1;
	fixed = strlen(target) + strlen(rest) + 2;	/* ": " after the path */
	/* What goes first on a narrow terminal: the path, then the target
	 * and group numbers; the row and the time left stay longest. */
	if (fixed + MIN_PATH <= room) {
		/* Escaped as ls -b shows it, then cut: a path's escape
		 * sequences must not reach the terminal. */
		escape_for_terminal(l->target, shown, sizeof shown);
		cut_middle(shown, room - fixed, path, sizeof path);
		snprintf(buf, len, "%s%s: %s", target, path, rest);
	} else if (strlen(target) + strlen(rest) <= room) {
		snprintf(buf, len, "%s%s", target, rest);
	} else {
		snprintf(buf, len, "%s, row %zu/%zu%s", l->row, l->row_no, l->nrows, left);
	}
	make_printable(buf);
	/* A terminal too narrow even for that: the end of the line goes. */
	cut_end(buf, room);
}

bool
progress_due(const struct progress *p)
{
	return p->enabled &&
	    (!p->shown || platform_now_ns() - p->drawn_ns >= PROGRESS_INTERVAL_NS);
}

/* Draw line, already fitted to the terminal. */
static void
draw(struct progress *p, const char *line)
{
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	p->shown = true;
	p->drawn_ns = platform_now_ns();
}

void
progress_show(struct progress *p, const struct progress_line *l)
{
	char line[PROGRESS_LINE_LEN];

	if (!progress_due(p))
		return;
	progress_format(l, progress_columns(), line, sizeof line);
	draw(p, line);
}

void
progress_show_text(struct progress *p, const char *text)
{
	char line[PROGRESS_LINE_LEN];

	if (!progress_due(p))
		return;
	snprintf(line, sizeof line, "%s", text);
	make_printable(line);
	cut_end(line, (size_t)progress_columns() - 1);
	draw(p, line);
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
