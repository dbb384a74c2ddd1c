/* report_common.c: figures every report derives the same way. */
#include "config.h"

#include "report.h"

#include <stdio.h>

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

void
report_storage_summary(const struct storage_info *st, char *buf, size_t len)
{
	const struct storage_device *d = &st->device;
	const char *fs = st->have_filesystem ? st->filesystem : "unknown filesystem";

	if (!st->have_device) {
		snprintf(buf, len, "%s (no block device)", fs);
		return;
	}
	snprintf(buf, len, "%s (%s%s%s, write cache: %s)", fs, d->layers[0] ? d->layers : d->name,
	    d->have_model ? " " : "", d->have_model ? d->model : "",
	    d->have_write_cache ? d->write_cache : "unknown");
}

const char *
report_tristate(int v)
{
	return v < 0 ? "unknown" : v ? "yes" : "no";
}
