/* wrap.c: greedy word-wrapping. */
#include "config.h"

#include "util/wrap.h"

#include <string.h>

size_t
wrap_fit(const char *text, size_t room, bool commas)
{
	size_t len = strlen(text), i, at_space = 0, at_comma = 0;

	if (len <= room)
		return len;
	for (i = 1; i <= room; i++) {
		if (text[i] == ' ')
			at_space = i;
		else if (text[i - 1] == ',')
			at_comma = i;
	}
	/* A comma breaks a line only where no space does: inside a list that
	 * is longer than a line (mount options, names). */
	if (at_space > 0)
		return at_space;
	if (commas && at_comma > 0)
		return at_comma;
	return room > 0 ? room : 1;	/* one word longer than a line */
}

void
wrap_print(FILE *out, int first, int rest, int width, const char *text, bool commas)
{
	const char *p = text;
	int indent = first;

	while (*p == ' ')
		p++;
	while (*p != '\0') {
		size_t room = width > indent ? (size_t)(width - indent) : 1;
		size_t n = wrap_fit(p, room, commas);

		fprintf(out, "%*s%.*s\n", indent, "", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		indent = rest;
	}
}
