/* cli_settings.h: what the commands' option tables share: a file name
 * checked as the option rows check one, sizes as help writes them, and the
 * rows every command ends with. */
#ifndef SYNCPROBE_CLI_SETTINGS_H
#define SYNCPROBE_CLI_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

/* A file name, refused when empty. */
int cli_file_name(const char *arg, const char **out, char *err, size_t errlen);

/* A size as the reports print it, without its B ("1k", "64k", "1M"). */
void cli_size_short(uint64_t bytes, char *buf, size_t len);

/* The rows every command ends with: -q, into the bool that field names
 * (CLI_FIELD), and --help. */
#define CLI_ROW_QUIET(field, text) \
	{ .name = "quiet", .letter = 'q', .has_arg = no_argument, .help = (text), \
	  .type = CLI_FLAG, field }
#define CLI_ROW_HELP \
	{ .name = "help", .letter = 'h', .has_arg = no_argument, \
	  .help = "show this help and exit", .action = CLI_HELP }

#endif
