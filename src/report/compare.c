/* compare.c: syncprobe compare (see compare.h). Loading checks each saved report
 * against the schema it claims, naming the first key that does not fit;
 * printing lines the runs' rows up by group and name, in the order they
 * first appear, and lays them out with sidebyside.c like several targets. */
#include "config.h"

#include "report/compare.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "util/escape.h"
#include "util/names.h"
#include "probe/plan.h"
#include "report/report.h"
#include "report/sidebyside.h"
#include "util/wrap.h"

#define WHERE_LEN  128
#define LINE_LEN   1024
#define LINE_WIDTH SBS_LINE_WIDTH
#define MIN_ROUNDS 3	/* rounds in each run for a difference to be flagged */

enum need {
	REQUIRED,	/* present, of its type */
	NULLABLE,	/* present, of its type or null */
	OPTIONAL	/* newer than schema 1's first keys: may be absent, or null */
};

struct loader {
	struct compare_run *run;	/* keeps the escaped strings */
	int version;		/* the report's schema_version */
	char *err;
	size_t errlen;
	char where[WHERE_LEN];	/* the key being read: "targets[0].tests[2]" */
};

struct tables {
	const struct compare_layout *l;
	size_t first;		/* the group being printed starts here */
};

static bool __attribute__((format(printf, 2, 3)))
load_error(struct loader *l, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s%s%s", l->where, l->where[0] ? ": " : "", what);
	return false;
}

/* Descend into key (or [index] when key is NULL); returns the length to
 * restore on the way back. */
static size_t
enter(struct loader *l, const char *key, size_t index)
{
	size_t len = strlen(l->where);

	if (key == NULL)
		snprintf(l->where + len, sizeof l->where - len, "[%zu]", index);
	else
		snprintf(l->where + len, sizeof l->where - len, "%s%s", len ? "." : "", key);
	return len;
}

/* Descend into key[index], an item of an array, which must be an object. */
static bool
enter_item(struct loader *l, const struct json_node *array, const char *key, size_t index,
    size_t *back)
{
	*back = enter(l, key, 0);
	enter(l, NULL, index);
	return array->items[index].type == JSON_OBJECT || load_error(l, "not an object");
}

static void
leave(struct loader *l, size_t len)
{
	l->where[len] = '\0';
}

/* obj's member key, of type t: *out is it, or NULL for a null or absent
 * member where need allows one. */
static bool
get(struct loader *l, const struct json_node *obj, const char *key, enum json_type t,
    enum need need, const struct json_node **out)
{
	const struct json_node *v = json_get(obj, key);
	size_t back = enter(l, key, 0);
	bool ok = true;

	*out = NULL;
	if (v == NULL && need != OPTIONAL)
		ok = load_error(l, "missing");
	else if (v != NULL && v->type == JSON_NULL && need == REQUIRED)
		ok = load_error(l, "is null, not %s %s", t == JSON_ARRAY || t == JSON_OBJECT ?
		    "an" : "a", json_type_name(t));
	else if (v != NULL && v->type != JSON_NULL && v->type != t)
		ok = load_error(l, "is %s %s, not %s %s",
		    v->type == JSON_ARRAY || v->type == JSON_OBJECT ? "an" : "a",
		    json_type_name(v->type), t == JSON_ARRAY || t == JSON_OBJECT ? "an" : "a",
		    json_type_name(t));
	else if (v != NULL && v->type == t)
		*out = v;
	if (ok)
		leave(l, back);
	return ok;
}

/* s as it may be printed: itself when plain, else an escaped copy the run
 * keeps. */
