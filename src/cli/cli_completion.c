/* cli_completion.c: the bash completion script, written from the command
 * and option rows that build --help (cli_table), so that a command,
 * an option or a value is typed once. The build runs it (src/gen_completion)
 * and installs its output where bash-completion looks; the script uses
 * bash-completion's helpers (_init_completion, _filedir), as every script
 * in that directory does. */
#include "config.h"

#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define COMPLETION_VALUES_LEN 512	/* one option's values, joined */
#define COMPLETION_NAME_LEN   64	/* a shell function's name */

/* s in single quotes for the shell: a ' inside becomes '\''. */
static void
put_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s != '\0'; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

/* The shell function completing cmd: _syncprobe_compare,
 * _syncprobe_durability_write; the probe's is _syncprobe_probe. */
static void
function_name(const struct cli_command *cmd, char *buf, size_t len)
{
	size_t i;
	int n;

	n = snprintf(buf, len, "_syncprobe_%s", cmd->name[0] != '\0' ? cmd->name : "probe");
	for (i = 0; n > 0 && i < (size_t)n && i < len; i++)
		if (buf[i] == ' ' || buf[i] == '-')
			buf[i] = '_';
}

/* The case pattern of opt: "-t|--tests", or "--file-size". */
static void
put_pattern(FILE *out, const struct cli_option *opt)
{
	if (opt->letter != 0)
		fprintf(out, "-%c|", opt->letter);
	fprintf(out, "--%s", opt->name);
}

/* What to offer for opt's value (in cur). */
static void
put_value_action(FILE *out, const struct cli_option *opt)
{
	char values[COMPLETION_VALUES_LEN];

	cli_option_values(opt, " ", values, sizeof values);
	switch (cli_option_kind(opt)) {
	case CLI_VALUE_CHOICE:
		fputs("COMPREPLY=($(compgen -W ", out);
		put_quoted(out, values);
		fputs(" -- \"$cur\"))", out);
		break;
	case CLI_VALUE_LIST:
		fputs("_syncprobe_list ", out);
		strncat(values, " all", sizeof values - strlen(values) - 1);
		put_quoted(out, values);
		break;
	case CLI_VALUE_FILE:
		fputs("_filedir", out);
		break;
	case CLI_VALUE_FREE:
		fputs("COMPREPLY=()", out);
		break;
	}
}

/* The options of cmd that take a value: complete it after the option's
 * word (-t one) or its = (--tests=one). An optional value only ever
 * follows =. A free value (a size, a duration) has nothing to offer: those
 * options share one case. */
static void
put_value_cases(FILE *out, const struct cli_command *cmd)
{
	const char *sep = "\t";
	size_t i;

	fputs("\tcase $prev in\n", out);
	for (i = 0; i < cmd->noptions; i++) {
		const struct cli_option *opt = &cmd->options[i];

		if (opt->has_arg == no_argument ||
		    (cli_option_kind(opt) == CLI_VALUE_FREE && opt->has_arg == required_argument))
			continue;
		fputc('\t', out);
		put_pattern(out, opt);
		fputs(")\n\t\t", out);
		if (opt->has_arg == optional_argument)
			fputs("$split && { ", out);
		put_value_action(out, opt);
		fputs(opt->has_arg == optional_argument ? "; return; }\n\t\t;;\n" :
		    "\n\t\treturn\n\t\t;;\n", out);
	}
	for (i = 0; i < cmd->noptions; i++)
		if (cli_option_kind(&cmd->options[i]) == CLI_VALUE_FREE &&
		    cmd->options[i].has_arg == required_argument) {
			fputs(sep, out);
			put_pattern(out, &cmd->options[i]);
			sep = "|";
		}
	if (sep[0] == '|')
		fputs(")\n\t\treturn\n\t\t;;\n", out);
	fputs("\tesac\n"
	    "\t# --option=VALUE of an option that takes none: nothing to offer.\n"
	    "\t$split && return\n", out);
}

/* Every spelling of cmd's options: --tests= (a value follows), --quiet,
 * --histogram (its value is optional), -t. */
static void
put_option_words(FILE *out, const struct cli_command *cmd)
{
	size_t i;

	fputs("\t\tCOMPREPLY=($(compgen -W '", out);
	for (i = 0; i < cmd->noptions; i++)
		fprintf(out, "%s--%s%s", i ? " " : "", cmd->options[i].name,
		    cmd->options[i].has_arg == required_argument ? "=" : "");
	for (i = 0; i < cmd->noptions; i++)
		if (cmd->options[i].letter != 0)
			fprintf(out, " -%c", cmd->options[i].letter);
	fputs("' -- \"$cur\"))\n"
	    "\t\t[[ ${COMPREPLY-} == *= ]] && compopt -o nospace\n", out);
}

/* The length of a command name's first word. */
static size_t
first_word_len(const char *name)
{
	return strcspn(name, " ");
}

static bool
same_first_word(const char *a, const char *b)
{
	size_t n = first_word_len(a);

	return n == first_word_len(b) && strncmp(a, b, n) == 0;
}

/* Whether a command before cli_table.commands[i] (the probe aside) has its
 * first word: each first word is offered and dispatched on once. */
static bool
first_word_seen(size_t i)
{
	size_t j;

	for (j = 1; j < i; j++)
		if (same_first_word(cli_table.commands[j]->name, cli_table.commands[i]->name))
			return true;
	return false;
}

