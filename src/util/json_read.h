/* json_read.h: a strict, bounded JSON reader for saved reports (syncprobe compare).
 * RFC 8259 and nothing more: no comments, no trailing commas, no NaN, no
 * byte order mark; strings must be valid UTF-8 (escapes included: no lone
 * surrogates) and may not hold U+0000, so they stay C strings; a key
 * repeated in one object is refused rather than guessed at; numbers are
 * doubles and must be finite. Depth, document size, string length and the
 * number of values are bounded, so any input costs bounded memory and time.
 * The result is a small tree the caller walks with json_get(). */
#ifndef SYNCPROBE_JSON_READ_H
#define SYNCPROBE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_READ_MAX_DEPTH  32			/* nested arrays and objects */
#define JSON_READ_MAX_BYTES  (64u << 20)	/* 64 MiB: a document */
#define JSON_READ_MAX_STRING (1u << 20)		/* 1 MiB: one string, decoded */
#define JSON_READ_MAX_NUMBER 512		/* characters of one number */
#define JSON_READ_MAX_VALUES (1u << 21)		/* values in a document */

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json_node {
	enum json_type type;
	bool boolean;			/* JSON_BOOL */
	double number;			/* JSON_NUMBER */
	char *string;			/* JSON_STRING: NUL-terminated UTF-8 */
	size_t count;			/* JSON_ARRAY, JSON_OBJECT: members */
	struct json_node *items;	/* the array's items, or the object's values */
	char **keys;			/* JSON_OBJECT: each value's key */
};

/* Parse text[0, len): exactly one JSON value, with whitespace around it.
 * Returns the tree, or NULL with "line L, column C: WHAT" in err. */
struct json_node *json_read(const char *text, size_t len, char *err, size_t errlen);

/* Read the file at path (at most JSON_READ_MAX_BYTES) and parse it; NULL
 * with the reason in err (without the path). */
struct json_node *json_read_file(const char *path, char *err, size_t errlen);

/* What reads may still take together: bytes of text and values made,
 * shared by several documents (compare reads all its reports within one),
 * on top of each document's own limits. */
struct json_budget {
	size_t bytes;
	size_t values;
	bool exceeded;	/* set when a read stopped because the budget ran out */
};

/* json_read_file within budget, which loses what the document took. */
struct json_node *json_read_file_within(const char *path, struct json_budget *budget,
    char *err, size_t errlen);

void json_read_free(struct json_node *root);

/* The value of key in obj, or NULL when obj is not an object or has no
 * such key. */
const struct json_node *json_get(const struct json_node *obj, const char *key);

/* "object", "string", ...: a type's name, for messages. */
const char *json_type_name(enum json_type t);

#endif
