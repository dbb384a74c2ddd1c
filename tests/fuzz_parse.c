/* fuzz_parse.c: a libFuzzer target for the option value parsers, built by
 * `make fuzz` with clang -fsanitize=fuzzer,address,undefined; not part of
 * make check. Each input, as a C string, goes through every parser; besides
 * what the sanitizers catch, it checks the parsers' contracts:
 *   - a refusal leaves a one-line reason (no newline from the parser's own
 *     words, never empty, always terminated within the buffer) and does not
 *     touch the result;
 *   - an accepted value is in range, and a size or a whole duration prints
 *     (units_format_*) as something the parser accepts again, as the same
 *     value: what syncprobe prints it also accepts.
 * A crash it finds becomes a case in tests/test_fuzz_regress.c. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/method.h"
#include "probe/options.h"
#include "probe/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CANARY 0xA5u
#define UNTOUCHED 0x5A5A5A5A5A5A5A5AULL

static void
check(int cond, const char *what, const char *input)
{
	if (!cond) {
		fprintf(stderr, "fuzz_parse: %s (input '%s')\n", what, input);
		abort();
	}
}

/* A refusal: the result untouched, and a reason terminated inside errlen
 * (the byte past it still the canary), not empty, and free of newlines
 * except those the input itself brought in. */
static void
check_refusal(int untouched, const char *err, size_t errlen, const char *input)
{
	size_t len = strnlen(err, errlen);

	check(untouched, "result set on refusal", input);
	check(len < errlen, "reason not terminated", input);
	check((unsigned char)err[errlen] == CANARY, "reason overran errlen", input);
	check(len > 0, "empty reason", input);
	if (strchr(input, '\n') == NULL)
		check(strchr(err, '\n') == NULL, "reason spans lines", input);
}

static void
fuzz_size(const char *s, size_t errlen)
{
	char err[ERRBUF_LEN + 1], printed[64];
	uint64_t v = UNTOUCHED, again = 0;

	memset(err, CANARY, sizeof err);
	if (units_parse_size(s, &v, err, errlen) == -1) {
		check_refusal(v == UNTOUCHED, err, errlen, s);
		return;
	}
	units_format_size(v, printed, sizeof printed);
	check(units_parse_size(printed, &again, err, sizeof err) == 0,
	    "size: printed form refused", s);
	check(again == v, "size: printed form parses to another value", s);
}

static void
fuzz_duration(const char *s, size_t errlen)
{
	char err[ERRBUF_LEN + 1], printed[64];
	uint64_t v = UNTOUCHED, again = 0;

	memset(err, CANARY, sizeof err);
	if (units_parse_duration(s, &v, err, errlen) == -1) {
		check_refusal(v == UNTOUCHED, err, errlen, s);
		return;
	}
	check(v >= 1000 && v <= UNITS_MAX_NS, "duration: out of range", s);
	units_format_duration(v, printed, sizeof printed);
	check(units_parse_duration(printed, &again, err, sizeof err) == 0,
	    "duration: printed form refused", s);
	check(again == v, "duration: printed form parses to another value", s);
}

static void
fuzz_count(const char *s, size_t errlen, uint64_t max)
{
	char err[ERRBUF_LEN + 1];
	uint64_t v = UNTOUCHED;

	memset(err, CANARY, sizeof err);
	if (units_parse_count(s, max, &v, err, errlen) == -1) {
		check_refusal(v == UNTOUCHED, err, errlen, s);
		return;
	}
	check(v >= 1 && v <= max, "count: out of range", s);
}

static void
fuzz_list(const char *s, size_t errlen, int methods)
{
	int (*parse)(const char *, unsigned *, char *, size_t) =
	    methods ? options_parse_methods : plan_parse_groups;
	unsigned all = methods ? (1u << METHOD_COUNT) - 1 : plan_all_groups();
	char err[ERRBUF_LEN + 1];
	unsigned bits = 0xA5A5A5A5u;

	memset(err, CANARY, sizeof err);
	if (parse(s, &bits, err, errlen) == -1) {
		check_refusal(bits == 0xA5A5A5A5u, err, errlen, s);
		return;
	}
	check(bits != 0, "list: accepted but chose nothing", s);
	check((bits & ~all) == 0, "list: bits outside the table", s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t maxima[] = { MAX_OPS_PER_TEST, MAX_ROUNDS, 1, UINT64_MAX };
	size_t errlen;
	char *s;

	if (size == 0)
		return 0;
	/* The first byte picks the reason buffer's size (syncprobe's own,
	 * most of the time; a short one now and then) and a count's maximum;
	 * the rest is the value, as a C string. */
	errlen = data[0] < 0xC0 ? ERRBUF_LEN : (size_t)(data[0] & 0x3F) + 2;
	s = malloc(size);
	if (s == NULL)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';

	fuzz_size(s, errlen);
	fuzz_duration(s, errlen);
	fuzz_count(s, errlen, maxima[data[0] % (sizeof maxima / sizeof maxima[0])]);
	fuzz_list(s, errlen, 0);
	fuzz_list(s, errlen, 1);
	free(s);
	return 0;
}
