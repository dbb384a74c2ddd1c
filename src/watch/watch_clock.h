/* watch_clock.h: watch's wall-clock stamps, so that a stall can be lined up
 * with a server's log or a dashboard. The pace runs on the monotonic clock;
 * a stamp is the wall clock of the moment it names, read from the wall
 * clock as it is when the stamp is made, so that a step of the clock moves
 * the stamps (as it moves every other log's) and never the pace. Always
 * UTC. Pure functions of clock readings. */
#ifndef SYNCPROBE_WATCH_CLOCK_H
#define SYNCPROBE_WATCH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/units.h"

#define WATCH_NSEC_PER_DAY (86400ULL * NSEC_PER_SEC)

/* The wall clock at monotonic time then_ns, from the two clocks read now
 * (then_ns at or before mono_now_ns). */
uint64_t watch_clock_wall_at(uint64_t wall_now_ns, uint64_t mono_now_ns, uint64_t then_ns);

/* "2026-12-01T12:00:10.123Z": ISO 8601, UTC, to the millisecond. */
void watch_clock_iso(uint64_t wall_ns, char *buf, size_t len);

/* "2026-12-01T12:00:10Z": the same to the second. */
void watch_clock_iso_secs(uint64_t wall_ns, char *buf, size_t len);

/* "12:00:10" (UTC). */
void watch_clock_hms(uint64_t wall_ns, char *buf, size_t len);

/* "2026-12-01" (UTC). */
void watch_clock_date(uint64_t wall_ns, char *buf, size_t len);

/* Whether wall_ns is on another UTC date than *day (days since the epoch),
 * which it then becomes: the first line of a date says the date. */
bool watch_clock_new_date(uint64_t *day, uint64_t wall_ns);

#endif
