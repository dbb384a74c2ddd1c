/* advice.h: configuration advice as pure functions of the measured rows. */
#ifndef SYNCPROBE_ADVICE_H
#define SYNCPROBE_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/method.h"
#include "probe/row.h"
#include "probe/result.h"
#include "util/postgres.h"

struct group_result;

#define DEFAULT_KEEP_RATIO     1.10	/* keep the default within 10% of the best */

struct advice_input {
	const struct method *forced_method;	/* --wal-sync-method, or NULL */
	const struct method *platform_default;	/* PostgreSQL's default here */
	/* The method that flushes the drive's cache where plain fsync does
	 * not (fsync_writethrough on macOS), or NULL where there is none. */
	const struct method *writethrough;
};

/* The advice from the rows: the method, and commit_delay by the rule;
 * struct advice is in probe/result.h, with the rest of a target's result. */
void advice_compute(const struct row_result *rows, size_t n,
    const struct advice_input *in, struct advice *out);

/* half of mean_usecs, rounded to whole microseconds, clamped to 0..100000 */
long advice_commit_delay(double mean_usecs);

/* What the group-commit experiment starts from: the method it flushes with
 * (--wal-sync-method, else the one advised from the rows so far, else the
 * platform default), the flush interval the rule would halve (the basis
 * row's mean; 0 when no row can be the basis) and whether that row is a
 * direct one (so that the experiment writes as the row did). */
const struct method *advice_flush_basis(const struct row_result *rows, size_t n,
    const struct advice_input *in, double *rule_mean_usecs, bool *direct);

/* Then, when -t group ran: commit_delay and commit_siblings from the
 * experiment's cells instead (advice_group.c). */
void advice_from_group(const struct group_result *g, struct advice *a);

/* The candidate row of group g for method m and direct-ness, or NULL. */
const struct row_result *advice_find_row(const struct row_result *rows, size_t n,
    enum group g, const struct method *m, bool direct);

/* Add a warning (ignored past ADVICE_MAX_WARNINGS). */
void advice_warn(struct advice *a, const char *code, const char *fmt, ...);

#endif
