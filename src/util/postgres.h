/* postgres.h: PostgreSQL's own limits and defaults that syncprobe's
 * options and advice follow, in one place (postgresql.conf's documented
 * ranges). */
#ifndef SYNCPROBE_POSTGRES_H
#define SYNCPROBE_POSTGRES_H

#define COMMIT_DELAY_MAX_USECS  100000L	/* commit_delay: 0 to 100000 us */
#define MAX_COMMIT_SIBLINGS     1000u	/* commit_siblings: 0 to 1000 */
#define DEFAULT_COMMIT_SIBLINGS 5u	/* and its default */

/* A commit_delay the server takes: usecs in whole microseconds, rounded,
 * 0 for none, clamped to COMMIT_DELAY_MAX_USECS. */
long postgres_commit_delay(double usecs);

#endif
