/* cli_durability.c: the two halves of the power-cut check, syncprobe
 * durability write and syncprobe durability verify: their option tables
 * and the checks that need all their options. The writer takes the
 * probe's write settings and its own limits; the verifier reads every
 * setting from the acknowledgements, so it takes none of them. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "durability/durability.h"
#include "durability/durability_report.h"
#include "probe/method.h"
#include "util/names.h"

/* The writer writes one way: buffered or with O_DIRECT, not both. */
static const char *const writer_direct[] = { "on", "off" };

static int
set_writer_direct(void *s, const char *arg, char *err, size_t errlen)
{
	struct durability_write_options *o = s;

	if (strcmp(arg, writer_direct[0]) == 0)
		o->direct = true;
	else if (strcmp(arg, writer_direct[1]) == 0)
		o->direct = false;
	else {
		snprintf(err, errlen, "unknown value (choose %s, %s: the writer writes one way)",
		    writer_direct[0], writer_direct[1]);
		return -1;
	}
	return 0;
}

static void
writer_direct_values(const char *sep, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", writer_direct[0], sep, writer_direct[1]);
}

/* The verifier writes text or JSON: the probe's other formats are
 * refused as not its own. */
static int
set_verifier_format(void *s, const char *arg, char *err, size_t errlen)
{
	int i = names_find(&durability_format_names, arg);
	char names[64];

	if (i >= 0) {
		((struct durability_verify_options *)s)->format = &durability_formats[i];
		return 0;
	}
	names_join(&durability_format_names, ", ", names, sizeof names);
	snprintf(err, errlen, "unknown value (choose %s: the verifier's report)", names);
	return -1;
}

#define W(member) CLI_FIELD(struct durability_write_options, member)
#define V(member) CLI_FIELD(struct durability_verify_options, member)

#define DURABILITY_FILE_ROW(settings, text) \
	{ .name = "filename", .letter = 'f', .has_arg = required_argument, .arg = "FILE", \
	  .help = (text), .type = CLI_TEXT, CLI_FIELD(settings, filename), \
	  .empty = "file name", .kind = CLI_VALUE_FILE, .example = "x" }

static const struct cli_option write_options[] = {
	{ .name = "ops-per-test", .letter = 'n', .has_arg = required_argument, .arg = "N",
	  .help = "stop after N records",
	  .type = CLI_COUNT, W(records), .max = MAX_OPS_PER_TEST, .example = "2" },
	{ .name = "for", .has_arg = required_argument, .arg = "DURATION",
	  .help = "stop after this long (default: when interrupted, or after -n N records)",
	  .type = CLI_DURATION, W(for_ns), .example = "1s" },
	DURABILITY_FILE_ROW(struct durability_write_options, "the durability file to create, instead of "
	    "DIR/" DURABILITY_FILE_NAME),
	{ .name = "block-size", .letter = 'b', .has_arg = required_argument, .arg = "SIZE",
	  .help = "record size, {}, a power of two (default 8k)",
	  .type = CLI_SIZE, W(block_bytes), .min = MIN_BLOCK_BYTES, .max = MAX_BLOCK_BYTES,
	  .flags = CLI_POW2, .example = "8k" },
	{ .name = "file-size", .has_arg = required_argument, .arg = "SIZE",
	  .help = "size of the durability file (default 16M)",
	  .type = CLI_SIZE, W(file_bytes), .example = "64k" },
	{ .name = "methods", .letter = 'm', .has_arg = required_argument, .arg = "METHOD",
	  .help = "the one sync method to use (default: the platform's wal_sync_method)",
	  .type = CLI_NAMES, W(methods), .names = &method_names,
	  .all = (1u << METHOD_COUNT) - 1, .kind = CLI_VALUE_CHOICE, .example = "fdatasync" },
	{ .name = "direct", .has_arg = required_argument, .arg = "{}",
	  .help = "write with O_DIRECT, or buffered (default off)",
	  .type = CLI_CODE, .parse = set_writer_direct, .kind = CLI_VALUE_CHOICE,
	  .values = writer_direct_values, .example = "off" },
	{ .name = "pattern", .has_arg = required_argument, .arg = "{}",
	  .help = "rewrite the same blocks (default) or move through the file",
	  .type = CLI_CHOICE, W(pattern), .names = &options_pattern_names,
	  .example = "append" },
	CLI_ROW_QUIET(W(quiet), "no end message and no acks warning on stderr"),
	CLI_ROW_HELP,
};

