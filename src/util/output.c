/* output.c: flush standard output and say so when it failed, so that a
 * report cut short by a full disk or a closed pipe is an error. */
#include "config.h"

#include "util/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/diag.h"

enum exit_status
output_finish(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		diag_error("write standard output: %s",
		    errno ? strerror(errno) : "error");
		return STATUS_IO;
	}
	return STATUS_OK;
}
