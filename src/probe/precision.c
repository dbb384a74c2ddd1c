/* precision.c: the confidence interval of a row's mean and the adaptive
 * stopping rule. */
#include "config.h"

#include "probe/precision.h"

#include <math.h>

/* Student's t for a two-sided interval: its quantiles for 1..30 degrees
 * of freedom, then steps, each the quantile at its own degrees of freedom
 * (df 0: every larger count, the normal's). */
struct t_table {
	double first[30];
	struct { unsigned df; double t; } beyond[4];
};

/* 95% (the 0.975 quantile); from 31 to 60, 60's value (2.021 at 40). */
static const struct t_table t95 = {
	{ 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	  2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 },
	{ { 60, 2.000 }, { 120, 1.980 }, { 0, 1.960 }, { 0, 1.960 } },
};

/* 99% (the 0.995 quantile); from 31 to 40, 40's value (2.744 at 31). */
static const struct t_table t99 = {
	{ 63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
	  3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
	  2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750 },
	{ { 40, 2.704 }, { 60, 2.660 }, { 120, 2.617 }, { 0, 2.576 } },
};

static double
t_quantile(const struct t_table *t, unsigned df)
{
	size_t i;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t->first[df - 1];
	for (i = 0; t->beyond[i].df != 0 && df > t->beyond[i].df; i++)
		continue;
	return t->beyond[i].t;
}

double
precision_t95(unsigned df)
{
	return t_quantile(&t95, df);
}

double
precision_t99(unsigned df)
{
	return t_quantile(&t99, df);
}

double
precision_ci95_ns(const struct slice *s, unsigned n)
{
	double ops = 0.0, ns = 0.0, ratio, sq = 0.0, mean_ops;
	unsigned i, k = 0;

	for (i = 0; i < n; i++) {
		if (s[i].ops == 0)
			continue;
		ops += (double)s[i].ops;
		ns += (double)s[i].ns;
		k++;
	}
	if (k < 2)
		return -1.0;
	ratio = ns / ops;
	mean_ops = ops / (double)k;
	/* Var(R) ~ sum (ns_i - R ops_i)^2 / (k (k-1) mean_ops^2): the
	 * ratio estimator's variance, which weighs slices by their size. */
	for (i = 0; i < n; i++) {
		double d;

		if (s[i].ops == 0)
			continue;
		d = (double)s[i].ns - ratio * (double)s[i].ops;
		sq += d * d;
	}
	return precision_t95(k - 1) * sqrt(sq / ((double)k * (double)(k - 1))) / mean_ops;
}

enum precision_state
precision_check(uint64_t ops, uint64_t elapsed_ns, const struct slice *s, unsigned n,
    const struct precision_limits *lim)
{
	double half, mean;

	if (elapsed_ns >= lim->hard_ns)
		return PRECISION_CAPPED;
	if (n < lim->min_slices || ops < lim->min_ops)
		return PRECISION_MORE;
	half = precision_ci95_ns(s, n);
	mean = ops ? (double)elapsed_ns / (double)ops : 0.0;
	if (half >= 0.0 && mean > 0.0 && half <= lim->target * mean)
		return PRECISION_MET;
	if (elapsed_ns >= lim->ceiling_ns)
		return PRECISION_CAPPED;
	return PRECISION_MORE;
}
