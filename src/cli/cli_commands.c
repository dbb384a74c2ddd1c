/* cli_commands.c: the commands, one row each, the probe first. Adding a
 * command is a row here and its own cli_NAME.c (its option table, checks
 * and a run function calling its layer's folder). */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/output.h"
#include "util/status.h"

const struct cli_command *const cli_commands[] = {
	&cli_probe_command,
	&cli_compare_command,
	&cli_durability_write_command,
	&cli_durability_verify_command,
	&cli_help_command,
};

const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

/* Whether word is the first word of cmd's name. */
static bool
first_word_is(const struct cli_command *cmd, const char *word)
{
	size_t n = strlen(word);

	return n > 0 && strncmp(cmd->name, word, n) == 0 &&
	    (cmd->name[n] == '\0' || cmd->name[n] == ' ');
}

void
cli_next_words(const char *first, char *buf, size_t len)
{
	size_t i, used = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < cli_ncommands && used < len; i++)
		if (first_word_is(cli_commands[i], first) &&
		    strchr(cli_commands[i]->name, ' ') != NULL) {
			n = snprintf(buf + used, len - used, "%s%s", used ? " or " : "",
			    strchr(cli_commands[i]->name, ' ') + 1);
			used += n > 0 ? (size_t)n : 0;
		}
}

const struct cli_command *
cli_find_command(int argc, char **argv, int *words)
{
	char why[200], next[64];
	size_t i;
	bool prefix = false;

	*words = 0;
	if (argc < 2)
		return &cli_probe_command;
	for (i = 0; i < cli_ncommands; i++) {
		const struct cli_command *cmd = cli_commands[i];
		const char *second;

		if (!first_word_is(cmd, argv[1]))
			continue;
		second = strchr(cmd->name, ' ');
		if (second == NULL) {
			*words = 1;
			return cmd;
		}
		prefix = true;
		if (argc > 2 && strcmp(second + 1, argv[2]) == 0) {
			*words = 2;
			return cmd;
		}
	}
	if (!prefix)
		return &cli_probe_command;
	/* "syncprobe durability --help" shows both halves. */
	if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		cli_help_prefix(stdout, argv[1]);
		exit((int)output_finish());
	}
	cli_next_words(argv[1], next, sizeof next);
	snprintf(why, sizeof why, "needs %s after it (see syncprobe help %s)", next, argv[1]);
	cli_die_usage(argv[1], why);
}
