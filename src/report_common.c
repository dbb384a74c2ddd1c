/* report_common.c: figures every report derives the same way. */
#include "config.h"

#include "report.h"

double
report_usecs(double ns)
{
	return ns / 1000.0;
}

double
report_ops_per_sec(const struct row_result *row)
{
	if (row->elapsed_ns == 0)
		return 0.0;
	return (double)row->ops * 1e9 / (double)row->elapsed_ns;
}
