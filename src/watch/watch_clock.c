/* watch_clock.c: wall-clock stamps in UTC (watch_clock.h). */
#include "config.h"

#include "watch/watch_clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/platform.h"

uint64_t
watch_clock_wall_at(uint64_t wall_now_ns, uint64_t mono_now_ns, uint64_t then_ns)
{
	uint64_t ago = mono_now_ns > then_ns ? mono_now_ns - then_ns : 0;

	return wall_now_ns > ago ? wall_now_ns - ago : 0;
}

/* The stamps, each a strftime format of its own (a literal, so that the
 * compiler checks it). */
enum stamp { STAMP_ISO_SECS, STAMP_HMS, STAMP_DATE };

/* wall_ns in UTC as what, to the second; "unknown" when the system cannot
 * say. */
static void
format_utc(uint64_t wall_ns, enum stamp what, char *buf, size_t len)
{
	time_t secs = (time_t)(wall_ns / NSEC_PER_SEC);
	struct tm tm;
	size_t n = 0;

	if (gmtime_r(&secs, &tm) != NULL) {
		switch (what) {
		case STAMP_ISO_SECS:
			n = strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
			break;
		case STAMP_HMS:
			n = strftime(buf, len, "%H:%M:%S", &tm);
			break;
		case STAMP_DATE:
			n = strftime(buf, len, "%Y-%m-%d", &tm);
			break;
		}
	}
	if (n == 0)
		snprintf(buf, len, "unknown");
}

void
watch_clock_iso(uint64_t wall_ns, char *buf, size_t len)
{
	char secs[32];

	format_utc(wall_ns, STAMP_ISO_SECS, secs, sizeof secs);
	if (strcmp(secs, "unknown") == 0)
		snprintf(buf, len, "unknown");
	else	/* "...:10Z" becomes "...:10.123Z" */
		snprintf(buf, len, "%.*s.%03uZ", (int)strlen(secs) - 1, secs,
		    (unsigned)(wall_ns % NSEC_PER_SEC / NSEC_PER_MSEC));
}

void
watch_clock_iso_secs(uint64_t wall_ns, char *buf, size_t len)
{
	format_utc(wall_ns, STAMP_ISO_SECS, buf, len);
}

void
watch_clock_hms(uint64_t wall_ns, char *buf, size_t len)
{
	format_utc(wall_ns, STAMP_HMS, buf, len);
}

void
watch_clock_date(uint64_t wall_ns, char *buf, size_t len)
{
	format_utc(wall_ns, STAMP_DATE, buf, len);
}

bool
watch_clock_new_date(uint64_t *day, uint64_t wall_ns)
{
	uint64_t d = wall_ns / WATCH_NSEC_PER_DAY;

	if (d == *day)
		return false;
	*day = d;
	return true;
}