static bool
keep_escaped(struct loader *l, const char *s, const char **out)
{
	struct compare_run *run = l->run;
	char *e;

	*out = s;
	if (escape_is_plain(s))
		return true;
	if (run->nescaped == run->escaped_cap) {
		size_t cap = run->escaped_cap ? 2 * run->escaped_cap : 16;
		char **grown = realloc(run->escaped, cap * sizeof *grown);

		if (grown == NULL)
			return load_error(l, "out of memory");
		run->escaped = grown;
		run->escaped_cap = cap;
	}
	if ((e = escape_alloc(s)) == NULL)
		return load_error(l, "out of memory");
	run->escaped[run->nescaped++] = e;
	if (run->budget != NULL) {
		size_t cost = strlen(e) + 1;

		if (cost > run->budget->bytes) {
			run->budget->exceeded = true;
			return load_error(l, "its strings, escaped, are over the bound");
		}
		run->budget->bytes -= cost;
	}
	*out = e;
	return true;
}

static bool
get_string(struct loader *l, const struct json_node *obj, const char *key, enum need need,
    const char **out)
{
	const struct json_node *v;

	if (!get(l, obj, key, JSON_STRING, need, &v))
		return false;
	*out = NULL;
	return v == NULL || keep_escaped(l, v->string, out);
}

/* A figure: a number that is not negative. */
static bool
get_number(struct loader *l, const struct json_node *obj, const char *key, enum need need,
    double *out, bool *have)
{
	const struct json_node *v;

	if (!get(l, obj, key, JSON_NUMBER, need, &v))
		return false;
	if (v != NULL && v->number < 0) {
		enter(l, key, 0);
		return load_error(l, "is negative");
	}
	*out = v ? v->number : 0.0;
	if (have != NULL)
		*have = v != NULL;
	return true;
}

/* A figure syncprobe itself could have written: from min to max. A saved
 * report holding more (ops_per_sec=1e308, commit_delay=1e300) was not
 * written by it, and would only be printed as nonsense. */
static bool
get_number_in(struct loader *l, const struct json_node *obj, const char *key, enum need need,
    double min, double max, double *out, bool *have)
{
	if (!get_number(l, obj, key, need, out, have))
		return false;
	if ((have == NULL || *have) && (*out < min || *out > max)) {
		enter(l, key, 0);
		return load_error(l, "%g is out of range (syncprobe writes %g to %g)", *out, min, max);
	}
	return true;
}

/* Each slice's ops_per_sec: the slowest and fastest round. */
static bool
load_slices(struct loader *l, const struct json_node *row, struct compare_row *cr)
{
	const struct json_node *slices;
	size_t i;

	if (!get(l, row, "slices", JSON_ARRAY, REQUIRED, &slices))
		return false;
	for (i = 0; i < slices->count; i++) {
		size_t back;
		double rate;

		if (!enter_item(l, slices, "slices", i, &back) ||
		    !get_number_in(l, &slices->items[i], "ops_per_sec", REQUIRED, 0.0,
		    COMPARE_MAX_OPS_PER_SEC, &rate, NULL))
			return false;
		leave(l, back);
		if (cr->nslices == 0 || rate < cr->slice_min)
			cr->slice_min = rate;
		if (cr->nslices == 0 || rate > cr->slice_max)
			cr->slice_max = rate;
		cr->nslices++;
	}
	return true;
}

/* A row's latency: the mean, and the min, p50, p99 and max the pictures
 * draw where the report has them all. */
static bool
load_latency(struct loader *l, const struct json_node *usecs, struct compare_row *cr)
{
	bool have[4];
	size_t back = enter(l, "usecs", 0);

	if (!get_number(l, usecs, "mean", REQUIRED, &cr->mean_usecs, NULL) ||
	    !get_number_in(l, usecs, "min", OPTIONAL, 0.0, COMPARE_MAX_USECS, &cr->min_usecs,
	    &have[0]) ||
	    !get_number_in(l, usecs, "p50", OPTIONAL, 0.0, COMPARE_MAX_USECS, &cr->p50_usecs,
	    &have[1]) ||
	    !get_number_in(l, usecs, "p99", OPTIONAL, 0.0, COMPARE_MAX_USECS, &cr->p99_usecs,
	    &have[2]) ||
	    !get_number_in(l, usecs, "max", OPTIONAL, 0.0, COMPARE_MAX_USECS, &cr->max_usecs,
	    &have[3]))
		return false;
	leave(l, back);
	cr->have_latency = have[0] && have[1] && have[2] && have[3];
	return true;
}

