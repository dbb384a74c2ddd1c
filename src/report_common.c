/* report_common.c: the table of report formats, and what every report
 * says the same way. */
#include "config.h"

#include "report.h"

#include <stdio.h>

const struct report_format report_formats[] = {
	{ "text", report_text, false },
	{ "json", report_json, false },
	{ "conf", report_conf, true },
};

const struct name_list report_format_names =
    NAME_LIST(report_formats, struct report_format, name);

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
