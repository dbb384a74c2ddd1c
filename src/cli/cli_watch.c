/* cli_watch.c: syncprobe watch [OPTION]... [DIR]: its option table, the
 * checks that need several options, and the run (watch/watch.c) between
 * the signal handlers and the end of standard output. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "probe/options.h"
#include "util/cleanup.h"
#include "util/output.h"
#include "util/status.h"
#include "util/units.h"
#include "watch/watch.h"
#include "watch/watch_textfile.h"

static const char *const watch_formats[] = { "text", "json", "openmetrics" };

static int
set_method(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_method(arg, &((struct watch_options *)s)->method, err, errlen);
}

/* -b and --file-size as the probe takes them, into watch's settings. */
static int
set_block(void *s, const char *arg, char *err, size_t errlen)
{
	struct options o;

	options_defaults(&o);
	if (cli_set_block_size(&o, arg, err, errlen) == -1)
		return -1;
	((struct watch_options *)s)->block_bytes = o.block_bytes;
	return 0;
}

static int
set_file_size(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_size(arg, &((struct watch_options *)s)->file_bytes, err, errlen);
}

static int
set_pattern(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_pattern(arg, &((struct watch_options *)s)->pattern, err, errlen);
}

static int
set_rate(void *s, const char *arg, char *err, size_t errlen)
{
	return watch_parse_rate(arg, &((struct watch_options *)s)->rate, err, errlen);
}

static int
set_for(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_duration_upto(arg, WATCH_MAX_FOR_NS,
	    &((struct watch_options *)s)->for_ns, err, errlen);
}

static void
for_range(char *buf, size_t len)
{
	char most[32];

	units_format_duration(WATCH_MAX_FOR_NS, most, sizeof most);
	snprintf(buf, len, "at most %s (%llu days)", most,
	    (unsigned long long)(WATCH_MAX_FOR_NS / (24 * 3600 * NSEC_PER_SEC)));
}

static int
set_interval(void *s, const char *arg, char *err, size_t errlen)
{
	uint64_t ns;

	if (units_parse_duration(arg, &ns, err, errlen) == -1)
		return -1;
	if (ns < WATCH_MIN_INTERVAL_NS) {
		char least[32];

		units_format_duration(WATCH_MIN_INTERVAL_NS, least, sizeof least);
		snprintf(err, errlen, "must be at least %s", least);
		return -1;
	}
	((struct watch_options *)s)->interval_ns = ns;
	return 0;
}

static int
set_stall(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_duration(arg, &((struct watch_options *)s)->stall_ns, err, errlen);
}

static int
set_textfile(void *s, const char *arg, char *err, size_t errlen)
{
	if (watch_textfile_check_name(arg, err, errlen) == -1)
		return -1;
	((struct watch_options *)s)->textfile = arg;
	return 0;
}

static int
set_svg(void *s, const char *arg, char *err, size_t errlen)
{
	return cli_file_name(arg, &((struct watch_options *)s)->svg, err, errlen);
}

static int
set_format(void *s, const char *arg, char *err, size_t errlen)
{
	return watch_parse_format(arg, &((struct watch_options *)s)->format, err, errlen);
}

static void
format_values(const char *sep, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", watch_formats[0], sep, watch_formats[1], sep,
	    watch_formats[2]);
}

