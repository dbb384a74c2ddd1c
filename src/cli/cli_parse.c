/* cli_parse.c: one parser for every command, built from the option rows.
 * getopt knows every option of every command, so that an option given to
 * a command that does not take it is refused by one rule, naming where it
 * applies, rather than reported as unknown or silently ignored. Whether an
 * option applies is decided by whether it was given, never by comparing a
 * value with its default. */
#include "config.h"

#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/row.h"
#include "util/diag.h"
#include "util/output.h"
#include "util/status.h"
#include "util/strbuf.h"

#define CODE_BASE 256	/* getopt codes of long-only options: CODE_BASE + index */

/* Options that became commands: refused with the command's spelling. */
static const struct retired_option {
	const char *name;
	int has_arg;
	const char *command;	/* its name, or its first word: the value is the second */
} retired_options[] = {
	{ "compare", no_argument, "compare" },
	{ "durability", required_argument, "durability" },
};

#define RETIRED_COUNT (sizeof retired_options / sizeof retired_options[0])

/* Every distinct option of every command, by long name, and getopt's
 * tables for them and the retired ones. */
struct option_set {
	const struct cli_option *rows[CLI_MAX_OPTIONS];
	size_t n;
	struct option longs[CLI_MAX_OPTIONS + RETIRED_COUNT + 1];
	char shorts[3 * CLI_MAX_OPTIONS + 2];
};

const struct cli_command *
cli_find_command(const struct cli_table *t, int argc, char **argv, int *words)
{
	char why[200], next[64];
	size_t i;
	bool prefix = false;

	*words = 0;
	if (argc < 2)
		return t->commands[0];
	for (i = 0; i < t->n; i++) {
		const struct cli_command *cmd = t->commands[i];
		const char *second;

		if (!cli_first_word_is(cmd, argv[1]))
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
		return t->commands[0];
	/* "syncprobe durability --help" shows both halves. */
	if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		cli_help_prefix(stdout, t, argv[1]);
		exit((int)output_finish());
	}
	cli_next_words(t, argv[1], next, sizeof next);
	snprintf(why, sizeof why, "needs %s after it (see syncprobe help %s)", next, argv[1]);
	cli_die_usage(argv[1], why);
}

static void
add_option(struct option_set *set, const struct cli_option *opt)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->rows[i]->name, opt->name) == 0)
			return;
	if (set->n < CLI_MAX_OPTIONS)
		set->rows[set->n++] = opt;
}

static void
build_option_set(const struct cli_table *t, struct option_set *set)
{
	size_t c, i, n = 0, r;

	set->n = 0;
	for (c = 0; c < t->n; c++)
		for (i = 0; i < t->commands[c]->noptions; i++)
			add_option(set, &t->commands[c]->options[i]);
	set->shorts[n++] = ':';	/* report a missing value as ':' */
	for (i = 0; i < set->n; i++) {
		const struct cli_option *o = set->rows[i];

		set->longs[i] = (struct option){ o->name, o->has_arg, NULL,
		    o->letter ? o->letter : CODE_BASE + (int)i };
		if (o->letter) {
			set->shorts[n++] = (char)o->letter;
			if (o->has_arg == required_argument)
				set->shorts[n++] = ':';
		}
	}
	set->shorts[n] = '\0';
	for (r = 0; r < RETIRED_COUNT; r++)
		set->longs[set->n + r] = (struct option){ retired_options[r].name,
		    retired_options[r].has_arg, NULL, CODE_BASE + (int)(set->n + r) };
	set->longs[set->n + RETIRED_COUNT] = (struct option){ NULL, 0, NULL, 0 };
}

/* The row of getopt's code c, or NULL for a retired option or none. */
static const struct cli_option *
option_of_code(const struct option_set *set, int c)
{
	size_t i;

	if (c >= CODE_BASE)
		return (size_t)(c - CODE_BASE) < set->n ? set->rows[c - CODE_BASE] : NULL;
	for (i = 0; i < set->n; i++)
		if (set->rows[i]->letter == c)
			return set->rows[i];
	return NULL;
}

static _Noreturn void
die_retired(const struct cli_table *t, const struct retired_option *r, const char *arg)
{
	char name[64], now[160], next[64];
	size_t i;

	snprintf(name, sizeof name, "%s%s%s", r->command, r->has_arg ? " " : "",
	    r->has_arg && arg != NULL ? arg : "");
	for (i = 0; i < t->n; i++)
		if (strcmp(t->commands[i]->name, name) == 0) {
			diag_error("--%s: is now a command: syncprobe %s %s",
			    r->name, name, t->commands[i]->synopsis);
			exit(STATUS_USAGE);
		}
	cli_next_words(t, r->command, next, sizeof next);
	snprintf(now, sizeof now, "syncprobe %s, with %s after it", r->command, next);
	diag_error("--%s: is now a command: %s", r->name, now);
	exit(STATUS_USAGE);
}

