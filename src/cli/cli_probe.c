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

#define O(member) CLI_FIELD(struct session_options, probe.member)

static const struct cli_option probe_options[] = {
	{ .name = "secs-per-test", .letter = 's', .has_arg = required_argument,
	  .arg = "DURATION",
	  .help = "time per test: 2, 1.5s, 500ms (default: until the mean is known to 2%)",
	  .type = CLI_DURATION, O(test_ns), .example = "1ms" },
	{ .name = "ops-per-test", .letter = 'n', .has_arg = required_argument, .arg = "N",
	  .help = "a fixed number of operations per test instead",
	  .type = CLI_COUNT, O(ops_per_test), .max = MAX_OPS_PER_TEST, .example = "2" },
	{ .name = "filename", .letter = 'f', .has_arg = required_argument, .arg = "FILE",
	  .help = "use exactly this test file; it must not exist",
	  .type = CLI_TEXT, O(filename), .empty = "file name", .groups = PLAN_TEST_FILE_GROUPS,
	  .kind = CLI_VALUE_FILE, .example = "x" },
	{ .name = "block-size", .letter = 'b', .has_arg = required_argument, .arg = "SIZE",
	  .help = "write unit, {}, a power of two (default 8k)",
	  .type = CLI_SIZE, O(block_bytes), .min = MIN_BLOCK_BYTES, .max = MAX_BLOCK_BYTES,
	  .flags = CLI_POW2, .groups = PLAN_BLOCK_GROUPS, .example = "8k" },
	{ .name = "file-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "size of the preallocated test file (default 16M)",
	  .type = CLI_SIZE, O(file_bytes), .groups = PLAN_TEST_FILE_GROUPS, .example = "64k" },
	{ .name = "tests", .letter = 't', .has_arg = required_argument, .arg = "LIST",
	  .help = "{} or all (default: all but the group-commit experiment and etcd)",
	  .type = CLI_NAMES, O(groups), .names = &group_names,
	  .all = (1u << GROUP_COUNT) - 1, .example = "one" },
	{ .name = "methods", .letter = 'm', .has_arg = required_argument, .arg = "LIST",
	  .help = "{} or all (default)", .type = CLI_NAMES, O(methods), .names = &method_names,
	  .all = (1u << METHOD_COUNT) - 1, .groups = PLAN_METHOD_GROUPS, .example = "fdatasync" },
	{ .name = "direct", .has_arg = required_argument, .arg = "{}",
	  .help = "buffered and O_DIRECT rows, only direct, or only buffered (default both)",
	  .type = CLI_CHOICE, O(direct), .names = &options_direct_names,
	  .groups = PLAN_DIRECT_GROUPS, .example = "off" },
	{ .name = "pattern", .has_arg = required_argument, .arg = "{}",
	  .help = "rewrite the same blocks (default) or move through the file",
	  .type = CLI_CHOICE, O(pattern), .names = &options_pattern_names,
	  .groups = PLAN_PATTERN_GROUPS, .example = "append" },
	{ .name = "wal-sync-method", .has_arg = required_argument, .arg = "METHOD",
	  .help = "base commit_delay on this method (the server's)",
	  .type = CLI_METHOD, O(wal_method), .example = "fdatasync" },
	{ .name = "rounds", .has_arg = required_argument, .arg = "N",
	  .help = "measure each group in N interleaved rounds (default 5; 1 = one block per row)",
	  .type = CLI_COUNT, O(rounds), .max = MAX_ROUNDS, .example = "1" },
	{ .name = "clients", .has_arg = required_argument, .arg = "LIST",
	  .help = "committers at once, each with a client (default 1,4,16,64)",
	  .type = CLI_LIST, CLI_ARRAY(struct session_options, probe.clients, probe.nclients), .min = 1,
	  .max = MAX_CLIENTS, .groups = PLAN_BIT(GROUP_GROUP), .example = "4" },
	{ .name = "commit-delays", .has_arg = required_argument, .arg = "LIST",
	  .help = "commit_delay values in us (default 0 and the round values nearest 1/8 "
	    "to 2 times the flush time)",
	  .type = CLI_LIST, CLI_ARRAY(struct session_options, probe.commit_delays, probe.ndelays),
	  .max = COMMIT_DELAY_MAX_USECS, .groups = PLAN_BIT(GROUP_GROUP), .example = "0,10" },
	{ .name = "commit-siblings", .has_arg = required_argument, .arg = "N",
	  .help = "the server's commit_siblings, {} (default 5)",
	  .type = CLI_NUMBER, O(commit_siblings), .max = MAX_COMMIT_SIBLINGS,
	  .groups = PLAN_BIT(GROUP_GROUP), .example = "7" },
	{ .name = "decide", .has_arg = required_argument, .arg = "N",
	  .help = "where a delay leads 0, N more rounds of it and of 0, side by side, and "
	    "up to 4N while it leads within noise, {} (default 5)",
	  .type = CLI_NUMBER, O(decide), .max = MAX_DECIDE, .groups = PLAN_BIT(GROUP_GROUP),
	  .example = "0" },
	{ .name = "txn-work", .has_arg = required_argument, .arg = "DURATION",
	  .help = "CPU work per transaction, {} (default 60us)",
	  .type = CLI_DURATION, O(txn_work_ns), .max = MAX_TXN_WORK_NS,
	  .groups = PLAN_BIT(GROUP_GROUP), .example = "0" },
	{ .name = "record-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "log bytes per commit, {} (default 112)",
	  .type = CLI_SIZE, O(record_bytes), .min = 1, .max = MAX_RECORD_BYTES,
	  .groups = PLAN_BIT(GROUP_GROUP), .example = "112" },
	{ .name = "etcd-write-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "bytes per WAL append, {} (default 2300, fio's recipe)",
	  .type = CLI_SIZE, O(etcd_write_bytes), .min = 1, .max = MAX_ETCD_WRITE_BYTES,
	  .groups = PLAN_BIT(GROUP_ETCD), .example = "4k" },
	{ .name = "etcd-rate", .has_arg = required_argument, .arg = "N",
	  .help = "the paced row's appends a second, {} (default 150, as etcdctl "
	  "check perf's small load)",
	  .type = CLI_NUMBER, O(etcd_rate), .min = 1, .max = MAX_ETCD_RATE,
	  .groups = PLAN_BIT(GROUP_ETCD), .example = "500" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "report format (default text)",
	  .type = CLI_ROW, CLI_FIELD(struct session_options, format), .names = &report_format_names, .example = "json" },
	{ .name = "histogram", .has_arg = optional_argument, .arg = "ROWS",
	  .help = "draw a latency histogram under each row, or under the ROWS named "
	  "(methods, test groups or row names, comma-separated)",
	  .type = CLI_TEXT, O(histogram), .fallback = HISTOGRAM_ALL, .example = "fdatasync" },
	{ .name = "label", .has_arg = required_argument, .arg = "TEXT",
	  .help = "name the run in its reports (default HOST:PATH)",
	  .type = CLI_TEXT, O(label), .example = "x" },
	CLI_ROW_QUIET(O(quiet), "no progress line on stderr"),
	CLI_ROW_HELP,
	{ .name = "version", .letter = 'V', .has_arg = no_argument,
	  .help = "show the version and exit", .action = CLI_VERSION },
};

static void
probe_defaults(void *s)
{
	struct session_options *so = s;

	options_defaults(&so->probe);
	so->probe.groups = plan_default_groups();
	so->format = report_format_default();
}

static unsigned
probe_groups(const void *s)
{
	return ((const struct session_options *)s)->probe.groups;
}

/* The histogram is drawn in the text report, under rows the run has. */
static int
check_histogram(const struct options *o, const struct report_format *f, char *err,
    size_t errlen)
{
	if (o->histogram == NULL)
		return 0;
	if (f->write != report_text) {
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
	struct session_options *so = s;
	struct options *o = &so->probe;

	o->targets = (const char *const *)p->operands;
	o->ntargets = p->noperands;
	if (cli_given(p, "secs-per-test") && cli_given(p, "ops-per-test")) {
		snprintf(err, errlen, "--secs-per-test: conflicts with --ops-per-test "
		    "(choose one)");
		return -1;
	}
	o->adaptive = !cli_given(p, "secs-per-test") && !cli_given(p, "ops-per-test");
	if (check_file_size(o, err, errlen) == -1 || plan_validate(o, err, errlen) == -1 ||
	    check_histogram(o, so->format, err, errlen) == -1)
		return -1;
	if (so->format->one_target && o->ntargets > 1) {
		snprintf(err, errlen, "--format=%s: gives one server's settings (name one TARGET)",
		    so->format->name);
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
	.settings_size = sizeof(struct session_options),
	.defaults = probe_defaults,
	.groups = probe_groups,
	.check = probe_check,
	.run = probe_run,
};
