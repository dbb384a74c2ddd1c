/* json_read.c: the strict JSON reader (see json_read.h for what it refuses
 * and why). A recursive descent over the bytes, depth-limited, building
 * the tree as it goes; the first error stops it and names where. */
#include "config.h"

#include "util/json_read.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/json.h"

#define READ_CHUNK 65536
#define KEY_SHOWN  60	/* bytes of a key an error message shows */

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	size_t values;		/* made so far, against max_values */
	size_t max_values;	/* JSON_READ_MAX_VALUES, or less when a budget says so */
	struct json_budget *budget;	/* NULL, or the one max_values came from */
	char *err;
	size_t errlen;
	bool failed;
};

/* A string being decoded. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

static bool parse_value(struct parser *p, struct json_node *node, int depth);

/* Record the first error, with the line and column of the current byte. */
static bool __attribute__((format(printf, 2, 3)))
fail(struct parser *p, const char *fmt, ...)
{
	size_t i, line = 1, col = 1;
	char what[200];
	va_list ap;

	if (p->failed)
		return false;
	p->failed = true;
	for (i = 0; i < p->pos && i < p->len; i++) {
		if (p->text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
	return false;
}

static int
peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

/* RFC 8259 whitespace: space, tab, newline, carriage return. */
static void
skip_space(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->text[p->pos];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

/* What the byte at the current position is, for "expected X, found Y". */
static void
describe_here(const struct parser *p, char *buf, size_t len)
{
	int c = peek(p);

	if (c < 0)
		snprintf(buf, len, "the end of the input");
	else if (c >= 0x21 && c < 0x7F)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned)c);
}

static bool
expected(struct parser *p, const char *what)
{
	char here[32];

	describe_here(p, here, sizeof here);
	return fail(p, "expected %s, found %s", what, here);
}

static bool
count_value(struct parser *p)
{
	if (++p->values <= p->max_values)
		return true;
	if (p->budget != NULL && p->max_values < JSON_READ_MAX_VALUES)
		p->budget->exceeded = true;
	return fail(p, "more than %zu values", p->max_values);
}

static bool
strbuf_add(struct parser *p, struct strbuf *s, const char *bytes, size_t n)
{
	if (s->len + n > JSON_READ_MAX_STRING)
		return fail(p, "string longer than %u bytes", JSON_READ_MAX_STRING);
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 32;
		char *grown;

		while (cap < s->len + n + 1)
			cap *= 2;
		grown = realloc(s->buf, cap);
		if (grown == NULL)
			return fail(p, "out of memory");
		s->buf = grown;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, bytes, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return true;
}

/* Four hex digits after "\u"; -1 if they are not. */
static long
hex4(struct parser *p)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int c = peek(p);

		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
		p->pos++;
	}
	return v;
}

static size_t
utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* "\uXXXX", or a surrogate pair of them, after the backslash and 'u'. */
static bool
unicode_escape(struct parser *p, struct strbuf *s)
{
	long hi = hex4(p), lo;
	char utf8[4];
	uint32_t cp;

	if (hi < 0)
		return fail(p, "\\u needs four hex digits");
	cp = (uint32_t)hi;
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return fail(p, "\\u%04lx is a lone low surrogate", hi);
	if (hi >= 0xD800 && hi <= 0xDBFF) {
		if (peek(p) != '\\' || p->pos + 1 >= p->len || p->text[p->pos + 1] != 'u')
			return fail(p, "\\u%04lx is a high surrogate without its low half", hi);
		p->pos += 2;
		lo = hex4(p);
		if (lo < 0xDC00 || lo > 0xDFFF)
			return fail(p, "\\u%04lx is a high surrogate without its low half", hi);
		cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
	}
	if (cp == 0)
		return fail(p, "\\u0000 is not allowed in a string here");
	return strbuf_add(p, s, utf8, utf8_encode(cp, utf8));
}

static bool
simple_escape(struct parser *p, struct strbuf *s)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek(p);
	const char *hit = c > 0 ? strchr(from, c) : NULL;

	if (c == 'u') {
		p->pos++;
		return unicode_escape(p, s);
	}
	if (hit == NULL)
		return fail(p, "unknown escape in a string");
	p->pos++;
	return strbuf_add(p, s, &to[hit - from], 1);
}

/* A valid UTF-8 sequence at the current position; its length, or 0. The
 * input need not end with a NUL: the last bytes are checked in a copy. */
static size_t
utf8_here(const struct parser *p)
{
	unsigned char tail[5] = { 0 };
	size_t left = p->len - p->pos;

	if (left >= 4)
		return escape_utf8_len((const unsigned char *)p->text + p->pos);
	memcpy(tail, p->text + p->pos, left);
	return escape_utf8_len(tail);
}

