/* cli_settings.c: the parsers of the options that set a struct options,
 * which the probe and the durability writer share, and the value lists
 * that help and completion show. Each takes the option's value and
 * returns 0, or -1 with the reason. */
#include "config.h"

#include "cli/cli_settings.h"

#include <stdio.h>
#include <string.h>

#include "probe/method.h"
#include "probe/plan.h"
#include "report/report.h"
#include "util/names.h"

int
cli_set_secs(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_duration(arg, &((struct options *)s)->test_ns, err, errlen);
}

int
cli_set_ops(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_count(arg, MAX_OPS_PER_TEST, &((struct options *)s)->ops_per_test,
	    err, errlen);
}

int
cli_file_name(const char *arg, const char **out, char *err, size_t errlen)
{
	if (arg[0] == '\0') {
		snprintf(err, errlen, "empty file name");
		return -1;
	}
	*out = arg;
	return 0;
}

int
cli_set_filename(void *s, const char *arg, char *err, size_t errlen)
{
	return cli_file_name(arg, &((struct options *)s)->filename, err, errlen);
}

void
cli_size_short(uint64_t bytes, char *buf, size_t len)
{
	size_t n;

	units_format_size(bytes, buf, len);
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == 'B')
		buf[n - 1] = '\0';
}

/* "lo..hi" of two sizes, as cli_size_short writes them. */
static void
size_range(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	char a[32], b[32];

	cli_size_short(lo, a, sizeof a);
	cli_size_short(hi, b, sizeof b);
	snprintf(buf, len, "%s..%s", a, b);
}

void
cli_block_range(char *buf, size_t len)
{
	size_range(MIN_BLOCK_BYTES, MAX_BLOCK_BYTES, buf, len);
}

void
cli_record_range(char *buf, size_t len)
{
	size_range(1, MAX_RECORD_BYTES, buf, len);
}

void
cli_etcd_write_range(char *buf, size_t len)
{
	size_range(1, MAX_ETCD_WRITE_BYTES, buf, len);
}

void
cli_siblings_range(char *buf, size_t len)
{
	snprintf(buf, len, "0..%u", MAX_COMMIT_SIBLINGS);
}

void
cli_etcd_rate_range(char *buf, size_t len)
{
	snprintf(buf, len, "1..%u", MAX_ETCD_RATE);
}

void
cli_txn_work_range(char *buf, size_t len)
{
	char most[32];

	units_format_duration(MAX_TXN_WORK_NS, most, sizeof most);
	snprintf(buf, len, "0..%s", most);
}

int
cli_set_block_size(void *s, const char *arg, char *err, size_t errlen)
{
	char least[32], most[32];
	uint64_t v;

	if (units_parse_size(arg, &v, err, errlen) == -1)
		return -1;
	if (v < MIN_BLOCK_BYTES || v > MAX_BLOCK_BYTES || (v & (v - 1)) != 0) {
		cli_size_short(MIN_BLOCK_BYTES, least, sizeof least);
		cli_size_short(MAX_BLOCK_BYTES, most, sizeof most);
		snprintf(err, errlen, "must be a power of two from %s to %s", least, most);
		return -1;
	}
	((struct options *)s)->block_bytes = (size_t)v;
	return 0;
}

int
cli_set_file_size(void *s, const char *arg, char *err, size_t errlen)
{
	return units_parse_size(arg, &((struct options *)s)->file_bytes, err, errlen);
}

int
cli_set_methods(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_methods(arg, &((struct options *)s)->methods, err, errlen);
}

int
cli_set_direct(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_direct(arg, &((struct options *)s)->direct, err, errlen);
}

int
cli_set_pattern(void *s, const char *arg, char *err, size_t errlen)
{
	return options_parse_pattern(arg, &((struct options *)s)->pattern, err, errlen);
}

int
cli_set_quiet(void *s, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	((struct options *)s)->quiet = true;
	return 0;
}

int
cli_set_format(void *s, const char *arg, char *err, size_t errlen)
{
	return report_format_parse(arg, &((struct options *)s)->format, err, errlen);
}

void
cli_groups_values(const char *sep, char *buf, size_t len)
{
	names_join(&group_names, sep, buf, len);
}

void
cli_methods_values(const char *sep, char *buf, size_t len)
{
	names_join(&method_names, sep, buf, len);
}

void
cli_formats_values(const char *sep, char *buf, size_t len)
{
	names_join(&report_format_names, sep, buf, len);
}
