/* compare_layout.c: saved runs laid out for syncprobe compare: a column
 * for each target of each run, the rows lined up by group and name in the
 * order they first appear, and what the text and the picture both say of
 * them (names, legends, ratios, headings, the advice in a line). */
#include "config.h"

#include "report/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/plan.h"
#include "util/names.h"
#include "util/strbuf.h"
#include "util/units.h"

#define LINE_LEN   1024
#define MIN_ROUNDS 3	/* rounds in each run for a difference to be flagged */

void
compare_column_name(const struct compare_column *c, char *buf, size_t len)
{
	if (c->run->ntargets > 1)
		snprintf(buf, len, "run %zu.%zu", c->run_no, c->target_no);
	else
		snprintf(buf, len, "run %zu", c->run_no);
}

/* "ext4 (vda, write cache: write back)", as the text report says it, from
 * the saved report's device block (a saved report keeps no layer tree). */
void
compare_storage_line(const struct compare_target *ct, char *buf, size_t len)
{
	struct strbuf b;

	strbuf_init(&b, buf, len);
	strbuf_add(&b, "%s", ct->filesystem ? ct->filesystem : "unknown filesystem");
	if (ct->device == NULL) {
		strbuf_add(&b, " (no block device)");
		return;
	}
	strbuf_add(&b, " (%s%s%s%s%s%s%s)", ct->device,
	    ct->model ? ", " : "", ct->model ? ct->model : "",
	    ct->write_cache ? ", write cache: " : "", ct->write_cache ? ct->write_cache : "",
	    ct->layers ? ", through " : "", ct->layers ? ct->layers : "");
}

void
compare_run_title(const struct compare_run *run, size_t r, const char *file, char *buf,
    size_t len)
{
	snprintf(buf, len, "run %zu: %s%s", r + 1, run->label ? run->label : file,
	    run->interrupted ? " (interrupted)" : "");
}

void
compare_run_facts(const struct compare_run *run, const char *file, char *buf, size_t len)
{
	char block[32] = "", size[16];

	if (run->have_block) {
		units_format_size((uint64_t)run->block_bytes, size, sizeof size);
		snprintf(block, sizeof block, "%s writes, ", size);
	}
	snprintf(buf, len, "%s: %s%s%s, syncprobe %s, %s%.0f round%s", file,
	    run->host ? run->host : "", run->host ? ", " : "",
	    run->started_at ? run->started_at : "time unknown", run->version, block,
	    run->rounds, run->rounds == 1 ? "" : "s");
}

void
compare_target_line(const struct compare_run *run, size_t r, size_t t, char *buf, size_t len)
{
	char prefix[64] = "", where[LINE_LEN / 2];

	if (run->ntargets > 1)
		snprintf(prefix, sizeof prefix, "run %zu.%zu: ", r + 1, t + 1);
	compare_storage_line(&run->targets[t], where, sizeof where);
	snprintf(buf, len, "%s%s on %s", prefix, run->targets[t].path, where);
}

static bool
key_is(const struct compare_key *k, const struct compare_row *row)
{
	return strcmp(k->group, row->group) == 0 && strcmp(k->name, row->name) == 0;
}

/* Add row's key after the last key of its group (at the end for a new
 * group), unless it is there. */
static void
add_key(struct compare_layout *l, const struct compare_row *row)
{
	size_t i, at = l->nkeys;

	for (i = 0; i < l->nkeys; i++) {
		if (key_is(&l->keys[i], row))
			return;
		if (strcmp(l->keys[i].group, row->group) == 0)
			at = i + 1;
	}
	memmove(&l->keys[at + 1], &l->keys[at], (l->nkeys - at) * sizeof *l->keys);
	l->keys[at].group = row->group;
	l->keys[at].name = row->name;
	l->nkeys++;
}

int
compare_layout_build(const struct compare_run *runs, size_t n, struct compare_layout *l)
{
	size_t r, t, i, c = 0, total_rows = 0;

	memset(l, 0, sizeof *l);
	for (r = 0; r < n; r++) {
		l->ncols += runs[r].ntargets;
		for (t = 0; t < runs[r].ntargets; t++)
			total_rows += runs[r].targets[t].nrows;
	}
	l->cols = calloc(l->ncols + 1, sizeof *l->cols);
	l->keys = calloc(total_rows + 1, sizeof *l->keys);
	if (l->cols == NULL || l->keys == NULL)
		return -1;
	for (r = 0; r < n; r++)
		for (t = 0; t < runs[r].ntargets; t++) {
			struct compare_column col = { &runs[r], r + 1, &runs[r].targets[t], t + 1 };

			l->cols[c++] = col;
			for (i = 0; i < runs[r].targets[t].nrows; i++)
				add_key(l, &runs[r].targets[t].rows[i]);
		}
	return 0;
}

void
compare_layout_free(struct compare_layout *l)
{
	free(l->cols);
	free(l->keys);
	memset(l, 0, sizeof *l);
}

const struct compare_row *
compare_find_row(const struct compare_target *ct, const struct compare_key *k)
{
	size_t i;

	for (i = 0; i < ct->nrows; i++)
		if (key_is(k, &ct->rows[i]))
			return &ct->rows[i];
	return NULL;
}

/* The difference is real where the two runs' rounds do not overlap: the
 * slowest round of the faster run beat the fastest round of the other.
 * Rounds of one disk fall that way by chance with a chance of 2 in
 * C(2n, n) for n rounds each: 1 in 126 with 5, but 1 in 3 with 2, so
 * fewer than MIN_ROUNDS say nothing. */
static bool
beyond_spread(const struct compare_row *a, const struct compare_row *b)
{
	if (a->nslices < MIN_ROUNDS || b->nslices < MIN_ROUNDS)
		return false;
	return b->slice_min > a->slice_max || b->slice_max < a->slice_min;
}

bool
compare_ratio(const struct compare_row *ref, const struct compare_row *row, double *ratio,
    bool *flagged)
{
	if (ref == NULL || row == NULL || !ref->have_figures || !row->have_figures ||
	    !(ref->ops_per_sec > 0))
		return false;
	*ratio = row->ops_per_sec / ref->ops_per_sec;
	*flagged = beyond_spread(ref, row);
	return true;
}

/* The group's heading, with the block size of the first run that wrote
 * blocks (a -t etcd run alone has none, and its heading needs none); the
 * group's name where the heading needs a size no run gives. */
void
compare_group_title(const struct compare_layout *l, const char *group, char *buf, size_t len)
{
	int g = names_find(&group_names, group);
	size_t c;

	for (c = 0; c < l->ncols && !l->cols[c].run->have_block; c++)
		;
	if (g < 0 || (c == l->ncols && strstr(group_table[g].title, "{}") != NULL))
		snprintf(buf, len, "%s", group);
	else
		plan_group_title((enum group)g, c < l->ncols ?
		    (size_t)l->cols[c].run->block_bytes : 0, buf, len);
}

void
compare_advice_line(const struct compare_column *c, char *buf, size_t len)
{
	const struct compare_target *ct = c->target;
	char name[64], delay[48];

	compare_column_name(c, name, sizeof name);
	if (ct->have_delay)
		snprintf(delay, sizeof delay, "commit_delay = %.0f", ct->commit_delay);
	else
		snprintf(delay, sizeof delay, "commit_delay: no advice");
	if (ct->wal_sync_method != NULL)
		snprintf(buf, len, "%s: wal_sync_method = '%s', %s", name, ct->wal_sync_method,
		    delay);
	else
		snprintf(buf, len, "%s: wal_sync_method: no advice, %s", name, delay);
}
