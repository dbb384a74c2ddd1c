/* warnings.h: what the figures cannot say on their own — flushes too fast
 * to be durable, a volatile cache, a filesystem that forgets, too few
 * samples. Pure rules over the rows, the advice, where the target lives
 * and the measured sleep; each warning has a stable code. */
#ifndef SYNCPROBE_WARNINGS_H
#define SYNCPROBE_WARNINGS_H

#include <stddef.h>

#include "advice/advice.h"
#include "probe/row.h"
#include "probe/sleep.h"
#include "storage/storage.h"

#define WARN_MIN_FLUSH_USECS      10.0	/* nothing durable is faster */
#define WARN_MAX_ROTATIONS_PER_SEC 250.0	/* a 15,000 rpm disk turns 250 times a second */
#define WARN_MIN_BASIS_OPS        100u	/* fewer: the mean moves between runs */
#define WARN_SLEEP_OVERSHOOT      2.0	/* a real sleep over twice commit_delay */
/* A paced commit over twice as long as back to back: a flush after an
 * idle gap costs that much more (the probe's paced row, and watch). */
#define WARN_PACED_RATIO          2.0

/* Each code's name ("implausible_flush"), the one list of them: the man
 * page's WARNINGS and the tests are checked against it. */
extern const char *const warning_codes[WARNING_COUNT];

/* A new warning of a with code id, its facts zero, for its rule to
 * fill; NULL past ADVICE_MAX_WARNINGS (then it is left out). */
struct advice_warning *warnings_add(struct advice *a, enum warning_code id);

/* The first warning of a whose code is one of codes[0..n-1], or NULL. */
const struct advice_warning *warnings_find_first(const struct advice *a,
    const enum warning_code *codes, size_t n);

/* The first warning of a (codes warnings_compute set) that says the
 * figures cannot be of durable storage at all: flushes faster than
 * anything durable (implausible_flush), a filesystem in memory
 * (nondurable_fs), an overlay that skips every sync (volatile_overlay).
 * NULL when there is none. A cache that may be volatile (nobarrier,
 * rotational_too_fast, writeback_cache) is not such a warning: the
 * figures are durable where that cache is battery- or flash-backed. */
const struct advice_warning *warnings_not_durable(const struct advice *a);

/* Add to a->warnings (a->basis and a->commit_delay_usecs as advice_compute
 * set them) every rule that holds. st and sleep may be NULL (unknown). */
void warnings_compute(const struct row_result *rows, size_t n,
    const struct storage_info *st, const struct sleep_result *sleep,
    struct advice *a);

#endif
