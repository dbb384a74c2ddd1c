/* cli.h: the commands and their options, one table each. A command is one
 * struct cli_command (its name, synopsis, option table, settings and run
 * function); an option is one struct cli_option row (names, argument, help,
 * parser, and where it applies). getopt's tables, --help, the check that
 * refuses an option where it does not apply, and shell completion are all
 * built from these rows, so an option is typed once. */
#ifndef SYNCPROBE_CLI_H
#define SYNCPROBE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CLI_MAX_OPTIONS 64	/* rows of one command; distinct options of all */

/* What a row does besides setting a value. */
enum cli_action {
	CLI_SET,	/* its parser sets the command's settings */
	CLI_HELP,	/* print the command's help and exit */
	CLI_VERSION	/* print the version and exit */
};

/* The value an option takes, as help and completion show it. */
enum cli_value {
	CLI_VALUE_FREE,		/* anything its parser accepts */
	CLI_VALUE_CHOICE,	/* one of values() */
	CLI_VALUE_LIST,		/* a comma-separated list of values(), or all */
	CLI_VALUE_FILE		/* a file's name: completion offers files */
};

/* What a command's operands are, for completion. */
enum cli_operand {
	CLI_OPERAND_DIR,	/* directories (the probe's targets; the default) */
	CLI_OPERAND_FILE,	/* files (compare's saved reports) */
	CLI_OPERAND_COMMAND	/* a command's name (help) */
};

struct cli_option {
	const char *name;	/* the long option, without "--" */
	int letter;		/* the short option, or 0 */
	int has_arg;		/* getopt's no_argument, required_ or optional_ */
	const char *arg;	/* the value's name in help ("{}": the values), or NULL */
	const char *help;	/* "{}" stands for the values too */
	/* Set the value into the command's settings; 0, or -1 with the
	 * reason in err (no option name: the caller adds it). arg is NULL
	 * for an option without a value. NULL for CLI_HELP/CLI_VERSION. */
	int (*parse)(void *settings, const char *arg, char *err, size_t errlen);
	enum cli_action action;
	enum cli_value kind;
	/* The choices, joined with sep (help, completion, messages); NULL
	 * for a free value. */
	void (*values)(const char *sep, char *buf, size_t len);
	/* The probe's test groups (bits of enum group) one of which must be
	 * chosen for the option to mean anything; 0: no such need. */
	unsigned groups;
	const char *example;	/* a value it accepts (the tests use it) */
	/* The value's limits ("1k..64k"), written from their constants: the
	 * "{}" of a row without values; NULL: none. */
	void (*range)(char *buf, size_t len);
};

/* Every command, the probe first (the order of the list in help). The
 * parser, help and completion are given it, so that only
 * cli_commands.c, the table, names the commands. */
struct cli_table {
	const struct cli_command *const *commands;
	size_t n;
};

extern const struct cli_table cli_table;

/* What parsing saw, for a command's own checks. */
struct cli_parsed {
	const struct cli_table *table;
	const struct cli_command *cmd;
	bool given[CLI_MAX_OPTIONS];	/* by row of cmd->options */
	char **operands;
	size_t noperands;
};

struct cli_command {
	const char *name;	/* "" for the probe, "compare", "durability write" */
	const char *synopsis;	/* the arguments after the name, for usage */
	const char *summary;	/* one line, for the list of commands */
	const char *description;	/* the head of its --help */
	const struct cli_option *options;
	size_t noptions;
	enum cli_operand operands;
	size_t settings_size;	/* the plain struct the parsers fill */
	void (*defaults)(void *settings);
	/* The probe's chosen groups, for rows with groups; NULL elsewhere. */
	unsigned (*groups)(const void *settings);
	/* Checks that need every option and the operands: 0, or -1 with a
	 * whole message ("--x: why") in err. */
	int (*check)(void *settings, const struct cli_parsed *p, char *err, size_t errlen);
	/* Run it; the exit status. */
	int (*run)(const void *settings);
};

/* The commands of each layer folder, listed in cli_commands.c. */
extern const struct cli_command cli_probe_command;
extern const struct cli_command cli_compare_command;
extern const struct cli_command cli_durability_write_command;
extern const struct cli_command cli_durability_verify_command;
extern const struct cli_command cli_watch_command;
extern const struct cli_command cli_pgbench_command;
extern const struct cli_command cli_help_command;

/* The command argv starts with ("durability write" takes two words), and
 * how many words its name took; the probe, 0 words, when argv[1] names no
 * command. An unknown second word of a command's first word ("durability
 * x") is a usage error, reported here. */
const struct cli_command *cli_find_command(const struct cli_table *t, int argc, char **argv,
    int *words);

/* "write or verify": the second words of the commands whose name starts
 * with the word first. */
void cli_next_words(const struct cli_table *t, const char *first, char *buf, size_t len);

/* Whether word is the first word of cmd's name. */
bool cli_first_word_is(const struct cli_command *cmd, const char *word);

/* Parse argv (argv[0] is the last word of the command's name, or the
 * program) into settings: exits 2 with a one-line message on bad usage,
 * 0 after --help or --version. */
void cli_parse(const struct cli_table *t, const struct cli_command *cmd, int argc, char **argv,
    void *settings);

/* Whether the option named name (long) was given. */
bool cli_given(const struct cli_parsed *p, const char *name);

/* Whether cmd takes the option named name; the row, or NULL. */
const struct cli_option *cli_option_in(const struct cli_command *cmd, const char *name);

/* "syncprobe durability write": the command as a user types it. */
void cli_command_title(const struct cli_command *cmd, char *buf, size_t len);

/* The help of one command (the probe's also lists the commands); of every
 * command whose name starts with the word prefix ("durability"). */
void cli_help(FILE *out, const struct cli_table *t, const struct cli_command *cmd);
void cli_help_prefix(FILE *out, const struct cli_table *t, const char *prefix);

/* The option's values (its choices), joined with sep; "" for a free
 * value. For completion, help and messages. */
void cli_option_values(const struct cli_option *opt, const char *sep, char *buf, size_t len);

/* The names of the probe's groups in the mask, joined with ",". */
void cli_group_names(unsigned groups, char *buf, size_t len);

/* Whether the mask names exactly one group. */
bool cli_one_group(unsigned groups);

/* The same for a sentence: "one, two or group". */
void cli_group_list(unsigned groups, char *buf, size_t len);

/* The bash completion script for every command, from the same rows. */
void cli_completion_bash(FILE *out);

/* One line on stderr, exit 2: the form every usage error takes. */
_Noreturn void cli_die_usage(const char *what, const char *why);

#endif