/* A string, at its opening quote; *out is malloc'd. */
static bool
parse_string(struct parser *p, char **out)
{
	struct strbuf s = { NULL, 0, 0 };

	p->pos++;
	if (!strbuf_add(p, &s, "", 0))
		return false;
	for (;;) {
		int c = peek(p);
		size_t n;

		if (c < 0) {
			fail(p, "a string is not closed");
			break;
		}
		if (c == '"') {
			p->pos++;
			*out = s.buf;
			return true;
		}
		if (c == '\\') {
			p->pos++;
			if (!simple_escape(p, &s))
				break;
			continue;
		}
		if (c < 0x20) {
			fail(p, "control character 0x%02x in a string (escape it)", (unsigned)c);
			break;
		}
		n = utf8_here(p);
		if (n == 0) {
			fail(p, "invalid UTF-8 in a string");
			break;
		}
		if (!strbuf_add(p, &s, p->text + p->pos, n))
			break;
		p->pos += n;
	}
	free(s.buf);
	return false;
}

static bool
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Digits, at least one; false if there are none. */
static bool
digits(struct parser *p)
{
	if (!is_digit(peek(p)))
		return false;
	while (is_digit(peek(p)))
		p->pos++;
	return true;
}

/* RFC 8259's number grammar, then strtod on exactly those characters. */
static bool
parse_number(struct parser *p, double *out)
{
	size_t start = p->pos, n;
	char buf[JSON_READ_MAX_NUMBER + 1];

	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0')
		p->pos++;
	else if (!digits(p))
		return expected(p, "a digit");
	if (peek(p) == '.') {
		p->pos++;
		if (!digits(p))
			return expected(p, "a digit after the decimal point");
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!digits(p))
			return expected(p, "a digit in the exponent");
	}
	n = p->pos - start;
	if (n > JSON_READ_MAX_NUMBER) {
		p->pos = start;
		return fail(p, "number longer than %d characters", JSON_READ_MAX_NUMBER);
	}
	memcpy(buf, p->text + start, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	if (!isfinite(*out)) {
		p->pos = start;
		return fail(p, "number out of range");
	}
	return true;
}

static bool
literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
		return expected(p, "a value");
	p->pos += n;
	return true;
}

/* Room for one more member in node's arrays. */
static bool
grow(struct parser *p, struct json_node *node, size_t *cap)
{
	struct json_node *items;
	char **keys;
	size_t want;

	if (node->count < *cap)
		return true;
	want = *cap ? *cap * 2 : 4;
	items = realloc(node->items, want * sizeof *items);
	if (items == NULL)
		return fail(p, "out of memory");
	node->items = items;
	if (node->type == JSON_OBJECT) {
		keys = realloc(node->keys, want * sizeof *keys);
		if (keys == NULL)
			return fail(p, "out of memory");
		node->keys = keys;
	}
	*cap = want;
	return true;
}

static int
compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A key repeated in one object: sorted copies of the keys side by side. */
static bool
no_duplicate_keys(struct parser *p, const struct json_node *obj)
{
	char **sorted;
	size_t i;
	bool ok = true;

	if (obj->count < 2)
		return true;
	sorted = malloc(obj->count * sizeof *sorted);
	if (sorted == NULL)
		return fail(p, "out of memory");
	memcpy(sorted, obj->keys, obj->count * sizeof *sorted);
	qsort(sorted, obj->count, sizeof *sorted, compare_keys);
	for (i = 1; i < obj->count && ok; i++)
		if (strcmp(sorted[i - 1], sorted[i]) == 0) {
			char shown[KEY_SHOWN + 1];
			size_t k;

			/* The key as it may be shown: on one line, cut short. */
			snprintf(shown, sizeof shown, "%s", sorted[i]);
			for (k = 0; shown[k] != '\0'; k++)
				if ((unsigned char)shown[k] < 0x20)
					shown[k] = '?';
			ok = fail(p, "key \"%s\" appears twice in one object", shown);
		}
	free(sorted);
	return ok;
}

/* The members of an array or object, after its opening bracket. */
static bool
parse_members(struct parser *p, struct json_node *node, int depth)
{
	bool object = node->type == JSON_OBJECT;
	char close = object ? '}' : ']';
	size_t cap = 0;

	skip_space(p);
	if (peek(p) == close) {
		p->pos++;
		return true;
	}
	for (;;) {
		char *key = NULL;
		struct json_node *item;

		if (!grow(p, node, &cap))
			return false;
		if (object) {
			skip_space(p);
			if (peek(p) != '"')
				return expected(p, "a key in double quotes");
			if (!parse_string(p, &key))
				return false;
			skip_space(p);
			if (peek(p) != ':') {
				free(key);
				return expected(p, "':' after a key");
			}
			p->pos++;
			node->keys[node->count] = key;
		}
		item = &node->items[node->count];
		memset(item, 0, sizeof *item);
		node->count++;	/* counted now, so that a failure frees it */
		if (!parse_value(p, item, depth + 1))
			return false;
		skip_space(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == close) {
			p->pos++;
			return object ? no_duplicate_keys(p, node) : true;
		}
		return expected(p, object ? "',' or '}'" : "',' or ']'");
	}
}

