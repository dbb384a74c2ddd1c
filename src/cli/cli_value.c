/* cli_value.c: the one parser of every typed option row: the value read as
 * the row's type says, checked against its limits, and stored in the field
 * of the command's settings the row names. An option is a row; only
 * CLI_CODE rows have code of their own. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli_settings.h"
#include "probe/method.h"
#include "probe/options.h"
#include "util/units.h"

/* The row's field in settings. */
static unsigned char *
field_of(const struct cli_option *opt, void *settings)
{
	return (unsigned char *)settings + opt->off;
}

/* v into the unsigned (or enum, or non-negative signed) integer of width
 * bytes at p: the field's own type, whatever its width. */
static void
store_integer(unsigned char *p, size_t width, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (width) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, sizeof v);
		break;
	}
}

static void
store_pointer(unsigned char *p, const void *v)
{
	memcpy(p, &v, sizeof v);
}

/* "1 byte" or "1MiB": a size as a limit's message says it. */
static void
size_words(uint64_t bytes, char *buf, size_t len)
{
	if (bytes == 1)
		snprintf(buf, len, "1 byte");
	else
		units_format_size(bytes, buf, len);
}

static int
set_size(const struct cli_option *opt, const char *arg, uint64_t *v, char *err,
    size_t errlen)
{
	char least[32], most[32];

	if (units_parse_size(arg, v, err, errlen) == -1)
		return -1;
	if (opt->max == 0)
		return 0;
	if ((opt->flags & CLI_POW2) &&
	    (*v < opt->min || *v > opt->max || (*v & (*v - 1)) != 0)) {
		cli_size_short(opt->min, least, sizeof least);
		cli_size_short(opt->max, most, sizeof most);
		snprintf(err, errlen, "must be a power of two from %s to %s", least, most);
		return -1;
	}
	if (*v < opt->min || *v > opt->max) {
		size_words(opt->min, least, sizeof least);
		size_words(opt->max, most, sizeof most);
		snprintf(err, errlen, "must be from %s to %s", least, most);
		return -1;
	}
	return 0;
}

static int
set_duration(const struct cli_option *opt, const char *arg, uint64_t *v, char *err,
    size_t errlen)
{
	char least[32];

	if (opt->min == 0 && opt->max != 0)
		return units_parse_duration_or_zero(arg, opt->max, v, err, errlen);
	if (units_parse_duration_upto(arg, opt->max ? opt->max : UNITS_MAX_NS, v, err,
	    errlen) == -1)
		return -1;
	if (*v < opt->min) {
		units_format_duration(opt->min, least, sizeof least);
		snprintf(err, errlen, "must be at least %s", least);
		return -1;
	}
	return 0;
}

static int
set_list(const struct cli_option *opt, void *settings, const char *arg, char *err,
    size_t errlen)
{
	uint64_t list[UNITS_MAX_LIST];
	size_t i, n, count;

	if (units_parse_number_list(arg, opt->min, opt->max, list, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n && i < opt->cap; i++)
		store_integer(field_of(opt, settings) + i * opt->width, opt->width, list[i]);
	count = i;
	memcpy((unsigned char *)settings + opt->count_off, &count, sizeof count);
	return 0;
}

static int
set_text(const struct cli_option *opt, void *settings, const char *arg, char *err,
    size_t errlen)
{
	if (arg == NULL)
		arg = opt->fallback;
	else if (arg[0] == '\0' && opt->empty != NULL) {
		snprintf(err, errlen, "empty %s", opt->empty);
		return -1;
	}
	store_pointer(field_of(opt, settings), arg);
	return 0;
}

/* One of the row's names: its index, or -1 with the reason. */
static int
choose(const struct cli_option *opt, const char *arg, char *err, size_t errlen)
{
	return names_choose(opt->names, arg, err, errlen);
}

int
cli_set_value(const struct cli_option *opt, void *settings, const char *arg, char *err,
    size_t errlen)
{
	unsigned char *p = field_of(opt, settings);
	const struct method *m;
	unsigned bits;
	uint64_t v = 0;
	int i;

	switch (opt->type) {
	case CLI_NONE:
		return 0;
	case CLI_CODE:
		return opt->parse(settings, arg, err, errlen);
	case CLI_FLAG:
		*(bool *)(void *)p = true;
		return 0;
	case CLI_TEXT:
		return set_text(opt, settings, arg, err, errlen);
	case CLI_COUNT:
		if (units_parse_count(arg, opt->max, &v, err, errlen) == -1)
			return -1;
		break;
	case CLI_NUMBER:
		if (units_parse_number(arg, opt->min, opt->max, &v, err, errlen) == -1)
			return -1;
		break;
	case CLI_LIST:
		return set_list(opt, settings, arg, err, errlen);
	case CLI_SIZE:
		if (set_size(opt, arg, &v, err, errlen) == -1)
			return -1;
		break;
	case CLI_DURATION:
		if (set_duration(opt, arg, &v, err, errlen) == -1)
			return -1;
		break;
	case CLI_CHOICE:
		if ((i = choose(opt, arg, err, errlen)) < 0)
			return -1;
		v = (uint64_t)i;
		break;
	case CLI_ROW:
		if ((i = choose(opt, arg, err, errlen)) < 0)
			return -1;
		store_pointer(p, (const char *)opt->names->table + (size_t)i * opt->names->stride);
		return 0;
	case CLI_NAMES:
		if (options_parse_names(arg, opt->names, opt->all, opt->name, &bits, err,
		    errlen) == -1)
			return -1;
		v = bits;
		break;
	case CLI_METHOD:
		if (options_parse_method(arg, &m, err, errlen) == -1)
			return -1;
		store_pointer(p, m);
		return 0;
	}
	store_integer(p, opt->width, v);
	return 0;
}
