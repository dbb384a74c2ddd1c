/* openmetrics.h: the pieces of the Prometheus text format that every
 * writer of it shares (the probe's -F openmetrics, watch's summary and its
 * --textfile): a family's header, labels with their values escaped, a
 * sample's value. */
#ifndef SYNCPROBE_OPENMETRICS_H
#define SYNCPROBE_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

/* A label value in quotes, escaped (\\, ", newline), with bytes that are
 * not UTF-8 as U+FFFD. */
void openmetrics_label_value(FILE *out, const char *v);

/* A sample's value and the end of its line: whole numbers, such as a
 * timestamp, in full; others to nine significant digits; NaN when not
 * finite. */
void openmetrics_value(FILE *out, double value);

/* A family's HELP and TYPE lines, before its first sample. */
void openmetrics_family(FILE *out, const char *name, const char *type, const char *help);

/* One label of a sample, name="value" escaped: the first (first true)
 * opens the braces, the others follow a comma. */
void openmetrics_label(FILE *out, bool first, const char *name, const char *value);

/* The end of a sample: the braces closed when it has labels, its value
 * and the end of the line. */
void openmetrics_end_sample(FILE *out, bool labelled, double value);

#endif
