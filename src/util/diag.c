/* diag.c: error messages on stderr, escaped (see diag.h). Escaping the
 * whole message is what makes it one place: syncprobe's own words are
 * plain text that escaping leaves as it is, so only what came from
 * outside changes. */
#include "config.h"

#include "util/diag.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/escape.h"

void
diag_error(const char *fmt, ...)
{
	char raw[DIAG_LEN], shown[ESCAPE_LEN(DIAG_LEN)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	escape_for_terminal(raw, shown, sizeof shown);
	fprintf(stderr, "syncprobe: %s\n", shown);
}
