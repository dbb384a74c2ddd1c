/* cli_pgbench.c: syncprobe pgbench [OPTION]... DIR: its option table, the
 * parsers only it uses and the check of its operand. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "pgbench/pgbench.h"
#include "report/report_pgbench.h"
#include "util/names.h"

static const char *const builtins[] = { "tpcb-like" };

/* Two fields: the workload, and the script's file. */
static int
set_script(void *s, const char *arg, char *err, size_t errlen)
{
	struct pgbench_options *o = s;

	o->workload = PGB_SCRIPT;
	return cli_file_name(arg, &o->script, err, errlen);
}

/* One name, with what choosing none means. */
static int
set_builtin(void *s, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, builtins[0]) != 0) {
		snprintf(err, errlen, "unknown value (choose %s; the default is a one-row "
		    "INSERT)", builtins[0]);
		return -1;
	}
	((struct pgbench_options *)s)->workload = PGB_TPCB;
	return 0;
}

static void
builtin_values(const char *sep, char *buf, size_t len)
{
	(void)sep;
	snprintf(buf, len, "%s", builtins[0]);
}

#define P(member) CLI_FIELD(struct pgbench_options, member)
#define P_LIST(member, count) CLI_ARRAY(struct pgbench_options, member, count)

static const struct cli_option pgbench_options_table[] = {
	{ .name = "pg-bin", .has_arg = required_argument, .arg = "DIR",
	  .help = "the server's programs (default: where pg_config says, else the "
	    "newest /usr/lib/postgresql/*/bin)", .type = CLI_TEXT, P(pg_bin),
	  .empty = "file name", .kind = CLI_VALUE_FILE, .example = "/nonexistent" },
	{ .name = "pg-user", .has_arg = required_argument, .arg = "NAME",
	  .help = "as root, run the server as this user (default postgres)",
	  .type = CLI_TEXT, P(pg_user), .empty = "user name", .example = "postgres" },
	{ .name = "clients", .has_arg = required_argument, .arg = "LIST",
	  .help = "pgbench client counts (default 1,8,32)",
	  .type = CLI_LIST, P_LIST(clients, nclients), .min = 1, .max = MAX_CLIENTS,
	  .example = "4" },
	{ .name = "commit-delays", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_delay values in us (default 0 and the round values nearest "
	    "d/8, d/4, d/2, d of the measured flush d)",
	  .type = CLI_LIST, P_LIST(delays, ndelays), .max = COMMIT_DELAY_MAX_USECS,
	  .example = "0,10" },
	{ .name = "commit-siblings", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_siblings values (default -t group's advice, and 5 for the half rule)",
	  .type = CLI_LIST, P_LIST(siblings, nsiblings), .max = MAX_COMMIT_SIBLINGS,
	  .example = "7" },
	{ .name = "run-time", .letter = 'T', .has_arg = required_argument, .arg = "SECS",
	  .help = "seconds per pgbench run, {} (default 10)",
	  .type = CLI_NUMBER, P(secs), .min = 1, .max = PGBENCH_MAX_SECS, .example = "2" },
	{ .name = "repeats", .has_arg = required_argument, .arg = "N",
	  .help = "shuffled repeats of every setting, {} (default 3)",
	  .type = CLI_NUMBER, P(repeats), .min = 2, .max = PGBENCH_MAX_REPEATS, .example = "2" },
	{ .name = "decide", .has_arg = required_argument, .arg = "N",
	  .help = "where a delay leads 0 within the repeats' noise, N more runs of it "
	    "and of 0, side by side, {} (default 4)",
	  .type = CLI_NUMBER, P(decide), .max = PGBENCH_MAX_DECIDE, .example = "0" },
	{ .name = "ops-per-test", .letter = 'n', .has_arg = required_argument, .arg = "N",
	  .help = "the probe's flush rows: N operations each (default: until stable)",
	  .type = CLI_COUNT, P(probe_ops), .max = MAX_OPS_PER_TEST, .example = "2" },
	{ .name = "no-group", .has_arg = no_argument,
	  .help = "do not run -t group first (its advice is then not in the sweep)",
	  .type = CLI_FLAG, P(no_group) },
	{ .name = "wal-sync-method", .has_arg = required_argument, .arg = "METHOD",
	  .help = "the server's wal_sync_method (default: the probe's advice)",
	  .type = CLI_METHOD, P(wal_method), .example = "fdatasync" },
	{ .name = "builtin", .has_arg = required_argument, .arg = "{}",
	  .help = "pgbench's built-in {} instead of a one-row INSERT",
	  .type = CLI_CODE, .parse = set_builtin, .kind = CLI_VALUE_CHOICE,
	  .values = builtin_values, .example = "tpcb-like" },
	{ .name = "script", .has_arg = required_argument, .arg = "FILE",
	  .help = "your own transaction, a pgbench script, instead of a one-row INSERT",
	  .type = CLI_CODE, .parse = set_script, .kind = CLI_VALUE_FILE, .example = "x.sql" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "report format (default text)",
	  .type = CLI_ROW, P(format), .names = &pgbench_format_names, .example = "json" },
	CLI_ROW_QUIET(P(quiet), "no length and no progress line on stderr"),
	CLI_ROW_HELP,
};

static void
defaults(void *s)
{
	pgbench_defaults(s);
}

static int
check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct pgbench_options *o = s;

	if (p->noperands != 1) {
		snprintf(err, errlen, "pgbench: takes one DIR (where the throwaway cluster goes)");
		return -1;
	}
	if (cli_given(p, "builtin") && cli_given(p, "script")) {
		snprintf(err, errlen, "--script: conflicts with --builtin (one workload)");
		return -1;
	}
	o->dir = p->operands[0];
	return 0;
}

static int
run(const void *s)
{
	return pgbench_main(s);
}

const struct cli_command cli_pgbench_command = {
	.name = "pgbench",
	.synopsis = "[OPTION]... DIR",
	.summary = "commit_delay and commit_siblings swept with pgbench on a throwaway "
	    "PostgreSQL in DIR",
	.description =
	    "Measure the flush on DIR and run -t group there, then make a throwaway\n"
	    "PostgreSQL cluster in DIR (a Unix socket only, removed on every exit) and sweep\n"
	    "commit_delay x commit_siblings x clients with pgbench, shuffled repeats after a\n"
	    "CHECKPOINT each, and more runs side by side where a delay leads 0 within\n"
	    "noise: the advice measured on the server, beside the half rule's and -t group's.",
	.options = pgbench_options_table,
	.noptions = sizeof pgbench_options_table / sizeof pgbench_options_table[0],
	.settings_size = sizeof(struct pgbench_options),
	.defaults = defaults,
	.check = check,
	.run = run,
};
