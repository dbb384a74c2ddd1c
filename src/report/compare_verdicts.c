/* compare_verdicts.c: syncprobe compare's table of the saved runs'
 * verdicts (see compare.h): a line a verdict code, a cell a column with
 * the figure judged, in ms as etcd's guidance states its limits, and the
 * result's stable code. As many columns side by side as fit 80 columns,
 * the others in blocks under them, as the row tables do. */
#include "config.h"

#include "report/compare.h"

#include <stdlib.h>
#include <string.h>

#include "report/sidebyside.h"
#include "util/strbuf.h"

#define GAP         2		/* spaces before each cell */
#define CODE_WIDTH  28		/* at most, for the codes' column */
#define VALUE_WIDTH 12		/* at most, for a figure */
#define RESULT_WIDTH 20		/* at most, for a result */
#define NO_FIGURE   "-"

struct widths {
	int code, value, result;
};

/* The distinct codes of every column, in the order they first appear;
 * their count. codes holds room for every verdict. */
static size_t
collect_codes(const struct compare_target *const *cols, size_t n, const char **codes)
{
	size_t c, v, k, count = 0;

	for (c = 0; c < n; c++)
		for (v = 0; v < cols[c]->nverdicts; v++) {
			const char *code = cols[c]->verdicts[v].code;

			for (k = 0; k < count && strcmp(codes[k], code) != 0; k++)
				;
			if (k == count)
				codes[count++] = code;
		}
	return count;
}

static const struct compare_verdict *
find_verdict(const struct compare_target *ct, const char *code)
{
	size_t v;

	for (v = 0; v < ct->nverdicts; v++)
		if (strcmp(ct->verdicts[v].code, code) == 0)
			return &ct->verdicts[v];
	return NULL;
}

/* The figure in ms: two decimals, shorter (e-notation) where wide. */
static void
value_text(const struct compare_verdict *v, char *buf, size_t len)
{
	if (!v->have_value)
		snprintf(buf, len, NO_FIGURE);
	else
		units_format_latency(v->value_usecs, LATENCY_MS_FIGURE, buf, len);
}

static int
min_int(int a, int b)
{
	return a < b ? a : b;
}

static void
measure_widths(const struct compare_target *const *cols, const char *const *names, size_t n,
    const char **codes, size_t ncodes, struct widths *w)
{
	char value[64];
	size_t c, k;

	w->code = 0;
	w->value = (int)strlen(NO_FIGURE);
	w->result = 0;
	for (k = 0; k < ncodes; k++)
		w->code = min_int(CODE_WIDTH, w->code > (int)strlen(codes[k]) ? w->code :
		    (int)strlen(codes[k]));
	for (c = 0; c < n; c++)
		for (k = 0; k < ncodes; k++) {
			const struct compare_verdict *v = find_verdict(cols[c], codes[k]);

			if (v == NULL)
				continue;
			value_text(v, value, sizeof value);
			w->value = min_int(VALUE_WIDTH, w->value > (int)strlen(value) ? w->value :
			    (int)strlen(value));
			w->result = min_int(RESULT_WIDTH, w->result > (int)strlen(v->result) ?
			    w->result : (int)strlen(v->result));
		}
	/* A column's name must fit over its cell too. */
	for (c = 0; c < n; c++)
		if ((int)strlen(names[c]) > w->value + 1 + w->result)
			w->result = (int)strlen(names[c]) - w->value - 1;
}

/* Trailing spaces of a line are cut: a run without a verdict at the end
 * leaves none. */
static void
end_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* Columns [first, last): the heads, then a line a code. */
static void
print_block(FILE *out, const struct compare_target *const *cols, const char *const *names,
    size_t first, size_t last, const char **codes, size_t ncodes, const struct widths *w)
{
	char line[SBS_LINE_WIDTH * 2], value[64];
	int cell = w->value + 1 + w->result;
	struct strbuf b;
	size_t c, k;

	strbuf_init(&b, line, sizeof line);
	strbuf_add(&b, "%-*s", w->code, "");
	for (c = first; c < last; c++)
		strbuf_add(&b, "%*s%-*s", GAP, "", cell, names[c]);
	end_line(out, line);
	for (k = 0; k < ncodes; k++) {
		/* A code that does not fit (from a saved report) is cut. */
		strbuf_init(&b, line, sizeof line);
		strbuf_add(&b, "%-*.*s", w->code, w->code, codes[k]);
		for (c = first; c < last; c++) {
			const struct compare_verdict *v = find_verdict(cols[c], codes[k]);

			if (v == NULL) {
				strbuf_add(&b, "%*s%*s%*s", GAP, "", w->value, NO_FIGURE,
				    w->result + 1, "");
				continue;
			}
			value_text(v, value, sizeof value);
			strbuf_add(&b, "%*s%*.*s %-*.*s", GAP, "", w->value, w->value, value,
			    w->result, w->result, v->result);
		}
		end_line(out, line);
	}
}

void
compare_print_verdicts(FILE *out, const struct compare_target *const *cols,
    const char *const *names, size_t n)
{
	size_t total = 0, ncodes, c, first, per_block;
	const char **codes;
	struct widths w;

	for (c = 0; c < n; c++)
		total += cols[c]->nverdicts;
	if (total == 0 || (codes = calloc(total, sizeof *codes)) == NULL)
		return;
	ncodes = collect_codes(cols, n, codes);
	measure_widths(cols, names, n, codes, ncodes, &w);
	per_block = (size_t)(SBS_LINE_WIDTH - w.code) / (size_t)(GAP + w.value + 1 + w.result);
	if (per_block == 0)
		per_block = 1;
	fprintf(out, "\nVerdicts (other systems' rules of thumb)\n"
	    "(each run's figure in ms, and its result)\n");
	for (first = 0; first < n; first += per_block) {
		if (first > 0)
			fputc('\n', out);
		print_block(out, cols, names, first, first + per_block < n ? first + per_block : n,
		    codes, ncodes, &w);
	}
	free(codes);
}
