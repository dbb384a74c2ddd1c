/* test_json.c: the JSON writer's exact output, captured with open_memstream:
 * string escaping byte by byte (controls, quotes, every kind of invalid
 * UTF-8, which becomes one U+FFFD per bad byte), numbers that are not
 * finite, NULL strings, and the layout of nested objects and arrays. The
 * expected texts are written out by hand (deep nesting by a loop of its
 * own), so that they pin today's output byte for byte. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "tap.h"

/* One U+FFFD as the writer spells it, to count them in expected texts. */
#define BAD "\\ufffd"

/* A writer whose output goes to memory. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
	struct json j;
};

static struct json *
capture_start(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (c->f == NULL) {
		perror("open_memstream");
		exit(99);
	}
	json_init(&c->j, c->f);
	return &c->j;
}

/* Print s as a TAP comment, as a C string would spell it: a newline as \n,
 * other bytes outside printable ASCII as \xNN. */
static void
diag_bytes(const char *label, const char *s, size_t len)
{
	size_t i;

	printf("# %s \"", label);
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		if (b == '\n')
			fputs("\\n", stdout);
		else if (b == '"' || b == '\\')
			printf("\\%c", b);
		else if (b >= 0x20 && b < 0x7F)
			putchar(b);
		else
			printf("\\x%02X", b);
	}
	printf("\"\n");
}

/* Close the capture: c->buf and c->len hold all it got. */
static void
capture_end(struct capture *c)
{
	if (fclose(c->f) != 0) {
		perror("fclose");
		exit(99);
	}
}

/* got (len bytes) is exactly want. todo: NULL, or why a failure is a known
 * bug (see tap.h). */
static void
bytes_is(const char *got, size_t len, const char *want, const char *todo, const char *desc)
{
	bool same = len == strlen(want) && memcmp(got, want, len) == 0;

	if (todo != NULL)
		ok_todo(same, todo, "%s", desc);
	else
		ok(same, "%s", desc);
	if (!same) {
		diag_bytes("got: ", got, len);
		diag_bytes("want:", want, strlen(want));
	}
}

/* The output is exactly want; the capture is closed and freed. */
static void
capture_is(struct capture *c, const char *want, const char *todo, const char *desc)
{
	capture_end(c);
	bytes_is(c->buf, c->len, want, todo, desc);
	free(c->buf);
}

/* json_write_string(s) is exactly want (quotes included). */
static void
string_is(const char *s, const char *want, const char *desc)
{
	struct capture c;

	capture_start(&c);
	json_write_string(c.f, s);
	capture_is(&c, want, NULL, desc);
}

struct string_case {
	const char *desc;
	const char *in;
	const char *want;
};

