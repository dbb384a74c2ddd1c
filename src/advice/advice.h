/* advice.h: configuration advice as pure functions of the measured rows. */
#ifndef SYNCPROBE_ADVICE_H
#define SYNCPROBE_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/method.h"
#include "probe/row.h"
#include "util/units.h"
#include "util/postgres.h"

#include "group/group_result.h"

#define DEFAULT_KEEP_RATIO     1.10	/* keep the default within 10% of the best */

#define ADVICE_TEXT_LEN        512
#define ADVICE_MAX_WARNINGS    16
#define VERDICT_MAX            8

/* Another system's rule of thumb, judged (advice/verdict.h). */
enum verdict_result {
	VERDICT_PASS,		/* under the limit */
	VERDICT_FAIL,		/* at or over it */
	VERDICT_TOO_FEW,	/* too few operations for the percentile */
	/* the durability doubt: a warning says the flushes may not be
	 * durable, whatever their speed (caution names it) */
	VERDICT_UNPROVEN,
	VERDICT_MEASURED,	/* a figure with no limit (p99.9) */
	VERDICT_NOT_RUN,	/* the row it reads did not run */
	/* the durability doubt: no warning casts one (a timing cannot
	 * prove a flush durable: syncprobe durability can) */
	VERDICT_NO_DOUBT
};

struct verdict {
	const char *code;		/* stable: what is judged */
	enum verdict_result result;
	double value_usecs;		/* the figure; -1 when there is none */
	double limit_usecs;		/* 0: no limit */
	uint64_t ops;			/* operations the figure is of */
	uint64_t min_ops;		/* fewest it needs */
	const char *row;		/* the row it reads, or NULL */
	const char *sync_call;		/* that row's sync ("fdatasync") */
	uint64_t pace_per_sec;		/* that row's rate */
	uint64_t missed_starts;		/* that row's missed starts (pace.h) */
	const char *caution;		/* the warning code behind UNPROVEN, or NULL */
};

/* The warnings, one code each: stable, since scripts match on them
 * (advice/warnings.h names them). */
enum warning_code {
	WARNING_IMPLAUSIBLE_FLUSH,
	WARNING_NONDURABLE_FS,
	WARNING_NOBARRIER,
	WARNING_VOLATILE_OVERLAY,
	WARNING_ROTATIONAL_TOO_FAST,
	WARNING_WRITEBACK_CACHE,
	WARNING_DIRECT_REFUSED,
	WARNING_FEW_SAMPLES,
	WARNING_SLEEP_OVERSHOOT,
	/* syncprobe watch's (src/watch/watch_result.c) */
	WARNING_STALL,
	WARNING_STALL_OVER_20S,
	WARNING_PACED_SLOWER,
	WARNING_COUNT
};

#define WARNING_NAMES_MAX 4	/* the rows or devices a warning keeps, the first ones */
#define WARNING_WHAT_LEN  96	/* a row's reason beyond what a message shows is cut */

/* The advice (advice/advice.c), the warnings (advice/warnings.c) and the
 * verdicts (advice/verdict.c). A warning is its code and the facts
 * behind it; the report writes its message (report/advice_words.c).
 * Which fields a code fills is said at its rule in warnings.c. Names are
 * copied, never pointed to: the advice outlives the rows it read. */
struct advice_warning {
	enum warning_code id;
	const char *code;		/* warning_codes[id]: scripts match on it */
	char row[ROW_NAME_LEN];		/* the row whose figures it reads */
	char names[WARNING_NAMES_MAX][ROW_NAME_LEN];	/* the rows or devices it names */
	size_t count;			/* how many rows or devices in all */
	char what[WARNING_WHAT_LEN];	/* a filesystem, a mount option, a row's reason */
	bool flag;			/* a code's yes/no (its rule says which) */
	uint64_t bytes;			/* a write + sync's size */
	uint64_t ops;			/* operations a figure rests on */
	double per_sec;			/* flushes (or paced commits) a second */
	double usecs;			/* the figure it is about */
	double other_usecs;		/* the figure it is compared with */
	double p99_usecs;
	double slack_usecs;		/* the timer slack; < 0 unknown */
	long delay_usecs;		/* the commit_delay it is about */
};

/* The answer at one client count of -t group or syncprobe pgbench: of
 * the delays that beat 0 beyond noise there (after deciding), the longest
 * within noise of the one that beat it by the most, or 0 where none did,
 * and its figure against 0;
 * whether any delay lost to 0 beyond noise there. */
struct advice_count {
	unsigned clients;
	long commit_delay_usecs;
	double vs_zero_pct;
	bool any_worse;
};

/* Why wal_sync_method is what it is: the facts choose_method (advice.c)
 * judged, which the report puts in words (report/advice_words.c). */
enum method_choice {
	CHOICE_NONE_RAN,		/* no sync method ran in the one-write test */
	CHOICE_WRITETHROUGH,		/* F_FULLFSYNC exists: only it flushes the cache */
	CHOICE_DEFAULT_ONLY,		/* the default, the only method measured */
	CHOICE_DEFAULT_FASTEST,		/* the default, and the fastest */
	CHOICE_DEFAULT_WITHIN_MARGIN,	/* the default, its mean within the margin */
	CHOICE_DEFAULT_WITHIN_NOISE,	/* the default: the fastest not faster beyond noise */
	CHOICE_FASTEST,			/* the fastest, beyond the margin and the noise */
	CHOICE_FASTEST_UNCOMPARED,	/* the fastest; the default was not measured */
};

