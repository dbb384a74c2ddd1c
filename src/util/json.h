/* json.h: a small streaming JSON writer. Strings are always escaped, invalid
 * UTF-8 becomes U+FFFD, and numbers that are not finite become null, so the
 * output is valid JSON whatever the input. */
#ifndef SYNCPROBE_JSON_H
#define SYNCPROBE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Only the innermost open container's state is kept: a container that
 * closes leaves its parent holding an item (itself), so nesting needs no
 * per-level memory and has no limit. */
struct json {
	FILE *out;
	int depth;
	bool has_items;		/* the innermost open container has an item */
	int line_depth;		/* containers from this depth on are on one line; 0: none */
};

void json_init(struct json *j, FILE *out);

/* key is NULL inside arrays and for the top-level value. */
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
/* An object written on one line, {"a": 1, "b": 2}, with whatever it holds:
 * for long arrays of small objects. */
void json_begin_object_line(struct json *j, const char *key);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_string(struct json *j, const char *key, const char *value);	/* NULL: null */
void json_uint(struct json *j, const char *key, uint64_t value);
void json_int(struct json *j, const char *key, long value);
void json_double(struct json *j, const char *key, double value, int decimals);
void json_bool(struct json *j, const char *key, bool value);
void json_null(struct json *j, const char *key);

/* Write s as a JSON string literal, quotes included. */
void json_write_string(FILE *out, const char *s);

#endif