static const struct string_case string_cases[] = {
	{ "empty string", "", "\"\"" },
	{ "plain ASCII", "hello, world", "\"hello, world\"" },
	{ "printable ASCII passes through but for \" and \\",
	    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
	    "abcdefghijklmnopqrstuvwxyz{|}~",
	    "\" !\\\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`"
	    "abcdefghijklmnopqrstuvwxyz{|}~\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "a path's slashes are not escaped", "/var/tmp/x", "\"/var/tmp/x\"" },
	{ "DEL (0x7F) as \\u007f", "a\x7f" "b", "\"a\\u007fb\"" },
	{ "a NUL ends the C string: nothing after it is written", "a\0b", "\"a\"" },

	/* Valid UTF-8 passes through as it is. */
	{ "2 bytes: U+0080", "\xC2\x80", "\"\xC2\x80\"" },
	{ "2 bytes: U+00E9 between ASCII", "caf\xC3\xA9!", "\"caf\xC3\xA9!\"" },
	{ "2 bytes: U+07FF", "\xDF\xBF", "\"\xDF\xBF\"" },
	{ "3 bytes: U+0800", "\xE0\xA0\x80", "\"\xE0\xA0\x80\"" },
	{ "3 bytes: U+20AC (euro)", "\xE2\x82\xAC", "\"\xE2\x82\xAC\"" },
	{ "3 bytes: U+D7FF, the last before the surrogates", "\xED\x9F\xBF", "\"\xED\x9F\xBF\"" },
	{ "3 bytes: U+E000, the first after the surrogates", "\xEE\x80\x80", "\"\xEE\x80\x80\"" },
	{ "3 bytes: U+2028 (valid in JSON, kept)", "\xE2\x80\xA8", "\"\xE2\x80\xA8\"" },
	{ "3 bytes: U+FFFF", "\xEF\xBF\xBF", "\"\xEF\xBF\xBF\"" },
	{ "4 bytes: U+10000", "\xF0\x90\x80\x80", "\"\xF0\x90\x80\x80\"" },
	{ "4 bytes: U+1F600", "\xF0\x9F\x98\x80", "\"\xF0\x9F\x98\x80\"" },
	{ "4 bytes: U+10FFFF, the last code point", "\xF4\x8F\xBF\xBF", "\"\xF4\x8F\xBF\xBF\"" },

	/* Overlong forms: one U+FFFD per byte. */
	{ "overlong NUL C0 80", "\xC0\x80", "\"" BAD BAD "\"" },
	{ "overlong C1 BF", "\xC1\xBF", "\"" BAD BAD "\"" },
	{ "overlong NUL E0 80 80", "\xE0\x80\x80", "\"" BAD BAD BAD "\"" },
	{ "overlong U+07FF E0 9F BF", "\xE0\x9F\xBF", "\"" BAD BAD BAD "\"" },
	{ "overlong NUL F0 80 80 80", "\xF0\x80\x80\x80", "\"" BAD BAD BAD BAD "\"" },
	{ "overlong U+FFFF F0 8F BF BF", "\xF0\x8F\xBF\xBF", "\"" BAD BAD BAD BAD "\"" },
	{ "overlong '/' C0 AF between ASCII", "a\xC0\xAF" "b", "\"a" BAD BAD "b\"" },

	/* UTF-16 surrogates encoded in UTF-8. */
	{ "surrogate U+D800 ED A0 80", "\xED\xA0\x80", "\"" BAD BAD BAD "\"" },
	{ "surrogate U+DBFF ED AF BF", "\xED\xAF\xBF", "\"" BAD BAD BAD "\"" },
	{ "surrogate U+DC00 ED B0 80", "\xED\xB0\x80", "\"" BAD BAD BAD "\"" },
	{ "surrogate U+DFFF ED BF BF", "\xED\xBF\xBF", "\"" BAD BAD BAD "\"" },
	{ "surrogate pair ED A0 BD ED B8 80", "\xED\xA0\xBD\xED\xB8\x80",
	    "\"" BAD BAD BAD BAD BAD BAD "\"" },

	/* Above U+10FFFF. */
	{ "U+110000 F4 90 80 80", "\xF4\x90\x80\x80", "\"" BAD BAD BAD BAD "\"" },
	{ "lead F5", "\xF5\x80\x80\x80", "\"" BAD BAD BAD BAD "\"" },
	{ "lead F7 (U+1FFFFF)", "\xF7\xBF\xBF\xBF", "\"" BAD BAD BAD BAD "\"" },
	{ "5-byte form F8 88 80 80 80", "\xF8\x88\x80\x80\x80", "\"" BAD BAD BAD BAD BAD "\"" },
	{ "6-byte form FC 84 80 80 80 80", "\xFC\x84\x80\x80\x80\x80",
	    "\"" BAD BAD BAD BAD BAD BAD "\"" },
	{ "FE and FF", "\xFE\xFF", "\"" BAD BAD "\"" },

	/* Sequences cut short: each byte of the fragment is replaced, and what
	 * follows is read afresh (an ASCII byte is not swallowed). */
	{ "2-byte lead at the end", "a\xC3", "\"a" BAD "\"" },
	{ "3-byte sequence missing its last byte at the end", "\xE2\x82", "\"" BAD BAD "\"" },
	{ "4-byte sequence missing its last byte at the end", "\xF0\x9F\x98",
	    "\"" BAD BAD BAD "\"" },
	{ "4-byte lead alone at the end", "x\xF0", "\"x" BAD "\"" },
	{ "3-byte sequence cut short by ASCII", "\xE2\x82x", "\"" BAD BAD "x\"" },
	{ "2-byte lead before a quote: the quote stays escaped", "\xC3\"", "\"" BAD "\\\"\"" },
	{ "lead before a newline: the newline stays escaped", "\xE2\n", "\"" BAD "\\n\"" },

	/* Continuation bytes alone. */
	{ "continuation 80 alone", "\x80", "\"" BAD "\"" },
	{ "continuation BF alone", "\xBF", "\"" BAD "\"" },
	{ "two continuations between ASCII", "a\x80\xBF" "b", "\"a" BAD BAD "b\"" },
	{ "a continuation after a complete sequence", "\xC3\xA9\xA9", "\"\xC3\xA9" BAD "\"" },
	{ "0xFF in a path", "/q\xFFx", "\"/q" BAD "x\"" },
};

/* How each control byte is written: the short escapes where JSON has one,
 * \u00XX (lower-case hex) for the rest. 0x00 cannot be in a C string. */
static const char *const control_escapes[0x20] = {
	NULL, "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
	"\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f",
	"\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
	"\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
};

static void
test_control_bytes(void)
{
	char in[4], want[16], desc[64];
	unsigned b;

	for (b = 0x01; b < 0x20; b++) {
		snprintf(in, sizeof in, "<%c>", (char)b);
		snprintf(want, sizeof want, "\"<%s>\"", control_escapes[b]);
		snprintf(desc, sizeof desc, "control byte 0x%02X as %s", b, control_escapes[b]);
		string_is(in, want, desc);
	}
	string_is("\x01\x1f\x7f\t", "\"\\u0001\\u001f\\u007f\\t\"", "controls side by side");
}

static void
test_string_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof string_cases / sizeof string_cases[0]; i++)
		string_is(string_cases[i].in, string_cases[i].want, string_cases[i].desc);
}

