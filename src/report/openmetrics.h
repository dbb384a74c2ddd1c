/* openmetrics.h: the pieces of the Prometheus text format that every
 * writer of it shares: a label value escaped, a sample's value. */
#ifndef SYNCPROBE_OPENMETRICS_H
#define SYNCPROBE_OPENMETRICS_H

#include <stdio.h>

/* A label value in quotes, escaped (\\, ", newline), with bytes that are
 * not UTF-8 as U+FFFD. */
void openmetrics_label_value(FILE *out, const char *v);

/* A sample's value and the end of its line: whole numbers, such as a
 * timestamp, in full; others to nine significant digits; NaN when not
 * finite. */
void openmetrics_value(FILE *out, double value);

#endif
