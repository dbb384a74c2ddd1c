/* json.c: the JSON writer (see json.h for its guarantees). */
#include "config.h"

#include "util/json.h"

#include <math.h>
#include <string.h>

#include "util/escape.h"

void
json_init(struct json *j, FILE *out)
{
	memset(j, 0, sizeof *j);
	j->out = out;
}

void
json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p != '\0') {
		size_t len = escape_utf8_len(p);

		if (len == 0) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (len > 1) {
			fwrite(p, 1, len, out);
			p += len;
			continue;
		}
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
		p++;
	}
	fputc('"', out);
}

/* Whether the innermost open container is on one line. */
static bool
on_one_line(const struct json *j)
{
	return j->line_depth > 0 && j->depth >= j->line_depth;
}

/* Comma, newline and indentation before an item (a space on one line),
 * then its key. */
static void
item(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_items)
			fputc(',', j->out);
		if (on_one_line(j)) {
			if (j->has_items)
				fputc(' ', j->out);
		} else {
			fprintf(j->out, "\n%*s", 2 * j->depth, "");
		}
		j->has_items = true;
	}
	if (key != NULL) {
		json_write_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void
open_container(struct json *j, const char *key, char c)
{
	item(j, key);
	fputc(c, j->out);
	j->depth++;
	j->has_items = false;
}

static void
close_container(struct json *j, char c)
{
	bool had = j->has_items, one_line = on_one_line(j);

	if (j->depth > 0)
		j->depth--;
	if (j->line_depth > j->depth)
		j->line_depth = 0;
	/* The parent holds this container: it has an item now. */
	j->has_items = true;
	if (had && !one_line)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	fputc(c, j->out);
	if (j->depth == 0)
		fputc('\n', j->out);
}

void
json_begin_object(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void
json_begin_object_line(struct json *j, const char *key)
{
	open_container(j, key, '{');
	if (j->line_depth == 0)
		j->line_depth = j->depth;
}

void
json_end_object(struct json *j)
{
	close_container(j, '}');
}

void
json_begin_array(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void
json_end_array(struct json *j)
{
	close_container(j, ']');
}

void
json_string(struct json *j, const char *key, const char *value)
{
	item(j, key);
	if (value == NULL)
		fputs("null", j->out);
	else
		json_write_string(j->out, value);
}

void
json_uint(struct json *j, const char *key, uint64_t value)
{
	item(j, key);
	fprintf(j->out, "%llu", (unsigned long long)value);
}

void
json_int(struct json *j, const char *key, long value)
{
	item(j, key);
	fprintf(j->out, "%ld", value);
}

void
json_double(struct json *j, const char *key, double value, int decimals)
{
	item(j, key);
	if (!isfinite(value))
		fputs("null", j->out);
	else
		fprintf(j->out, "%.*f", decimals, value);
}

void
json_bool(struct json *j, const char *key, bool value)
{
	item(j, key);
	fputs(value ? "true" : "false", j->out);
}

void
json_null(struct json *j, const char *key)
{
	item(j, key);
	fputs("null", j->out);
}
