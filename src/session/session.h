/* session.h: one run of the probe command: measure the targets one after
 * another (target/target.h: each measured, its experiment run, judged),
 * and write the report as it goes. */
#ifndef SYNCPROBE_SESSION_H
#define SYNCPROBE_SESSION_H

#include "probe/options.h"

struct report_format;	/* report/report.h */

/* The probe command's settings: what the probe measures and how, and how
 * its report is written, which is the report's concern, not the probe's. */
struct session_options {
	struct options probe;
	const struct report_format *format;	/* -F */
};

/* Run the probe as so says (so->probe.targets: at least one, already
 * checked); prints its errors and returns the exit status. Stopped by a
 * signal, it dies of it once the report is out. */
int session_run(const struct session_options *so);

#endif
