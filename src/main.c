/* main.c: the command line only: options, usage, exit status. Everything
 * else is in libsyncprobe.a, which the tests link too. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "advice/advice.h"
#include "util/cleanup.h"
#include "report/compare.h"
#include "report/histogram.h"
#include "durability/durability.h"
#include "advice/judge.h"
#include "probe/method.h"
#include "util/names.h"
#include "probe/options.h"
#include "probe/plan.h"
#include "util/platform.h"
#include "report/report.h"
#include "probe/run.h"
#include "util/status.h"
#include "probe/testfile.h"
#include "util/wrap.h"

#define HELP_WIDTH     80	/* the longest --help line */
#define HELP_FLAGS_COL 30	/* option names, then two spaces, then the text */

enum long_only {
	OPT_FILE_SIZE = 256,
	OPT_DIRECT,
	OPT_PATTERN,
	OPT_WAL_SYNC_METHOD,
	OPT_ROUNDS,
	OPT_DURABILITY,
	OPT_ACKS,
	OPT_FOR,
	OPT_REMOVE,
	OPT_HISTOGRAM,
	OPT_LABEL,
	OPT_COMPARE,
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
	  "time per test: 2, 1.5s, 500ms (default: until the mean is known to 2%)",
	  NULL },
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
	{ "durability", required_argument, OPT_DURABILITY, "write|verify",
	  "the power-cut check (DURABILITY in the manual): write records, "
	  "acknowledging each once synced, or verify them after the power cut", NULL },
	{ "acks", required_argument, OPT_ACKS, "FILE",
	  "verify against the writer's output, saved here", NULL },
	{ "for", required_argument, OPT_FOR, "DURATION",
	  "the writer stops after this long (default: when interrupted; -n N: after "
	  "N records)", NULL },
	{ "remove", no_argument, OPT_REMOVE, NULL,
	  "the verifier removes the durability file", NULL },
	{ "format", required_argument, 'F', "{}", "report format (default text)", formats_list },
	{ "histogram", optional_argument, OPT_HISTOGRAM, "ROWS",
	  "draw a latency histogram under each row, or under the ROWS named "
	  "(methods, test groups or row names, comma-separated)", NULL },
	{ "label", required_argument, OPT_LABEL, "TEXT",
	  "name the run in its reports (default HOST:PATH)", NULL },
	{ "compare", no_argument, OPT_COMPARE, NULL,
	  "show saved JSON reports (the arguments) side by side; measure nothing",
	  NULL },
	{ "quiet", no_argument, 'q', NULL, "no progress line on stderr", NULL },
	{ "help", no_argument, 'h', NULL, "show this help and exit", NULL },
	{ "version", no_argument, 'V', NULL, "show the version and exit", NULL },
};

/* The options that make sense with --compare, which measures nothing. */
static const int compare_options[] = { OPT_COMPARE, 'q', 'h', 'V' };

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
		col += snprintf(flags + col, sizeof flags - (size_t)col,
		    opt->has_arg == optional_argument ? "[=%s]" : "=%s", arg);
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

/* Flush stdout and say so if the report (or --help, or --version) could
 * not be written. */
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

