/* compare_formats.c: the ways syncprobe compare shows saved runs, one row
 * each (compare -F NAME), and finding one by name: as the probe's
 * report_formats, a table that names each writer, so that neither writer
 * names the other. */
#include "config.h"

#include "report/compare.h"

#include <stdio.h>

const struct compare_format compare_formats[] = {
	{ "text", compare_print },
	{ "svg", compare_svg },
};

const struct name_list compare_format_names =
    NAME_LIST(compare_formats, struct compare_format, name);

