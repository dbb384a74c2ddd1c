/* options.c: strict parsing of every option value, and the checks that need
 * all of them. A value is accepted only when all of it was understood. */
#include "config.h"

#include "probe/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/method.h"
#include "util/names.h"
#include "probe/plan.h"
#include "report/report.h"

struct suffix {
	const char *name;
	uint64_t scale;
	bool print;		/* the spelling the reports use */
};

/* Powers of 1024, as PostgreSQL's own "kB" and "MB" are. */
static const struct suffix size_suffixes[] = {
	{ "",    1,                 false },
	{ "B",   1,                 true  },
	{ "k",   1024ULL,           false },
	{ "K",   1024ULL,           false },
	{ "KB",  1024ULL,           false },
	{ "KiB", 1024ULL,           false },
	{ "kB",  1024ULL,           true  },
	{ "M",   1024ULL << 10,     false },
	{ "MiB", 1024ULL << 10,     false },
	{ "MB",  1024ULL << 10,     true  },
	{ "G",   1024ULL << 20,     false },
	{ "GiB", 1024ULL << 20,     false },
	{ "GB",  1024ULL << 20,     true  },
};

/* Durations in nanoseconds; a bare number is seconds. */
static const struct suffix duration_suffixes[] = {
	{ "",   1000000000ULL, false },
	{ "s",  1000000000ULL, true  },
	{ "ms", 1000000ULL,    true  },
	{ "us", 1000ULL,       true  },
};

static const char *const direct_names[] = { "both", "on", "off" };
static const char *const pattern_names[] = { "overwrite", "append" };
static const struct name_list direct_list = NAME_LIST_STRINGS(direct_names);
static const struct name_list pattern_list = NAME_LIST_STRINGS(pattern_names);

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
	o->txn_work_ns = DEFAULT_TXN_WORK_NS;
	o->record_bytes = DEFAULT_RECORD_BYTES;
	o->etcd_write_bytes = DEFAULT_ETCD_WRITE_BYTES;
	o->etcd_rate = DEFAULT_ETCD_RATE;
	o->adaptive = true;
	o->test_ns = 0;
	o->block_bytes = DEFAULT_BLOCK_BYTES;
	o->file_bytes = DEFAULT_FILE_BYTES;
	o->groups = plan_default_groups();
	o->methods = (1u << METHOD_COUNT) - 1;
	o->direct = DIRECT_BOTH;
	o->pattern = PATTERN_OVERWRITE;
	o->wal_method = NULL;
	o->format = &report_formats[0];
	o->rounds = DEFAULT_ROUNDS;
}

static const struct suffix *
find_suffix(const struct suffix *table, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(table[i].name, s) == 0)
			return &table[i];
	return NULL;
}

/* Digits only: no sign, no spaces, no exponent. Returns the end. */
static const char *
parse_digits(const char *s, uint64_t *out, bool *overflow)
{
	uint64_t v = 0;

	*overflow = false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			*overflow = true;
		else
			v = v * 10 + d;
	}
	*out = v;
	return s;
}

int
options_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	const struct suffix *suf;
	const char *end;
	uint64_t v;
	bool overflow;

	end = parse_digits(s, &v, &overflow);
	if (end == s) {
		snprintf(err, errlen, "not a size (use a whole number with k or M, e.g. 8k)");
		return -1;
	}
	suf = find_suffix(size_suffixes, COUNT(size_suffixes), end);
	if (suf == NULL) {
		snprintf(err, errlen, "unknown size suffix '%s' (use k, K, KiB, M, MiB, G or GiB)", end);
		return -1;
	}
	if (overflow || v > UINT64_MAX / suf->scale) {
		snprintf(err, errlen, "too large");
		return -1;
	}
	*out = v * suf->scale;
	return 0;
}

/* How many decimals a unit takes before it is finer than a nanosecond:
 * 9 for seconds, 6 for ms, 3 for us (every scale is a power of ten). */
static unsigned
ns_decimals(uint64_t scale)
{
	unsigned d = 0;

	for (; scale > 1; scale /= 10)
		d++;
	return d;
}

