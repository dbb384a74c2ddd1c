/* test_wrap.c: the word-wrapping of the text report and --help, exactly:
 * where lines break, their indents, and that no line passes its width. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/wrap.h"

/* text wrapped as wrap_print does it, into a string the caller frees. */
static char *
wrapped(int first, int rest, int width, const char *text, bool commas)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	wrap_print(f, first, rest, width, text, commas);
	fclose(f);
	return buf;
}

static void
check_wrap(int first, int rest, int width, const char *text, bool commas,
    const char *want, const char *what)
{
	char *got = wrapped(first, rest, width, text, commas);

	ok(got != NULL && strcmp(got, want) == 0, "%s", what);
	if (got != NULL && strcmp(got, want) != 0)
		printf("# got:\n%s# want:\n%s", got, want);
	free(got);
}

/* Whether every line of text is at most width columns. */
static bool
lines_fit(const char *text, int width)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		if (n > (size_t)width)
			return false;
		p += n + (p[n] == '\n');
	}
	return true;
}

static void
test_fit(void)
{
	ok(wrap_fit("short", 10, false) == 5, "text that fits is one line");
	ok(wrap_fit("exactly ten", 11, false) == 11, "text of exactly the room fits");
	ok(wrap_fit("two words", 5, false) == 3, "breaks before the space past the room");
	ok(wrap_fit("a b c d", 3, false) == 3, "a space at the room's edge is a break");
	ok(wrap_fit("abcdefghij", 4, false) == 4, "a word longer than the room is cut at it");
	ok(wrap_fit("one,two,three", 9, false) == 9, "commas are no break without commas");
	ok(wrap_fit("one,two,three", 9, true) == 8, "with commas, breaks after the last comma");
	ok(wrap_fit("x", 0, false) == 1, "no room still makes progress");
	ok(wrap_fit("mounted rw,relatime,x", 15, true) == 7,
	    "with commas, a space still breaks first (a short list stays whole)");
}

static void
test_print(void)
{
	char *out;

	check_wrap(2, 4, 20, "the quick brown fox jumps over the lazy dog", false,
	    "  the quick brown\n    fox jumps over\n    the lazy dog\n",
	    "hanging indent: first line at 2, the rest at 4");
	check_wrap(0, 0, 10, "", false, "", "empty text prints nothing");
	check_wrap(4, 4, 12, "   lead", false, "    lead\n", "leading spaces are dropped");
	check_wrap(2, 2, 10, "/a/very/long/path/name", false,
	    "  /a/very/\n  long/pat\n  h/name\n", "a long word is cut, never past the width");
	check_wrap(0, 2, 16, "open_datasync,fdatasync,fsync", true,
	    "open_datasync,\n  fdatasync,\n  fsync\n", "--help lists break after commas");
	out = wrapped(4, 6, 79, "warning [writeback_cache]: vda has a volatile write cache "
	    "(write back): commits are durable only if it honours flush requests, which "
	    "these figures cannot prove.", false);
	ok(out != NULL && lines_fit(out, 79), "a warning fits 79 columns");
	free(out);
}

int
main(void)
{
	test_fit();
	test_print();
	return tap_done();
}
