/* cli_option.c: what every command's code asks of a command or option
 * row: whether a command takes an option, whether it was given, names and
 * value lists for messages, and the one form of a usage error. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_settings.h"
#include "probe/method.h"
#include "probe/plan.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/strbuf.h"
#include "util/units.h"

_Noreturn void
cli_die_usage(const char *what, const char *why)
{
	diag_error("%s: %s", what, why);
	exit(STATUS_USAGE);
}

const struct cli_option *
cli_option_in(const struct cli_command *cmd, const char *name)
{
	size_t i;

	for (i = 0; i < cmd->noptions; i++)
		if (strcmp(cmd->options[i].name, name) == 0)
			return &cmd->options[i];
	return NULL;
}

bool
cli_given(const struct cli_parsed *p, const char *name)
{
	const struct cli_option *opt = cli_option_in(p->cmd, name);

	return opt != NULL && p->given[opt - p->cmd->options];
}

void
cli_command_title(const struct cli_command *cmd, char *buf, size_t len)
{
	snprintf(buf, len, "syncprobe%s%s", cmd->name[0] ? " " : "", cmd->name);
}

void
cli_group_names(unsigned groups, char *buf, size_t len)
{
	struct strbuf b;
	int g;

	strbuf_init(&b, buf, len);
	for (g = 0; g < GROUP_COUNT; g++)
		if (groups & (1u << g))
			strbuf_add(&b, "%s%s", b.used ? "," : "", plan_group_name((enum group)g));
}

bool
cli_one_group(unsigned groups)
{
	return groups != 0 && (groups & (groups - 1)) == 0;
}

void
cli_group_list(unsigned groups, char *buf, size_t len)
{
	struct strbuf b;
	unsigned left = groups;
	int g;

	strbuf_init(&b, buf, len);
	for (g = 0; g < GROUP_COUNT; g++)
		if (left & (1u << g)) {
			left &= ~(1u << g);
			strbuf_add(&b, "%s%s", b.used == 0 ? "" : left == 0 ? " or " : ", ",
			    plan_group_name((enum group)g));
		}
}

void
cli_option_values(const struct cli_option *opt, const char *sep, char *buf, size_t len)
{
	buf[0] = '\0';
	if (opt->values != NULL)
		opt->values(sep, buf, len);
	else if (opt->type == CLI_METHOD)
		names_join(&method_names, sep, buf, len);
	else if (opt->names != NULL)
		names_join(opt->names, sep, buf, len);
}

enum cli_value
cli_option_kind(const struct cli_option *opt)
{
	if (opt->kind != CLI_VALUE_FREE)
		return opt->kind;
	switch (opt->type) {
	case CLI_CHOICE:
	case CLI_ROW:
	case CLI_METHOD:
		return CLI_VALUE_CHOICE;
	case CLI_NAMES:
		return CLI_VALUE_LIST;
	default:
		return CLI_VALUE_FREE;
	}
}

void
cli_option_range(const struct cli_option *opt, char *buf, size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (opt->range != NULL) {
		opt->range(buf, len);
		return;
	}
	if (opt->max == 0)
		return;
	switch (opt->type) {
	case CLI_SIZE:
		cli_size_short(opt->min, lo, sizeof lo);
		cli_size_short(opt->max, hi, sizeof hi);
		break;
	case CLI_DURATION:
		if (opt->min == 0)
			snprintf(lo, sizeof lo, "0");
		else
			units_format_duration(opt->min, lo, sizeof lo);
		units_format_duration(opt->max, hi, sizeof hi);
		break;
	case CLI_NUMBER:
	case CLI_LIST:
		snprintf(lo, sizeof lo, "%llu", (unsigned long long)opt->min);
		snprintf(hi, sizeof hi, "%llu", (unsigned long long)opt->max);
		break;
	default:
		return;
	}
	snprintf(buf, len, "%s..%s", lo, hi);
}

bool
cli_first_word_is(const struct cli_command *cmd, const char *word)
{
	size_t n = strlen(word);

	return n > 0 && strncmp(cmd->name, word, n) == 0 &&
	    (cmd->name[n] == '\0' || cmd->name[n] == ' ');
}

void
cli_next_words(const struct cli_table *t, const char *first, char *buf, size_t len)
{
	struct strbuf b;
	size_t i;

	strbuf_init(&b, buf, len);
	for (i = 0; i < t->n; i++)
		if (cli_first_word_is(t->commands[i], first) &&
		    strchr(t->commands[i]->name, ' ') != NULL)
			strbuf_add(&b, "%s%s", b.used ? " or " : "",
			    strchr(t->commands[i]->name, ' ') + 1);
}
