/* cli.h: the commands and their options, one table each. A command is one
 * struct cli_command (its name, synopsis, option table, settings and run
 * function); an option is one struct cli_option row (names, argument, help,
 * its type and the field of the command's settings it sets, its limits, and
 * where it applies). getopt's tables, the one parser of every value
 * (cli_value.c), --help, the check that refuses an option where it does not
 * apply, and shell completion are all built from these rows, so an option
 * is typed once and takes no code of its own. */
#ifndef SYNCPROBE_CLI_H
#define SYNCPROBE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/names.h"

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

/* How a row's value is read and where it goes: every type but CLI_CODE
 * sets the field of the command's settings that CLI_FIELD or CLI_ARRAY
 * names, and is read by cli_set_value (cli_value.c). */
enum cli_type {
	CLI_NONE,	/* no value: --help, --version (the row's action) */
	CLI_CODE,	/* parse(): the few options that truly need code */
	CLI_FLAG,	/* a bool, set */
	/* A const char *, the value as given; an empty one is refused as
	 * "empty <.empty>" where .empty is set; given without its optional
	 * value, .fallback. */
	CLI_TEXT,
	CLI_COUNT,	/* a uint64_t count of operations, 1..max (units_parse_count) */
	CLI_NUMBER,	/* a whole number min..max, into an unsigned field */
	CLI_LIST,	/* whole numbers min..max, comma-separated: an array and its count */
	/* Bytes (units_parse_size) into an integer field; from min to max
	 * where max is set, and a power of two with CLI_POW2. */
	CLI_SIZE,
	/* Nanoseconds into a uint64_t: units_parse_duration's 1us..1h where
	 * min and max are 0; up to max (0 allowed where min is 0 and max is
	 * set); at least min where min is set. */
	CLI_DURATION,
	CLI_CHOICE,	/* one of .names: its index, into an enum */
	CLI_ROW,	/* one of .names: a pointer to its row of the table */
	CLI_NAMES,	/* names of .names, comma-separated, or all (.all): bits */
	CLI_METHOD	/* a sync method this system has: a const struct method * */
};

#define CLI_POW2 1u	/* CLI_SIZE: a power of two */

/* The field member of the settings struct that a row sets; an array
 * field and the size_t that counts its items (CLI_LIST). */
#define CLI_FIELD(settings, member) \
	.off = offsetof(settings, member), .width = sizeof(((settings *)0)->member)
#define CLI_ARRAY(settings, member, count) \
	.off = offsetof(settings, member), .width = sizeof(((settings *)0)->member[0]), \
	.cap = sizeof(((settings *)0)->member) / sizeof(((settings *)0)->member[0]), \
	.count_off = offsetof(settings, count)

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
	enum cli_action action;
	enum cli_type type;
	/* Where the value goes: CLI_FIELD or CLI_ARRAY. */
	size_t off, width, cap, count_off;
	uint64_t min, max;	/* the limits of a number, a size or a duration */
	unsigned flags;		/* CLI_POW2 */
	const struct name_list *names;	/* CLI_CHOICE, CLI_ROW, CLI_NAMES */
	unsigned all;		/* CLI_NAMES: the bits "all" sets */
	const char *empty;	/* CLI_TEXT: what an empty value would be, refused */
	const char *fallback;	/* CLI_TEXT given without its optional value */
	/* CLI_CODE: set the value into the command's settings; 0, or -1
	 * with the reason in err (no option name: the caller adds it). arg
	 * is NULL for an option without a value. */
	int (*parse)(void *settings, const char *arg, char *err, size_t errlen);
	/* CLI_CODE's value, as help and completion show it, and its choices
	 * joined with sep (NULL: a free value); a typed row's come from its
	 * type and names (cli_option_kind, cli_option_values). */
	enum cli_value kind;
	void (*values)(const char *sep, char *buf, size_t len);
	/* The probe's test groups (bits of enum group) one of which must be
	 * chosen for the option to mean anything; 0: no such need. */
	unsigned groups;
	const char *example;	/* a value it accepts (the tests use it) */
	/* The value's limits said otherwise than min..max, for the "{}" of
	 * a row without values; NULL: from min and max (cli_option_range). */
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

/* What the option's value is, for help and completion. */
enum cli_value cli_option_kind(const struct cli_option *opt);

/* Its limits, "1k..64k", "0..100ms" (its range() where it has one); ""
 * where it has none. */
void cli_option_range(const struct cli_option *opt, char *buf, size_t len);

/* Read arg as opt's type says into its field of settings (or through its
 * parse() for CLI_CODE); 0, or -1 with the reason in err (no option
 * name). arg is NULL for an option without a value. */
int cli_set_value(const struct cli_option *opt, void *settings, const char *arg, char *err,
    size_t errlen);

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
