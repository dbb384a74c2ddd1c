/* main.c: the command line only: options, usage, exit status. Everything
 * else is in libsyncprobe.a, which the tests link too. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "durability.h"
#include "method.h"
#include "options.h"
#include "report.h"
#include "run.h"

#define EXIT_IO    1
#define EXIT_USAGE 2

enum long_only {
	OPT_FILE_SIZE = 256,
	OPT_DIRECT,
	OPT_PATTERN,
	OPT_WAL_SYNC_METHOD,
	OPT_ROUNDS,
	OPT_DURABILITY,
	OPT_ACKS,
	OPT_FOR,
	OPT_REMOVE
};

static const struct option long_options[] = {
	{ "secs-per-test",   required_argument, NULL, 's' },
	{ "ops-per-test",    required_argument, NULL, 'n' },
	{ "filename",        required_argument, NULL, 'f' },
	{ "block-size",      required_argument, NULL, 'b' },
	{ "file-size",       required_argument, NULL, OPT_FILE_SIZE },
	{ "tests",           required_argument, NULL, 't' },
	{ "methods",         required_argument, NULL, 'm' },
	{ "direct",          required_argument, NULL, OPT_DIRECT },
	{ "pattern",         required_argument, NULL, OPT_PATTERN },
	{ "wal-sync-method", required_argument, NULL, OPT_WAL_SYNC_METHOD },
	{ "rounds",          required_argument, NULL, OPT_ROUNDS },
	{ "durability",      required_argument, NULL, OPT_DURABILITY },
	{ "acks",            required_argument, NULL, OPT_ACKS },
	{ "for",             required_argument, NULL, OPT_FOR },
	{ "remove",          no_argument,       NULL, OPT_REMOVE },
	{ "format",          required_argument, NULL, 'F' },
	{ "quiet",           no_argument,       NULL, 'q' },
	{ "help",            no_argument,       NULL, 'h' },
	{ "version",         no_argument,       NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
usage(int status)
{
	FILE *out = status == 0 ? stdout : stderr;

	fprintf(out,
"Usage: syncprobe [OPTION]... [TARGET]...\n"
"Measure how fast the storage under each TARGET directory (default: .) makes\n"
"small writes durable with every sync method a database can use, and advise\n"
"PostgreSQL's wal_sync_method and commit_delay.\n"
"\n"
"  -s, --secs-per-test=DURATION  time per test: 2, 1.5s, 500ms (default 500ms)\n"
"  -n, --ops-per-test=N          a fixed number of operations per test instead\n"
"  -f, --filename=FILE           use exactly this test file; it must not exist\n"
"  -b, --block-size=SIZE         write unit, 1k..64k, a power of two (default 8k)\n"
"      --file-size=SIZE          size of the preallocated test file (default 16M)\n"
"  -t, --tests=LIST              one,two,sizes,descriptor,nosync or all (default)\n"
"  -m, --methods=LIST            open_datasync,fdatasync,fsync,\n"
"                                fsync_writethrough,open_sync or all (default)\n"
"      --direct=both|on|off      buffered and O_DIRECT rows, only direct, or only\n"
"                                buffered (default both)\n"
"      --pattern=overwrite|append  rewrite the same blocks (default) or move\n"
"                                through the file\n"
"      --wal-sync-method=METHOD  base commit_delay on this method (the server's)\n"
"      --rounds=N                measure each group in N interleaved rounds\n"
"                                (default 5; 1 = one block per row)\n"
"      --durability=write|verify  the power-cut check (DURABILITY in the manual):\n"
"                                write records, acknowledging each once synced,\n"
"                                or verify them after the power cut\n"
"      --acks=FILE               verify against the writer's output, saved here\n"
"      --for=DURATION            the writer stops after this long (default: when\n"
"                                interrupted; -n N: after N records)\n"
"      --remove                  the verifier removes the durability file\n"
"  -F, --format=text|json|conf   report format (default text)\n"
"  -q, --quiet                   no progress line on stderr\n"
"  -h, --help                    show this help and exit\n"
"  -V, --version                 show the version and exit\n"
"\n"
"Sizes take B, k, kB, KiB, M, MB, MiB, G, GB, GiB (powers of 1024); durations\n"
"s, ms, us (a bare number is seconds).\n"
"Exit status: 0 done, 1 an I/O error stopped the run, 2 bad usage or a target\n"
"that cannot be used, 3 (--durability=verify) acknowledged records were lost.\n"
"SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the test file and then stop\n"
"syncprobe with that same signal; they end a durability writer, keeping its file.\n");
	exit(status);
}

/* One line on stderr, exit 2: the form every usage error takes. */
static void
die_usage(const char *what, const char *why)
{
	fprintf(stderr, "syncprobe: %s: %s\n", what, why);
	exit(EXIT_USAGE);
}

static const char *
option_name(int c, char *buf, size_t len)
{
	size_t i;

	for (i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].val == c) {
			snprintf(buf, len, "--%s", long_options[i].name);
			return buf;
		}
	snprintf(buf, len, "-%c", c);
	return buf;
}

