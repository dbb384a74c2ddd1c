/* test_escape.c: text escaped for a terminal, exactly: what ls -b escapes
 * (spaces aside), C1 controls, bytes that are not UTF-8, valid UTF-8 kept,
 * and a short buffer cut at a whole escape. */
#include "config.h"

#include <string.h>

#include "util/escape.h"
#include "tap.h"

static void
check(const char *in, const char *want, const char *what)
{
	char got[ESCAPE_LEN(64)];

	escape_for_terminal(in, got, sizeof got);
	ok(strcmp(got, want) == 0, "%s: got '%s'", what, got);
}

/* Escaped, then undone: the string itself again. */
static void
round_trip(const char *in, const char *what)
{
	char escaped[ESCAPE_LEN(64)], back[64];

	escape_for_terminal(in, escaped, sizeof escaped);
	ok(escape_undo(escaped, back, sizeof back) == 0 && strcmp(back, in) == 0,
	    "undone: %s", what);
}

int
main(void)
{
	char small[8];

	check("/srv/pg data", "/srv/pg data", "plain text and spaces stay");
	check("/srv/tab\there", "/srv/tab\\there", "a tab is \\t");
	check("a\nb\rc", "a\\nb\\rc", "newline and carriage return");
	check("\a\b\f\v", "\\a\\b\\f\\v", "the other C escapes");
	check("back\\slash", "back\\\\slash", "a backslash is doubled");
	check("x\033[31mred\033[0m", "x\\033[31mred\\033[0m", "an escape sequence is defused");
	check("\001\037\177", "\\001\\037\\177", "other C0 controls and DEL in octal");
	check("caf\303\251 \342\202\254", "caf\303\251 \342\202\254", "valid UTF-8 (e acute, euro) stays");
	check("\302\233[2J", "\\302\\233[2J", "a C1 control (U+009B, CSI) in octal");
	check("\302\240", "\302\240", "U+00A0 is not a control: it stays");
	check("l\377x", "l\\377x", "a byte that is not UTF-8 in octal");
	check("\233[2J", "\\233[2J", "a raw C1 byte (not UTF-8) in octal");
	check("\300\257", "\\300\\257", "an overlong form, byte by byte");
	check("\355\240\200", "\\355\\240\\200", "a surrogate, byte by byte");
	escape_for_terminal("ab\033cd", small, 7);
	ok(strcmp(small, "ab\\033") == 0, "cut short at a whole escape: '%s'", small);
	escape_for_terminal("abc\033", small, 6);
	ok(strcmp(small, "abc") == 0, "no half escape when it does not fit: '%s'", small);
	ok(escape_utf8_len((const unsigned char *)"\364\220\200\200") == 0, "above U+10FFFF is invalid");
	ok(escape_utf8_len((const unsigned char *)"\360\237\230\200") == 4, "U+1F600 is 4 bytes");
	round_trip("/srv/pg data", "plain text");
	round_trip("a\tb\nc\r\a\b\f\v", "the C escapes");
	round_trip("back\\slash\\101", "a backslash, and one before digits");
	round_trip("x\033[31m\302\233\233\377\300\257", "controls, C1, bytes not UTF-8");
	round_trip("caf\303\251", "valid UTF-8");
	ok(escape_undo("a\\", small, sizeof small) == -1, "a lone backslash at the end: refused");
	ok(escape_undo("a\\x", small, sizeof small) == -1, "an escape never written (\\x): refused");
	ok(escape_undo("\\400", small, sizeof small) == -1, "an octal escape above a byte: refused");
	ok(escape_undo("\\000", small, sizeof small) == -1, "a NUL byte: refused");
	ok(escape_undo("abcdefgh", small, sizeof small) == -1, "too long for the buffer: refused");
	ok(escape_undo("ab\\033c", small, sizeof small) == 0 && strcmp(small, "ab\033c") == 0,
	    "\\033 is ESC");
	return tap_done();
}
