/* test_strbuf.c: text built piece by piece in a fixed buffer, exactly:
 * what fits goes in, the rest is cut, nothing follows a cut, and a whole
 * piece goes in whole or not at all. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "util/strbuf.h"

static void
test_add(void)
{
	char buf[16];
	struct strbuf b;

	memset(buf, 'x', sizeof buf);
	strbuf_init(&b, buf, sizeof buf);
	ok(buf[0] == '\0' && b.used == 0 && !b.cut, "init empties the buffer");
	strbuf_add(&b, "%s=%d", "ab", 12);
	strbuf_add(&b, ", %s", "cd");
	ok(strcmp(buf, "ab=12, cd") == 0 && b.used == 9 && !b.cut, "pieces follow each other: '%s'",
	    buf);
	strbuf_add(&b, "%s", "123456");
	ok(strcmp(buf, "ab=12, cd123456") == 0 && b.used == 15 && !b.cut,
	    "a piece that fills the buffer to its NUL fits: '%s'", buf);
	strbuf_add(&b, "%s", "");
	ok(!b.cut, "nothing added to a full buffer is no cut");
	strbuf_add(&b, "z");
	ok(strcmp(buf, "ab=12, cd123456") == 0 && b.cut, "one more byte is cut: '%s'", buf);
}

static void
test_cut(void)
{
	char buf[8];
	struct strbuf b;

	strbuf_init(&b, buf, sizeof buf);
	strbuf_add(&b, "%s", "abcdefghij");
	ok(strcmp(buf, "abcdefg") == 0 && b.used == 7 && b.cut, "what fits of a long piece: '%s'",
	    buf);
	strbuf_add(&b, "%s", "");
	ok(strcmp(buf, "abcdefg") == 0, "nothing after a cut: '%s'", buf);
}

static void
test_whole(void)
{
	char buf[8];
	struct strbuf b;

	strbuf_init(&b, buf, sizeof buf);
	ok(strbuf_add_whole(&b, "abcd", 4) == 0 && strcmp(buf, "abcd") == 0, "a whole piece: '%s'",
	    buf);
	ok(strbuf_add_whole(&b, "\\033", 4) == -1 && strcmp(buf, "abcd") == 0 && b.cut,
	    "a piece that does not fit whole leaves nothing of it: '%s'", buf);
	ok(strbuf_add_whole(&b, "e", 1) == -1 && strcmp(buf, "abcd") == 0,
	    "nor does anything after it: '%s'", buf);
}

static void
test_resume(void)
{
	char buf[8] = "abc", full[4] = "abc", none[1];
	struct strbuf b;

	strbuf_resume(&b, buf, sizeof buf);
	strbuf_add(&b, "%d", 42);
	ok(strcmp(buf, "abc42") == 0 && b.used == 5, "resume builds on what is there: '%s'", buf);
	strbuf_resume(&b, full, sizeof full);
	strbuf_add(&b, "d");
	ok(strcmp(full, "abc") == 0 && b.cut, "resuming a full buffer adds nothing: '%s'", full);
	none[0] = 'x';
	strbuf_init(&b, none, 0);
	strbuf_add(&b, "a");
	ok(none[0] == 'x' && strbuf_add_whole(&b, "a", 1) == -1,
	    "a buffer of no bytes is never written");
}

int
main(void)
{
	test_add();
	test_cut();
	test_whole();
	test_resume();
	return tap_done();
}
