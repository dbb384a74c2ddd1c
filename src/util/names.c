/* names.c: reading, joining and finding the names of a table. */
#include "config.h"

#include "util/names.h"

#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

const char *
names_at(const struct name_list *l, size_t i)
{
	const char *entry = (const char *)l->table + i * l->stride + l->offset;
	const char *name;

	memcpy(&name, entry, sizeof name);
	return name;
}

void
names_join(const struct name_list *l, const char *sep, char *buf, size_t len)
{
	struct strbuf b;
	size_t i;

	strbuf_init(&b, buf, len);
	for (i = 0; i < l->count; i++)
		strbuf_add(&b, "%s%s", i ? sep : "", names_at(l, i));
}

int
names_find(const struct name_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (strcmp(names_at(l, i), name) == 0)
			return (int)i;
	return -1;
}

int
names_choose(const struct name_list *l, const char *name, char *err, size_t errlen)
{
	char names[256];
	int i = names_find(l, name);

	if (i < 0) {
		names_join(l, ", ", names, sizeof names);
		snprintf(err, errlen, "unknown value (choose %s)", names);
	}
	return i;
}

void
names_expand(const char *tmpl, const char *value, char *buf, size_t len)
{
	const char *hole = strstr(tmpl, "{}");
	int n;

	if (hole == NULL)
		n = snprintf(buf, len, "%s", tmpl);
	else
		n = snprintf(buf, len, "%.*s%s%s", (int)(hole - tmpl), tmpl, value, hole + 2);
	if (n < 0 && len > 0)
		buf[0] = '\0';
}
