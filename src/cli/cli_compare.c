/* cli_compare.c: syncprobe compare [-F FORMAT] REPORT.json...: saved runs
 * side by side (report/compare_*.c), as text or as a picture. It measures
 * nothing, so it takes no other option but --help. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cli_settings.h"
#include "probe/options.h"
#include "report/compare.h"
#include "util/output.h"
#include "util/status.h"
#include "util/diag.h"

struct compare_settings {
	const char *const *reports;
	size_t nreports;
	const struct compare_format *format;
};

static const struct cli_option compare_options[] = {
	{ .name = "format", .letter = 'F', .has_arg = required_argument, .arg = "{}",
	  .help = "text side by side (default), or svg: one picture",
	  .type = CLI_ROW, CLI_FIELD(struct compare_settings, format),
	  .names = &compare_format_names, .example = "svg" },
	CLI_ROW_HELP,
};

static void
compare_defaults(void *s)
{
	struct compare_settings *c = s;

	c->reports = NULL;
	c->nreports = 0;
	c->format = &compare_formats[0];
}

static int
compare_check(void *s, const struct cli_parsed *p, char *err, size_t errlen)
{
	struct compare_settings *c = s;

	if (p->noperands == 0) {
		snprintf(err, errlen, "compare: needs the saved reports to read "
		    "(written by syncprobe -F json)");
		return -1;
	}
	c->reports = (const char *const *)p->operands;
	c->nreports = p->noperands;
	return 0;
}

static int
compare_run(const void *s)
{
	const struct compare_settings *c = s;
	char err[ERRBUF_LEN + PATH_MAX];

	if (compare_files(stdout, c->reports, c->nreports, c->format, err, sizeof err) == -1) {
		diag_error("%s", err);
		return STATUS_USAGE;
	}
	return output_finish();
}

const struct cli_command cli_compare_command = {
	.name = "compare",
	.synopsis = "[OPTION]... REPORT.json...",
	.summary = "show saved JSON reports side by side; measure nothing",
	.description =
	    "Show the saved JSON reports (written by syncprobe -F json) side by side, as\n"
	    "text or as one SVG picture; measure nothing.",
	.options = compare_options,
	.noptions = sizeof compare_options / sizeof compare_options[0],
	.operands = CLI_OPERAND_FILE,
	.settings_size = sizeof(struct compare_settings),
	.defaults = compare_defaults,
	.check = compare_check,
	.run = compare_run,
};