/* A duration of any length up to MAX_TEST_NS, 0 included. */
static int
parse_duration_ns(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	static const char usage[] = "not a duration (use e.g. 2, 1.5s or 500ms)";
	static const char too_long[] = "too long (at most 3600s)";
	const struct suffix *suf;
	const char *p, *frac_start = NULL, *frac_end = NULL;
	uint64_t whole, frac = 0, v;
	unsigned decimals, i;
	bool overflow;

	/* digits [ "." digits ] [ unit ] */
	p = parse_digits(s, &whole, &overflow);
	if (p == s) {
		snprintf(err, errlen, "%s", usage);
		return -1;
	}
	if (*p == '.') {
		frac_start = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == frac_start) {
			snprintf(err, errlen, "%s", usage);
			return -1;
		}
		/* Trailing zeros say nothing: 1.500000000000s is exact. */
		for (frac_end = p; frac_end > frac_start && frac_end[-1] == '0'; frac_end--)
			;
	}
	suf = find_suffix(duration_suffixes, COUNT(duration_suffixes), p);
	if (suf == NULL) {
		snprintf(err, errlen, "unknown duration unit '%s' (use s, ms or us)", p);
		return -1;
	}
	if (overflow || whole > MAX_TEST_NS / suf->scale) {
		snprintf(err, errlen, "%s", too_long);
		return -1;
	}
	v = whole * suf->scale;
	decimals = ns_decimals(suf->scale);
	/* Never rounded: a value that is not a whole number of nanoseconds
	 * cannot be what was meant, and is refused. */
	if (frac_start != NULL && (size_t)(frac_end - frac_start) > decimals) {
		snprintf(err, errlen, "%s", v >= MAX_TEST_NS ? too_long :
		    "finer than a nanosecond (at most 9 decimals in s, 6 in ms, 3 in us)");
		return -1;
	}
	for (i = 0; i < decimals; i++)
		frac = frac * 10 + (frac_start != NULL && frac_start + i < frac_end ?
		    (uint64_t)(frac_start[i] - '0') : 0);
	v += frac;
	if (v > MAX_TEST_NS) {
		snprintf(err, errlen, "%s", too_long);
		return -1;
	}
	*ns = v;
	return 0;
}

int
options_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	uint64_t v;

	if (parse_duration_ns(s, &v, err, errlen) == -1)
		return -1;
	if (v < 1000) {
		snprintf(err, errlen, "must be at least 1us");
		return -1;
	}
	*ns = v;
	return 0;
}

int
options_parse_duration_or_zero(const char *s, uint64_t max_ns, uint64_t *ns,
    char *err, size_t errlen)
{
	char most[32];
	uint64_t v;

	if (parse_duration_ns(s, &v, err, errlen) == -1)
		return -1;
	if (v > max_ns) {
		options_format_duration(max_ns, most, sizeof most);
		snprintf(err, errlen, "too long (at most %s)", most);
		return -1;
	}
	*ns = v;
	return 0;
}

static int
compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One whole number from min to max at s, ending at a comma or the end;
 * *end is where it stopped. */
