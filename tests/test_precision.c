/* test_precision.c: the confidence interval of a row's mean from its
 * slices, and the adaptive stopping rule, on made-up slices. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probe/precision.h"
#include "probe/row.h"
#include "rows.h"
#include "tap.h"

#define MAX_SLICES 64

static struct row_result row;

/* A row whose slices each took ns[i] for ops[i] operations. */
static void
make_row(const uint64_t *ops, const uint64_t *ns, unsigned n)
{
	free(row.slices);
	memset(&row, 0, sizeof row);
	rows_add_slices(&row, ops, ns, n);
}

static void
test_t_table(void)
{
	ok(isinf(precision_t95(0)), "no degrees of freedom: no interval");
	is_near(precision_t95(1), 12.706, 1e-9, "t(1) = 12.706");
	is_near(precision_t95(4), 2.776, 1e-9, "t(4) = 2.776");
	is_near(precision_t95(30), 2.042, 1e-9, "t(30) = 2.042");
	ok(precision_t95(31) <= 2.042 && precision_t95(31) >= 1.96, "t(31) between t(30) and z");
	is_near(precision_t95(100000), 1.96, 1e-9, "large df: 1.96");
	ok(isinf(precision_t99(0)), "99%%, no degrees of freedom: no interval");
	is_near(precision_t99(1), 63.657, 1e-9, "99%%: t(1) = 63.657");
	is_near(precision_t99(19), 2.861, 1e-9, "99%%: t(19) = 2.861, 20 deciding rounds");
	is_near(precision_t99(30), 2.750, 1e-9, "99%%: t(30) = 2.750");
	ok(precision_t99(31) <= 2.750 && precision_t99(31) >= 2.576 &&
	    precision_t99(41) <= precision_t99(31), "99%%: from t(31) down towards z");
	is_near(precision_t99(100000), 2.576, 1e-9, "99%%, large df: 2.576");
	ok(precision_t99(19) > precision_t95(19), "99%% wider than 95%%");
}

static void
test_ci(void)
{
	static const uint64_t same_ops[] = { 100, 100, 100, 100 };
	static const uint64_t same_ns[] = { 10000, 10000, 10000, 10000 };
	static const uint64_t two_ops[] = { 100, 100 };
	static const uint64_t two_ns[] = { 9000, 11000 };
	static const uint64_t uneven_ops[] = { 100, 300 };
	static const uint64_t uneven_ns[] = { 10000, 30000 };
	static const uint64_t empty_ops[] = { 100, 0, 0 };
	static const uint64_t empty_ns[] = { 10000, 5, 7 };
	struct slice s[2] = { { 100, 9000 }, { 100, 11000 } };

	make_row(same_ops, same_ns, 4);
	is_near(precision_ci95_ns(row.slices, row.nslices) + 1.0, 1.0, 1e-12,
	    "equal slices: no spread, a zero interval");
	/* Slice means 90 and 110 ns: sd of the means 14.142, se 10, t(1). */
	make_row(two_ops, two_ns, 2);
	is_near(precision_ci95_ns(row.slices, row.nslices), 12.706 * 10.0, 1e-6,
	    "two slices of 90 and 110 ns: 12.706 * 10 ns");
	ok(precision_ci95_ns(s, 1) < 0.0, "one slice: unknown");
	/* Unequal sizes at the same rate: the ratio estimator sees no spread. */
	make_row(uneven_ops, uneven_ns, 2);
	is_near(precision_ci95_ns(row.slices, row.nslices) + 1.0, 1.0, 1e-12,
	    "slices of 100 and 300 ops at one rate: zero interval");
	make_row(empty_ops, empty_ns, 3);
	ok(precision_ci95_ns(row.slices, row.nslices) < 0.0,
	    "slices without operations do not count");
}

/* n slices of ops operations, alternating mean_ns +- spread. */
static void
make_steady(unsigned n, uint64_t ops, uint64_t mean_ns, uint64_t spread)
{
	uint64_t o[MAX_SLICES], t[MAX_SLICES];
	unsigned i;

	for (i = 0; i < n; i++) {
		o[i] = ops;
		t[i] = ops * (i % 2 ? mean_ns + spread : mean_ns - spread);
	}
	make_row(o, t, n);
}

static void
test_check(void)
{
	struct precision_limits lim = { 5, 200, 0.02, 600000000ULL, 3000000000ULL };

	make_steady(4, 100, 100000, 0);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_MORE, "4 slices < 5: more");
	make_steady(5, 30, 100000, 0);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_MORE, "150 ops < 200: more");
	make_steady(5, 100, 100000, 0);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_MET, "5 exact slices of 100 ops: met");
	make_steady(6, 100, 100000, 20000);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_MORE, "+-20%% slices in 60 ms: more");
	make_steady(60, 100, 100000, 20000);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_CAPPED,
	    "+-20%% slices until the 600 ms ceiling: capped");
	make_steady(20, 5, 25000000, 0);
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_MORE,
	    "a slow disk under the minimum ops keeps going past the ceiling");
	make_steady(24, 5, 25000000, 0);
	lim.hard_ns = 3000000000ULL;
	ok(precision_check(row.ops, row.elapsed_ns, row.slices, row.nslices, &lim) == PRECISION_CAPPED,
	    "...until the hard cap, however few its operations");
	free(row.slices);
	row.slices = NULL;
}

int
main(void)
{
	test_t_table();
	test_ci();
	test_check();
	return tap_done();
}