static void
usage(int status)
{
	FILE *out = status == 0 ? stdout : stderr;
	size_t i;

	fprintf(out,
"Usage: syncprobe [OPTION]... [TARGET]...\n"
"  or:  syncprobe --compare REPORT.json...\n"
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
"that cannot be used, 3 (--durability=verify) acknowledged records were lost.\n"
"The first SIGINT, SIGTERM or SIGHUP ends the measuring, removes the test file\n"
"and prints what was measured; a second one, or any other signal that would end\n"
"syncprobe, removes the file at once. Either way syncprobe then dies of that\n"
"signal. These signals end a durability writer, keeping its file.\n");
	exit(status == 0 ? (int)finish_output() : status);
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
	case OPT_DURABILITY:
		rc = options_parse_durability(arg, &o->durability, err, sizeof err);
		break;
	case OPT_ACKS:
		if (arg[0] == '\0')
			die_value(c, arg, "empty file name");
		o->acks = arg;
		break;
	case OPT_FOR:
		rc = options_parse_duration(arg, &o->for_ns, err, sizeof err);
		break;
	case OPT_REMOVE:
		o->remove = true;
		break;
	case OPT_HISTOGRAM:
		o->histogram = arg != NULL ? arg : HISTOGRAM_ALL;
		break;
	case OPT_LABEL:
		o->label = arg;
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

/* Report getopt's ':' for the option given last without its value. */
static void
die_missing_value(int argc, char **argv)
{
	char name[3] = { '-', (char)optopt, '\0' };

	/* glibc leaves optind past the option's word; musl, for a short
	 * option, past the end of argv, whose words it has moved about: name
	 * the short option itself then. */
	if (optind - 1 < argc && argv[optind - 1] != NULL)
		die_usage(argv[optind - 1], "needs a value (see syncprobe --help)");
	die_usage(name, "needs a value (see syncprobe --help)");
}

static bool
allowed_with_compare(int val)
{
	size_t i;

	for (i = 0; i < sizeof compare_options / sizeof compare_options[0]; i++)
		if (compare_options[i] == val)
			return true;
	return false;
}

/* --compare reads saved reports: refuse what only a measuring run uses. */
static void
check_compare_options(const bool *seen)
{
	char why[160];
	size_t i;

	for (i = 0; i < CLI_OPTION_COUNT; i++)
		if (seen[i] && !allowed_with_compare(cli_options[i].val)) {
			snprintf(why, sizeof why, "cannot be combined with --%s (it reads saved "
			    "reports and measures nothing)", cli_options[i].name);
			die_usage("--compare", why);
		}
}

/* The experiment's own options (those whose help names it) mean nothing
 * without it: refuse them rather than ignore them. */
static void
check_experiment_options(const struct options *o, const bool *seen)
{
	char what[64], why[96];
	size_t i;

	if (o->durability != DURABILITY_OFF || (o->groups & (1u << GROUP_GROUP)))
		return;
	for (i = 0; i < CLI_OPTION_COUNT; i++)
		if (seen[i] && cli_options[i].list == experiment_name) {
			snprintf(what, sizeof what, "--%s", cli_options[i].name);
			snprintf(why, sizeof why, "only -t %s uses it (add %s to --tests)",
			    plan_group_name(GROUP_GROUP), plan_group_name(GROUP_GROUP));
			die_usage(what, why);
		}
}

/* The histogram is drawn in the text report, under rows the run has. */
static void
check_histogram(const struct options *o)
{
	char err[ERRBUF_LEN];

	if (o->histogram == NULL)
		return;
	if (o->format->write != report_text)
		die_usage("--histogram", "draws in the text report only (-F json always "
		    "holds every row's histogram)");
	if (histogram_check_rows(o, err, sizeof err) == -1) {
		fprintf(stderr, "syncprobe: %s\n", err);
		exit(STATUS_USAGE);
	}
}

/* Parse the command line into o; true for --compare, whose arguments
 * (o->targets) are saved reports. */
static bool
parse_command_line(int argc, char **argv, struct options *o)
{
	struct option longs[CLI_OPTION_COUNT + 1];
	char shorts[2 * CLI_OPTION_COUNT + 2];
	bool have_secs = false, compare = false, seen[CLI_OPTION_COUNT] = { false };
	char err[ERRBUF_LEN];
	int c;

	build_getopt_tables(longs, shorts, sizeof shorts);
	options_defaults(o);
	opterr = 0;	/* our own one-line messages, not getopt's */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct cli_option *opt = cli_option_of(c);

		if (opt != NULL)
			seen[opt - cli_options] = true;
		switch (c) {
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(0);
			break;
		case 'V':
			printf("syncprobe %s\n", PACKAGE_VERSION);
			exit((int)finish_output());
		case ':':
			die_missing_value(argc, argv);
			break;
		case '?':
			die_unknown(argv);
			break;
		case OPT_COMPARE:
			compare = true;
			break;
		default:
			parse_one(o, c, optarg, &have_secs);
			break;
		}
	}
	o->targets = (const char *const *)argv + optind;
	o->ntargets = (size_t)(argc - optind);
	if (compare) {
		check_compare_options(seen);
		if (o->ntargets == 0)
			die_usage("--compare", "needs the saved reports to read "
			    "(written by syncprobe -F json)");
		return true;
	}
	if (have_secs && o->ops_per_test)
		die_usage("--secs-per-test", "conflicts with --ops-per-test (choose one)");
	o->adaptive = !have_secs && !o->ops_per_test;
	check_experiment_options(o, seen);
	if (durability_check_options(o, err, sizeof err) == -1 ||
	    options_validate(o, err, sizeof err) == -1) {
		fprintf(stderr, "syncprobe: %s\n", err);
		exit(STATUS_USAGE);
	}
	check_histogram(o);
	return false;
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

/* The run as it goes: the report streams from the run's hooks. */
struct session {
	const struct options *o;
	struct report *rep;
	struct target_result *results;
	bool begun;
};

static void
on_target_ready(void *ctx, struct target_result *tr)
{
	struct session *s = ctx;
	const struct report_stream *st = s->o->format->stream;
	size_t t = (size_t)(tr - s->results);

	s->rep->ntargets = t + 1;
	if (st == NULL)
		return;
	if (!s->begun)
		st->begin(stdout, s->rep);
	s->begun = true;
	st->target(stdout, s->rep, t);
	fflush(stdout);
}

static void
on_group_done(void *ctx, struct target_result *tr, size_t first, size_t last)
{
	struct session *s = ctx;
	const struct report_stream *st = s->o->format->stream;

	if (st == NULL)
		return;
	st->group(stdout, s->rep, (size_t)(tr - s->results), first, last);
	fflush(stdout);
}

/* Measure the targets one after another, stopping at the first that
 * fails or when a signal asks to stop; *ndone is how many have results to
 * report. */
static enum exit_status
measure_targets(struct session *s, size_t *ndone)
{
	const struct options *o = s->o;
	struct progress p;
	struct run_hooks h = { &p, 0, o->ntargets, on_target_ready, on_group_done, s };
	enum exit_status rc = STATUS_OK;
	size_t i;

	progress_init(&p, o->quiet);
	*ndone = 0;
	for (i = 0; i < o->ntargets && rc == STATUS_OK; i++) {
		struct target_result *tr = &s->results[i];

		/* The first target always starts, so that a stop before it
		 * still reports (an empty run, marked as interrupted). */
		if (i > 0 && cleanup_stop_signal() != 0)
			break;
		h.target_no = i + 1;
		rc = run_target(o, o->targets[i], &h, tr);
		if (rc != STATUS_OK)
			fprintf(stderr, "syncprobe: %s\n", tr->error);
		if (!tr->measured) {
			run_free(tr);
			break;
		}
		judge_target(o, tr);
		(*ndone)++;
	}
	return rc;
}

/* Write what was measured: the rest of the stream, or the whole report. */
static enum exit_status
write_report(struct session *s, size_t ndone)
{
	const struct report_format *f = s->o->format;

	s->rep->ntargets = ndone;
	if (f->stream != NULL && s->begun)
		f->stream->end(stdout, s->rep);
	else if (f->stream != NULL)
		report_replay(f->stream, stdout, s->rep);
	else
		f->write(stdout, s->rep);
	return finish_output();
}

static int
compare_reports(const struct options *o)
{
	char err[ERRBUF_LEN + PATH_MAX];

	if (compare_files(stdout, o->targets, o->ntargets, err, sizeof err) == -1) {
		fprintf(stderr, "syncprobe: %s\n", err);
		return STATUS_USAGE;
	}
	return finish_output();
}

int
main(int argc, char **argv)
{
	static const char *const here[] = { "." };
	struct options o;
	struct report rep;
	struct session s;
	size_t i, ndone;
	uint64_t start_ns;
	enum exit_status status;

	if (parse_command_line(argc, argv, &o))
		return compare_reports(&o);
	if (o.durability != DURABILITY_OFF)
		return durability_main(&o);
	if (o.ntargets == 0) {
		o.targets = here;
		o.ntargets = 1;
	}
	check_targets(&o);
	memset(&rep, 0, sizeof rep);
	rep.options = &o;
	rep.when = time(NULL);
	rep.duration_secs = -1.0;
	platform_system(&rep.system);
	start_ns = platform_now_ns();
	cleanup_install();
	memset(&s, 0, sizeof s);
	s.o = &o;
	s.rep = &rep;
	s.results = calloc(o.ntargets, sizeof *s.results);
	if (s.results == NULL) {
		fprintf(stderr, "syncprobe: results: out of memory\n");
		return STATUS_IO;
	}
	rep.targets = s.results;
	status = measure_targets(&s, &ndone);
	rep.duration_secs = row_secs(platform_now_ns() - start_ns);
	rep.interrupted_by = cleanup_stop_signal();
	if (ndone > 0 && write_report(&s, ndone) != STATUS_OK)
		status = STATUS_IO;
	for (i = 0; i < ndone; i++)
		run_free(&s.results[i]);
	free(s.results);
	/* Stopped by a signal: die of it now that the report is out. */
	cleanup_die();
	return status;
}
