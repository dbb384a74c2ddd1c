/* report_formats.c: the report formats, one row each (-F NAME), and
 * finding one by name; syncprobe pgbench's likewise. The table names each writer; the writers share
 * report_common.c, which names none of them. */
#include "config.h"

#include "report/report.h"

#include <stdio.h>

#include "report/report_pgbench.h"
#include "report/report_pgbench_svg.h"
#include "util/names.h"

const struct report_format report_formats[] = {
	{ REPORT_NAME_TEXT, report_text, false, REPORT_TEXT, &report_text_stream },
	{ REPORT_NAME_JSON, report_json, false, REPORT_JSON, NULL },
	{ "conf", report_conf, true, REPORT_CONF, NULL },
	{ REPORT_NAME_OPENMETRICS, report_openmetrics, false, REPORT_OPENMETRICS, NULL },
	{ "svg", report_svg, false, REPORT_SVG, NULL },
};

const struct name_list report_format_names =
    NAME_LIST(report_formats, struct report_format, name);

const struct pgbench_format pgbench_formats[] = {
	{ REPORT_NAME_TEXT, report_pgbench_text },
	{ REPORT_NAME_JSON, report_pgbench_json },
	{ "conf", report_pgbench_conf },
	{ "svg", report_pgbench_svg },
};

const struct name_list pgbench_format_names =
    NAME_LIST(pgbench_formats, struct pgbench_format, name);

const struct report_format *
report_format_default(void)
{
	return &report_formats[0];
}

int
report_format_parse(const char *s, const struct report_format **out, char *err, size_t errlen)
{
	int i = names_choose(&report_format_names, s, err, errlen);

	if (i < 0)
		return -1;
	*out = &report_formats[i];
	return 0;
}