struct double_case {
	const char *desc;
	double value;
	int decimals;
	const char *want;
};

static const struct double_case double_cases[] = {
	{ "NaN is null", NAN, 3, "null" },
	{ "+Inf is null", INFINITY, 1, "null" },
	{ "-Inf is null", -INFINITY, 1, "null" },
	{ "a double with 1 decimal, rounded", 123.4567, 1, "123.5" },
	{ "a negative double with 3 decimals", -0.25, 3, "-0.250" },
	{ "a double with 0 decimals has no point", 42.0, 0, "42" },
};

static void
test_scalars(void)
{
	struct capture c;
	size_t i;

	for (i = 0; i < sizeof double_cases / sizeof double_cases[0]; i++) {
		const struct double_case *d = &double_cases[i];

		json_double(capture_start(&c), NULL, d->value, d->decimals);
		capture_is(&c, d->want, NULL, d->desc);
	}
	json_uint(capture_start(&c), NULL, UINT64_MAX);
	capture_is(&c, "18446744073709551615", NULL, "uint64 max");
	json_int(capture_start(&c), NULL, -42);
	capture_is(&c, "-42", NULL, "a negative int");
	json_string(capture_start(&c), NULL, NULL);
	capture_is(&c, "null", NULL, "a NULL string is null");
	json_string(capture_start(&c), NULL, "x\n");
	capture_is(&c, "\"x\\n\"", NULL, "a top-level string: escaped, no newline after");
}

/* An object holding every kind of value, an array holding every kind of
 * item, empty containers and escaped keys: commas between items only,
 * each item on its own line indented two spaces a level, ": " after a
 * key, empty containers as {} and [], a newline after the top level. */
