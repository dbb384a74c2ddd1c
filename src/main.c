/* main.c: pick the command, parse its options, run it, exit with its
 * status. The commands, their option tables and the parser are in src/cli;
 * everything is in libsyncprobe.a, which the tests link too. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "util/status.h"
#include "util/diag.h"

int
main(int argc, char **argv)
{
	const struct cli_command *cmd;
	void *settings;
	int words, status;

	/* "syncprobe compare ...", "syncprobe durability write ...", or the
	 * probe when the first word names no command. */
	cmd = cli_find_command(&cli_table, argc, argv, &words);
	settings = calloc(1, cmd->settings_size);
	if (settings == NULL) {
		diag_error("options: out of memory");
		return STATUS_IO;
	}
	/* The command's own words are argv[0] for getopt: its options and
	 * operands follow them. Exits 2 on bad usage, 0 after --help. */
	cli_parse(&cli_table, cmd, argc - words, argv + words, settings);
	status = cmd->run(settings);
	free(settings);
	return status;
}
