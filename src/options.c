/* options.c: strict parsing of every option value, and the checks that need
 * all of them. A value is accepted only when all of it was understood. */
#include "config.h"

#include "options.h"

#include <stdio.h>
#include <string.h>

#include "method.h"

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

static const char *const group_names[GROUP_COUNT] = {
	"one", "two", "sizes", "descriptor", "nosync"
};

static const char *const direct_names[] = { "both", "on", "off" };
static const char *const pattern_names[] = { "overwrite", "append" };
static const char *const format_names[] = { "text", "json", "conf" };
static const char *const durability_names[] = { "off", "write", "verify" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void
options_defaults(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->test_ns = DEFAULT_TEST_NS;
	o->block_bytes = DEFAULT_BLOCK_BYTES;
	o->file_bytes = DEFAULT_FILE_BYTES;
	o->groups = (1u << GROUP_COUNT) - 1;
	o->methods = (1u << method_count) - 1;
	o->direct = DIRECT_BOTH;
	o->pattern = PATTERN_OVERWRITE;
	o->wal_method = -1;
	o->format = FORMAT_TEXT;
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

int
options_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	static const char usage[] = "not a duration (use e.g. 2, 1.5s or 500ms)";
	const struct suffix *suf;
	const char *p;
	uint64_t whole, frac = 0, frac_scale = 1, v;
	bool overflow;

	/* digits [ "." digits ] [ unit ] */
	p = parse_digits(s, &whole, &overflow);
	if (p == s) {
		snprintf(err, errlen, "%s", usage);
		return -1;
	}
	if (*p == '.') {
		const char *frac_start = ++p;

		/* Digits past the ninth are below a nanosecond of a second:
		 * ignored, not refused. */
		for (; *p >= '0' && *p <= '9'; p++) {
			if (frac_scale < 1000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_scale *= 10;
			}
		}
		if (p == frac_start) {
			snprintf(err, errlen, "%s", usage);
			return -1;
		}
	}
	suf = find_suffix(duration_suffixes, COUNT(duration_suffixes), p);
	if (suf == NULL) {
		snprintf(err, errlen, "unknown duration unit '%s' (use s, ms or us)", p);
		return -1;
	}
	if (overflow || whole > MAX_TEST_NS / suf->scale) {
		snprintf(err, errlen, "too long (at most 3600s)");
		return -1;
	}
	v = whole * suf->scale + frac * suf->scale / frac_scale;
	if (v > MAX_TEST_NS) {
		snprintf(err, errlen, "too long (at most 3600s)");
		return -1;
	}
	if (v < 1000) {
		snprintf(err, errlen, "must be at least 1us");
		return -1;
	}
	*ns = v;
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

/* Split a comma-separated list and look each name up with lookup(), which
 * returns a bit index or -1. "all" selects all_bits. */
static int
parse_list(const char *s, int (*lookup)(const char *name), unsigned all_bits,
    unsigned *out, char *err, size_t errlen)
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
			snprintf(err, errlen, "unknown name '%.*s...'", 20, p);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (strcmp(name, "all") == 0) {
			bits |= all_bits;
		} else if ((bit = lookup(name)) >= 0) {
			bits |= 1u << bit;
		} else {
			snprintf(err, errlen, "unknown name '%s'", name);
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

static int
group_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < GROUP_COUNT; i++)
		if (strcmp(group_names[i], name) == 0)
			return (int)i;
	return -1;
}

static int
method_lookup(const char *name)
{
	const struct method *m = method_find(name);

	return m ? method_index(m) : -1;
}

int
options_parse_groups(const char *s, unsigned *out, char *err, size_t errlen)
{
	if (parse_list(s, group_lookup, (1u << GROUP_COUNT) - 1, out, err, errlen) == -1) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " (tests are one, two, sizes, descriptor, nosync, all)");
		return -1;
	}
	return 0;
}

