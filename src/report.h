/* report.h: the report writers. They read results; they never measure. */
#ifndef SYNCPROBE_REPORT_H
#define SYNCPROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "names.h"
#include "options.h"
#include "platform.h"
#include "run.h"

struct report {
	const struct options *options;
	const struct target_result *targets;
	size_t ntargets;
	time_t when;			/* when the run started */
	struct system_info system;	/* where it ran */
};

/* A report format, one table row each: -F NAME writes the report with
 * write(). A new format is one row of report_formats plus its writer. */
/* What a format is, for code that must decide on it (the durability
 * verifier writes text or JSON of its own). */
enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_CONF };

struct report_format {
	const char *name;
	void (*write)(FILE *out, const struct report *r);
	bool one_target;	/* settings for one server: refuse several targets */
	enum report_kind kind;
};

extern const struct report_format report_formats[];	/* the first is the default */
extern const struct name_list report_format_names;

void report_text(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);

/* One target only: a server has one set of settings. */
void report_conf(FILE *out, const struct report *r);

/* "ext4 (vda, write cache: write back)": where a target lives, in one line. */
void report_storage_summary(const struct storage_info *st, char *buf, size_t len);

/* "yes", "no" or "unknown" for a 1 / 0 / -1 fact. */
const char *report_tristate(int v);

#endif
