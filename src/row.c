/* row.c: building rows and deriving their figures, so that every report
 * and rule reads the same numbers. */
#include "config.h"

#include "row.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "platform.h"

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
	res->spec = *spec;
	res->status = ROW_OK;
	res->why = ROW_WHY_NONE;
	stats_init(&res->total);
	stats_init(&res->write);
	stats_init(&res->sync);
	res->splits = row_splits(spec);
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
row_finish(struct row_result *res)
{
	res->ops_per_sec = row_per_sec(res->ops, res->elapsed_ns);
	/* Rounded to the nanosecond, as the JSON prints it, so that advice
	 * computed from it matches the printed figure exactly. */
	res->mean_usecs = row_usecs(round(stats_mean_ns(&res->total)));
}

bool
row_is_candidate(const struct row_result *res)
{
	return res->spec.method != NULL && res->status == ROW_OK && res->ops > 0;
}
