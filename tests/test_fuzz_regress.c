/* test_fuzz_regress.c: every input tests/fuzz_parse.c (make fuzz) found
 * failing, kept as a case here so it cannot come back. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "probe/options.h"
#include "tap.h"

/* A duration that is not a whole number of microseconds printed as "%.9g"
 * seconds: "1.515e-06s", which the parser refuses (make fuzz, from the
 * input "1.515us"), and "3.67336076s" for 3.673360763s, nine figures that
 * parse back to another value (from "3.67336076330731"). What syncprobe
 * prints it must also accept, as the same value. */
static void
duration_round_trip(const char *input, uint64_t want_ns, const char *want_printed)
{
	char err[ERRBUF_LEN], printed[64];
	uint64_t ns = 0, again = 0;

	ok(units_parse_duration(input, &ns, err, sizeof err) == 0 && ns == want_ns,
	    "duration '%s' is %llu ns", input, (unsigned long long)want_ns);
	units_format_duration(ns, printed, sizeof printed);
	ok(strcmp(printed, want_printed) == 0, "%llu ns prints as '%s' (got '%s')",
	    (unsigned long long)ns, want_printed, printed);
	ok(units_parse_duration(printed, &again, err, sizeof err) == 0 && again == ns,
	    "'%s' parses back to %llu ns", printed, (unsigned long long)ns);
}

int
main(void)
{
	duration_round_trip("1.515us", 1515, "0.000001515s");
	/* The fuzzer's input had digits below a nanosecond, refused since
	 * issue 10 (test_options.c); its first nine decimals keep the case. */
	duration_round_trip("3.673360763", 3673360763ULL, "3.673360763s");
	duration_round_trip("0.0000015", 1500, "0.0000015s");
	duration_round_trip("1.0000005", 1000000500, "1.0000005s");
	duration_round_trip("3599.999999999s", 3599999999999ULL, "3599.999999999s");
	duration_round_trip("1.5ms", 1500000, "1500us");
	return tap_done();
}
