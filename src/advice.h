/* advice.h: configuration advice as pure functions of the measured rows. */
#ifndef SYNCPROBE_ADVICE_H
#define SYNCPROBE_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "method.h"
#include "row.h"

#define COMMIT_DELAY_MAX_USECS 100000L	/* PostgreSQL's upper bound */
#define DEFAULT_KEEP_RATIO     1.10	/* keep the default within 10% of the best */
#define ADVICE_TEXT_LEN        320
#define ADVICE_MAX_WARNINGS    16

struct advice_input {
	const struct method *forced_method;	/* --wal-sync-method, or NULL */
	const struct method *platform_default;	/* PostgreSQL's default here */
	/* The method that flushes the drive's cache where plain fsync does
	 * not (fsync_writethrough on macOS), or NULL where there is none. */
	const struct method *writethrough;
};

struct advice_warning {
	const char *code;		/* stable: scripts match on it */
	char message[ADVICE_TEXT_LEN];
};

struct advice {
	const struct method *wal_sync_method;	/* NULL when nothing could be advised */
	char method_reason[ADVICE_TEXT_LEN];
	bool direct_basis;		/* rested on direct rows (no buffered ones ran) */

	bool have_delay;
	long commit_delay_usecs;
	const struct row_result *basis;	/* the row commit_delay comes from */
	double basis_mean_usecs;	/* its mean, to the nanosecond */
	char delay_reason[ADVICE_TEXT_LEN];

	struct advice_warning warnings[ADVICE_MAX_WARNINGS];
	size_t nwarnings;
};

void advice_compute(const struct row_result *rows, size_t n,
    const struct advice_input *in, struct advice *out);

/* half of mean_usecs, rounded to whole microseconds, clamped to 0..100000 */
long advice_commit_delay(double mean_usecs);

/* Whether the advice may read this row's figures: a method row of the one-
 * or two-write test, buffered (or direct, when only direct rows run). */
bool advice_reads_row(const struct row_spec *spec, bool direct_only);

/* The candidate row of group g for method m and direct-ness, or NULL. */
const struct row_result *advice_find_row(const struct row_result *rows, size_t n,
    enum group g, const struct method *m, bool direct);

/* Add a warning (ignored past ADVICE_MAX_WARNINGS). */
void advice_warn(struct advice *a, const char *code, const char *fmt, ...);

#endif