static bool
load_row(struct loader *l, const struct json_node *row, struct compare_row *cr)
{
	const struct json_node *usecs, *direct;
	bool have_rate;

	memset(cr, 0, sizeof *cr);
	if (!get_string(l, row, "group", REQUIRED, &cr->group) ||
	    !get_string(l, row, "name", REQUIRED, &cr->name) ||
	    !get_string(l, row, "status", REQUIRED, &cr->status) ||
	    !get_string(l, row, "reason", NULLABLE, &cr->reason) ||
	    !get(l, row, "direct", JSON_BOOL, OPTIONAL, &direct) ||
	    !get_number_in(l, row, "ops_per_sec", NULLABLE, 0.0, COMPARE_MAX_OPS_PER_SEC,
	    &cr->ops_per_sec, &have_rate) ||
	    !get(l, row, "usecs", JSON_OBJECT, NULLABLE, &usecs))
		return false;
	cr->direct = direct != NULL && direct->boolean;
	if (usecs != NULL && !load_latency(l, usecs, cr))
		return false;
	cr->have_figures = strcmp(cr->status, "ok") == 0 && have_rate && usecs != NULL;
	return load_slices(l, row, cr);
}

static bool
load_warnings(struct loader *l, const struct json_node *advice, struct compare_target *ct)
{
	const struct json_node *w;
	size_t i;

	if (!get(l, advice, "warnings", JSON_ARRAY, REQUIRED, &w))
		return false;
	ct->warnings = calloc(w->count + 1, sizeof *ct->warnings);
	if (ct->warnings == NULL)
		return load_error(l, "out of memory");
	for (i = 0; i < w->count; i++) {
		size_t back;

		if (!enter_item(l, w, "warnings", i, &back) ||
		    !get_string(l, &w->items[i], "code", REQUIRED, &ct->warnings[i].code) ||
		    !get_string(l, &w->items[i], "message", REQUIRED, &ct->warnings[i].message))
			return false;
		leave(l, back);
		ct->nwarnings++;
	}
	return true;
}

static bool
load_verdict(struct loader *l, const struct json_node *v, struct compare_verdict *cv)
{
	return get_string(l, v, "code", REQUIRED, &cv->code) &&
	    get_string(l, v, "result", REQUIRED, &cv->result) &&
	    get_number_in(l, v, "value_usecs", NULLABLE, 0.0, COMPARE_MAX_USECS,
	    &cv->value_usecs, &cv->have_value);
}

/* The target's verdicts: absent in reports written before they were. */
static bool
load_verdicts(struct loader *l, const struct json_node *target, struct compare_target *ct)
{
	const struct json_node *v;
	size_t i;

	if (!get(l, target, "verdicts", JSON_ARRAY, OPTIONAL, &v))
		return false;
	if (v == NULL)
		return true;
	ct->verdicts = calloc(v->count + 1, sizeof *ct->verdicts);
	if (ct->verdicts == NULL)
		return load_error(l, "out of memory");
	for (i = 0; i < v->count; i++) {
		size_t back;

		if (!enter_item(l, v, "verdicts", i, &back) ||
		    !load_verdict(l, &v->items[i], &ct->verdicts[i]))
			return false;
		leave(l, back);
		ct->nverdicts++;
	}
	return true;
}

