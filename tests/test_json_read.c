/* test_json_read.c: the strict JSON reader: what RFC 8259 allows it
 * reads, to the value; what it does not, and what passes its bounds, it
 * refuses with the line and column; a report the writer wrote reads back. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/json_read.h"
#include "tap.h"

static struct json_node *
parse(const char *text, char *err, size_t errlen)
{
	return json_read(text, strlen(text), err, errlen);
}

/* text is refused, and the reason says want. */
static void
refused(const char *text, const char *want, const char *why)
{
	char err[256] = "";
	struct json_node *n = parse(text, err, sizeof err);

	ok(n == NULL && strstr(err, want) != NULL, "refused: %s (%s)", why, err);
	json_read_free(n);
}

static void
accepted(const char *text, const char *why)
{
	char err[256] = "";
	struct json_node *n = parse(text, err, sizeof err);

	ok(n != NULL, "accepted: %s%s%s", why, n ? "" : ": ", n ? "" : err);
	json_read_free(n);
}

/* text is one string whose bytes are want. */
static void
string_is(const char *text, const char *want, const char *why)
{
	char err[256] = "";
	struct json_node *n = parse(text, err, sizeof err);

	ok(n != NULL && n->type == JSON_STRING && strcmp(n->string, want) == 0, "string: %s", why);
	json_read_free(n);
}

static void
values(void)
{
	char err[256];
	struct json_node *n = parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], "
	    "\"b\": {}, \"c\": []}\r\n\t", err, sizeof err);
	const struct json_node *a = json_get(n, "a");

	ok(n != NULL && n->type == JSON_OBJECT && n->count == 3, "an object of three members");
	ok(a != NULL && a->type == JSON_ARRAY && a->count == 6, "a is an array of six");
	ok(a != NULL && a->items[0].number == 1.0 && a->items[1].number == -2500.0,
	    "numbers are doubles: 1 and -2.5e3");
	ok(a != NULL && a->items[2].type == JSON_BOOL && a->items[2].boolean &&
	    a->items[3].type == JSON_BOOL && !a->items[3].boolean, "true and false");
	ok(a != NULL && a->items[4].type == JSON_NULL, "null");
	ok(a != NULL && strcmp(a->items[5].string, "x") == 0, "a string");
	ok(json_get(n, "b") != NULL && json_get(n, "b")->count == 0, "an empty object");
	ok(json_get(n, "d") == NULL && json_get(a, "a") == NULL,
	    "json_get: no such key, or not an object: NULL");
	json_read_free(n);
	accepted("0", "a bare number at the top");
	accepted("-0.0e+0", "every part of a number");
	accepted("1E-400", "a number below the doubles is 0, not an error");
}

/* Inputs refused, with a word of the reason and what the case is. */
static const struct {
	const char *text;
	const char *want;
	const char *why;
} refusals[] = {
	{ "\"\\ud83d\"", "high surrogate", "a lone high surrogate" },
	{ "\"\\ude00\"", "low surrogate", "a lone low surrogate" },
	{ "\"\\u0000\"", "\\u0000", "U+0000 (strings stay C strings)" },
	{ "\"\\x41\"", "unknown escape", "an escape JSON does not have" },
	{ "\"\\u12G4\"", "four hex digits", "a \\u escape with a non-hex digit" },
	{ "\"a\tb\"", "control character", "a raw tab in a string" },
	{ "\"\xFF\"", "invalid UTF-8", "a byte that is never UTF-8" },
	{ "\"\xC0\xAF\"", "invalid UTF-8", "an overlong form" },
	{ "\"\xED\xA0\x80\"", "invalid UTF-8", "an encoded surrogate" },
	{ "\"\xE2\x82\"", "invalid UTF-8", "a sequence cut short at the end" },
	{ "\"abc", "not closed", "a string without its closing quote" },
	{ "", "line 1, column 1: expected a value, found the end", "empty input" },
	{ "[1,]", "expected a value", "a trailing comma in an array" },
	{ "{\"a\":1,}", "expected a key", "a trailing comma in an object" },
	{ "{\"a\" 1}", "':'", "a missing colon" },
	{ "[1 2]", "',' or ']'", "a missing comma" },
	{ "{\"a\":1}{}", "end of the input", "a second value" },
	{ "// c\n1", "expected a value", "a comment" },
	{ "[NaN]", "expected a value", "NaN" },
	{ "[Infinity]", "expected a value", "Infinity" },
	{ "01", "end of the input", "a leading zero" },
	{ "1.", "after the decimal point", "a decimal point without digits" },
	{ "-", "a digit", "a lone minus" },
	{ "+1", "expected a value", "a plus sign" },
	{ ".5", "expected a value", "no digit before the point" },
	{ "1e", "exponent", "an exponent without digits" },
	{ "1e999", "out of range", "a number past the doubles" },
	{ "tru", "expected a value", "a literal cut short" },
	{ "{'a':1}", "a key in double quotes", "single quotes" },
	{ "\xEF\xBB\xBF{}", "byte order mark", "a byte order mark" },
	{ "[1,\n 2,\n x]", "line 3, column 2", "the line and column of the error" },
	{ "{\"a\":1,\"b\":2,\"a\":3}", "appears twice", "a key repeated in one object" },
	{ "\f1", "expected a value", "a form feed is not JSON whitespace" },
};

