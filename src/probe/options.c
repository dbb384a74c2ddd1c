/* options.c: strict parsing of every option value, and the checks that need
 * all of them. A value is accepted only when all of it was understood. */
#include "config.h"

#include "probe/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/method.h"
#include "util/names.h"
#include "util/units.h"

static const char *const direct_names[] = { "both", "on", "off" };
static const char *const pattern_names[] = { "overwrite", "append" };
const struct name_list options_direct_names = NAME_LIST_STRINGS(direct_names);
const struct name_list options_pattern_names = NAME_LIST_STRINGS(pattern_names);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* -t group's client counts when --clients is not given. */
static const unsigned default_clients[] = { 1, 4, 16, 64 };

void
options_defaults(struct options *o)
{
	memset(o, 0, sizeof *o);
	memcpy(o->clients, default_clients, sizeof default_clients);
	o->nclients = COUNT(default_clients);
	o->commit_siblings = DEFAULT_COMMIT_SIBLINGS;
	o->decide = DEFAULT_DECIDE;
	o->txn_work_ns = DEFAULT_TXN_WORK_NS;
	o->record_bytes = DEFAULT_RECORD_BYTES;
	o->etcd_write_bytes = DEFAULT_ETCD_WRITE_BYTES;
	o->etcd_rate = DEFAULT_ETCD_RATE;
	o->adaptive = true;
	o->test_ns = 0;
	o->block_bytes = DEFAULT_BLOCK_BYTES;
	o->file_bytes = DEFAULT_FILE_BYTES;
	o->methods = (1u << METHOD_COUNT) - 1;
	o->direct = DIRECT_BOTH;
	o->pattern = PATTERN_OVERWRITE;
	o->wal_method = NULL;
	o->rounds = DEFAULT_ROUNDS;
}

/* "unknown name 'x' (WHAT are a, b, c, all)": the names from the table. */
static void
unknown_in_list(const char *name, const char *what, const struct name_list *l,
    char *err, size_t errlen)
{
	char names[256];

	names_join(l, ", ", names, sizeof names);
	snprintf(err, errlen, "unknown name '%s' (%s are %s, all)", name, what, names);
}

int
options_parse_names(const char *s, const struct name_list *l, unsigned all_bits,
    const char *what, unsigned *out, char *err, size_t errlen)
{
	char name[64];
	unsigned bits = 0;
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, ",");
		int bit;

		if (len == 0) {
			snprintf(err, errlen, "empty name in list");
			return -1;
		}
		if (len >= sizeof name) {
			snprintf(name, sizeof name, "%.20s...", p);
			unknown_in_list(name, what, l, err, errlen);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (strcmp(name, "all") == 0) {
			bits |= all_bits;
		} else if ((bit = names_find(l, name)) >= 0) {
			bits |= 1u << bit;
		} else {
			unknown_in_list(name, what, l, err, errlen);
			return -1;
		}
		p += len;
		if (*p == '\0')
			break;
		p++;
	}
	*out = bits;
	return 0;
}

int
options_parse_methods(const char *s, unsigned *out, char *err, size_t errlen)
{
	return options_parse_names(s, &method_names, (1u << METHOD_COUNT) - 1, "methods",
	    out, err, errlen);
}

/* Find s in l; the index, or -1 with "unknown value (choose a, b, c)". */
static int
parse_choice(const char *s, const struct name_list *l, char *err, size_t errlen)
{
	char names[256];
	int i = names_find(l, s);

	if (i >= 0)
		return i;
	names_join(l, ", ", names, sizeof names);
	snprintf(err, errlen, "unknown value (choose %s)", names);
	return -1;
}

int
options_parse_direct(const char *s, enum direct_mode *out, char *err, size_t errlen)
{
	int i = parse_choice(s, &options_direct_names, err, errlen);

	if (i < 0)
		return -1;
	*out = (enum direct_mode)i;
	return 0;
}

int
options_parse_pattern(const char *s, enum pattern *out, char *err, size_t errlen)
{
	int i = parse_choice(s, &options_pattern_names, err, errlen);

	if (i < 0)
		return -1;
	*out = (enum pattern)i;
	return 0;
}

int
options_parse_method(const char *s, const struct method **out, char *err, size_t errlen)
{
	char names[256];
	const struct method *m = method_find(s);

	if (m == NULL) {
		names_join(&method_names, ", ", names, sizeof names);
		snprintf(err, errlen, "unknown method (%s)", names);
		return -1;
	}
	/* The server could not use it here: no advice can rest on it. */
	if (method_unavailable(m) != NULL) {
		method_available_names(", ", names, sizeof names);
		snprintf(err, errlen, "not available on this system (use %s)", names);
		return -1;
	}
	*out = m;
	return 0;
}

int
options_check_file_size(uint64_t file_bytes, uint64_t need, const char *what,
    char *err, size_t errlen)
{
	char have[32], most[32], least[32];

	units_format_size(file_bytes, have, sizeof have);
	if (file_bytes > MAX_FILE_BYTES) {
		units_format_size(MAX_FILE_BYTES, most, sizeof most);
		snprintf(err, errlen, "--file-size '%s': too large (at most %s)", have, most);
		return -1;
	}
	if (file_bytes < need) {
		units_format_size(need, least, sizeof least);
		snprintf(err, errlen, "--file-size '%s': too small for %s (at least %s)",
		    have, what, least);
		return -1;
	}
	return 0;
}

const char *
options_direct_name(enum direct_mode d)
{
	return direct_names[d];
}

const char *
options_pattern_name(enum pattern p)
{
	return pattern_names[p];
}