static const struct cli_option verify_options[] = {
	{ .name = "acks", .has_arg = required_argument, .arg = "FILE",
	  .help = "the writer's standard output, saved here (- : standard input)",
	  .type = CLI_TEXT, V(acks), .empty = "file name", .kind = CLI_VALUE_FILE,
	  .example = "-" },
	DURABILITY_FILE_ROW(struct durability_verify_options, "the durability file to check, instead of "
	    "DIR/" DURABILITY_FILE_NAME),
	{ .name = "remove", .has_arg = no_argument,
	  .help = "remove the durability file after the verdict", .type = CLI_FLAG, V(remove) },
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "report format (default text)", .type = CLI_CODE,
	  .parse = set_verifier_format, .kind = CLI_VALUE_CHOICE,
	  .names = &durability_format_names,
	  .example = "json" },
	CLI_ROW_HELP,
};

static void
write_defaults(void *s)
{
	durability_write_defaults(s);
}

static void
verify_defaults(void *s)
{
	durability_verify_defaults(s);
}

static unsigned
bits_set(unsigned v)
{
	unsigned n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

/* One DIR or -f FILE, as both halves take them: DIR into *dir. */
static int
check_place(const char **dir, const char *filename, const struct cli_parsed *p, char *err,
    size_t errlen)
{
	if (p->noperands > 1) {
		snprintf(err, errlen, "%s: takes one DIR (or -f FILE)", p->cmd->name);
		return -1;
	}
	if (filename != NULL && p->noperands > 0) {
		snprintf(err, errlen, "--filename: conflicts with a DIR (the file's directory "
		    "is the directory)");
		return -1;
	}
	*dir = p->noperands > 0 ? p->operands[0] : NULL;
	return 0;
}

static int
write_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct durability_write_options *o = s;

	if (check_place(&o->dir, o->filename, p, err, errlen) == -1)
		return -1;
	/* Given, it names one method: a list, all included, is refused. */
	if (cli_given(p, "methods") && bits_set(o->methods) != 1) {
		snprintf(err, errlen, "--methods: the writer uses one method (name one)");
		return -1;
	}
	return options_check_file_size(o->file_bytes, 2 * (uint64_t)o->block_bytes,
	    "the durability file's header and one record", err, errlen);
}

static int
verify_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct durability_verify_options *o = s;

	if (check_place(&o->dir, o->filename, p, err, errlen) == -1)
		return -1;
	if (o->acks == NULL) {
		snprintf(err, errlen, "%s: needs --acks=FILE (the writer's standard output)",
		    p->cmd->name);
		return -1;
	}
	return 0;
}

static int
write_run(const void *s)
{
	return durability_write(s);
}

static int
verify_run(const void *s)
{
	return durability_verify(s);
}

const struct cli_command cli_durability_write_command = {
	.name = "durability write",
	.synopsis = "[OPTION]... [DIR]",
	.summary = "the power-cut check: write records into DIR, acknowledging each "
	    "on stdout once synced",
	.description =
	    "Write self-checking records into a durability file in DIR (default: .),\n"
	    "printing an acknowledgement line for each once its sync returned; save the\n"
	    "lines on another machine, cut the power, then run syncprobe durability verify.",
	.options = write_options,
	.noptions = sizeof write_options / sizeof write_options[0],
	.settings_size = sizeof(struct durability_write_options),
	.defaults = write_defaults,
	.check = write_check,
	.run = write_run,
};

const struct cli_command cli_durability_verify_command = {
	.name = "durability verify",
	.synopsis = "--acks=FILE [OPTION]... [DIR]",
	.summary = "after the power cut: check that every acknowledged record is there",
	.description =
	    "Check, after the power cut and the reboot, that every record the writer\n"
	    "acknowledged (FILE: its saved output) is in the durability file in DIR\n"
	    "(default: .); every setting is read from the acknowledgements.",
	.options = verify_options,
	.noptions = sizeof verify_options / sizeof verify_options[0],
	.settings_size = sizeof(struct durability_verify_options),
	.defaults = verify_defaults,
	.check = verify_check,
	.run = verify_run,
};
