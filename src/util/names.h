/* names.h: the names in a table, so that usage text, option parsing and
 * error messages ("choose one of ...") are built from the table itself and
 * no name is typed twice. */
#ifndef SYNCPROBE_NAMES_H
#define SYNCPROBE_NAMES_H

#include <stddef.h>

/* count entries of stride bytes from table, each with a `const char *`
 * name at offset bytes into the entry. */
struct name_list {
	const void *table;
	size_t count;
	size_t stride;
	size_t offset;
};

/* The names of an array of structs with a `const char *` member. */
#define NAME_LIST(array, type, member) \
	{ (array), sizeof (array) / sizeof (array)[0], sizeof (type), offsetof(type, member) }
/* The names of an array of strings. */
#define NAME_LIST_STRINGS(array) \
	{ (array), sizeof (array) / sizeof (array)[0], sizeof (const char *), 0 }

/* The i-th name (i < l->count). */
const char *names_at(const struct name_list *l, size_t i);

/* The names joined with sep into buf (cut short, never overrun). */
void names_join(const struct name_list *l, const char *sep, char *buf, size_t len);

/* The index of name in the list, or -1. */
int names_find(const struct name_list *l, const char *name);

/* An option's value, one of the list: its index, or -1 with "unknown
 * value (choose a, b, c)" in err. */
int names_choose(const struct name_list *l, const char *name, char *err, size_t errlen);

/* tmpl with its first "{}" replaced by value, into buf (cut short, never
 * overrun): a table's text with a figure or a list in it, without
 * non-literal printf formats. */
void names_expand(const char *tmpl, const char *value, char *buf, size_t len);

#endif
