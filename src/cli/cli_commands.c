/* cli_commands.c: the commands, one row each, the probe first. Adding a
 * command is a row here and its own cli_NAME.c (its option table, checks
 * and a run function calling its layer's folder). Nothing but this table
 * names every command: the parser and help are handed it. */
#include "config.h"

#include "cli/cli.h"

static const struct cli_command *const commands[] = {
	&cli_probe_command,
	&cli_compare_command,
	&cli_durability_write_command,
	&cli_durability_verify_command,
	&cli_watch_command,
	&cli_pgbench_command,
	&cli_help_command,
};

const struct cli_table cli_table = { commands, sizeof commands / sizeof commands[0] };
