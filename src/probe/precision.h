/* precision.h: how well a row's mean is known, from its slices, and when an
 * adaptive row has measured enough. Pure functions of slices and counts
 * (they know nothing of rows): the unit tests feed them made-up slices.
 *
 * The mean's 95% confidence interval comes from the slices (batch means),
 * not from the spread of single operations: slices are interleaved with
 * the other rows' in time, so drift and bursts that last longer than one
 * operation show in it, as they do from run to run. */
#ifndef SYNCPROBE_PRECISION_H
#define SYNCPROBE_PRECISION_H

#include <stdbool.h>
#include <stdint.h>

#include "util/units.h"


/* The adaptive default (no -s, no -n): the rule is the man page's HOW LONG
 * EACH TEST RUNS; bench/README's cv.sh figures, and that file's history,
 * say how these numbers were chosen. */
#define PRECISION_TARGET            0.02	/* the mean to within +-2% (95%) */
#define ADAPTIVE_SLICE_NS           20000000ULL	/* one round's share of a row */
#define ADAPTIVE_MIN_OPS            200u	/* p99 is then the 198th of 200 */
#define ADAPTIVE_BASIS_CEILING_NS   NSEC_PER_SEC	/* one-write rows the advice reads */
#define ADAPTIVE_ADVICE_CEILING_NS  500000000ULL	/* two-write rows it reads */
#define ADAPTIVE_ADVICE_CAP_NS      3000000000ULL	/* ...either, still short of min ops */
#define ADAPTIVE_OTHER_CEILING_NS   150000000ULL	/* every other row */
#define ADAPTIVE_OTHER_CAP_NS       500000000ULL

/* One round's share of a row: its operations and their time. */
struct slice {
	uint64_t ops;
	uint64_t ns;
};

/* When an adaptive row stops. */
struct precision_limits {
	unsigned min_slices;	/* at least this many slices (--rounds) */
	uint64_t min_ops;	/* and operations: p99 an observed rank */
	double target;		/* stop once the CI half-width is within this share of the mean */
	uint64_t ceiling_ns;	/* stop here even when less precise, given min_ops */
	uint64_t hard_ns;	/* stop here whatever: the cap */
};

enum precision_state {
	PRECISION_MORE,		/* keep measuring */
	PRECISION_MET,		/* the mean is known to within the target */
	PRECISION_CAPPED	/* time is up before the target was met */
};

/* The half-width of the 95% confidence interval of the mean operation time
 * over n slices, in nanoseconds (a ratio estimator: slices may hold
 * different numbers of operations). Returns -1 when fewer than two slices
 * ran operations. */
double precision_ci95_ns(const struct slice *s, unsigned n);

/* Student's t for a two-sided 95% interval with df degrees of freedom. */
double precision_t95(unsigned df);

/* And for a two-sided 99% interval. */
double precision_t99(unsigned df);

/* Whether a row that has run ops operations in elapsed_ns, in the n
 * slices s, is done. */
enum precision_state precision_check(uint64_t ops, uint64_t elapsed_ns, const struct slice *s,
    unsigned n, const struct precision_limits *lim);

#endif