static void
test_document(void)
{
	struct capture c;
	struct json *j = capture_start(&c);

	json_begin_object(j, NULL);
	json_uint(j, "n", 1);
	json_int(j, "i", -2);
	json_double(j, "d", 0.5, 2);
	json_double(j, "nan", NAN, 2);
	json_string(j, "s", "v");
	json_string(j, "none", NULL);
	json_bool(j, "t", true);
	json_bool(j, "f", false);
	json_null(j, "z");
	json_string(j, "k\"e\\y\n\xFF", "w");
	json_begin_array(j, "list");
	json_string(j, NULL, "a");
	json_uint(j, NULL, 7);
	json_begin_object(j, NULL);
	json_bool(j, "in", true);
	json_end_object(j);
	json_begin_array(j, NULL);
	json_end_array(j);
	json_begin_object(j, NULL);
	json_end_object(j);
	json_null(j, NULL);
	json_string(j, NULL, NULL);
	json_double(j, NULL, INFINITY, 1);
	json_end_array(j);
	json_begin_object(j, "empty");
	json_end_object(j);
	json_begin_array(j, "none_yet");
	json_end_array(j);
	json_begin_object(j, "deep");
	json_begin_array(j, "a");
	json_begin_object(j, NULL);
	json_uint(j, "x", 1);
	json_uint(j, "y", 2);
	json_end_object(j);
	json_end_array(j);
	json_end_object(j);
	json_end_object(j);
	capture_is(&c,
	    "{\n"
	    "  \"n\": 1,\n"
	    "  \"i\": -2,\n"
	    "  \"d\": 0.50,\n"
	    "  \"nan\": null,\n"
	    "  \"s\": \"v\",\n"
	    "  \"none\": null,\n"
	    "  \"t\": true,\n"
	    "  \"f\": false,\n"
	    "  \"z\": null,\n"
	    "  \"k\\\"e\\\\y\\n" BAD "\": \"w\",\n"
	    "  \"list\": [\n"
	    "    \"a\",\n"
	    "    7,\n"
	    "    {\n"
	    "      \"in\": true\n"
	    "    },\n"
	    "    [],\n"
	    "    {},\n"
	    "    null,\n"
	    "    null,\n"
	    "    null\n"
	    "  ],\n"
	    "  \"empty\": {},\n"
	    "  \"none_yet\": [],\n"
	    "  \"deep\": {\n"
	    "    \"a\": [\n"
	    "      {\n"
	    "        \"x\": 1,\n"
	    "        \"y\": 2\n"
	    "      }\n"
	    "    ]\n"
	    "  }\n"
	    "}\n",
	    NULL, "a document: nesting, commas, indentation, escaped keys");
}

static void
test_top_level(void)
{
	struct capture c;
	struct json *j = capture_start(&c);

	json_begin_object(j, NULL);
	json_end_object(j);
	capture_is(&c, "{}\n", NULL, "an empty top-level object and its newline");

	j = capture_start(&c);
	json_begin_array(j, NULL);
	json_uint(j, NULL, 1);
	json_end_array(j);
	json_begin_array(j, NULL);
	json_end_array(j);
	capture_is(&c, "[\n  1\n]\n[]\n", NULL,
	    "two top-level arrays in a row: the writer starts afresh after each");
}

/* Write into want (size bytes) levels nested arrays as the writer lays them
 * out, and return the length: the level (from 0) as the first item of each,
 * then the inner array, then 100 + the level as the last item of each but
 * the innermost (write_nested writes the same through the writer). */
static size_t
nested_want(char *want, size_t size, int levels)
{
	size_t n = 0;
	int i;

#define PUT(...) (n += (size_t)snprintf(want + n, n < size ? size - n : 0, __VA_ARGS__))
	for (i = 0; i < levels; i++) {
		PUT("%*s[\n", 2 * i, "");
		PUT("%*s%d%s\n", 2 * (i + 1), "", i, i < levels - 1 ? "," : "");
	}
	for (i = levels - 1; i >= 0; i--) {
		if (i < levels - 1)
			PUT("%*s%d\n", 2 * (i + 1), "", 100 + i);
		PUT("%*s]%s\n", 2 * i, "", i > 0 ? "," : "");
	}
#undef PUT
	return n;
}

static void
write_nested(struct json *j, int levels)
{
	int i;

	for (i = 0; i < levels; i++) {
		json_begin_array(j, NULL);
		json_uint(j, NULL, (uint64_t)i);
	}
	for (i = levels - 1; i >= 0; i--) {
		if (i < levels - 1)
			json_uint(j, NULL, (uint64_t)(100 + i));
		json_end_array(j);
	}
}

/* Nesting of any depth: the writer keeps no per-level state, so 15, 16
 * and 40 levels (deeper than an old fixed table of 16) come out alike. */
static void
test_depth(void)
{
	static const int depths[] = { 15, 16, 40 };
	static char want[8192];
	struct capture c;
	char desc[128];
	size_t i;

	for (i = 0; i < sizeof depths / sizeof depths[0]; i++) {
		nested_want(want, sizeof want, depths[i]);
		write_nested(capture_start(&c), depths[i]);
		snprintf(desc, sizeof desc, "%d nested arrays: commas and indentation", depths[i]);
		capture_is(&c, want, NULL, desc);
	}
}

int
main(void)
{
	test_string_cases();
	test_control_bytes();
	test_scalars();
	test_document();
	test_top_level();
	test_depth();
	return tap_done();
}
