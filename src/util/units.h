/* units.h: sizes, durations and whole numbers, parsed strictly and printed.
 * Sizes and durations share one suffix table, used both to parse and to
 * print, so what syncprobe prints it also accepts. Each parser returns 0,
 * or -1 with a one-line reason in err (no "syncprobe:", no option name). */
#ifndef SYNCPROBE_UNITS_H
#define SYNCPROBE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A second, a millisecond and a microsecond, in the nanoseconds every
 * duration is kept in: the one place they are written. */
#define NSEC_PER_SEC  1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

#define UNITS_MIN_NS   NSEC_PER_USEC	/* the shortest duration but 0: 1us */
#define UNITS_MAX_NS   (3600ULL * NSEC_PER_SEC)	/* the longest but watch --for */
#define UNITS_MAX_LIST 16	/* values in a list of numbers */

/* "8k", "16MiB": powers of 1024. */
int units_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
/* "2", "1.5s", "500ms": from UNITS_MIN_NS to UNITS_MAX_NS. */
int units_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen);
/* The same up to max_ns, for the one option that runs longer than
 * UNITS_MAX_NS (watch --for). */
int units_parse_duration_upto(const char *s, uint64_t max_ns, uint64_t *ns, char *err,
    size_t errlen);
/* A duration that may be 0, at most max_ns. */
int units_parse_duration_or_zero(const char *s, uint64_t max_ns, uint64_t *ns,
    char *err, size_t errlen);
/* A whole number from 1 to max. */
int units_parse_count(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen);
/* A whole number from min to max. */
int units_parse_number(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    char *err, size_t errlen);
/* A comma-separated list of whole numbers from min to max, sorted and
 * without repeats; at most UNITS_MAX_LIST. */
int units_parse_number_list(const char *s, uint64_t min, uint64_t max, uint64_t *out,
    size_t *n, char *err, size_t errlen);

/* "8kB", "16MiB", "512B": a size as the reports print it. */
void units_format_size(uint64_t bytes, char *buf, size_t len);

/* "0.5s", "250ms": a duration as the reports print it. */
void units_format_duration(uint64_t ns, char *buf, size_t len);

/* How a latency in microseconds is written: each way a ladder of ranges,
 * each with its unit and decimals (units.c's latency_styles). */
enum latency_style {
	/* A report's figure, in microseconds without a unit, never more than
	 * 8 characters (not negative): "8.25", "61.3", "12345", "1.2e+08". */
	LATENCY_FIGURE,
	/* A reading with its unit, as watch says it: "412 us", "1.25 ms",
	 * "21.3 ms", "1.503 s". */
	LATENCY_READING,
	/* An axis label, short: "412us", "1.2ms", "21ms", "1.5s". */
	LATENCY_AXIS,
	/* In milliseconds, as etcd's guidance states its limits: "9.87 ms". */
	LATENCY_MS,
	/* The same without the unit, in e-notation where it is wide: "9.87",
	 * "1.23e+06". */
	LATENCY_MS_FIGURE,
};

/* A latency of usecs microseconds, written in style into buf. */
void units_format_latency(double usecs, enum latency_style style, char *buf, size_t len);

/* The article for text that starts with a figure as it is read aloud:
 * "an" where the figure is read with a vowel first (8, 80, 8kB, 11, 18,
 * 11000, 18000: eight, eleven, eighteen), "a" otherwise. */
const char *units_article(const char *text);

#endif
