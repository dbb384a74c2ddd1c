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

static int
set_rate(void *s, const char *arg, char *err, size_t errlen)
{
	return watch_parse_rate(arg, &((struct watch_options *)s)->rate, err, errlen);
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
set_textfile(void *s, const char *arg, char *err, size_t errlen)
{
	if (watch_textfile_check_name(arg, err, errlen) == -1)
		return -1;
	((struct watch_options *)s)->textfile = arg;
	return 0;
}

#define W(member) CLI_FIELD(struct watch_options, member)

static const struct cli_option watch_options_table[] = {
	{ .name = "rate", .has_arg = required_argument, .arg = "N|max",
	  .help = "operations a second, at a steady pace (default 50); max: back to back",
	  .type = CLI_CODE, .parse = set_rate, .example = "200" },
	{ .name = "for", .has_arg = required_argument, .arg = "DURATION",
	  .help = "stop after this long, {} (default: when interrupted)",
	  .type = CLI_DURATION, W(for_ns), .min = UNITS_MIN_NS, .max = WATCH_MAX_FOR_NS,
	  .range = for_range, .example = "1s" },
	{ .name = "interval", .has_arg = required_argument, .arg = "DURATION",
	  .help = "a line this often (default 10s)",
	  .type = CLI_DURATION, W(interval_ns), .min = WATCH_MIN_INTERVAL_NS,
	  .example = "250ms" },
	{ .name = "stall", .has_arg = required_argument, .arg = "DURATION",
	  .help = "report each operation longer than this at once (default 1s)",
	  .type = CLI_DURATION, W(stall_ns), .example = "500ms" },
	{ .name = "methods", .letter = 'm', .has_arg = required_argument, .arg = "METHOD",
	  .help = "the sync method (default: PostgreSQL's default wal_sync_method here, "
	  "fdatasync on Linux)", .type = CLI_METHOD, W(method), .example = "fdatasync" },
	{ .name = "block-size", .letter = 'b', .has_arg = required_argument, .arg = "SIZE",
	  .help = "bytes written per operation, {}, a power of two (default 8k)",
	  .type = CLI_SIZE, W(block_bytes), .min = MIN_BLOCK_BYTES, .max = MAX_BLOCK_BYTES,
	  .flags = CLI_POW2, .example = "8k" },
	{ .name = "file-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "size of the test file, which is never outgrown (default 16M)",
	  .type = CLI_SIZE, W(file_bytes), .example = "64k" },
	{ .name = "pattern", .has_arg = required_argument, .arg = "{}",
	  .help = "rewrite the same block (default) or move through the file, wrapping "
	  "around", .type = CLI_CHOICE, W(pattern), .names = &options_pattern_names,
	  .example = "append" },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "text (default); json: a JSON object per line, the summary last; "
	  "openmetrics: the summary", .type = CLI_ROW, W(format),
	  .names = &watch_format_names, .example = "json" },
	{ .name = "textfile", .has_arg = required_argument, .arg = "FILE",
	  .help = "keep live metrics (a latency histogram, counters) in FILE, a new "
	  "name ending in .prom, replaced whole after every interval, for "
	  "node_exporter's textfile collector; removed at the end",
	  .type = CLI_CODE, .parse = set_textfile, .kind = CLI_VALUE_FILE,
	  .example = "watch.prom" },
	{ .name = "svg", .has_arg = required_argument, .arg = "FILE",
	  .help = "at the end, write a picture of the run to FILE, a new file: p50, p99 and "
	  "max against time, the stalls, the back-to-back burst (SVG)",
	  .type = CLI_TEXT, W(svg), .empty = "file name", .kind = CLI_VALUE_FILE,
	  .example = "watch.svg" },
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
	/* Said before anything is made: found later, the second file would
	 * read as someone else's ("already exists"), the first being ours. */
	if (o->textfile != NULL && o->svg != NULL && strcmp(o->textfile, o->svg) == 0) {
		snprintf(err, errlen, "watch: --svg and --textfile name the same file "
		    "(the live metrics, removed at the end, and the picture written then)");
		return -1;
	}
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
