/* compare_load.c: syncprobe compare's reading of saved reports: each is
 * checked against the schema it claims, naming the first key that does
 * not fit, and its strings escaped as they are loaded; then the runs go to
 * the format asked for. */
#include "config.h"

#include "report/compare.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/escape.h"

#define WHERE_LEN  128

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