static bool
parse_value(struct parser *p, struct json_node *node, int depth)
{
	int c;

	memset(node, 0, sizeof *node);
	if (!count_value(p))
		return false;
	skip_space(p);
	c = peek(p);
	switch (c) {
	case '{':
	case '[':
		if (depth >= JSON_READ_MAX_DEPTH)
			return fail(p, "nested deeper than %d", JSON_READ_MAX_DEPTH);
		node->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		p->pos++;
		return parse_members(p, node, depth);
	case '"':
		node->type = JSON_STRING;
		return parse_string(p, &node->string);
	case 't':
	case 'f':
		node->type = JSON_BOOL;
		node->boolean = c == 't';
		return literal(p, c == 't' ? "true" : "false");
	case 'n':
		node->type = JSON_NULL;
		return literal(p, "null");
	default:
		if (c == '-' || is_digit(c)) {
			node->type = JSON_NUMBER;
			return parse_number(p, &node->number);
		}
		return expected(p, "a value");
	}
}

static void
free_members(struct json_node *node)
{
	size_t i;

	for (i = 0; i < node->count; i++) {
		free_members(&node->items[i]);
		if (node->keys != NULL)
			free(node->keys[i]);
	}
	free(node->items);
	free(node->keys);
	free(node->string);
}

void
json_read_free(struct json_node *root)
{
	if (root == NULL)
		return;
	free_members(root);
	free(root);
}

/* json_read within budget (NULL: the per-document limits only), which
 * then loses the values the document took. */
static struct json_node *
read_within(const char *text, size_t len, struct json_budget *budget, char *err, size_t errlen)
{
	struct parser p = { text, len, 0, 0, JSON_READ_MAX_VALUES, budget, err, errlen, false };
	struct json_node *root;

	if (len > JSON_READ_MAX_BYTES) {
		snprintf(err, errlen, "larger than %u MiB", JSON_READ_MAX_BYTES >> 20);
		return NULL;
	}
	if (budget != NULL && budget->values < p.max_values)
		p.max_values = budget->values;
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		snprintf(err, errlen, "line 1, column 1: starts with a byte order mark");
		return NULL;
	}
	root = calloc(1, sizeof *root);
	if (root == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (parse_value(&p, root, 0)) {
		skip_space(&p);
		if (p.pos < p.len)
			expected(&p, "the end of the input after the value");
	}
	if (p.failed) {
		json_read_free(root);
		return NULL;
	}
	if (budget != NULL)
		budget->values -= p.values;
	return root;
}

struct json_node *
json_read(const char *text, size_t len, char *err, size_t errlen)
{
	return read_within(text, len, NULL, err, errlen);
}

/* The whole file, NUL-terminated; a file larger than the reader takes
 * (max bytes) is refused as soon as it shows, without reading the rest. */
static char *
slurp(int fd, size_t max, size_t *len, char *err, size_t errlen)
{
	size_t cap = READ_CHUNK, used = 0;
	char *buf = malloc(cap + 1);

	while (buf != NULL) {
		ssize_t n;

		if (used > max) {
			if (max < JSON_READ_MAX_BYTES)
				snprintf(err, errlen, "larger than %zu bytes", max);
			else
				snprintf(err, errlen, "larger than %u MiB", JSON_READ_MAX_BYTES >> 20);
			free(buf);
			return NULL;
		}
		if (used == cap) {
			size_t want = 2 * cap > max + 1 ? max + 1 : 2 * cap;
			char *grown = realloc(buf, want + 1);

			if (grown == NULL)
				break;
			buf = grown;
			cap = want;
		}
		n = read(fd, buf + used, cap - used);
		if (n == 0) {
			buf[used] = '\0';
			*len = used;
			return buf;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			free(buf);
			return NULL;
		}
		used += (size_t)n;
	}
	free(buf);
	snprintf(err, errlen, "out of memory");
	return NULL;
}

struct json_node *
json_read_file_within(const char *path, struct json_budget *budget, char *err, size_t errlen)
{
	struct json_node *root = NULL;
	size_t len = 0, max = JSON_READ_MAX_BYTES;
	char *text;
	int fd = open(path, O_RDONLY);

	if (fd == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	if (budget != NULL && budget->bytes < max)
		max = budget->bytes;
	text = slurp(fd, max, &len, err, errlen);
	if (text == NULL && budget != NULL && max < JSON_READ_MAX_BYTES &&
	    strncmp(err, "larger than", 11) == 0)
		budget->exceeded = true;
	if (close(fd) == -1 && text != NULL) {
		snprintf(err, errlen, "close: %s", strerror(errno));
		free(text);
		return NULL;
	}
	if (text != NULL) {
		root = read_within(text, len, budget, err, errlen);
		if (root != NULL && budget != NULL)
			budget->bytes -= len;
	}
	free(text);
	return root;
}

struct json_node *
json_read_file(const char *path, char *err, size_t errlen)
{
	return json_read_file_within(path, NULL, err, errlen);
}

const struct json_node *
json_get(const struct json_node *obj, const char *key)
{
	size_t i;

	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->count; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}

const char *
json_type_name(enum json_type t)
{
	static const char *const names[] = {
		"null", "boolean", "number", "string", "array", "object"
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}
