/* units.c: sizes, durations and whole numbers, parsed strictly and printed
 * from one suffix table, so that what syncprobe prints it also accepts. A
 * value is accepted only when all of it was understood; nothing is
 * rounded. */
#include "config.h"

#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	{ "",   NSEC_PER_SEC, false },
	{ "s",  NSEC_PER_SEC, true  },
	{ "ms", 1000000ULL,    true  },
	{ "us", 1000ULL,       true  },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

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
units_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
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

/* A duration of any length up to max_ns, 0 included. */
static int
parse_duration_ns(const char *s, uint64_t max_ns, uint64_t *ns, char *err, size_t errlen)
{
	static const char usage[] = "not a duration (use e.g. 2, 1.5s or 500ms)";
	char too_long[64], most[32];
	const struct suffix *suf;
	const char *p, *frac_start = NULL, *frac_end = NULL;
	uint64_t whole, frac = 0, v;
	unsigned decimals, i;
	bool overflow;

	units_format_duration(max_ns, most, sizeof most);
	snprintf(too_long, sizeof too_long, "too long (at most %s)", most);
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
	if (overflow || whole > max_ns / suf->scale) {
		snprintf(err, errlen, "%s", too_long);
		return -1;
	}
	v = whole * suf->scale;
	decimals = ns_decimals(suf->scale);
	/* Never rounded: a value that is not a whole number of nanoseconds
	 * cannot be what was meant, and is refused. */
	if (frac_start != NULL && (size_t)(frac_end - frac_start) > decimals) {
		snprintf(err, errlen, "%s", v >= max_ns ? too_long :
		    "finer than a nanosecond (at most 9 decimals in s, 6 in ms, 3 in us)");
		return -1;
	}
	for (i = 0; i < decimals; i++)
		frac = frac * 10 + (frac_start != NULL && frac_start + i < frac_end ?
		    (uint64_t)(frac_start[i] - '0') : 0);
	v += frac;
	if (v > max_ns) {
		snprintf(err, errlen, "%s", too_long);
		return -1;
	}
	*ns = v;
	return 0;
}

int
units_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	return units_parse_duration_upto(s, UNITS_MAX_NS, ns, err, errlen);
}

int
units_parse_duration_upto(const char *s, uint64_t max_ns, uint64_t *ns, char *err,
    size_t errlen)
{
	uint64_t v;

	if (parse_duration_ns(s, max_ns, &v, err, errlen) == -1)
		return -1;
	if (v < UNITS_MIN_NS) {
		char least[32];

		units_format_duration(UNITS_MIN_NS, least, sizeof least);
		snprintf(err, errlen, "must be at least %s", least);
		return -1;
	}
	*ns = v;
	return 0;
}

int
units_parse_duration_or_zero(const char *s, uint64_t max_ns, uint64_t *ns,
    char *err, size_t errlen)
{
	return parse_duration_ns(s, max_ns, ns, err, errlen);
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
units_parse_number(const char *s, uint64_t min, uint64_t max, uint64_t *out,
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
units_parse_number_list(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    size_t *n, char *err, size_t errlen)
{
	const char *p = s, *end;
	size_t count = 0, i, kept;

	for (;;) {
		if (count == UNITS_MAX_LIST) {
			snprintf(err, errlen, "too many values (at most %d)", UNITS_MAX_LIST);
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
units_parse_count(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen)
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

void
units_format_size(uint64_t bytes, char *buf, size_t len)
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

/* One range of a latency style: below below_usecs (the last range has no
 * end), the figure divided by per_unit, written with decimals in the
 * conversion ('f', 'e' or 'g'), then unit. */
struct latency_range {
	double below_usecs;
	double per_unit;
	char conversion;
	int decimals;
	const char *unit;
};

#define LATENCY_RANGES 4
#define NO_END 0.0	/* the last range */

static const struct latency_range latency_styles[][LATENCY_RANGES] = {
	[LATENCY_FIGURE] = { { 10.0, 1.0, 'f', 2, "" }, { 100000.0, 1.0, 'f', 1, "" },
	    { 1e8, 1.0, 'f', 0, "" }, { NO_END, 1.0, 'e', 1, "" } },
	[LATENCY_READING] = { { 1000.0, 1.0, 'f', 0, " us" }, { 10000.0, 1000.0, 'f', 2, " ms" },
	    { 1000000.0, 1000.0, 'f', 1, " ms" }, { NO_END, 1000000.0, 'f', 3, " s" } },
	[LATENCY_AXIS] = { { 1000.0, 1.0, 'f', 0, "us" }, { 10000.0, 1000.0, 'f', 1, "ms" },
	    { 1000000.0, 1000.0, 'f', 0, "ms" }, { NO_END, 1000000.0, 'f', 1, "s" } },
	[LATENCY_MS] = { { NO_END, 1000.0, 'f', 2, " ms" } },
	[LATENCY_MS_FIGURE] = { { 1e9, 1000.0, 'f', 2, "" }, { NO_END, 1000.0, 'g', 3, "" } },
};

void
units_format_latency(double usecs, enum latency_style style, char *buf, size_t len)
{
	const struct latency_range *r = latency_styles[style];
	double v;

	while (r->below_usecs != NO_END && !(usecs < r->below_usecs))
		r++;
	v = usecs / r->per_unit;
	if (r->conversion == 'e')
		snprintf(buf, len, "%.*e%s", r->decimals, v, r->unit);
	else if (r->conversion == 'g')
		snprintf(buf, len, "%.*g%s", r->decimals, v, r->unit);
	else
		snprintf(buf, len, "%.*f%s", r->decimals, v, r->unit);
}

void
units_format_duration(uint64_t ns, char *buf, size_t len)
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
	 * units_parse_duration reads back (%g would print 1.5e-06s). */
	snprintf(frac, sizeof frac, "%09llu", (unsigned long long)(ns % NSEC_PER_SEC));
	for (n = strlen(frac); n > 1 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	snprintf(buf, len, "%llu.%ss", (unsigned long long)(ns / NSEC_PER_SEC), frac);
}


const char *
units_article(const char *text)
{
	size_t digits = strspn(text, "0123456789");

	if (digits == 0)
		return "a";
	if (text[0] == '8')
		return "an";
	/* Eleven and eighteen, alone or leading a group of thousands. */
	if (digits % 3 == 2 && text[0] == '1' && (text[1] == '1' || text[1] == '8'))
		return "an";
	return "a";
}
