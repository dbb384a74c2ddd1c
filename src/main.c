/* main.c: the command line only: options, usage, exit status. Everything
 * else is in libsyncprobe.a, which the tests link too. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "advice.h"
#include "cleanup.h"
#include "judge.h"
#include "method.h"
#include "names.h"
#include "options.h"
#include "plan.h"
#include "platform.h"
#include "report.h"
#include "run.h"
#include "status.h"
#include "testfile.h"
#include "wrap.h"

#define HELP_WIDTH     80	/* the longest --help line */
#define HELP_FLAGS_COL 30	/* option names, then two spaces, then the text */

enum long_only {
	OPT_FILE_SIZE = 256,
	OPT_DIRECT,
	OPT_PATTERN,
	OPT_WAL_SYNC_METHOD,
	OPT_ROUNDS,
	OPT_CLIENTS,
	OPT_COMMIT_DELAYS,
	OPT_COMMIT_SIBLINGS,
	OPT_TXN_WORK,
	OPT_RECORD_SIZE
};

static void groups_list(char *buf, size_t len);
static void methods_list(char *buf, size_t len);
static void direct_list(char *buf, size_t len);
static void pattern_list(char *buf, size_t len);
static void formats_list(char *buf, size_t len);
static void experiment_name(char *buf, size_t len);

/* One row per option: getopt's table, the short options and --help are
 * all built from it. In arg and help, "{}" stands for the names list(). */
static const struct cli_option {
	const char *name;
	int has_arg;
	int val;		/* the short option, or an OPT_* code */
	const char *arg;	/* the value's name in --help, or NULL */
	const char *help;
	void (*list)(char *buf, size_t len);
} cli_options[] = {
	{ "secs-per-test", required_argument, 's', "DURATION",
	  "time per test: 2, 1.5s, 500ms (default 500ms)", NULL },
	{ "ops-per-test", required_argument, 'n', "N",
	  "a fixed number of operations per test instead", NULL },
	{ "filename", required_argument, 'f', "FILE",
	  "use exactly this test file; it must not exist", NULL },
	{ "block-size", required_argument, 'b', "SIZE",
	  "write unit, 1k..64k, a power of two (default 8k)", NULL },
	{ "file-size", required_argument, OPT_FILE_SIZE, "SIZE",
	  "size of the preallocated test file (default 16M)", NULL },
	{ "tests", required_argument, 't', "LIST",
	  "{} or all (default: all but the group-commit experiment)", groups_list },
	{ "methods", required_argument, 'm', "LIST", "{} or all (default)", methods_list },
	{ "direct", required_argument, OPT_DIRECT, "{}",
	  "buffered and O_DIRECT rows, only direct, or only buffered (default both)",
	  direct_list },
	{ "pattern", required_argument, OPT_PATTERN, "{}",
	  "rewrite the same blocks (default) or move through the file", pattern_list },
	{ "wal-sync-method", required_argument, OPT_WAL_SYNC_METHOD, "METHOD",
	  "base commit_delay on this method (the server's)", NULL },
	{ "rounds", required_argument, OPT_ROUNDS, "N",
	  "measure each group in N interleaved rounds (default 5; 1 = one block per row)",
	  NULL },
	{ "clients", required_argument, OPT_CLIENTS, "LIST",
	  "-t {}: committers at once, each with a client (default 1,4,16,64)",
	  experiment_name },
	{ "commit-delays", required_argument, OPT_COMMIT_DELAYS, "LIST",
	  "-t {}: commit_delay values in us (default 0 and 1/4 to 4 times the flush time)",
	  experiment_name },
	{ "commit-siblings", required_argument, OPT_COMMIT_SIBLINGS, "N",
	  "-t {}: the server's commit_siblings, 0..1000 (default 5)", experiment_name },
	{ "txn-work", required_argument, OPT_TXN_WORK, "DURATION",
	  "-t {}: CPU work per transaction, 0..100ms (default 30us)", experiment_name },
	{ "record-size", required_argument, OPT_RECORD_SIZE, "SIZE",
	  "-t {}: log bytes per commit, 1..1M (default 112)", experiment_name },
	{ "format", required_argument, 'F', "{}", "report format (default text)", formats_list },
	{ "quiet", no_argument, 'q', NULL, "no progress line on stderr", NULL },
	{ "help", no_argument, 'h', NULL, "show this help and exit", NULL },
	{ "version", no_argument, 'V', NULL, "show the version and exit", NULL },
};