static const struct cli_option watch_options_table[] = {
	{ .name = "rate", .has_arg = required_argument, .arg = "N|max",
	  .help = "operations a second, at a steady pace (default 50); max: back to back",
	  .parse = set_rate, .example = "200" },
	{ .name = "for", .has_arg = required_argument, .arg = "DURATION",
	  .help = "stop after this long, {} (default: when interrupted)",
	  .range = for_range, .parse = set_for, .example = "1s" },
	{ .name = "interval", .has_arg = required_argument, .arg = "DURATION",
	  .help = "a line this often (default 10s)", .parse = set_interval,
	  .example = "250ms" },
	{ .name = "stall", .has_arg = required_argument, .arg = "DURATION",
	  .help = "report each operation longer than this at once (default 1s)",
	  .parse = set_stall, .example = "500ms" },
	{ .name = "methods", .letter = 'm', .has_arg = required_argument, .arg = "METHOD",
	  .help = "the sync method (default: PostgreSQL's default wal_sync_method here, "
	  "fdatasync on Linux)", .parse = set_method, .kind = CLI_VALUE_CHOICE,
	  .values = cli_methods_values, .example = "fdatasync" },
	{ .name = "block-size", .letter = 'b', .has_arg = required_argument, .arg = "SIZE",
	  .help = "bytes written per operation, {}, a power of two (default 8k)",
	  .range = cli_block_range,
	  .parse = set_block, .example = "8k" },
	{ .name = "file-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "size of the test file, which is never outgrown (default 16M)",
	  .parse = set_file_size, .example = "64k" },
	{ .name = "pattern", .has_arg = required_argument, .arg = "{}",
	  .help = "rewrite the same block (default) or move through the file, wrapping "
	  "around", .parse = set_pattern, .kind = CLI_VALUE_CHOICE,
	  .values = options_pattern_choices, .example = "append" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "text (default); json: a JSON object per line, the summary last; "
	  "openmetrics: the summary", .parse = set_format, .kind = CLI_VALUE_CHOICE,
	  .values = format_values, .example = "json" },
	{ .name = "textfile", .has_arg = required_argument, .arg = "FILE",
	  .help = "keep live metrics (a latency histogram, counters) in FILE, a new "
	  "name ending in .prom, replaced whole after every interval, for "
	  "node_exporter's textfile collector; removed at the end",
	  .parse = set_textfile, .kind = CLI_VALUE_FILE, .example = "watch.prom" },
	{ .name = "svg", .has_arg = required_argument, .arg = "FILE",
	  .help = "at the end, write a picture of the run to FILE, a new file: p50, p99 and "
	  "max against time, the stalls, the back-to-back burst (SVG)",
	  .parse = set_svg, .kind = CLI_VALUE_FILE, .example = "watch.svg" },
	CLI_ROW_HELP,
};

static void
watch_settings_defaults(void *s)
{
	watch_defaults(s);
}

static int
watch_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct watch_options *o = s;

	if (p->noperands > 1) {
		snprintf(err, errlen, "watch: takes one DIR");
		return -1;
	}
	if (p->noperands == 1)
		o->dir = p->operands[0];
	return options_check_file_size(o->file_bytes, o->block_bytes, "one block", err,
	    errlen);
}

static int
watch_command_run(const void *s)
{
	enum exit_status rc, out;

	cleanup_install();
	rc = watch_run(s, stdout);
	out = output_finish();
	/* Stopped by a signal: die of it now that the summary is out. */
	cleanup_die();
	return rc != STATUS_OK ? (int)rc : (int)out;
}

const struct cli_command cli_watch_command = {
	.name = "watch",
	.synopsis = "[OPTION]... [DIR]",
	.summary = "a steady commit load over time: a line per interval, stalls as "
	    "they happen",
	.description =
	    "Issue one write-then-sync operation like a commit at a steady rate on a test\n"
	    "file in DIR (default: .) until --for elapses or Ctrl-C: a line per interval\n"
	    "(its time in UTC, operations, p50, p99, max, missed starts, stalls), each\n"
	    "stall at once, then a summary beside a back-to-back burst measured at the\n"
	    "start, the worst interval and a plot of p99 and max against time. The method\n"
	    "is the server's default unless -m says otherwise. At --rate N it adds N syncs\n"
	    "and N blocks written a second to the disk: keep it low beside a busy server.\n"
	    "--textfile keeps live metrics for Prometheus' node_exporter; --svg draws the\n"
	    "whole run in a picture when it ends.",
	.options = watch_options_table,
	.noptions = sizeof watch_options_table / sizeof watch_options_table[0],
	.settings_size = sizeof(struct watch_options),
	.defaults = watch_settings_defaults,
	.check = watch_check,
	.run = watch_command_run,
};
