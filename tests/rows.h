/* rows.h: the one way the unit tests make a measured row, as the probe
 * makes it: operations recorded with row_record (the k-th taking
 * op_ns(k) nanoseconds, its write a 1/write_div share of it), or slices
 * added with row_add_slice; the caller then sets what its case needs and
 * calls row_finish. Static functions, like tap.h: each test includes it. */
#ifndef SYNCPROBE_TEST_ROWS_H
#define SYNCPROBE_TEST_ROWS_H

#include <stdint.h>

#include "probe/row.h"

/* The length of operation k, in nanoseconds. */
typedef uint64_t rows_op_ns(uint64_t k, const void *ctx);

/* Record ops operations into r back to back from time 0, the k-th taking
 * op_ns(k, ctx), its write ending 1/write_div of the way (0: at once);
 * r->ops and r->elapsed_ns become their count and total. */
static void __attribute__((unused))
rows_record(struct row_result *r, uint64_t ops, rows_op_ns *op_ns, const void *ctx,
    uint64_t write_div)
{
	uint64_t k, t = 0;

	for (k = 0; k < ops; k++) {
		uint64_t ns = op_ns(k, ctx);

		row_record(r, t, write_div ? t + ns / write_div : t, t + ns);
		t += ns;
	}
	r->ops = ops;
	r->elapsed_ns = r->total.sum_ns;
}

/* Every operation the same: *(const uint64_t *)ctx nanoseconds. */
static uint64_t __attribute__((unused))
rows_constant_ns(uint64_t k, const void *ctx)
{
	(void)k;
	return *(const uint64_t *)ctx;
}

/* Add n slices to r, the i-th of ops[i] operations in ns[i], and count
 * them in r->ops and r->elapsed_ns. */
static void __attribute__((unused))
rows_add_slices(struct row_result *r, const uint64_t *ops, const uint64_t *ns, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		row_add_slice(r, ops[i], ns[i]);
		r->ops += ops[i];
		r->elapsed_ns += ns[i];
	}
}

#endif
