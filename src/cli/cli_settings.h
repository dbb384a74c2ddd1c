/* cli_settings.h: parsers of the options that set a struct options (the
 * probe's and the durability writer's settings), for the option rows of
 * both commands, and the value lists of their choices (--direct's and
 * --pattern's are options_direct_choices and options_pattern_choices). */
#ifndef SYNCPROBE_CLI_SETTINGS_H
#define SYNCPROBE_CLI_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "probe/options.h"

/* A file name, refused when empty. */
int cli_file_name(const char *arg, const char **out, char *err, size_t errlen);

int cli_set_secs(void *s, const char *arg, char *err, size_t errlen);
int cli_set_ops(void *s, const char *arg, char *err, size_t errlen);
int cli_set_filename(void *s, const char *arg, char *err, size_t errlen);
int cli_set_block_size(void *s, const char *arg, char *err, size_t errlen);
int cli_set_file_size(void *s, const char *arg, char *err, size_t errlen);
int cli_set_methods(void *s, const char *arg, char *err, size_t errlen);
int cli_set_direct(void *s, const char *arg, char *err, size_t errlen);
int cli_set_pattern(void *s, const char *arg, char *err, size_t errlen);
int cli_set_quiet(void *s, const char *arg, char *err, size_t errlen);
int cli_set_format(void *s, const char *arg, char *err, size_t errlen);

/* A size as the reports print it, without its B ("1k", "64k", "1M"). */
void cli_size_short(uint64_t bytes, char *buf, size_t len);

/* The limits of a value ("1k..64k"), from their constants, for the "{}"
 * of a row's help (struct cli_option's range). */
void cli_block_range(char *buf, size_t len);
void cli_record_range(char *buf, size_t len);
void cli_etcd_write_range(char *buf, size_t len);
void cli_siblings_range(char *buf, size_t len);
void cli_etcd_rate_range(char *buf, size_t len);
void cli_txn_work_range(char *buf, size_t len);

void cli_groups_values(const char *sep, char *buf, size_t len);
void cli_methods_values(const char *sep, char *buf, size_t len);
void cli_formats_values(const char *sep, char *buf, size_t len);

/* The rows every command ends with. */
#define CLI_ROW_QUIET(text) \
	{ .name = "quiet", .letter = 'q', .has_arg = no_argument, .help = (text), \
	  .parse = cli_set_quiet }
#define CLI_ROW_HELP \
	{ .name = "help", .letter = 'h', .has_arg = no_argument, \
	  .help = "show this help and exit", .action = CLI_HELP }

#endif