static bool
load_advice(struct loader *l, const struct json_node *target, struct compare_target *ct)
{
	const struct json_node *advice;
	size_t back;

	if (!get(l, target, "advice", JSON_OBJECT, REQUIRED, &advice))
		return false;
	back = enter(l, "advice", 0);
	if (!get_string(l, advice, "wal_sync_method", NULLABLE, &ct->wal_sync_method) ||
	    !get_number_in(l, advice, l->version >= REPORT_SCHEMA_DELAY_USECS ?
	    "commit_delay_usecs" : "commit_delay", NULLABLE, 0.0, COMMIT_DELAY_MAX_USECS,
	    &ct->commit_delay, &ct->have_delay) ||
	    !load_warnings(l, advice, ct))
		return false;
	leave(l, back);
	return true;
}

static bool
load_device(struct loader *l, const struct json_node *target, struct compare_target *ct)
{
	const struct json_node *dev;
	size_t back;

	if (!get(l, target, "device", JSON_OBJECT, NULLABLE, &dev))
		return false;
	if (dev == NULL)
		return true;
	back = enter(l, "device", 0);
	if (!get_string(l, dev, "name", NULLABLE, &ct->device) ||
	    !get_string(l, dev, "model", NULLABLE, &ct->model) ||
	    !get_string(l, dev, "write_cache", NULLABLE, &ct->write_cache) ||
	    !get_string(l, dev, "layers", NULLABLE, &ct->layers))
		return false;
	leave(l, back);
	return true;
}

static bool
load_target(struct loader *l, const struct json_node *target, struct compare_target *ct)
{
	const struct json_node *tests;
	size_t i;

	if (!get_string(l, target, "path", REQUIRED, &ct->path) ||
	    !get_string(l, target, "error", NULLABLE, &ct->error) ||
	    !get_string(l, target, "filesystem", NULLABLE, &ct->filesystem) ||
	    !load_device(l, target, ct) ||
	    !get(l, target, "tests", JSON_ARRAY, REQUIRED, &tests))
		return false;
	ct->rows = calloc(tests->count + 1, sizeof *ct->rows);
	if (ct->rows == NULL)
		return load_error(l, "out of memory");
	for (i = 0; i < tests->count; i++) {
		size_t back;

		if (!enter_item(l, tests, "tests", i, &back) ||
		    !load_row(l, &tests->items[i], &ct->rows[i]))
			return false;
		leave(l, back);
		ct->nrows++;
	}
	return load_advice(l, target, ct) && load_verdicts(l, target, ct);
}

/* The schema version first: a report of another version gets a message
 * that says so, not one about the first key that moved. */
static bool
load_version(struct loader *l, const struct json_node *doc)
{
	double v;

	if (doc->type != JSON_OBJECT || json_get(doc, "schema_version") == NULL)
		return load_error(l, "not a syncprobe JSON report (no schema_version; "
		    "write one with syncprobe -F json)");
	if (!get_number(l, doc, "schema_version", REQUIRED, &v, NULL))
		return false;
	if (v < REPORT_SCHEMA_OLDEST_READ || v > REPORT_SCHEMA_VERSION || v != (int)v)
		return load_error(l, "schema_version %g, and this syncprobe reads versions %d "
		    "to %d (compare such reports with the syncprobe that wrote them)",
		    v, REPORT_SCHEMA_OLDEST_READ, REPORT_SCHEMA_VERSION);
	l->version = (int)v;
	return true;
}

