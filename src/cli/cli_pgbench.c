/* cli_pgbench.c: syncprobe pgbench [OPTION]... DIR: its option table, the
 * parsers only it uses and the check of its operand. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "pgbench/pgbench.h"
#include "util/names.h"

static int
set_pg_bin(void *s, const char *arg, char *err, size_t errlen)
{
	return cli_file_name(arg, &((struct pgbench_options *)s)->pg_bin, err, errlen);
}

static int
set_pg_user(void *s, const char *arg, char *err, size_t errlen)
{
	if (arg[0] == '\0') {
		snprintf(err, errlen, "empty user name");
		return -1;
	}
	((struct pgbench_options *)s)->pg_user = arg;
	return 0;
}

/* A list of unsigned numbers into out[]. */
static int
number_list(const char *arg, uint64_t min, uint64_t max, uint64_t *out, size_t *n,
    char *err, size_t errlen)
{
	return units_parse_number_list(arg, min, max, out, n, err, errlen);
}

static int
set_clients(void *s, const char *arg, char *err, size_t errlen)
{
	struct pgbench_options *o = s;
	uint64_t v[UNITS_MAX_LIST];
	size_t i, n;

	if (number_list(arg, 1, MAX_CLIENTS, v, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		o->clients[i] = (unsigned)v[i];
	o->nclients = n;
	return 0;
}

static int
set_delays(void *s, const char *arg, char *err, size_t errlen)
{
	struct pgbench_options *o = s;
	uint64_t v[UNITS_MAX_LIST];
	size_t i, n;

	if (number_list(arg, 0, COMMIT_DELAY_MAX_USECS, v, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		o->delays[i] = (long)v[i];
	o->ndelays = n;
	return 0;
}

static int
set_siblings(void *s, const char *arg, char *err, size_t errlen)
{
	struct pgbench_options *o = s;
	uint64_t v[UNITS_MAX_LIST];
	size_t i, n;

	if (number_list(arg, 0, MAX_COMMIT_SIBLINGS, v, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		o->siblings[i] = (unsigned)v[i];
	o->nsiblings = n;
	return 0;
}

/* A whole number from lo to hi into *out. */
static int
parse_unsigned(const char *arg, uint64_t lo, uint64_t hi, unsigned *out, char *err,
    size_t errlen)
{
	uint64_t v;

	if (units_parse_number(arg, lo, hi, &v, err, errlen) == -1)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int
set_run_time(void *s, const char *arg, char *err, size_t errlen)
{
	return parse_unsigned(arg, 1, PGBENCH_MAX_SECS, &((struct pgbench_options *)s)->secs,
	    err, errlen);
}

static int
set_repeats(void *s, const char *arg, char *err, size_t errlen)
{
	return parse_unsigned(arg, 2, PGBENCH_MAX_REPEATS,
	    &((struct pgbench_options *)s)->repeats, err, errlen);
}

static int
set_decide(void *s, const char *arg, char *err, size_t errlen)
{
	return parse_unsigned(arg, 0, PGBENCH_MAX_DECIDE,
	    &((struct pgbench_options *)s)->decide, err, errlen);
}

static int
set_ops(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_count(arg, MAX_OPS_PER_TEST,
	    &((struct pgbench_options *)s)->probe_ops, err, errlen);
}

static int
set_no_group(void *s, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	((struct pgbench_options *)s)->no_group = true;
	return 0;
}

static int
set_wal_method(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_method(arg, &((struct pgbench_options *)s)->wal_method, err, errlen);
}

static const char *const builtins[] = { "tpcb-like" };

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

static int
set_script(void *s, const char *arg, char *err, size_t errlen)
{
	struct pgbench_options *o = s;

	o->workload = PGB_SCRIPT;
	return cli_file_name(arg, &o->script, err, errlen);
}

/* In the order of enum pgbench_format. */
static const char *const formats[] = { "text", "json", "conf", "svg" };
static const struct name_list format_names = NAME_LIST_STRINGS(formats);

static int
set_format(void *s, const char *arg, char *err, size_t errlen)
{
	int i = names_choose(&format_names, arg, err, errlen);

	if (i < 0)
		return -1;
	((struct pgbench_options *)s)->format = (enum pgbench_format)i;
	return 0;
}

static void
format_values(const char *sep, char *buf, size_t len)
{
	names_join(&format_names, sep, buf, len);
}

static int
set_quiet(void *s, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	((struct pgbench_options *)s)->quiet = true;
	return 0;
}

static void
run_time_range(char *buf, size_t len)
{
	snprintf(buf, len, "1..%llu", (unsigned long long)PGBENCH_MAX_SECS);
}

static void
repeats_range(char *buf, size_t len)
{
	snprintf(buf, len, "2..%llu", (unsigned long long)PGBENCH_MAX_REPEATS);
}

static void
decide_range(char *buf, size_t len)
{
	snprintf(buf, len, "0..%llu", (unsigned long long)PGBENCH_MAX_DECIDE);
}

static const struct cli_option pgbench_options_table[] = {
	{ .name = "pg-bin", .has_arg = required_argument, .arg = "DIR",
	  .help = "the server's programs (default: where pg_config says, else the "
	    "newest /usr/lib/postgresql/*/bin)", .parse = set_pg_bin, .kind = CLI_VALUE_FILE,
	  .example = "/nonexistent" },
	{ .name = "pg-user", .has_arg = required_argument, .arg = "NAME",
	  .help = "as root, run the server as this user (default postgres)",
	  .parse = set_pg_user, .example = "postgres" },
	{ .name = "clients", .has_arg = required_argument, .arg = "LIST",
	  .help = "pgbench client counts (default 1,8,32)", .parse = set_clients,
	  .example = "4" },
	{ .name = "commit-delays", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_delay values in us (default 0 and the round values nearest "
	    "d/8, d/4, d/2, d of the measured flush d)", .parse = set_delays,
	  .example = "0,10" },
	{ .name = "commit-siblings", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_siblings values (default -t group's advice, and 5 for the half rule)",
	  .parse = set_siblings, .example = "7" },
	{ .name = "run-time", .letter = 'T', .has_arg = required_argument, .arg = "SECS",
	  .help = "seconds per pgbench run, {} (default 10)", .range = run_time_range,
	  .parse = set_run_time,
	  .example = "2" },
	{ .name = "repeats", .has_arg = required_argument, .arg = "N",
	  .help = "shuffled repeats of every setting, {} (default 3)", .range = repeats_range,
	  .parse = set_repeats, .example = "2" },
	{ .name = "decide", .has_arg = required_argument, .arg = "N",
	  .help = "where a delay leads 0 within the repeats' noise, N more runs of it "
	    "and of 0, side by side, {} (default 4)", .range = decide_range,
	  .parse = set_decide, .example = "0" },
	{ .name = "ops-per-test", .letter = 'n', .has_arg = required_argument, .arg = "N",
	  .help = "the probe's flush rows: N operations each (default: until stable)",
	  .parse = set_ops, .example = "2" },
	{ .name = "no-group", .has_arg = no_argument,
	  .help = "do not run -t group first (its advice is then not in the sweep)",
	  .parse = set_no_group },
	{ .name = "wal-sync-method", .has_arg = required_argument, .arg = "METHOD",
	  .help = "the server's wal_sync_method (default: the probe's advice)",
	  .parse = set_wal_method, .kind = CLI_VALUE_CHOICE, .values = cli_methods_values,
	  .example = "fdatasync" },
	{ .name = "builtin", .has_arg = required_argument, .arg = "{}",
	  .help = "pgbench's built-in {} instead of a one-row INSERT",
	  .parse = set_builtin, .kind = CLI_VALUE_CHOICE, .values = builtin_values,
	  .example = "tpcb-like" },
	{ .name = "script", .has_arg = required_argument, .arg = "FILE",
	  .help = "your own transaction, a pgbench script, instead of a one-row INSERT",
	  .parse = set_script, .kind = CLI_VALUE_FILE, .example = "x.sql" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "report format (default text)", .parse = set_format,
	  .kind = CLI_VALUE_CHOICE, .values = format_values, .example = "json" },
	{ .name = "quiet", .letter = 'q', .has_arg = no_argument,
	  .help = "no length and no progress line on stderr", .parse = set_quiet },
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
