/* sidebyside.c: the side-by-side table of several targets or saved runs
 * (see sidebyside.h). The layout only: the callers say what each cell
 * holds. */
#include "config.h"

#include "report/sidebyside.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/wrap.h"

#define GAP           2		/* spaces before each column block */
#define STATUS_TEXT   24
#define FOOTNOTE_TEXT 1024

/* The distinct reasons of one table, numbered in order of appearance. */
struct footnotes {
	const char **text;
	size_t count;
};

static int
block_width(const struct sbs_table *t, size_t col)
{
	return GAP + 2 * SBS_COL_WIDTH + (t->ratios && col > 0 ? SBS_RATIO_WIDTH : 0);
}

size_t
sbs_fit(const struct sbs_table *t, size_t first)
{
	int used = SBS_NAME_WIDTH;
	size_t c;

	for (c = first; c < t->ncols; c++) {
		used += block_width(t, c);
		if (used > SBS_LINE_WIDTH && c > first)
			break;
	}
	return c - first;
}

/* The footnote number of reason, adding it if it is new. */
static size_t
footnote_of(struct footnotes *f, const char *reason)
{
	size_t i;

	for (i = 0; i < f->count; i++)
		if (strcmp(f->text[i], reason) == 0)
			return i + 1;
	f->text[f->count++] = reason;
	return f->count;
}

/* "1.02x", "12.3x", "151x", ">1e4x": at most five characters, so that a
 * space parts it from the mean before it. */
static void
ratio_text(double ratio, char *buf, size_t len)
{
	if (ratio < 9.995)
		snprintf(buf, len, "%.2fx", ratio);
	else if (ratio < 99.95)
		snprintf(buf, len, "%.1fx", ratio);
	else if (ratio < 9999.5)
		snprintf(buf, len, "%.0fx", ratio);
	else
		snprintf(buf, len, ">1e4x");
}

static void
put_cell(FILE *out, const struct sbs_table *t, size_t col, const struct sbs_cell *c,
    struct footnotes *f)
{
	char text[STATUS_TEXT];
	int len = 0;

	fprintf(out, "%*s", GAP, "");
	switch (c->kind) {
	case SBS_FIGURES:
		report_put_rate(out, SBS_COL_WIDTH, c->ops_per_sec);
		report_put_usecs(out, SBS_COL_WIDTH, c->mean_usecs);
		break;
	case SBS_NA:
	case SBS_ERROR:
		len = snprintf(text, sizeof text, "%s [%zu]", c->kind == SBS_NA ? "n/a" : "error",
		    footnote_of(f, c->reason ? c->reason : "no reason given"));
		/* A long status runs into the mean's column, which is empty. */
		fprintf(out, "%*s%*s", SBS_COL_WIDTH, text,
		    len > SBS_COL_WIDTH ? 2 * SBS_COL_WIDTH - len : SBS_COL_WIDTH, "");
		break;
	case SBS_NONE:
		fprintf(out, "%*s%*s", SBS_COL_WIDTH, "-", SBS_COL_WIDTH, "");
		break;
	}
	if (!t->ratios || col == 0)
		return;
	if (c->kind == SBS_FIGURES && c->have_ratio) {
		ratio_text(c->ratio, text, sizeof text);
		fprintf(out, "%*s%c", SBS_RATIO_WIDTH - 1, text, c->flagged ? '*' : ' ');
	} else {
		fprintf(out, "%*s", SBS_RATIO_WIDTH, "");
	}
}

/* Trailing spaces of a line are cut: blank cells at its end leave none. */
static void
end_line(FILE *out, char *line, size_t len)
{
	while (len > 0 && line[len - 1] == ' ')
		len--;
	fwrite(line, 1, len, out);
	fputc('\n', out);
}

static void
print_heads(FILE *out, const struct sbs_table *t, size_t first, size_t n)
{
	char head[64];
	size_t c;

	fprintf(out, "%-*s", SBS_NAME_WIDTH, "");
	for (c = first; c < first + n; c++) {
		t->head(t->ctx, c, head, sizeof head);
		fprintf(out, "%*s%*.*s", GAP, "", block_width(t, c) - GAP,
		    block_width(t, c) - GAP, head);
	}
	fputc('\n', out);
	fprintf(out, "%-*s", SBS_NAME_WIDTH, "");
	for (c = first; c < first + n; c++) {
		fprintf(out, "%*s%*s%*s", GAP, "", SBS_COL_WIDTH, "ops/sec", SBS_COL_WIDTH, "mean");
		if (t->ratios && c > 0)
			fprintf(out, "%*s", SBS_RATIO_WIDTH, "ratio");
	}
	fputc('\n', out);
}

static void
print_block(FILE *out, const struct sbs_table *t, size_t first, size_t n, struct footnotes *f)
{
	size_t r, c;

	print_heads(out, t, first, n);
	for (r = 0; r < t->nrows; r++) {
		char *line = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&line, &len);

		if (mem == NULL)
			mem = out;	/* no memory: trailing blanks stay */
		/* A name that does not fit (from a saved report) is cut. */
		fprintf(mem, "%-*.*s", SBS_NAME_WIDTH, SBS_NAME_WIDTH - 1, t->row_name(t->ctx, r));
		for (c = first; c < first + n; c++) {
			struct sbs_cell cell;

			memset(&cell, 0, sizeof cell);
			t->cell(t->ctx, r, c, &cell);
			put_cell(mem, t, c, &cell, f);
		}
		if (mem != out && fclose(mem) == 0)
			end_line(out, line, len);
		else if (mem == out)
			fputc('\n', out);
		free(line);
		if (t->after_row != NULL)
			t->after_row(out, t->ctx, r, first, first + n);
	}
}

static void
print_footnotes(FILE *out, const struct footnotes *f)
{
	char text[FOOTNOTE_TEXT];
	size_t i;

	for (i = 0; i < f->count; i++) {
		snprintf(text, sizeof text, "[%zu] %s", i + 1, f->text[i]);
		wrap_print(out, 2, 6, SBS_LINE_WIDTH, text, false);
	}
}

void
sbs_print(FILE *out, const struct sbs_table *t)
{
	struct footnotes f = { NULL, 0 };
	size_t first = 0, n;

	f.text = calloc(t->nrows * t->ncols + 1, sizeof *f.text);
	if (f.text == NULL)
		return;
	while (first < t->ncols) {
		n = sbs_fit(t, first);
		if (first > 0)
			fputc('\n', out);
		print_block(out, t, first, n, &f);
		first += n;
	}
	print_footnotes(out, &f);
	free(f.text);
}