static int
parse_number_at(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    const char **end, char *err, size_t errlen)
{
	bool overflow;

	*end = parse_digits(s, out, &overflow);
	if (*end == s || (**end != ',' && **end != '\0')) {
		snprintf(err, errlen, "not a whole number");
		return -1;
	}
	if (overflow || *out < min || *out > max) {
		snprintf(err, errlen, "%.*s is out of range (%llu to %llu)", (int)(*end - s), s,
		    (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	return 0;
}

int
options_parse_number(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err, size_t errlen)
{
	const char *end;

	if (parse_number_at(s, min, max, out, &end, err, errlen) == -1)
		return -1;
	if (*end != '\0') {
		snprintf(err, errlen, "not a whole number");
		return -1;
	}
	return 0;
}

int
options_parse_number_list(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    size_t *n, char *err, size_t errlen)
{
	const char *p = s, *end;
	size_t count = 0, i, kept;

	for (;;) {
		if (count == OPTIONS_MAX_LIST) {
			snprintf(err, errlen, "too many values (at most %d)", OPTIONS_MAX_LIST);
			return -1;
		}
		if (parse_number_at(p, min, max, &out[count], &end, err, errlen) == -1)
			return -1;
		count++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	qsort(out, count, sizeof *out, compare_u64);
	for (i = kept = 0; i < count; i++)
		if (kept == 0 || out[kept - 1] != out[i])
			out[kept++] = out[i];
	*n = kept;
	return 0;
}

int
options_parse_count(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v;
	bool overflow;

	end = parse_digits(s, &v, &overflow);
	if (end == s || *end != '\0') {
		snprintf(err, errlen, "not a whole number");
		return -1;
	}
	if (overflow || v > max) {
		snprintf(err, errlen, "too large (at most %llu)", (unsigned long long)max);
		return -1;
	}
	if (v == 0) {
		snprintf(err, errlen, "must be at least 1");
		return -1;
	}
	*out = v;
	return 0;
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

/* Split a comma-separated list and look each name up in l, setting its
 * bit; "all" selects all_bits. what names the list in messages. */
static int
parse_list(const char *s, const struct name_list *l, unsigned all_bits,
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
options_parse_groups(const char *s, unsigned *out, char *err, size_t errlen)
{
	return parse_list(s, &group_names, plan_all_groups(), "tests", out, err, errlen);
}

int
options_parse_methods(const char *s, unsigned *out, char *err, size_t errlen)
{
	return parse_list(s, &method_names, (1u << METHOD_COUNT) - 1, "methods",
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
	int i = parse_choice(s, &direct_list, err, errlen);

	if (i < 0)
		return -1;
	*out = (enum direct_mode)i;
	return 0;
}

int
options_parse_pattern(const char *s, enum pattern *out, char *err, size_t errlen)
{
	int i = parse_choice(s, &pattern_list, err, errlen);

	if (i < 0)
		return -1;
	*out = (enum pattern)i;
	return 0;
}

int
options_parse_format(const char *s, const struct report_format **out,
    char *err, size_t errlen)
{
	int i = parse_choice(s, &report_format_names, err, errlen);

	if (i < 0)
		return -1;
	*out = &report_formats[i];
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

void
options_direct_choices(const char *sep, char *buf, size_t len)
{
	names_join(&direct_list, sep, buf, len);
}

void
options_pattern_choices(const char *sep, char *buf, size_t len)
{
	names_join(&pattern_list, sep, buf, len);
}

int
options_check_file_size(uint64_t file_bytes, uint64_t need, const char *what,
    char *err, size_t errlen)
{
	char have[32], most[32], least[32];

	options_format_size(file_bytes, have, sizeof have);
	if (file_bytes > MAX_FILE_BYTES) {
		options_format_size(MAX_FILE_BYTES, most, sizeof most);
		snprintf(err, errlen, "--file-size '%s': too large (at most %s)", have, most);
		return -1;
	}
	if (file_bytes < need) {
		options_format_size(need, least, sizeof least);
		snprintf(err, errlen, "--file-size '%s': too small for %s (at least %s)",
		    have, what, least);
		return -1;
	}
	return 0;
}

int
options_validate(const struct options *o, char *err, size_t errlen)
{
	if (options_check_file_size(o->file_bytes, plan_min_file_bytes(o), "the chosen tests",
	    err, errlen) == -1)
		return -1;
	if (o->groups == 0) {
		snprintf(err, errlen, "--tests: no test chosen");
		return -1;
	}
	if (o->methods == 0) {
		snprintf(err, errlen, "--methods: no method chosen");
		return -1;
	}
	if (o->filename != NULL && o->ntargets > 0) {
		snprintf(err, errlen, "--filename: conflicts with a TARGET directory (the file's directory is the target)");
		return -1;
	}
	if (o->format->one_target && o->ntargets > 1) {
		snprintf(err, errlen, "--format=%s: gives one server's settings (name one TARGET)",
		    o->format->name);
		return -1;
	}
	if (o->wal_method != NULL && !(o->methods & (1u << method_index(o->wal_method)))) {
		snprintf(err, errlen, "--wal-sync-method '%s': not among the --methods measured",
		    o->wal_method->name);
		return -1;
	}
	if (o->wal_method != NULL && !(o->groups & ((1u << GROUP_ONE) | (1u << GROUP_GROUP)))) {
		snprintf(err, errlen, "--wal-sync-method: needs the '%s' or '%s' test, which "
		    "--tests leaves out", plan_group_name(GROUP_ONE), plan_group_name(GROUP_GROUP));
		return -1;
	}
	if (o->wal_method != NULL && (o->groups & (1u << GROUP_GROUP)) &&
	    method_unavailable(o->wal_method) != NULL) {
		snprintf(err, errlen, "--wal-sync-method '%s': the '%s' test cannot use it: %s",
		    o->wal_method->name, plan_group_name(GROUP_GROUP),
		    method_unavailable(o->wal_method));
		return -1;
	}
	return 0;
}

void
options_format_size(uint64_t bytes, char *buf, size_t len)
{
	const struct suffix *best = NULL;
	size_t i;

	/* The largest printed unit that divides the size exactly. */
	for (i = 0; i < COUNT(size_suffixes); i++) {
		const struct suffix *s = &size_suffixes[i];

		if (s->print && bytes % s->scale == 0 && bytes >= s->scale &&
		    (best == NULL || s->scale > best->scale))
			best = s;
	}
	if (best == NULL)
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%s", (unsigned long long)(bytes / best->scale), best->name);
}

void
options_format_duration(uint64_t ns, char *buf, size_t len)
{
	const struct suffix *best = NULL;
	char frac[16];
	size_t i, n;

	for (i = 0; i < COUNT(duration_suffixes); i++) {
		const struct suffix *s = &duration_suffixes[i];

		if (s->print && ns % s->scale == 0 && (best == NULL || s->scale > best->scale))
			best = s;
	}
	if (best != NULL) {
		snprintf(buf, len, "%llu%s", (unsigned long long)(ns / best->scale), best->name);
		return;
	}
	/* Not a whole number of microseconds: exact decimal seconds, which
	 * options_parse_duration reads back (%g would print 1.5e-06s). */
	snprintf(frac, sizeof frac, "%09llu", (unsigned long long)(ns % 1000000000ULL));
	for (n = strlen(frac); n > 1 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	snprintf(buf, len, "%llu.%ss", (unsigned long long)(ns / 1000000000ULL), frac);
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