static void
strings(void)
{
	string_is("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", "the simple escapes");
	string_is("\"\\u00e9\\u20AC\"", "\xC3\xA9\xE2\x82\xAC", "\\u escapes become UTF-8");
	string_is("\"\\ud83d\\ude00\"", "\xF0\x9F\x98\x80", "a surrogate pair is one code point");
	string_is("\"\xC3\xA9\xF0\x9F\x98\x80\"", "\xC3\xA9\xF0\x9F\x98\x80", "raw UTF-8 kept");
}

static void
every_refusal(void)
{
	size_t i;

	for (i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		refused(refusals[i].text, refusals[i].want, refusals[i].why);
}

static void
bounds(void)
{
	char deep[2 * JSON_READ_MAX_DEPTH + 8], err[256];
	struct json_node *n;
	size_t i, len;
	char *big;

	/* As deep as allowed: fine; one more: refused. */
	for (i = 0; i < JSON_READ_MAX_DEPTH; i++)
		deep[i] = '[';
	for (i = 0; i < JSON_READ_MAX_DEPTH; i++)
		deep[JSON_READ_MAX_DEPTH + i] = ']';
	deep[2 * JSON_READ_MAX_DEPTH] = '\0';
	accepted(deep, "nested as deep as the bound");
	memmove(deep + 1, deep, strlen(deep) + 1);
	deep[0] = '[';
	len = strlen(deep);
	deep[len] = ']';
	deep[len + 1] = '\0';
	refused(deep, "nested deeper than", "one level deeper than the bound");

	/* A string longer than the bound. */
	len = JSON_READ_MAX_STRING + 3;
	big = malloc(len + 1);
	if (big == NULL)
		exit(99);
	memset(big, 'a', len);
	big[0] = '"';
	big[len - 1] = '"';
	big[len] = '\0';
	refused(big, "string longer than", "a string past the bound");
	free(big);

	/* A document larger than the bound, refused before parsing. */
	n = json_read("0", (size_t)JSON_READ_MAX_BYTES + 1, err, sizeof err);
	ok(n == NULL && strstr(err, "larger than") != NULL, "a document past the size bound");
	refused("[0000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000"
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000]",
	    "',' or ']'", "leading zeros stay refused at any length");
}

/* What the writer writes, the reader reads back. */
static void
round_trip(void)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	struct json_node *n;

	if (f == NULL)
		exit(99);
	json_init(&j, f);
	json_begin_object(&j, NULL);
	json_string(&j, "path", "/srv/q\"b\\\n\xFFx");
	json_begin_array(&j, "histogram");
	json_begin_object_line(&j, NULL);
	json_double(&j, "le_usecs", 61.439, 3);
	json_uint(&j, "count", 4);
	json_end_object(&j);
	json_end_array(&j);
	json_double(&j, "nan", NAN, 1);
	json_end_object(&j);
	fclose(f);
	n = json_read(buf, len, err, sizeof err);
	ok(n != NULL, "the writer's output reads back");
	ok(n != NULL && strcmp(json_get(n, "path")->string, "/srv/q\"b\\\n\xEF\xBF\xBDx") == 0,
	    "a strange path reads back, its bad byte as U+FFFD");
	ok(n != NULL && json_get(n, "histogram")->items[0].count == 2 &&
	    json_get(&json_get(n, "histogram")->items[0], "count")->number == 4.0,
	    "a one-line object reads back");
	ok(n != NULL && json_get(n, "nan")->type == JSON_NULL, "a number that is not finite: null");
	ok(strstr(buf, "{\"le_usecs\": 61.439, \"count\": 4}") != NULL,
	    "a one-line object is written on one line");
	json_read_free(n);
	free(buf);
}

int
main(void)
{
	values();
	strings();
	every_refusal();
	bounds();
	round_trip();
	return tap_done();
}
