/* sidebyside.h: one group's rows with a block of columns (ops/sec and mean)
 * per target, or per saved run with syncprobe compare, within 80 columns: as many
 * blocks side by side as fit, the others in a table under it. A cell that
 * has no figures says n/a or error with a footnote number, and the
 * footnotes (the reasons) follow the table. */
#ifndef SYNCPROBE_SIDEBYSIDE_H
#define SYNCPROBE_SIDEBYSIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SBS_LINE_WIDTH 79	/* the longest line */
#define SBS_NAME_WIDTH 36	/* the row names, as in the one-target table */
#define SBS_COL_WIDTH  8	/* ops/sec, mean */
#define SBS_RATIO_WIDTH 7	/* "  1.02x", with a flag in its last column */

enum sbs_kind {
	SBS_FIGURES,
	SBS_NA,		/* could not run there: reason */
	SBS_ERROR,	/* an I/O error stopped the run there: reason */
	SBS_NONE	/* no such row there */
};

struct sbs_cell {
	enum sbs_kind kind;
	double ops_per_sec;
	double mean_usecs;
	const char *reason;	/* SBS_NA, SBS_ERROR: the footnote */
	bool have_ratio;	/* ops/sec against the first column's */
	double ratio;
	bool flagged;		/* a difference beyond the spread between rounds */
};

struct sbs_table {
	size_t nrows;
	size_t ncols;
	bool ratios;		/* the columns after the first have a ratio */
	const void *ctx;
	const char *(*row_name)(const void *ctx, size_t row);
	void (*head)(const void *ctx, size_t col, char *buf, size_t len);
	void (*cell)(const void *ctx, size_t row, size_t col, struct sbs_cell *cell);
	/* After each row's line, for the columns [first, last) of its block
	 * (histograms); NULL for nothing. */
	void (*after_row)(FILE *out, const void *ctx, size_t row, size_t first, size_t last);
};

/* The column heads and rows, block by block, then the footnotes. */
void sbs_print(FILE *out, const struct sbs_table *t);

/* How many columns from first on fit beside the row names. */
size_t sbs_fit(const struct sbs_table *t, size_t first);

#endif