/* "syncprobe -t group", "syncprobe durability write": where opt applies,
 * the commands that take it joined with ", ". */
static void
where_it_applies(const struct cli_table *t, const struct cli_option *opt, char *buf,
    size_t len)
{
	struct strbuf b;
	size_t c;

	strbuf_init(&b, buf, len);
	for (c = 0; c < t->n; c++) {
		const struct cli_option *row = cli_option_in(t->commands[c], opt->name);
		char title[64], groups[64] = "";

		if (row == NULL)
			continue;
		cli_command_title(t->commands[c], title, sizeof title);
		/* An option of several groups is named by its command alone:
		 * the probe's refusal of it names them. */
		if (cli_one_group(row->groups)) {
			cli_group_names(row->groups, groups, sizeof groups);
			strbuf_add(&b, "%s%s -t %s", b.used ? ", " : "", title, groups);
		} else {
			strbuf_add(&b, "%s%s", b.used ? ", " : "", title);
		}
	}
}

/* An option of another command: say whose. */
static _Noreturn void
die_elsewhere(const struct cli_table *t, const struct cli_command *cmd,
    const struct cli_option *opt)
{
	char what[64], title[64], where[256], why[400];

	snprintf(what, sizeof what, "--%s", opt->name);
	cli_command_title(cmd, title, sizeof title);
	where_it_applies(t, opt, where, sizeof where);
	snprintf(why, sizeof why, "not an option of %s (only of %s)", title, where);
	cli_die_usage(what, why);
}

/* "(see syncprobe --help)", or the command's own help. */
static void
see_help(const struct cli_command *cmd, char *buf, size_t len)
{
	char title[64];

	cli_command_title(cmd, title, sizeof title);
	snprintf(buf, len, "(see %s --help)", title);
}

/* Report getopt's '?' for the word it stopped at. */
static _Noreturn void
die_unknown(const struct cli_table *t, const struct cli_command *cmd,
    const struct option_set *set, char **argv)
{
	const struct cli_option *opt = optopt ? option_of_code(set, optopt) : NULL;
	char see[96], why[128];

	if (optopt >= CODE_BASE + (int)set->n)
		die_retired(t, &retired_options[optopt - CODE_BASE - (int)set->n], NULL);
	see_help(cmd, see, sizeof see);
	/* A long option always moves optind past its word. getopt_long
	 * reports a known option given a value it does not take
	 * ("--quiet=1") as '?' with optopt set to it: an unknown short
	 * option can never have a known option's letter. */
	if (opt != NULL && opt->has_arg == no_argument) {
		snprintf(why, sizeof why, "takes no value %s", see);
		cli_die_usage(argv[optind - 1], why);
	}
	snprintf(why, sizeof why, "unknown option %s", see);
	if (optopt && optopt < CODE_BASE) {
		char name[3] = { '-', (char)optopt, '\0' };

		cli_die_usage(name, why);
	}
	cli_die_usage(argv[optind - 1], why);
}

/* Report getopt's ':' for the option given last without its value. */
static _Noreturn void
die_missing_value(const struct cli_table *t, const struct cli_command *cmd,
    const struct option_set *set, int argc, char **argv)
{
	char name[3] = { '-', (char)optopt, '\0' }, see[96], why[128];

	if (optopt >= CODE_BASE + (int)set->n)
		die_retired(t, &retired_options[optopt - CODE_BASE - (int)set->n], NULL);
	see_help(cmd, see, sizeof see);
	snprintf(why, sizeof why, "needs a value %s", see);
	/* glibc leaves optind past the option's word; musl, for a short
	 * option, past the end of argv, whose words it has moved about: name
	 * the short option itself then. */
	if (optind - 1 < argc && argv[optind - 1] != NULL)
		cli_die_usage(argv[optind - 1], why);
	cli_die_usage(name, why);
}

#define SHOWN_VALUE_MAX 100	/* bytes of a refused value quoted in its message */

/* "--secs-per-test '0': why": the option and the value that was refused;
 * a long one cut short inside its quotes ("'1,2,3,...'"). */
static _Noreturn void
die_value(const struct cli_option *opt, const char *value, const char *why)
{
	char what[SHOWN_VALUE_MAX + 96];

	if (value == NULL)
		value = "";
	snprintf(what, sizeof what, "--%s '%.*s%s'", opt->name, SHOWN_VALUE_MAX, value,
	    strlen(value) > SHOWN_VALUE_MAX ? "..." : "");
	cli_die_usage(what, why);
}