#define CLI_OPTION_COUNT (sizeof cli_options / sizeof cli_options[0])

static void
groups_list(char *buf, size_t len)
{
	names_join(&group_names, ",", buf, len);
}

static void
methods_list(char *buf, size_t len)
{
	names_join(&method_names, ",", buf, len);
}

static void
direct_list(char *buf, size_t len)
{
	options_direct_choices("|", buf, len);
}

static void
pattern_list(char *buf, size_t len)
{
	options_pattern_choices("|", buf, len);
}

static void
formats_list(char *buf, size_t len)
{
	names_join(&report_format_names, "|", buf, len);
}

static void
experiment_name(char *buf, size_t len)
{
	snprintf(buf, len, "%s", plan_group_name(GROUP_GROUP));
}

/* tmpl with its "{}" replaced by opt's names list. */
static void
expand(const struct cli_option *opt, const char *tmpl, char *buf, size_t len)
{
	char names[200] = "";

	if (opt->list != NULL)
		opt->list(names, sizeof names);
	names_expand(tmpl, names, buf, len);
}

static void
print_option(FILE *out, const struct cli_option *opt)
{
	char flags[96], arg[128], help[256];
	const char *p = help;
	int col;

	if (opt->val < 256)
		col = snprintf(flags, sizeof flags, "  -%c, --%s", opt->val, opt->name);
	else
		col = snprintf(flags, sizeof flags, "      --%s", opt->name);
	if (opt->arg != NULL) {
		expand(opt, opt->arg, arg, sizeof arg);
		col += snprintf(flags + col, sizeof flags - (size_t)col, "=%s", arg);
	}
	fprintf(out, "%-*s  ", HELP_FLAGS_COL, flags);
	col = col > HELP_FLAGS_COL ? col + 2 : HELP_FLAGS_COL + 2;
	expand(opt, opt->help, help, sizeof help);
	/* The first line starts where the option names end. */
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

static void
usage(int status)
{
	FILE *out = status == 0 ? stdout : stderr;
	size_t i;

	fprintf(out,
"Usage: syncprobe [OPTION]... [TARGET]...\n"
"Measure how fast the storage under each TARGET directory (default: .) makes\n"
"small writes durable with every sync method a database can use, and advise\n"
"PostgreSQL's wal_sync_method and commit_delay.\n"
"\n");
	for (i = 0; i < CLI_OPTION_COUNT; i++)
		print_option(out, &cli_options[i]);
	fprintf(out,
"\n"
"Sizes take B, k, kB, KiB, M, MB, MiB, G, GB, GiB (powers of 1024); durations\n"
"s, ms, us (a bare number is seconds).\n"
"Exit status: 0 done, 1 an I/O error stopped the run, 2 bad usage or a target\n"
"that cannot be used. SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the test file\n"
"and then stop syncprobe with that same signal.\n");
	exit(status);
}

/* One line on stderr, exit 2: the form every usage error takes. */
static void
die_usage(const char *what, const char *why)
{
	fprintf(stderr, "syncprobe: %s: %s\n", what, why);
	exit(STATUS_USAGE);
}

static const struct cli_option *
cli_option_of(int c)
{
	size_t i;

	for (i = 0; i < CLI_OPTION_COUNT; i++)
		if (cli_options[i].val == c)
			return &cli_options[i];
	return NULL;
}

/* "--secs-per-test '0'": the option and the value that was refused. */
static void
die_value(int c, const char *value, const char *why)
{
	const struct cli_option *opt = cli_option_of(c);
	char what[160];

	if (opt != NULL)
		snprintf(what, sizeof what, "--%s '%s'", opt->name, value);
	else
		snprintf(what, sizeof what, "-%c '%s'", c, value);
	die_usage(what, why);
}

static void
parse_size_option(int c, const char *arg, uint64_t *out)
{
	char err[ERRBUF_LEN];

	if (options_parse_size(arg, out, err, sizeof err) == -1)
		die_value(c, arg, err);
}

/* The group-commit experiment's options. */
static int
parse_group_option(struct options *o, int c, const char *arg, char *err, size_t errlen)
{
	uint64_t list[OPTIONS_MAX_LIST], v;
	size_t i, n;

	switch (c) {
	case OPT_CLIENTS:
		if (options_parse_number_list(arg, 1, MAX_CLIENTS, list, &n, err, errlen) == -1)
			return -1;
		for (i = 0; i < n; i++)
			o->clients[i] = (unsigned)list[i];
		o->nclients = n;
		return 0;
	case OPT_COMMIT_DELAYS:
		if (options_parse_number_list(arg, 0, COMMIT_DELAY_MAX_USECS, list, &n,
		    err, errlen) == -1)
			return -1;
		for (i = 0; i < n; i++)
			o->commit_delays[i] = (long)list[i];
		o->ndelays = n;
		return 0;
	case OPT_COMMIT_SIBLINGS:
		if (options_parse_number(arg, 0, MAX_COMMIT_SIBLINGS, &v, err, errlen) == -1)
			return -1;
		o->commit_siblings = (unsigned)v;
		return 0;
	case OPT_TXN_WORK:
		return options_parse_duration_or_zero(arg, MAX_TXN_WORK_NS, &o->txn_work_ns,
		    err, errlen);
	case OPT_RECORD_SIZE:
		if (options_parse_size(arg, &v, err, errlen) == -1)
			return -1;
		if (v < 1 || v > MAX_RECORD_BYTES) {
			snprintf(err, errlen, "must be from 1 byte to 1MB");
			return -1;
		}
		o->record_bytes = (size_t)v;
		return 0;
	}
	return 0;
}

static void
parse_one(struct options *o, int c, const char *arg, bool *have_secs)
{
	char err[ERRBUF_LEN];
	uint64_t v;
	int rc = 0;

	switch (c) {
	case 's':
		rc = options_parse_duration(arg, &o->test_ns, err, sizeof err);
		*have_secs = true;
		break;
	case 'n':
		rc = options_parse_count(arg, MAX_OPS_PER_TEST, &o->ops_per_test, err, sizeof err);
		break;
	case 'f':
		if (arg[0] == '\0')
			die_value(c, arg, "empty file name");
		o->filename = arg;
		break;
	case 'b':
		parse_size_option(c, arg, &v);
		if (v < MIN_BLOCK_BYTES || v > MAX_BLOCK_BYTES || (v & (v - 1)) != 0)
			die_value(c, arg, "must be a power of two from 1k to 64k");
		o->block_bytes = (size_t)v;
		break;
	case OPT_FILE_SIZE:
		parse_size_option(c, arg, &o->file_bytes);
		break;
	case 't':
		rc = options_parse_groups(arg, &o->groups, err, sizeof err);
		break;
	case 'm':
		rc = options_parse_methods(arg, &o->methods, err, sizeof err);
		break;
	case OPT_DIRECT:
		rc = options_parse_direct(arg, &o->direct, err, sizeof err);
		break;
	case OPT_PATTERN:
		rc = options_parse_pattern(arg, &o->pattern, err, sizeof err);
		break;
	case OPT_WAL_SYNC_METHOD:
		rc = options_parse_method(arg, &o->wal_method, err, sizeof err);
		break;
	case 'F':
		rc = options_parse_format(arg, &o->format, err, sizeof err);
		break;
	case OPT_ROUNDS:
		rc = options_parse_count(arg, MAX_ROUNDS, &v, err, sizeof err);
		o->rounds = (unsigned)v;
		break;
	default:
		rc = parse_group_option(o, c, arg, err, sizeof err);
		break;
	}
	if (rc == -1)
		die_value(c, arg, err);
}

/* getopt_long's tables, built from cli_options. */
static void
build_getopt_tables(struct option *longs, char *shorts, size_t shorts_len)
{
	size_t i, n = 0;

	shorts[n++] = ':';	/* report a missing value as ':' */
	for (i = 0; i < CLI_OPTION_COUNT; i++) {
		const struct cli_option *c = &cli_options[i];

		longs[i] = (struct option){ c->name, c->has_arg, NULL, c->val };
		if (c->val < 256 && n + 3 < shorts_len) {
			shorts[n++] = (char)c->val;
			if (c->has_arg == required_argument)
				shorts[n++] = ':';
		}
	}
	longs[i] = (struct option){ NULL, 0, NULL, 0 };
	shorts[n] = '\0';
}

/* Report getopt's '?' for the word it stopped at. */
static void
die_unknown(char **argv)
{
	const struct cli_option *opt = optopt ? cli_option_of(optopt) : NULL;

	/* A long option always moves optind past its word. getopt_long
	 * reports a known option given a value it does not take
	 * ("--quiet=1") as '?' with optopt set to it: an unknown short
	 * option can never have a known option's letter. */
	if (opt != NULL && opt->has_arg == no_argument)
		die_usage(argv[optind - 1], "takes no value (see syncprobe --help)");
	if (optopt && optopt < 256) {
		char name[3] = { '-', (char)optopt, '\0' };

		die_usage(name, "unknown option (see syncprobe --help)");
	}
	die_usage(argv[optind - 1], "unknown option (see syncprobe --help)");
}

static void
parse_command_line(int argc, char **argv, struct options *o)
{
	struct option longs[CLI_OPTION_COUNT + 1];
	char shorts[2 * CLI_OPTION_COUNT + 2];
	bool have_secs = false;
	char err[ERRBUF_LEN];
	int c;

	build_getopt_tables(longs, shorts, sizeof shorts);
	options_defaults(o);
	opterr = 0;	/* our own one-line messages, not getopt's */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(0);
			break;
		case 'V':
			printf("syncprobe %s\n", PACKAGE_VERSION);
			exit(0);
		case ':':
			die_usage(argv[optind - 1], "needs a value (see syncprobe --help)");
			break;
		case '?':
			die_unknown(argv);
			break;
		default:
			parse_one(o, c, optarg, &have_secs);
			break;
		}
	}
	if (have_secs && o->ops_per_test)
		die_usage("--secs-per-test", "conflicts with --ops-per-test (choose one)");
	if (o->ops_per_test)
		o->test_ns = 0;
	o->targets = (const char *const *)argv + optind;
	o->ntargets = (size_t)(argc - optind);
	if (options_validate(o, err, sizeof err) == -1) {
		fprintf(stderr, "syncprobe: %s\n", err);
		exit(STATUS_USAGE);
	}
}

