/* output.h: the end of what syncprobe writes on standard output. */
#ifndef SYNCPROBE_OUTPUT_H
#define SYNCPROBE_OUTPUT_H

#include "util/status.h"

/* Flush standard output; STATUS_IO, with a message on stderr, when the
 * report (or the help, or the version) could not be written. */
enum exit_status output_finish(void);

#endif