int
options_parse_methods(const char *s, unsigned *out, char *err, size_t errlen)
{
	if (parse_list(s, method_lookup, (1u << method_count) - 1, out, err, errlen) == -1) {
		size_t n = strlen(err);

		snprintf(err + n, errlen - n, " (methods are open_datasync, fdatasync, fsync, fsync_writethrough, open_sync, all)");
		return -1;
	}
	return 0;
}

/* Find s in a table of names; the index, or -1 with a reason. */
static int
parse_choice(const char *s, const char *const *names, size_t n, char *err, size_t errlen)
{
	size_t i, used;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	used = (size_t)snprintf(err, errlen, "unknown value (choose");
	for (i = 0; i < n && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s%s",
		    i ? ", " : " ", names[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
	return -1;
}

int
options_parse_direct(const char *s, enum direct_mode *out, char *err, size_t errlen)
{
	int i = parse_choice(s, direct_names, COUNT(direct_names), err, errlen);

	if (i < 0)
		return -1;
	*out = (enum direct_mode)i;
	return 0;
}

int
options_parse_pattern(const char *s, enum pattern *out, char *err, size_t errlen)
{
	int i = parse_choice(s, pattern_names, COUNT(pattern_names), err, errlen);

	if (i < 0)
		return -1;
	*out = (enum pattern)i;
	return 0;
}

int
options_parse_durability(const char *s, enum durability_mode *out, char *err, size_t errlen)
{
	int i = parse_choice(s, durability_names, COUNT(durability_names), err, errlen);

	if (i < 0)
		return -1;
	*out = (enum durability_mode)i;
	return 0;
}

int
options_parse_format(const char *s, enum format *out, char *err, size_t errlen)
{
	int i = parse_choice(s, format_names, COUNT(format_names), err, errlen);

	if (i < 0)
		return -1;
	*out = (enum format)i;
	return 0;
}

uint64_t
options_min_file_bytes(const struct options *o)
{
	uint64_t need = o->block_bytes;

	if (o->groups & (1u << GROUP_TWO))
		need = 2 * (uint64_t)o->block_bytes;
	if ((o->groups & (1u << GROUP_SIZES)) && need < SIZES_TOTAL_BYTES)
		need = SIZES_TOTAL_BYTES;
	return need;
}

int
options_validate(const struct options *o, char *err, size_t errlen)
{
	char have[32], need[32];

	if (o->block_bytes < MIN_BLOCK_BYTES || o->block_bytes > MAX_BLOCK_BYTES ||
	    (o->block_bytes & (o->block_bytes - 1)) != 0) {
		options_format_size(o->block_bytes, have, sizeof have);
		snprintf(err, errlen, "--block-size '%s': must be a power of two from 1kB to 64kB", have);
		return -1;
	}
	if (o->file_bytes > MAX_FILE_BYTES) {
		options_format_size(o->file_bytes, have, sizeof have);
		snprintf(err, errlen, "--file-size '%s': too large (at most 64GB)", have);
		return -1;
	}
	if (o->file_bytes < options_min_file_bytes(o)) {
		options_format_size(o->file_bytes, have, sizeof have);
		options_format_size(options_min_file_bytes(o), need, sizeof need);
		snprintf(err, errlen, "--file-size '%s': too small for the chosen tests (at least %s)", have, need);
		return -1;
	}
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
	if (o->format == FORMAT_CONF && o->ntargets > 1) {
		snprintf(err, errlen, "--format=conf: gives one server's settings (name one TARGET)");
		return -1;
	}
	if (o->wal_method >= 0 && !(o->methods & (1u << o->wal_method))) {
		snprintf(err, errlen, "--wal-sync-method '%s': not among the --methods measured",
		    method_table[o->wal_method].name);
		return -1;
	}
	if (o->wal_method >= 0 && !(o->groups & (1u << GROUP_ONE))) {
		snprintf(err, errlen, "--wal-sync-method: needs the 'one' test, which --tests leaves out");
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
options_group_name(enum group g)
{
	return (unsigned)g < GROUP_COUNT ? group_names[g] : "?";
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

const char *
options_durability_name(enum durability_mode d)
{
	return durability_names[d];
}