/* What a method's score was made of: the mean us of one write and, when
 * the two-write test ran, of two; score is what was compared (their sum). */
struct method_score {
	double one_usecs;
	double two_usecs;
	bool with_two;
	double score;
};

struct method_facts {
	enum method_choice choice;
	bool with_two;			/* the sums of one and two writes were compared */
	double margin_pct;		/* DEFAULT_KEEP_RATIO's margin, in % */
	const struct method *fastest;	/* NULL under CHOICE_NONE_RAN */
	struct method_score fastest_score;
	const struct method *platform_default;
	struct method_score default_score;	/* where the default was measured */
};

/* What commit_delay rests on (advice.c's rule, advice_group.c's cells). */
enum delay_basis {
	DELAY_NO_METHOD,	/* no one-write row to base it on */
	DELAY_METHOD_NOT_RUN,	/* method did not run in the one-write test */
	DELAY_RULE_ROW,		/* half of row's mean */
	DELAY_RULE_GROUP,	/* half of the experiment's flush at one committer */
	DELAY_NONE_BEAT_ZERO,	/* measured: no delay beat 0 beyond noise */
	DELAY_GAINS_LOST,	/* measured: what beat 0 (gain) is not held at more clients */
	DELAY_CHOSEN,		/* measured: the most above 0 where a delay beat it */
};

/* One cell of a delay against 0, as the advice's words quote it. */
struct advice_cell {
	unsigned clients;
	double vs_zero_pct;
	enum group_verdict vs_zero;
	bool never_slept;	/* ran as delay 0 did: its difference is noise */
};

/* Who measured the cells and where (for a measured basis). */
struct advice_measurer {
	bool on_server;		/* the server, through syncprobe pgbench: not -t group */
	const struct method *method;
	unsigned clients_lo, clients_hi;
};

struct delay_facts {
	enum delay_basis basis;
	const struct method *method;	/* DELAY_METHOD_NOT_RUN's */
	char row[ROW_NAME_LEN];		/* DELAY_RULE_ROW's row (a copy) */
	bool forced;			/* that row's method is --wal-sync-method's */
	double mean_usecs;		/* the flush the rule halves */
	/* The experiment was cut short by a signal: the rule stands. */
	bool cut_short;
	struct advice_measurer by;	/* the measured bases' */
	/* DELAY_GAINS_LOST: the first cell that beat 0; DELAY_CHOSEN: the
	 * chosen delay's at the client count it was chosen at. */
	long delay_usecs;
	unsigned clients;
	double vs_zero_pct;
	bool lost_above;	/* DELAY_CHOSEN: some other delay that beat 0 is not held higher */
	/* DELAY_CHOSEN: the chosen delay against 0 at every client count. */
	struct advice_cell cells[UNITS_MAX_LIST];
	size_t ncells;
};

/* Where the rule's value stands among the delays measured. */
enum rule_swept {
	RULE_NOT_SWEPT,		/* --commit-delays did not include it */
	RULE_IS_ZERO,		/* the same as no delay */
	RULE_NEAREST,		/* measured as the round value nearest it */
	RULE_EXACT,		/* measured itself */
};

/* What PostgreSQL's half rule measured, when -t group measured the delay. */
struct rule_facts {
	double basis_usecs;	/* the flush interval */
	bool basis_is_row;	/* the one-write row's mean, not one committer's */
	long rule_usecs;
	enum rule_swept swept;
	long measured_usecs;	/* RULE_NEAREST: the value measured for it */
	struct advice_cell cells[UNITS_MAX_LIST];	/* that value against 0 */
	size_t ncells;
};

enum siblings_basis {
	SIBLINGS_DEFAULT,	/* the server's default, -t group not run */
	SIBLINGS_NO_DELAY,	/* the default: it changes nothing with no delay */
	SIBLINGS_MEASURED,	/* the count below the lowest that gained */
};

struct siblings_facts {
	enum siblings_basis basis;
	unsigned siblings;
	unsigned experiment_siblings;	/* what the cells were measured with */
	/* SIBLINGS_MEASURED: the chosen delay's cells (delay_facts') from
	 * index from on, where it may apply. */
	size_t from;
};

struct advice {
	const struct method *wal_sync_method;	/* NULL when nothing could be advised */
	struct method_facts method_why;
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
	struct delay_facts delay_why;
	long rule_delay_usecs;		/* the rule's commit_delay, whatever was advised */
	/* commit_delay and commit_siblings measured by -t group, rather than
	 * the rule and the server's default; then rule_why says what the
	 * rule measured. */
	bool delay_measured;
	struct rule_facts rule_why;
	unsigned commit_siblings;
	struct siblings_facts siblings_why;
	/* Where the cells were measured (-t group, syncprobe pgbench): the
	 * answer at each client count, the advice above being the one pair
	 * not worse than 0 at any of them. */
	struct advice_count counts[UNITS_MAX_LIST];
	size_t ncounts;

	struct advice_warning warnings[ADVICE_MAX_WARNINGS];
	size_t nwarnings;

	/* Other systems' rules of thumb (verdict.h): -t etcd's. */
	struct verdict verdicts[VERDICT_MAX];
	size_t nverdicts;
};

struct advice_input {
	const struct method *forced_method;	/* --wal-sync-method, or NULL */
	const struct method *platform_default;	/* PostgreSQL's default here */
	/* The method that flushes the drive's cache where plain fsync does
	 * not (fsync_writethrough on macOS), or NULL where there is none. */
	const struct method *writethrough;
};

/* The advice from the rows: the method, and commit_delay by the rule. */
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


#endif
