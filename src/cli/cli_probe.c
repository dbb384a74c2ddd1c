/* cli_probe.c: the probe, syncprobe [OPTION]... [TARGET]...: its option
 * table, the parsers only it uses, the checks that need all its options,
 * and its run (session/session.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "group/group_commit.h"
#include "group/group_run.h"
#include "probe/plan.h"
#include "report/histogram.h"
#include "report/report.h"
#include "session/session.h"
#include "util/names.h"
#include "util/safefile.h"

static int
set_groups(void *s, const char *arg, char *err, size_t errlen)
{
	return plan_parse_groups(arg, &((struct options *)s)->groups, err, errlen);
}

static int
set_wal_method(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_method(arg, &((struct options *)s)->wal_method, err, errlen);
}

static int
set_rounds(void *s, const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (units_parse_count(arg, MAX_ROUNDS, &v, err, errlen) == -1)
		return -1;
	((struct options *)s)->rounds = (unsigned)v;
	return 0;
}

static int
set_clients(void *s, const char *arg, char *err, size_t errlen)
{
	struct options *o = s;
	uint64_t list[UNITS_MAX_LIST];
	size_t i, n;

	if (units_parse_number_list(arg, 1, MAX_CLIENTS, list, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		o->clients[i] = (unsigned)list[i];
	o->nclients = n;
	return 0;
}

static int
set_commit_delays(void *s, const char *arg, char *err, size_t errlen)
{
	struct options *o = s;
	uint64_t list[UNITS_MAX_LIST];
	size_t i, n;

	if (units_parse_number_list(arg, 0, COMMIT_DELAY_MAX_USECS, list, &n,
	    err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		o->commit_delays[i] = (long)list[i];
	o->ndelays = n;
	return 0;
}

static int
set_commit_siblings(void *s, const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (units_parse_number(arg, 0, MAX_COMMIT_SIBLINGS, &v, err, errlen) == -1)
		return -1;
	((struct options *)s)->commit_siblings = (unsigned)v;
	return 0;
}

static int
set_decide(void *s, const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (units_parse_number(arg, 0, MAX_DECIDE, &v, err, errlen) == -1)
		return -1;
	((struct options *)s)->decide = (unsigned)v;
	return 0;
}

static void
decide_range(char *buf, size_t len)
{
	snprintf(buf, len, "0..%u", MAX_DECIDE);
}

static int
set_txn_work(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_duration_or_zero(arg, MAX_TXN_WORK_NS,
	    &((struct options *)s)->txn_work_ns, err, errlen);
}

static int
set_record_size(void *s, const char *arg, char *err, size_t errlen)
{
	char most[32];
	uint64_t v;

	if (units_parse_size(arg, &v, err, errlen) == -1)
		return -1;
	if (v < 1 || v > MAX_RECORD_BYTES) {
		units_format_size(MAX_RECORD_BYTES, most, sizeof most);
		snprintf(err, errlen, "must be from 1 byte to %s", most);
		return -1;
	}
	((struct options *)s)->record_bytes = (size_t)v;
	return 0;
}

static int
set_etcd_write_size(void *s, const char *arg, char *err, size_t errlen)
{
	char most[32];
	uint64_t v;

	if (units_parse_size(arg, &v, err, errlen) == -1)
		return -1;
	if (v < 1 || v > MAX_ETCD_WRITE_BYTES) {
		units_format_size(MAX_ETCD_WRITE_BYTES, most, sizeof most);
		snprintf(err, errlen, "must be from 1 byte to %s", most);
		return -1;
	}
	((struct options *)s)->etcd_write_bytes = (size_t)v;
	return 0;
}

static int
set_etcd_rate(void *s, const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (units_parse_number(arg, 1, MAX_ETCD_RATE, &v, err, errlen) == -1)
		return -1;
	((struct options *)s)->etcd_rate = (unsigned)v;
	return 0;
}

static int
set_histogram(void *s, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	((struct options *)s)->histogram = arg != NULL ? arg : HISTOGRAM_ALL;
	return 0;
}

static int
set_label(void *s, const char *arg, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	((struct options *)s)->label = arg;
	return 0;
}

static const struct cli_option probe_options[] = {
	{ .name = "secs-per-test", .letter = 's', .has_arg = required_argument,
	  .arg = "DURATION",
	  .help = "time per test: 2, 1.5s, 500ms (default: until the mean is known to 2%)",
	  .parse = cli_set_secs, .example = "1ms" },
	{ .name = "ops-per-test", .letter = 'n', .has_arg = required_argument, .arg = "N",
	  .help = "a fixed number of operations per test instead",
	  .parse = cli_set_ops, .example = "2" },
	{ .name = "filename", .letter = 'f', .has_arg = required_argument, .arg = "FILE",
	  .help = "use exactly this test file; it must not exist",
	  .parse = cli_set_filename, .groups = PLAN_TEST_FILE_GROUPS,
	  .kind = CLI_VALUE_FILE, .example = "x" },
	{ .name = "block-size", .letter = 'b', .has_arg = required_argument, .arg = "SIZE",
	  .help = "write unit, {}, a power of two (default 8k)", .range = cli_block_range,
	  .parse = cli_set_block_size, .groups = PLAN_BLOCK_GROUPS, .example = "8k" },
	{ .name = "file-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "size of the preallocated test file (default 16M)",
	  .parse = cli_set_file_size, .groups = PLAN_TEST_FILE_GROUPS,
	  .example = "64k" },
	{ .name = "tests", .letter = 't', .has_arg = required_argument, .arg = "LIST",
	  .help = "{} or all (default: all but the group-commit experiment and etcd)",
	  .parse = set_groups, .kind = CLI_VALUE_LIST, .values = cli_groups_values,
	  .example = "one" },
	{ .name = "methods", .letter = 'm', .has_arg = required_argument, .arg = "LIST",
	  .help = "{} or all (default)", .parse = cli_set_methods, .groups = PLAN_METHOD_GROUPS,
	  .kind = CLI_VALUE_LIST, .values = cli_methods_values, .example = "fdatasync" },
	{ .name = "direct", .has_arg = required_argument, .arg = "{}",
	  .help = "buffered and O_DIRECT rows, only direct, or only buffered (default both)",
	  .parse = cli_set_direct, .groups = PLAN_DIRECT_GROUPS,
	  .kind = CLI_VALUE_CHOICE, .values = options_direct_choices,
	  .example = "off" },
	{ .name = "pattern", .has_arg = required_argument, .arg = "{}",
	  .help = "rewrite the same blocks (default) or move through the file",
	  .parse = cli_set_pattern, .groups = PLAN_PATTERN_GROUPS,
	  .kind = CLI_VALUE_CHOICE, .values = options_pattern_choices,
	  .example = "append" },
	{ .name = "wal-sync-method", .has_arg = required_argument, .arg = "METHOD",
	  .help = "base commit_delay on this method (the server's)",
	  .parse = set_wal_method, .kind = CLI_VALUE_CHOICE, .values = cli_methods_values,
	  .example = "fdatasync" },
	{ .name = "rounds", .has_arg = required_argument, .arg = "N",
	  .help = "measure each group in N interleaved rounds (default 5; 1 = one block per row)",
	  .parse = set_rounds, .example = "1" },
	{ .name = "clients", .has_arg = required_argument, .arg = "LIST",
	  .help = "committers at once, each with a client (default 1,4,16,64)",
	  .parse = set_clients, .groups = PLAN_BIT(GROUP_GROUP), .example = "4" },
	{ .name = "commit-delays", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_delay values in us (default 0 and the round values nearest 1/8 "
	    "to 2 times the flush time)",
	  .parse = set_commit_delays, .groups = PLAN_BIT(GROUP_GROUP), .example = "0,10" },
	{ .name = "commit-siblings", .has_arg = required_argument, .arg = "N",
	  .help = "the server's commit_siblings, {} (default 5)", .range = cli_siblings_range,
	  .parse = set_commit_siblings, .groups = PLAN_BIT(GROUP_GROUP), .example = "7" },
	{ .name = "decide", .has_arg = required_argument, .arg = "N",
	  .help = "where a delay leads 0, N more rounds of it and of 0, side by side, {} "
	    "(default 5)", .range = decide_range,
	  .parse = set_decide, .groups = PLAN_BIT(GROUP_GROUP), .example = "0" },
	{ .name = "txn-work", .has_arg = required_argument, .arg = "DURATION",
	  .help = "CPU work per transaction, {} (default 60us)", .range = cli_txn_work_range,
	  .parse = set_txn_work, .groups = PLAN_BIT(GROUP_GROUP), .example = "0" },
	{ .name = "record-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "log bytes per commit, {} (default 112)", .range = cli_record_range,
	  .parse = set_record_size, .groups = PLAN_BIT(GROUP_GROUP), .example = "112" },
	{ .name = "etcd-write-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "bytes per WAL append, {} (default 2300, fio's recipe)",
	  .range = cli_etcd_write_range,
	  .parse = set_etcd_write_size, .groups = PLAN_BIT(GROUP_ETCD), .example = "4k" },
	{ .name = "etcd-rate", .has_arg = required_argument, .arg = "N",
	  .range = cli_etcd_rate_range,
	  .help = "the paced row's appends a second, {} (default 150, as etcdctl "
	  "check perf's small load)",
	  .parse = set_etcd_rate, .groups = PLAN_BIT(GROUP_ETCD), .example = "500" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "report format (default text)", .parse = cli_set_format,
	  .kind = CLI_VALUE_CHOICE, .values = cli_formats_values, .example = "json" },
	{ .name = "histogram", .has_arg = optional_argument, .arg = "ROWS",
	  .help = "draw a latency histogram under each row, or under the ROWS named "
	  "(methods, test groups or row names, comma-separated)",
	  .parse = set_histogram, .example = "fdatasync" },
	{ .name = "label", .has_arg = required_argument, .arg = "TEXT",
	  .help = "name the run in its reports (default HOST:PATH)",
	  .parse = set_label, .example = "x" },
	CLI_ROW_QUIET("no progress line on stderr"),
	CLI_ROW_HELP,
	{ .name = "version", .letter = 'V', .has_arg = no_argument,
	  .help = "show the version and exit", .action = CLI_VERSION },
};

static void
probe_defaults(void *s)
{
	options_defaults(s);
	((struct options *)s)->groups = plan_default_groups();
	((struct options *)s)->format = report_format_default();
}

static unsigned
probe_groups(const void *s)
{
	return ((const struct options *)s)->groups;
}

/* The histogram is drawn in the text report, under rows the run has. */
static int
check_histogram(const struct options *o, char *err, size_t errlen)
{
	if (o->histogram == NULL)
		return 0;
	if (o->format->write != report_text) {
		snprintf(err, errlen, "--histogram: draws in the text report only (-F json "
		    "always holds every row's histogram)");
		return -1;
	}
	return histogram_check_rows(o, err, errlen);
}

