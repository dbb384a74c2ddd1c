/* cli_settings.c: what the commands' option tables share (cli_settings.h). */
#include "config.h"

#include "cli/cli_settings.h"

#include <stdio.h>
#include <string.h>

#include "util/units.h"

int
cli_file_name(const char *arg, const char **out, char *err, size_t errlen)
{
	if (arg[0] == '\0') {
		snprintf(err, errlen, "empty file name");
		return -1;
	}
	*out = arg;
	return 0;
}

void
cli_size_short(uint64_t bytes, char *buf, size_t len)
{
	size_t n;

	units_format_size(bytes, buf, len);
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == 'B')
		buf[n - 1] = '\0';
}
