/* row.c: building rows and deriving their figures, so that every report
 * and rule reads the same numbers. */
#include "config.h"

#include "probe/row.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/platform.h"
#include "probe/precision.h"

void
row_spec_method(struct row_spec *spec, enum group group, const struct method *m,
    bool direct, unsigned writes, size_t bytes)
{
	memset(spec, 0, sizeof *spec);
	spec->group = group;
	snprintf(spec->name, sizeof spec->name, "%s%s", m->name, direct ? " (direct)" : "");
	spec->method = m;
	spec->io = m;
	spec->kind = OP_WRITE_SYNC;
	spec->direct = direct;
	spec->writes_per_op = writes;
	spec->write_bytes = bytes;
}

void
row_init(struct row_result *res, const struct row_spec *spec)
{
	memset(res, 0, sizeof *res);
	row_init_zeroed(res, spec);
}

void
row_init_zeroed(struct row_result *res, const struct row_spec *spec)
{
	res->spec = *spec;
	res->status = ROW_OK;
	res->why = ROW_WHY_NONE;
	res->splits = row_splits(spec);
	stats_init_zeroed(&res->total);
	stats_init_zeroed(&res->write);
	stats_init_zeroed(&res->sync);
	res->batch_ops = 1;
	res->mean_ci95_usecs = -1.0;
}

void
row_fail(struct row_result *res, enum row_why why, const char *fmt, ...)
{
	va_list ap;

	res->why = why;
	res->status = why == ROW_WHY_NONE ? ROW_OK :
	    why == ROW_WHY_IO_ERROR ? ROW_ERROR : ROW_UNSUPPORTED;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof res->reason, fmt, ap);
	va_end(ap);
}

bool
row_splits(const struct row_spec *spec)
{
	return spec->io != NULL && method_syncs_apart(spec->io);
}

double
row_usecs(double ns)
{
	return ns / (double)NSEC_PER_USEC;
}

double
row_per_sec(uint64_t count, uint64_t ns)
{
	return ns ? (double)count * (double)NSEC_PER_SEC / (double)ns : 0.0;
}

double
row_secs(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

void
row_record_batch(struct row_result *res, uint64_t batch_ns, uint64_t n)
{
	/* No write/sync split: a batch holds many operations' calls. */
	stats_add_batch(&res->total, batch_ns, n);
}

int
row_reserve_slices(struct row_result *res, unsigned n)
{
	struct slice *grown;

	if (n <= res->slices_cap)
		return 0;
	grown = res->slices == NULL ? calloc(n, sizeof *grown) :
	    realloc(res->slices, n * sizeof *grown);
	if (grown == NULL)
		return -1;
	res->slices = grown;
	res->slices_cap = n;
	return 0;
}

int
row_add_slice(struct row_result *res, uint64_t ops, uint64_t ns)
{
	if (res->nslices == res->slices_cap &&
	    row_reserve_slices(res, res->slices_cap ? 2 * res->slices_cap : 8) == -1)
		return -1;
	res->slices[res->nslices++] = (struct slice){ ops, ns };
	return 0;
}

void
row_finish(struct row_result *res)
{
	double half;

	res->ops_per_sec = row_per_sec(res->ops, res->elapsed_ns);
	/* Rounded to the nanosecond, as the JSON prints it, so that advice
	 * computed from it matches the printed figure exactly. */
	res->mean_usecs = row_usecs(round(stats_mean_ns(&res->total)));
	half = precision_ci95_ns(res->slices, res->nslices);
	res->mean_ci95_usecs = half >= 0.0 ? row_usecs(half) : -1.0;
}

bool
row_is_candidate(const struct row_result *res)
{
	return res->spec.method != NULL && res->status == ROW_OK && res->ops > 0;
}