static bool
load_run(struct loader *l, const struct json_node *doc, struct compare_run *run)
{
	const struct json_node *settings, *targets, *interrupted;
	size_t i, back;

	if (!load_version(l, doc) ||
	    !get_string(l, doc, "syncprobe_version", REQUIRED, &run->version) ||
	    !get_string(l, doc, "label", OPTIONAL, &run->label) ||
	    !get_string(l, doc, "host", OPTIONAL, &run->host) ||
	    !get_string(l, doc, "started_at", OPTIONAL, &run->started_at) ||
	    !get(l, doc, "interrupted", JSON_BOOL, OPTIONAL, &interrupted) ||
	    !get(l, doc, "settings", JSON_OBJECT, REQUIRED, &settings))
		return false;
	run->interrupted = interrupted != NULL && interrupted->boolean;
	back = enter(l, "settings", 0);
	/* null where no chosen group wrote blocks (-t etcd alone). */
	if (!get_number_in(l, settings, "block_bytes", NULLABLE, MIN_BLOCK_BYTES, MAX_BLOCK_BYTES,
	    &run->block_bytes, &run->have_block) ||
	    !get_number_in(l, settings, "rounds", REQUIRED, 1.0, MAX_ROUNDS, &run->rounds, NULL))
		return false;
	leave(l, back);
	if (!get(l, doc, "targets", JSON_ARRAY, REQUIRED, &targets))
		return false;
	run->targets = calloc(targets->count + 1, sizeof *run->targets);
	if (run->targets == NULL)
		return load_error(l, "out of memory");
	for (i = 0; i < targets->count; i++) {
		run->ntargets++;	/* counted now, so that a failure frees it */
		if (!enter_item(l, targets, "targets", i, &back) ||
		    !load_target(l, &targets->items[i], &run->targets[i]))
			return false;
		leave(l, back);
	}
	return true;
}

int
compare_load(const struct json_node *doc, struct compare_run *run, char *err, size_t errlen)
{
	struct loader l;

	memset(&l, 0, sizeof l);
	l.run = run;
	l.err = err;
	l.errlen = errlen;
	return load_run(&l, doc, run) ? 0 : -1;
}

void
compare_run_free(struct compare_run *run)
{
	size_t t;

	for (t = 0; t < run->ntargets; t++) {
		free(run->targets[t].rows);
		free(run->targets[t].warnings);
		free(run->targets[t].verdicts);
	}
	free(run->targets);
	for (t = 0; t < run->nescaped; t++)
		free(run->escaped[t]);
	free(run->escaped);
	run->escaped = NULL;
	run->nescaped = run->escaped_cap = 0;
	json_read_free(run->doc);
	run->targets = NULL;
	run->ntargets = 0;
	run->doc = NULL;
}

/* ---- printing ---- */

static void
put_wrapped(FILE *out, int first, int rest, const char *text)
{
	wrap_print(out, first, rest, LINE_WIDTH, text, false);
}

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
	int n = snprintf(buf, len, "%s", ct->filesystem ? ct->filesystem : "unknown filesystem");

	if (n < 0 || (size_t)n >= len)
		return;
	if (ct->device == NULL) {
		snprintf(buf + n, len - (size_t)n, " (no block device)");
		return;
	}
	snprintf(buf + n, len - (size_t)n, " (%s%s%s%s%s%s%s)", ct->device,
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

int
compare_files(FILE *out, const char *const *paths, size_t n, const struct compare_format *f,
    char *err, size_t errlen)
{
	struct compare_run *runs = calloc(n + 1, sizeof *runs);
	struct json_budget budget = { COMPARE_MAX_BYTES, COMPARE_MAX_VALUES, false };
	char why[512];
	size_t i;
	int rc = 0;

	if (runs == NULL) {
		snprintf(err, errlen, "compare: out of memory");
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		runs[i].file = paths[i];
		runs[i].budget = &budget;
		runs[i].doc = json_read_file_within(paths[i], &budget, why, sizeof why);
		if (runs[i].doc == NULL || compare_load(runs[i].doc, &runs[i], why, sizeof why) == -1) {
			if (budget.exceeded)
				snprintf(err, errlen, "%s: the reports given take more than compare "
				    "reads at once (%u MiB and %u values in all, escaped strings "
				    "included): compare fewer at a time", paths[i],
				    COMPARE_MAX_BYTES >> 20, COMPARE_MAX_VALUES);
			else
				snprintf(err, errlen, "%s: %s", paths[i], why);
			rc = -1;
		}
	}
	if (rc == 0)
		f->print(out, runs, n);
	for (i = 0; i < n; i++)
		compare_run_free(&runs[i]);
	free(runs);
	return rc;
}