/* Flush stdout and say so if the report could not be written. */
static enum exit_status
finish_output(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "syncprobe: write standard output: %s\n",
		    errno ? strerror(errno) : "error");
		return STATUS_IO;
	}
	return STATUS_OK;
}

/* Refuse a bad target before measuring any: a typo in the last of several
 * targets should not cost the time of the first. */
static void
check_targets(const struct options *o)
{
	char err[REASON_LEN];
	size_t i;

	for (i = 0; i < o->ntargets && o->filename == NULL; i++)
		if (testfile_check_dir(o->targets[i], err, sizeof err) == -1) {
			fprintf(stderr, "syncprobe: %s\n", err);
			exit(STATUS_USAGE);
		}
}

/* Measure the targets one after another, stopping at the first that
 * fails; *ndone is how many have results to report. */
static enum exit_status
measure_targets(const struct options *o, struct target_result *results, size_t *ndone)
{
	struct progress p;
	enum exit_status rc = STATUS_OK;
	size_t i;

	progress_init(&p, o->quiet);
	*ndone = 0;
	for (i = 0; i < o->ntargets && rc == STATUS_OK; i++) {
		rc = run_target(o, o->targets[i], &p, &results[i]);
		if (rc != STATUS_OK)
			fprintf(stderr, "syncprobe: %s\n", results[i].error);
		if (!results[i].measured) {
			run_free(&results[i]);
			break;
		}
		judge_target(o, &results[i]);
		(*ndone)++;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	static const char *const here[] = { "." };
	struct target_result *results;
	struct options o;
	struct report rep;
	size_t i, ndone;
	enum exit_status status;

	parse_command_line(argc, argv, &o);
	if (o.ntargets == 0) {
		o.targets = here;
		o.ntargets = 1;
	}
	check_targets(&o);
	memset(&rep, 0, sizeof rep);
	rep.when = time(NULL);
	platform_system(&rep.system);
	cleanup_install();
	results = calloc(o.ntargets, sizeof *results);
	if (results == NULL) {
		fprintf(stderr, "syncprobe: results: out of memory\n");
		return STATUS_IO;
	}
	status = measure_targets(&o, results, &ndone);
	if (ndone == 0) {
		free(results);
		return status;
	}
	rep.options = &o;
	rep.targets = results;
	rep.ntargets = ndone;
	o.format->write(stdout, &rep);
	if (finish_output() != STATUS_OK)
		status = STATUS_IO;
	for (i = 0; i < ndone; i++)
		run_free(&results[i]);
	free(results);
	return status;
}
