/* advice.h: configuration advice as pure functions of the measured rows. */
#ifndef SYNCPROBE_ADVICE_H
#define SYNCPROBE_ADVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/method.h"
#include "probe/row.h"
#include "advice/verdict.h"

struct group_result;

#define COMMIT_DELAY_MAX_USECS 100000L	/* PostgreSQL's upper bound */
#define DEFAULT_KEEP_RATIO     1.10	/* keep the default within 10% of the best */
#define ADVICE_TEXT_LEN        512
#define ADVICE_BRIEF_LEN       128
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
	/* The same in a few words, for "What to set" (settings.h). */
	char method_brief[ADVICE_BRIEF_LEN];
	bool direct_basis;		/* rested on direct rows (no buffered ones ran) */
	bool method_given;		/* --wal-sync-method named the server's method */

	bool have_delay;
	long commit_delay_usecs;
	const struct method *delay_method;	/* the method commit_delay rests on */
	/* The row the rule (half the flush interval) comes from; NULL when
	 * -t group ran without the one-write test: then the experiment's
	 * own flush at one committer is the basis. */
	const struct row_result *basis;
	double basis_mean_usecs;	/* the flush interval, to the nanosecond */
	char delay_reason[ADVICE_TEXT_LEN];
	long rule_delay_usecs;		/* the rule's commit_delay, whatever was advised */
	/* commit_delay and commit_siblings measured by -t group, rather than
	 * the rule and the server's default; then rule_reason says what the
	 * rule measured. */
	bool delay_measured;
	char rule_reason[ADVICE_TEXT_LEN];
	unsigned commit_siblings;
	char siblings_reason[ADVICE_TEXT_LEN];

	struct advice_warning warnings[ADVICE_MAX_WARNINGS];
	size_t nwarnings;

	/* Other systems' rules of thumb (verdict.h): -t etcd's. */
	struct verdict verdicts[VERDICT_MAX];
	size_t nverdicts;
};

/* The advice from the rows: the method, and commit_delay by the rule. */
void advice_compute(const struct row_result *rows, size_t n,
    const struct advice_input *in, struct advice *out);

/* half of mean_usecs, rounded to whole microseconds, clamped to 0..100000 */
long advice_commit_delay(double mean_usecs);

/* Whether the advice may read this row's figures: a method row of the one-
 * or two-write test, buffered (or direct, when only direct rows run). */
bool advice_reads_row(const struct row_spec *spec, bool direct_only);

/* What the group-commit experiment starts from: the method it flushes with
 * (--wal-sync-method, else the one advised from the rows so far, else the
 * platform default) and the flush interval the rule would halve (the
 * basis row's mean; 0 when no row can be the basis). */
const struct method *advice_flush_basis(const struct row_result *rows, size_t n,
    const struct advice_input *in, double *rule_mean_usecs);

/* Then, when -t group ran: commit_delay and commit_siblings from the
 * experiment's cells instead (advice_group.c). */
void advice_from_group(const struct group_result *g, struct advice *a);

/* The candidate row of group g for method m and direct-ness, or NULL. */
const struct row_result *advice_find_row(const struct row_result *rows, size_t n,
    enum group g, const struct method *m, bool direct);

/* Add a warning (ignored past ADVICE_MAX_WARNINGS). */
void advice_warn(struct advice *a, const char *code, const char *fmt, ...);

#endif
