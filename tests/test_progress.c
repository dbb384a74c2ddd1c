/* test_progress.c: the progress line's text. It never takes more than the
 * terminal's width less one column (a full line would wrap on some
 * terminals), it cuts a long path in the middle first, never inside a
 * UTF-8 character, and shows control characters as '?'. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "util/progress.h"
#include "tap.h"

static struct progress_line
line(const char *path, size_t ntargets, double left)
{
	struct progress_line l;

	memset(&l, 0, sizeof l);
	l.target = path;
	l.target_no = 2;
	l.ntargets = ntargets;
	l.group_no = 2;
	l.ngroups = 5;
	l.group = "two";
	l.row = "fdatasync (direct)";
	l.row_no = 9;
	l.nrows = 24;
	l.secs_left = left;
	return l;
}

static void
fits(const char *path, int columns)
{
	struct progress_line l = line(path, 3, 6.1);
	char buf[PROGRESS_LINE_LEN];

	progress_format(&l, columns, buf, sizeof buf);
	ok(strlen(buf) <= (size_t)(columns > 1 ? columns - 1 : 1),
	    "%d columns, a %zu-byte path: %zu bytes", columns, strlen(path), strlen(buf));
}

int
main(void)
{
	char buf[PROGRESS_LINE_LEN], path[300];
	struct progress_line l = line("/var/tmp", 1, 6.1);
	int cols;

	progress_format(&l, 80, buf, sizeof buf);
	ok(strcmp(buf, "/var/tmp: group 2/5 two, fdatasync (direct), row 9/24, 6.1 s left") == 0,
	    "the whole line when it fits: '%s'", buf);
	l = line("/var/tmp", 3, -1.0);
	progress_format(&l, 80, buf, sizeof buf);
	ok(strcmp(buf, "target 2/3 /var/tmp: group 2/5 two, fdatasync (direct), row 9/24") == 0,
	    "several targets numbered; no time left with -n: '%s'", buf);

	memset(path, 'd', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	memcpy(path, "/start", 6);
	memcpy(path + sizeof path - 5, "/end", 4);
	l = line(path, 1, 6.1);
	progress_format(&l, 80, buf, sizeof buf);
	ok(strlen(buf) == 79 && strncmp(buf, "/start", 6) == 0 && strstr(buf, "...") != NULL &&
	    strstr(buf, "/end: group 2/5") != NULL,
	    "a long path is cut in the middle, its start and end kept: '%s'", buf);
	for (cols = 1; cols <= 200; cols++)
		fits(path, cols);
	fits("/x", 40);

	/* UTF-8 is cut between characters; controls become '?'. */
	l = line("/\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
	    "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9"
	    "\xC3\xA9\xC3\xA9", 1, 1.0);
	for (cols = 60; cols < 80; cols++) {
		const char *p;
		bool whole = true;

		progress_format(&l, cols, buf, sizeof buf);
		p = strstr(buf, "...");
		if (p != NULL && (((unsigned char)p[3] & 0xC0) == 0x80 ||
		    ((unsigned char)p[-1] & 0xE0) == 0xC0))
			whole = false;
		if (!whole) {
			ok(0, "%d columns: a UTF-8 character cut in two: '%s'", cols, buf);
			break;
		}
	}
	ok(cols == 80, "a path of two-byte characters is never cut inside one");
	l = line("/a\nb\tc\033[2J", 1, 1.0);
	progress_format(&l, 80, buf, sizeof buf);
	ok(strncmp(buf, "/a\\nb\\tc\\033[2J: ", 17) == 0,
	    "control characters are escaped, as ls -b shows them: '%s'", buf);
	return tap_done();
}
