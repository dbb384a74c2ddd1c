/* gen_completion.c: a build tool, not part of syncprobe: writes syncprobe's bash completion script on stdout,
 * from the command and option tables in src/cli that build --help. Run by
 * the build, never installed. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "util/output.h"

int
main(void)
{
	cli_completion_bash(stdout);
	return (int)output_finish();
}
