/* output.c: flush standard output and say so when it failed, so that a
 * report cut short by a full disk or a closed pipe is an error. */
#include "config.h"

#include "util/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum exit_status
output_finish(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "syncprobe: write standard output: %s\n",
		    errno ? strerror(errno) : "error");
		return STATUS_IO;
	}
	return STATUS_OK;
}