/* Refuse a bad target before measuring any: a typo in the last of several
 * targets should not cost the time of the first. */
static int
check_targets(const struct options *o, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < o->ntargets && o->filename == NULL; i++)
		if (safefile_check_dir(o->targets[i], err, errlen) == -1)
			return -1;
	return 0;
}

/* The test file holds the chosen row groups and, with -t group, the
 * experiment's log. */
static int
check_file_size(const struct options *o, char *err, size_t errlen)
{
	uint64_t need = plan_min_file_bytes(o);

	if ((o->groups & PLAN_BIT(GROUP_GROUP)) && group_file_bytes(o) > need)
		need = group_file_bytes(o);
	return options_check_file_size(o->file_bytes, need, "the chosen tests", err, errlen);
}

static int
probe_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	static const char *const here[] = { "." };
	struct options *o = s;

	o->targets = (const char *const *)p->operands;
	o->ntargets = p->noperands;
	if (cli_given(p, "secs-per-test") && cli_given(p, "ops-per-test")) {
		snprintf(err, errlen, "--secs-per-test: conflicts with --ops-per-test "
		    "(choose one)");
		return -1;
	}
	o->adaptive = !cli_given(p, "secs-per-test") && !cli_given(p, "ops-per-test");
	if (check_file_size(o, err, errlen) == -1 || plan_validate(o, err, errlen) == -1 ||
	    check_histogram(o, err, errlen) == -1)
		return -1;
	if (o->format->one_target && o->ntargets > 1) {
		snprintf(err, errlen, "--format=%s: gives one server's settings (name one TARGET)",
		    o->format->name);
		return -1;
	}
	if (o->ntargets == 0) {
		o->targets = here;
		o->ntargets = 1;
	}
	return check_targets(o, err, errlen);
}

static int
probe_run(const void *s)
{
	return session_run(s);
}

const struct cli_command cli_probe_command = {
	.name = "",
	.synopsis = "[OPTION]... [TARGET]...",
	.summary = "measure each TARGET directory (default: .)",
	.description =
	    "Measure how fast the storage under each TARGET directory (default: .) makes\n"
	    "small writes durable with every sync method a database can use, and advise\n"
	    "PostgreSQL's wal_sync_method and commit_delay.",
	.options = probe_options,
	.noptions = sizeof probe_options / sizeof probe_options[0],
	.settings_size = sizeof(struct options),
	.defaults = probe_defaults,
	.groups = probe_groups,
	.check = probe_check,
	.run = probe_run,
};