/* The first word of every command's name but the probe's, once each,
 * joined with spaces: what may follow "syncprobe" or "syncprobe help". */
static void
put_first_words(FILE *out)
{
	const char *sep = "";
	size_t i;

	for (i = 1; i < cli_table.n; i++)
		if (!first_word_seen(i)) {
			fprintf(out, "%s%.*s", sep, (int)first_word_len(cli_table.commands[i]->name),
			    cli_table.commands[i]->name);
			sep = " ";
		}
}

/* What to offer for cmd's operands. The probe's first word may also be a
 * command. */
static void
put_operand_action(FILE *out, const struct cli_command *cmd)
{
	if (cmd == cli_table.commands[0]) {
		fputs("\t((cword == 1)) && COMPREPLY=($(compgen -W '", out);
		put_first_words(out);
		fputs("' -- \"$cur\"))\n", out);
	}
	switch (cmd->operands) {
	case CLI_OPERAND_DIR:
		fputs("\t_filedir -d\n", out);
		break;
	case CLI_OPERAND_FILE:
		fputs("\t_filedir\n", out);
		break;
	case CLI_OPERAND_COMMAND:
		fputs("\tCOMPREPLY=($(compgen -W '", out);
		put_first_words(out);
		fputs("' -- \"$cur\"))\n", out);
		break;
	}
}

/* One command's function: an option's value, an option, or an operand. */
static void
put_command_function(FILE *out, const struct cli_command *cmd)
{
	char name[COMPLETION_NAME_LEN], title[COMPLETION_NAME_LEN];

	function_name(cmd, name, sizeof name);
	cli_command_title(cmd, title, sizeof title);
	fprintf(out, "# %s\n%s()\n{\n", title, name);
	put_value_cases(out, cmd);
	fputs("\tif [[ $cur == -* ]]; then\n", out);
	put_option_words(out, cmd);
	fputs("\t\treturn\n\tfi\n", out);
	put_operand_action(out, cmd);
	fputs("}\n\n", out);
}

/* The dispatch on a first word that several commands share
 * ("durability"): its second words, then each command's function. */
static void
put_second_word_dispatch(FILE *out, size_t first)
{
	const char *word = cli_table.commands[first]->name, *sep = "";
	size_t n = first_word_len(word) + 1, i;
	char name[COMPLETION_NAME_LEN];

	fputs("			if ((cword == 2)); then\n\t\t\t\tCOMPREPLY=($(compgen -W '", out);
	for (i = first; i < cli_table.n; i++)
		if (same_first_word(cli_table.commands[i]->name, word)) {
			fprintf(out, "%s%s", sep, cli_table.commands[i]->name + n);
			sep = " ";
		}
	fputs("' -- \"$cur\"))\n\t\t\t\treturn\n\t\t\tfi\n"
	    "\t\t\tcase ${words[2]} in\n", out);
	for (i = first; i < cli_table.n; i++)
		if (same_first_word(cli_table.commands[i]->name, word)) {
			function_name(cli_table.commands[i], name, sizeof name);
			fprintf(out, "\t\t\t%s) %s ;;\n", cli_table.commands[i]->name + n, name);
		}
	fputs("\t\t\tesac\n", out);
}

/* The main function: the words that name a command ("compare",
 * "durability write") pick its function; the probe's otherwise. */
static void
put_dispatch(FILE *out)
{
	char name[COMPLETION_NAME_LEN];
	size_t i;

	fputs("_syncprobe()\n{\n"
	    "\tlocal cur prev words cword split\n"
	    "\t_init_completion -s || return\n"
	    "\n"
	    "\tif ((cword > 1)); then\n"
	    "\t\tcase ${words[1]} in\n", out);
	for (i = 1; i < cli_table.n; i++) {
		const struct cli_command *cmd = cli_table.commands[i];

		if (first_word_seen(i))
			continue;
		fprintf(out, "\t\t%.*s)\n", (int)first_word_len(cmd->name), cmd->name);
		if (strchr(cmd->name, ' ') != NULL) {
			put_second_word_dispatch(out, i);
		} else {
			function_name(cmd, name, sizeof name);
			fprintf(out, "\t\t\t%s\n", name);
		}
		fputs("\t\t\treturn\n\t\t\t;;\n", out);
	}
	function_name(cli_table.commands[0], name, sizeof name);
	fprintf(out, "\t\tesac\n\tfi\n\t%s\n}\n\n", name);
}

void
cli_completion_bash(FILE *out)
{
	size_t i;

	fputs("# bash completion for syncprobe: written at build time from the option\n"
	    "# tables that build its --help. Do not edit: change the tables.\n"
	    "\n"
	    "# _syncprobe_list WORDS: complete the last item of a comma-separated list.\n"
	    "# The items typed before it come back in each word: read a word a line,\n"
	    "# never split at spaces nor expanded as a pattern (-t '*,o').\n"
	    "_syncprobe_list()\n{\n"
	    "\tlocal head=\n"
	    "\t[[ $cur == *,* ]] && head=${cur%,*},\n"
	    "\tmapfile -t COMPREPLY < <(compgen -P \"$head\" -W \"$1\" -- \"${cur##*,}\")\n"
	    "\tcompopt -o nospace\n"
	    "}\n\n", out);
	for (i = 0; i < cli_table.n; i++)
		put_command_function(out, cli_table.commands[i]);
	put_dispatch(out);
	fputs("complete -F _syncprobe syncprobe\n", out);
}
