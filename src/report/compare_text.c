/* compare_text.c: syncprobe compare's text: the runs' legend, then each
 * group's rows side by side (sidebyside.c, as several targets are), each
 * run's ratio to the first, the verdicts and the advice. */
#include "config.h"

#include "report/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sidebyside.h"
#include "util/escape.h"
#include "util/wrap.h"

#define LINE_LEN   1024
#define LINE_WIDTH SBS_LINE_WIDTH

struct tables {
	const struct compare_layout *l;
	size_t first;		/* the group being printed starts here */
};

static void
put_wrapped(FILE *out, int first, int rest, const char *text)
{
	wrap_print(out, first, rest, LINE_WIDTH, text, false);
}

static void
print_legend(FILE *out, const struct compare_run *runs, size_t n)
{
	char line[LINE_LEN];
	size_t r, t;

	for (r = 0; r < n; r++) {
		/* The file's name as typed, escaped like everything else. */
		char *file = escape_alloc(runs[r].file);
		const char *shown = file != NULL ? file : "?";

		compare_run_title(&runs[r], r, shown, line, sizeof line);
		put_wrapped(out, 0, 2, line);
		compare_run_facts(&runs[r], shown, line, sizeof line);
		put_wrapped(out, 2, 4, line);
		free(file);
		for (t = 0; t < runs[r].ntargets; t++) {
			compare_target_line(&runs[r], r, t, line, sizeof line);
			put_wrapped(out, 2, 4, line);
		}
	}
}

static const char *
tables_row_name(const void *ctx, size_t row)
{
	const struct tables *tb = ctx;

	return tb->l->keys[tb->first + row].name;
}

static void
tables_head(const void *ctx, size_t col, char *buf, size_t len)
{
	const struct tables *tb = ctx;

	compare_column_name(&tb->l->cols[col], buf, len);
}

static void
tables_cell(const void *ctx, size_t row, size_t col, struct sbs_cell *cell)
{
	const struct tables *tb = ctx;
	const struct compare_key *k = &tb->l->keys[tb->first + row];
	const struct compare_row *cr = compare_find_row(tb->l->cols[col].target, k);
	const struct compare_row *ref = compare_find_row(tb->l->cols[0].target, k);

	if (cr == NULL) {
		cell->kind = SBS_NONE;
		return;
	}
	if (!cr->have_figures) {
		cell->kind = strcmp(cr->status, "error") == 0 ? SBS_ERROR : SBS_NA;
		cell->reason = cr->reason ? cr->reason : cr->status;
		return;
	}
	cell->kind = SBS_FIGURES;
	cell->ops_per_sec = cr->ops_per_sec;
	cell->mean_usecs = cr->mean_usecs;
	if (col > 0)
		cell->have_ratio = compare_ratio(ref, cr, &cell->ratio, &cell->flagged);
}

static void
print_tables(FILE *out, struct tables *tb)
{
	const struct compare_layout *l = tb->l;
	size_t last;
	char title[LINE_LEN];

	tb->first = 0;
	while (tb->first < l->nkeys) {
		struct sbs_table t;

		for (last = tb->first; last < l->nkeys &&
		    strcmp(l->keys[last].group, l->keys[tb->first].group) == 0; last++)
			;
		compare_group_title(l, l->keys[tb->first].group, title, sizeof title);
		fputc('\n', out);
		put_wrapped(out, 0, 0, title);
		fprintf(out, "(figures in usecs per operation)\n");
		memset(&t, 0, sizeof t);
		t.nrows = last - tb->first;
		t.ncols = l->ncols;
		t.ratios = true;
		t.ctx = tb;
		t.row_name = tables_row_name;
		t.head = tables_head;
		t.cell = tables_cell;
		sbs_print(out, &t);
		tb->first = last;
	}
}

/* Each column's verdicts, named as the tables name the columns. */
static void
print_verdicts(FILE *out, const struct compare_layout *l)
{
	const struct compare_target **cols = calloc(l->ncols + 1, sizeof *cols);
	char (*names)[32] = calloc(l->ncols + 1, sizeof *names);
	const char **namep = calloc(l->ncols + 1, sizeof *namep);
	size_t c;

	if (cols != NULL && names != NULL && namep != NULL) {
		for (c = 0; c < l->ncols; c++) {
			cols[c] = l->cols[c].target;
			compare_column_name(&l->cols[c], names[c], sizeof names[c]);
			namep[c] = names[c];
		}
		compare_print_verdicts(out, cols, namep, l->ncols);
	}
	free(cols);
	free(names);
	free(namep);
}

static void
print_advice(FILE *out, const struct compare_layout *l)
{
	char line[LINE_LEN];
	size_t c, w;

	fprintf(out, "\nAdvice\n");
	for (c = 0; c < l->ncols; c++) {
		const struct compare_target *ct = l->cols[c].target;

		compare_advice_line(&l->cols[c], line, sizeof line);
		put_wrapped(out, 2, 4, line);
		for (w = 0; w < ct->nwarnings; w++) {
			snprintf(line, sizeof line, "warning [%s]: %s", ct->warnings[w].code,
			    ct->warnings[w].message);
			put_wrapped(out, 4, 6, line);
		}
		if (ct->error != NULL) {
			snprintf(line, sizeof line, "stopped by an error: %s", ct->error);
			put_wrapped(out, 4, 6, line);
		}
	}
}

void
compare_print(FILE *out, const struct compare_run *runs, size_t n)
{
	struct compare_layout l;
	struct tables tb = { &l, 0 };

	if (compare_layout_build(runs, n, &l) == 0) {
		fprintf(out, "syncprobe %s: %zu saved run%s side by side\n", PACKAGE_VERSION, n,
		    n == 1 ? "" : "s");
		print_legend(out, runs, n);
		if (l.ncols > 1)
			put_wrapped(out, 0, 0, "(ratio: ops/sec against the first column, higher "
			    "is faster; * where the difference is larger than the spread between "
			    "the two runs' rounds)");
		if (l.ncols > 0) {
			print_tables(out, &tb);
			print_verdicts(out, &l);
			print_advice(out, &l);
		}
	}
	compare_layout_free(&l);
}
