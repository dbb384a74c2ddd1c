/* histogram.h: a row's latency distribution drawn in the terminal
 * (--histogram), and which rows get one. The drawing regroups the row's
 * fine histogram (stats.h) into a few log-spaced ranges from its min to its
 * max, so a long tail and a tight peak both show. */
#ifndef SYNCPROBE_HISTOGRAM_H
#define SYNCPROBE_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probe/options.h"
#include "probe/row.h"
#include "util/stats.h"

#define HISTOGRAM_MAX_LINES 10	/* ranges drawn for one row */
#define HISTOGRAM_MAX_BAR   40	/* the widest bar, in columns */
#define HISTOGRAM_ALL       "all"	/* --histogram without a list */

/* One range of the drawing: operations with lo_ns <= latency < hi_ns (the
 * last range also holds hi_ns, the row's max). */
struct histogram_range {
	uint64_t lo_ns;
	uint64_t hi_ns;
	uint64_t count;
	bool p50;	/* the median falls in this range */
	bool p99;
};

/* Regroup s into at most HISTOGRAM_MAX_LINES log-spaced ranges from its
 * min to its max; the count of ranges (0 when s is empty). Each range is
 * a run of whole stats buckets, so every count is exact for its range. */
size_t histogram_ranges(const struct stats *s, struct histogram_range *out);

/* Draw s under a row: one line per range, indented by indent, none longer
 * than width columns whatever the figures; nothing when s is empty. */
void histogram_draw(FILE *out, const struct stats *s, int indent, int width);

/* Whether --histogram's list (NULL: no histograms) picks the row. A list
 * is "all" or comma-separated method names (rows that measure that
 * wal_sync_method), group names (every row of the group) and row names as
 * printed ("fdatasync (direct)"). */
bool histogram_selects(const char *list, const struct row_spec *spec);

/* Whether every name in o->histogram picks a row of the run the options
 * plan; 0, or -1 with the reason in err. */
int histogram_check_rows(const struct options *o, char *err, size_t errlen);

#endif
