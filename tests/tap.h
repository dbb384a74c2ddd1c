/* tap.h: the smallest TAP producer: ok(), is_num(), done(). */
#ifndef SYNCPROBE_TAP_H
#define SYNCPROBE_TAP_H

#include <math.h>
#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_near(got, want, rel, ...) \
	ok(fabs((double)(got) - (double)(want)) <= fabs((double)(want)) * (rel), __VA_ARGS__)

static void __attribute__((format(printf, 4, 5)))
tap_ok(int pass, const char *file, int line, const char *fmt, ...);

#include <stdarg.h>

static void
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("# failed at %s:%d\n", file, line);
	}
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
