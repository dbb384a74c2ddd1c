/* watch.h: syncprobe watch, a steady commit load over time. One
 * write-then-sync operation like a commit, issued at a steady rate until
 * --for elapses or a stop signal, on the probe's safe test file: a line per
 * interval, stalls as they happen, and a summary that sets the paced
 * figures beside a back-to-back burst of the same operation. */
#ifndef SYNCPROBE_WATCH_H
#define SYNCPROBE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/method.h"
#include "probe/options.h"
#include "util/units.h"
#include "util/status.h"
#include "watch/watch_report.h"

#define WATCH_DEFAULT_RATE        50u	/* a second: OpenShift's etcd figure */
#define WATCH_MAX_RATE            100000u
#define WATCH_DEFAULT_INTERVAL_NS (10ULL * NSEC_PER_SEC)
#define WATCH_MIN_INTERVAL_NS     1000000ULL	/* 1 ms */
/* The longest --for: a week, so that one run spans a weekend's quiet and
 * a weekly job (systemd's fstrim.timer, a weekly backup or RAID check),
 * not just the burst credits and cache effects of a few hours. Nothing
 * grows with the length: at --rate 100000 and --interval 1ms a week is
 * 6e10 slots and 6e8 intervals, far from 2^64 in every counter, and the
 * plot merges its points past WATCH_PLOT_POINTS. */
#define WATCH_MAX_FOR_NS          (7ULL * 24 * 3600 * NSEC_PER_SEC)
#define WATCH_DEFAULT_STALL_NS    NSEC_PER_SEC	/* 1 s */
/* The back-to-back burst at the start, of the method watched: this long. */
#define WATCH_BURST_NS            200000000ULL	/* 0.2 s */

struct watch_options {
	const char *dir;
	const struct method *method;	/* -m, or NULL: the server's default */
	size_t block_bytes;
	uint64_t file_bytes;
	enum pattern pattern;
	uint64_t rate;			/* operations a second; 0: back to back */
	uint64_t for_ns;		/* 0: until a stop signal */
	uint64_t interval_ns;
	uint64_t stall_ns;
	const struct watch_format *format;	/* -F: watch_report.h */
	/* --textfile: the live metrics, replaced after every interval; NULL:
	 * none. */
	const char *textfile;
	/* --svg: the picture of the run, written at its end; NULL: none. */
	const char *svg;
	/* The plot's width in columns; 0: the terminal's when stdout is
	 * one, else WATCH_PLOT_WIDTH. */
	int plot_width;
};

void watch_defaults(struct watch_options *o);

/* "50" or "max" (0): operations a second, 1..WATCH_MAX_RATE. */
int watch_parse_rate(const char *s, uint64_t *out, char *err, size_t errlen);

/* Run the load on o->dir, writing to out. STATUS_OK (a stop signal ends
 * the run early and it is still reported: cleanup_die() afterwards);
 * STATUS_USAGE when the directory cannot be used, STATUS_IO when an I/O
 * error stopped the run (what was measured is still reported), each with
 * its one line on stderr. */
enum exit_status watch_run(const struct watch_options *o, FILE *out);

#endif
