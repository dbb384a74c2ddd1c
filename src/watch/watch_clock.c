/* watch_clock.c: wall-clock stamps in UTC (watch_clock.h). */
#include "config.h"

#include "watch/watch_clock.h"

#include <stdio.h>
#include <time.h>

#include "util/platform.h"

uint64_t
watch_clock_wall_at(uint64_t wall_now_ns, uint64_t mono_now_ns, uint64_t then_ns)
{
	uint64_t ago = mono_now_ns > then_ns ? mono_now_ns - then_ns : 0;

	return wall_now_ns > ago ? wall_now_ns - ago : 0;
}

/* wall_ns in UTC, whole seconds; false when the system cannot say. */
static bool
utc_of(uint64_t wall_ns, struct tm *tm)
{
	time_t secs = (time_t)(wall_ns / NSEC_PER_SEC);

	return gmtime_r(&secs, tm) != NULL;
}

void
watch_clock_iso(uint64_t wall_ns, char *buf, size_t len)
{
	char secs[32];
	struct tm tm;

	if (!utc_of(wall_ns, &tm) || strftime(secs, sizeof secs, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s.%03uZ", secs,
		    (unsigned)(wall_ns % NSEC_PER_SEC / 1000000ULL));
}

void
watch_clock_iso_secs(uint64_t wall_ns, char *buf, size_t len)
{
	struct tm tm;

	if (!utc_of(wall_ns, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "unknown");
}

void
watch_clock_hms(uint64_t wall_ns, char *buf, size_t len)
{
	struct tm tm;

	if (!utc_of(wall_ns, &tm) || strftime(buf, len, "%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "unknown");
}

void
watch_clock_date(uint64_t wall_ns, char *buf, size_t len)
{
	struct tm tm;

	if (!utc_of(wall_ns, &tm) || strftime(buf, len, "%Y-%m-%d", &tm) == 0)
		snprintf(buf, len, "unknown");
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
