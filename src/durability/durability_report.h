/* durability_report.h: the verifier's report of a verdict, as text for
 * people and as one JSON document for scripts (keys in the man page,
 * DURABILITY). */
#ifndef SYNCPROBE_DURABILITY_REPORT_H
#define SYNCPROBE_DURABILITY_REPORT_H

#include <stdio.h>

#include "durability/durability_verdict.h"

void durability_report_text(FILE *out, const struct durability_verdict *v);
void durability_report_json(FILE *out, const struct durability_verdict *v);

/* durability verify's -F, one row a format, as the probe's report_formats:
 * its name and its writer. */
struct durability_format {
	const char *name;
	void (*write)(FILE *out, const struct durability_verdict *v);
};

extern const struct durability_format durability_formats[];	/* the first is the default */
extern const struct name_list durability_format_names;

#endif