/* Whether c is an option that takes no value. getopt_long reports such an
 * option given one ("--quiet=1") as '?' with optopt set to it: an unknown
 * short option can never have a known option's letter. */
static bool
takes_no_value(int c)
{
	size_t i;

	for (i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].val == c)
			return long_options[i].has_arg == no_argument;
	return false;
}

/* "--secs-per-test '0'": the option and the value that was refused. */
static void
die_value(int c, const char *value, const char *why)
{
	char name[48], what[160];

	snprintf(what, sizeof what, "%s '%s'", option_name(c, name, sizeof name), value);
	die_usage(what, why);
}

static void
parse_size_option(int c, const char *arg, uint64_t *out)
{
	char err[ERRBUF_LEN];

	if (options_parse_size(arg, out, err, sizeof err) == -1)
		die_value(c, arg, err);
}

static void
parse_one(struct options *o, int c, const char *arg, bool *have_secs)
{
	char err[ERRBUF_LEN];
	uint64_t v;
	const struct method *m;
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
		if ((m = method_find(arg)) == NULL)
			die_value(c, arg, "unknown method (open_datasync, fdatasync, fsync, fsync_writethrough, open_sync)");
		o->wal_method = method_index(m);
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
	}
	if (rc == -1)
		die_value(c, arg, err);
}

static void
parse_command_line(int argc, char **argv, struct options *o)
{
	bool have_secs = false;
	char err[ERRBUF_LEN];
	int c;

	options_defaults(o);
	opterr = 0;	/* our own one-line messages, not getopt's */
	while ((c = getopt_long(argc, argv, ":s:n:f:b:t:m:F:qhV", long_options, NULL)) != -1) {
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
			/* A long option always moves optind past its word. */
			if (optopt && takes_no_value(optopt))
				die_usage(argv[optind - 1], "takes no value (see syncprobe --help)");
			if (optopt && optopt < 256) {
				char opt[3] = { '-', (char)optopt, '\0' };

				die_usage(opt, "unknown option (see syncprobe --help)");
			}
			die_usage(argv[optind - 1], "unknown option (see syncprobe --help)");
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
	if (durability_check_options(o, err, sizeof err) == -1 ||
	    options_validate(o, err, sizeof err) == -1) {
		fprintf(stderr, "syncprobe: %s\n", err);
		exit(EXIT_USAGE);
	}
}

/* Flush stdout and say so if the report could not be written. */
static int
finish_output(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "syncprobe: write standard output: %s\n",
		    errno ? strerror(errno) : "error");
		return EXIT_IO;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const here[] = { "." };
	struct target_result *results;
	struct options o;
	struct progress p;
	struct report rep;
	char err[REASON_LEN];
	size_t i, ndone = 0;
	int status = 0, rc = RUN_OK;

	parse_command_line(argc, argv, &o);
	if (o.durability != DURABILITY_OFF)
		return durability_main(&o);
	if (o.ntargets == 0) {
		o.targets = here;
		o.ntargets = 1;
	}
	/* Refuse a bad target before measuring any: a typo in the last of
	 * several targets should not cost the time of the first. */
	for (i = 0; i < o.ntargets && o.filename == NULL; i++)
		if (testfile_check_dir(o.targets[i], err, sizeof err) == -1) {
			fprintf(stderr, "syncprobe: %s\n", err);
			return EXIT_USAGE;
		}
	cleanup_install();
	progress_init(&p, o.quiet);
	results = calloc(o.ntargets, sizeof *results);
	if (results == NULL) {
		fprintf(stderr, "syncprobe: results: out of memory\n");
		return EXIT_IO;
	}
	for (i = 0; i < o.ntargets && rc == RUN_OK; i++) {
		rc = run_target(&o, o.targets[i], &p, &results[i], err, sizeof err);
		if (rc == RUN_SETUP) {
			fprintf(stderr, "syncprobe: %s\n", err);
			run_free(&results[i]);
			break;
		}
		ndone++;
		if (rc == RUN_IO)
			fprintf(stderr, "syncprobe: %s\n", results[i].error);
	}
	if (rc == RUN_SETUP && ndone == 0) {
		free(results);
		return EXIT_USAGE;
	}
	rep.options = &o;
	rep.targets = results;
	rep.ntargets = ndone;
	switch (o.format) {
	case FORMAT_TEXT:
		report_text(stdout, &rep);
		break;
	case FORMAT_JSON:
		report_json(stdout, &rep);
		break;
	case FORMAT_CONF:
		report_conf(stdout, &rep);
		break;
	}
	status = rc == RUN_OK ? 0 : rc == RUN_IO ? EXIT_IO : EXIT_USAGE;
	if (finish_output() != 0)
		status = EXIT_IO;
	for (i = 0; i < ndone; i++)
		run_free(&results[i]);
	free(results);
	return status;
}
