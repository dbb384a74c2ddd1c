/* cli_help.c: --help, built from the command and option rows: the probe's
 * lists the commands and its own options, every other command only its
 * own. */
#include "config.h"

#include "cli/cli.h"
#include "cli/cli_settings.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "util/names.h"
#include "util/output.h"
#include "util/wrap.h"

#define HELP_WIDTH     80	/* the longest --help line */
#define HELP_FLAGS_COL 30	/* option names, then two spaces, then the text */

/* tmpl with its "{}" replaced by opt's values (joined with "," for a
 * list, "|" for a choice), or by its range. */
static void
expand(const struct cli_option *opt, const char *tmpl, char *buf, size_t len)
{
	char names[200];

	cli_option_values(opt, cli_option_kind(opt) == CLI_VALUE_LIST ? "," : "|", names,
	    sizeof names);
	if (names[0] == '\0')
		cli_option_range(opt, names, sizeof names);
	names_expand(tmpl, names, buf, len);
}

/* text from column col, wrapped at HELP_WIDTH, each further line from
 * HELP_FLAGS_COL + 2. */
static void
print_wrapped(FILE *out, const char *text, int col)
{
	const char *p = text;

	for (;;) {
		size_t n = wrap_fit(p, (size_t)(HELP_WIDTH - col), true);

		fprintf(out, "%.*s\n", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		col = HELP_FLAGS_COL + 2;
		fprintf(out, "%*s", col, "");
	}
}

/* The left column (flags) and the right (text) of one line. */
static void
print_item(FILE *out, const char *left, int col, const char *text)
{
	fprintf(out, "%-*s  ", HELP_FLAGS_COL, left);
	print_wrapped(out, text, col > HELP_FLAGS_COL ? col + 2 : HELP_FLAGS_COL + 2);
}

static void
print_option(FILE *out, const struct cli_option *opt)
{
	char flags[96], arg[128], help[256], text[336], groups[64];
	int col;

	if (opt->letter)
		col = snprintf(flags, sizeof flags, "  -%c, --%s", opt->letter, opt->name);
	else
		col = snprintf(flags, sizeof flags, "      --%s", opt->name);
	if (opt->arg != NULL) {
		expand(opt, opt->arg, arg, sizeof arg);
		col += snprintf(flags + col, sizeof flags - (size_t)col,
		    opt->has_arg == optional_argument ? "[=%s]" : "=%s", arg);
	}
	expand(opt, opt->help, help, sizeof help);
	/* "-t NAME:" for an option of one group; one of several keeps its
	 * text as it is, and its refusal names them. */
	if (cli_one_group(opt->groups)) {
		cli_group_names(opt->groups, groups, sizeof groups);
		snprintf(text, sizeof text, "-t %s: %s", groups, help);
	} else {
		snprintf(text, sizeof text, "%s", help);
	}
	print_item(out, flags, col, text);
}

static void
print_options(FILE *out, const struct cli_command *cmd)
{
	size_t i;

	for (i = 0; i < cmd->noptions; i++)
		print_option(out, &cmd->options[i]);
}

/* "  durability write [OPTION]... [DIR]" and its summary. */
static void
print_command(FILE *out, const struct cli_command *cmd)
{
	char left[128];
	int col;

	col = snprintf(left, sizeof left, "  %s %s", cmd->name, cmd->synopsis);
	/* A long synopsis takes its own line, the summary the next. */
	if (col > HELP_FLAGS_COL) {
		fprintf(out, "%s\n", left);
		left[0] = '\0';
		col = 0;
	}
	print_item(out, left, col, cmd->summary);
}

/* The probe's help: the commands, then its own options. */
static void
probe_help(FILE *out, const struct cli_table *t, const struct cli_command *cmd)
{
	size_t i;

	fprintf(out, "Usage: syncprobe %s\n", cmd->synopsis);
	fprintf(out, "  or:  syncprobe COMMAND [ARGUMENT]...\n");
	fprintf(out, "%s\n\nCommands (syncprobe help COMMAND shows a command's options):\n",
	    cmd->description);
	for (i = 0; i < t->n; i++)
		if (t->commands[i]->name[0] != '\0')
			print_command(out, t->commands[i]);
	fprintf(out, "\n");
	print_options(out, cmd);
	fprintf(out,
"\n"
"Sizes take B, k, kB, KiB, M, MB, MiB, G, GB, GiB (powers of 1024); durations\n"
"s, ms, us (a bare number is seconds).\n"
"Exit status: 0 done, 1 an I/O error stopped the run, 2 bad usage or a target\n"
"that cannot be used, 3 (durability verify) acknowledged records were lost.\n"
"The first SIGINT, SIGTERM or SIGHUP ends the measuring, removes the test file\n"
"and prints what was measured; a second one, or any other signal that would end\n"
"syncprobe, removes the file at once. Either way syncprobe then dies of that\n"
"signal. SIGINT, SIGTERM and SIGHUP end a durability writer after the record in\n"
"hand, keeping its file; while the file is still being filled (before the header\n"
"line), any signal that would end the writer removes the file, and the writer\n"
"dies of that signal.\n");
}

void
cli_help(FILE *out, const struct cli_table *t, const struct cli_command *cmd)
{
	if (cmd->name[0] == '\0') {
		probe_help(out, t, cmd);
		return;
	}
	fprintf(out, "Usage: syncprobe %s %s\n%s\n\n", cmd->name, cmd->synopsis,
	    cmd->description);
	print_options(out, cmd);
}

void
cli_help_prefix(FILE *out, const struct cli_table *t, const char *prefix)
{
	size_t i, len = strlen(prefix);
	bool first = true;

	for (i = 0; i < t->n; i++) {
		const char *name = t->commands[i]->name;

		if (strncmp(name, prefix, len) != 0 || (name[len] != ' ' && name[len] != '\0'))
			continue;
		if (!first)
			fprintf(out, "\n");
		cli_help(out, t, t->commands[i]);
		first = false;
	}
}

/* syncprobe help [COMMAND]: the words of COMMAND. */
struct help_settings {
	const struct cli_table *table;
	char **words;
	size_t nwords;
};

static const struct cli_option help_options[] = {
	CLI_ROW_HELP,
};

static void
help_defaults(void *s)
{
	memset(s, 0, sizeof(struct help_settings));
}

/* The command the words name ("durability write"), or NULL. */
static const struct cli_command *
command_named(const struct cli_table *t, char **words, size_t n)
{
	char name[64];
	size_t i;

	if (n == 0 || n > 2)
		return NULL;
	snprintf(name, sizeof name, "%s%s%s", words[0], n > 1 ? " " : "", n > 1 ? words[1] : "");
	for (i = 0; i < t->n; i++)
		if (t->commands[i]->name[0] != '\0' && strcmp(t->commands[i]->name, name) == 0)
			return t->commands[i];
	return NULL;
}

static int
help_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct help_settings *h = s;
	char next[64];

	h->table = p->table;
	h->words = p->operands;
	h->nwords = p->noperands;
	if (h->nwords == 0 || command_named(h->table, h->words, h->nwords) != NULL)
		return 0;
	cli_next_words(h->table, h->words[0], next, sizeof next);
	if (h->nwords == 1 && next[0] != '\0')
		return 0;
	snprintf(err, errlen, "help: no command '%s%s%s' (see syncprobe --help)",
	    h->words[0], h->nwords > 1 ? " " : "", h->nwords > 1 ? h->words[1] : "");
	return -1;
}

static int
help_run(const void *s)
{
	const struct help_settings *h = s;
	const struct cli_command *cmd = command_named(h->table, h->words, h->nwords);

	if (h->nwords == 0)
		cli_help(stdout, h->table, h->table->commands[0]);
	else if (cmd != NULL)
		cli_help(stdout, h->table, cmd);
	else
		cli_help_prefix(stdout, h->table, h->words[0]);
	return output_finish();
}

const struct cli_command cli_help_command = {
	.name = "help",
	.synopsis = "[COMMAND]",
	.summary = "show the options of COMMAND, or this help",
	.description = "Show the options of COMMAND, or the commands and the probe's options.",
	.options = help_options,
	.noptions = sizeof help_options / sizeof help_options[0],
	.operands = CLI_OPERAND_COMMAND,
	.settings_size = sizeof(struct help_settings),
	.defaults = help_defaults,
	.check = help_check,
	.run = help_run,
};
