/* precision.c: the confidence interval of a row's mean and the adaptive
 * stopping rule. */
#include "config.h"

#include "probe/precision.h"

#include <math.h>

/* Student's t quantiles (0.975) for 1..30 degrees of freedom. */
static const double t975[30] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double
precision_t95(unsigned df)
{
	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t975[df - 1];
	if (df <= 60)
		return 2.000;	/* 2.021 at 40, 2.000 at 60 */
	if (df <= 120)
		return 1.980;
	return 1.960;
}

/* And (0.995) for 1..30 degrees of freedom. */
static const double t995[30] = {
	63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
	3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
	2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750,
};

double
precision_t99(unsigned df)
{
	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t995[df - 1];
	if (df <= 40)
		return 2.704;	/* 2.744 at 31 */
	if (df <= 60)
		return 2.660;
	if (df <= 120)
		return 2.617;
	return 2.576;
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