/* One option of cmd, given: run its action or its parser. */
static void
take_option(const struct cli_table *t, const struct cli_command *cmd,
    const struct cli_option *opt, const char *arg, void *settings)
{
	char err[256];

	switch (opt->action) {
	case CLI_HELP:
		cli_help(stdout, t, cmd);
		exit((int)output_finish());
	case CLI_VERSION:
		printf("syncprobe %s\n", PACKAGE_VERSION);
		exit((int)output_finish());
	case CLI_SET:
		if (cli_set_value(opt, settings, arg, err, sizeof err) == -1)
			die_value(opt, arg, err);
		break;
	}
}

/* An option given a second time: its first value would be silently
 * dropped (-t one -t two ran only two), so it is refused, naming it. A
 * list is given once, its items joined with commas. */
static _Noreturn void
die_repeated(const struct cli_option *opt)
{
	char what[64];

	if (opt->letter != 0)
		snprintf(what, sizeof what, "-%c/--%s", opt->letter, opt->name);
	else
		snprintf(what, sizeof what, "--%s", opt->name);
	cli_die_usage(what, opt->has_arg == no_argument ? "given more than once" :
	    "given more than once (give it once; a list takes its items in one "
	    "value, joined by commas)");
}

/* The experiment options of a group that was not chosen mean nothing:
 * refuse them rather than ignore them. */
static void
check_groups(const struct cli_parsed *p, const void *settings)
{
	const struct cli_command *cmd = p->cmd;
	char what[64], names[96], why[320];
	size_t i;

	for (i = 0; i < cmd->noptions; i++) {
		const struct cli_option *opt = &cmd->options[i];

		if (!p->given[i] || opt->groups == 0 || cmd->groups == NULL ||
		    (cmd->groups(settings) & opt->groups))
			continue;
		cli_group_list(opt->groups, names, sizeof names);
		snprintf(what, sizeof what, "--%s", opt->name);
		snprintf(why, sizeof why, "only -t %s uses it (add %s to --tests)", names,
		    cli_one_group(opt->groups) ? names : "one of them");
		cli_die_usage(what, why);
	}
}

static const char *
operand_wanted(enum cli_operand kind)
{
	switch (kind) {
	case CLI_OPERAND_FILE:
		return "give a file's name";
	case CLI_OPERAND_COMMAND:
		return "give a command's name";
	case CLI_OPERAND_DIR:
		break;
	}
	return "give a directory's name";
}

/* An empty operand ("$DIR" with DIR unset) names nothing: said as such,
 * not as the system's "No such file or directory" after a colon. */
static void
refuse_empty_operands(const struct cli_command *cmd, const struct cli_parsed *p)
{
	size_t i;

	for (i = 0; i < p->noperands; i++)
		if (p->operands[i][0] == '\0')
			cli_die_usage("an empty operand", operand_wanted(cmd->operands));
}

void
cli_parse(const struct cli_table *t, const struct cli_command *cmd, int argc, char **argv,
    void *settings)
{
	struct option_set set;
	struct cli_parsed p;
	char err[REASON_LEN];
	int c;

	build_option_set(t, &set);
	memset(&p, 0, sizeof p);
	p.table = t;
	p.cmd = cmd;
	cmd->defaults(settings);
	optind = 1;
	opterr = 0;	/* our own one-line messages, not getopt's */
	while ((c = getopt_long(argc, argv, set.shorts, set.longs, NULL)) != -1) {
		const struct cli_option *known, *opt;

		if (c == ':')
			die_missing_value(t, cmd, &set, argc, argv);
		if (c == '?')
			die_unknown(t, cmd, &set, argv);
		known = option_of_code(&set, c);
		if (known == NULL)
			die_retired(t, &retired_options[c - CODE_BASE - (int)set.n], optarg);
		opt = cli_option_in(cmd, known->name);
		if (opt == NULL)
			die_elsewhere(t, cmd, known);
		if (p.given[opt - cmd->options])
			die_repeated(opt);
		p.given[opt - cmd->options] = true;
		take_option(t, cmd, opt, optarg, settings);
	}
	p.operands = argv + optind;
	p.noperands = (size_t)(argc - optind);
	refuse_empty_operands(cmd, &p);
	check_groups(&p, settings);
	if (cmd->check != NULL && cmd->check(settings, &p, err, sizeof err) == -1) {
		diag_error("%s", err);
		exit(STATUS_USAGE);
	}
}
