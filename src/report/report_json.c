/* report_json.c: one JSON document for scripts. Its shape is a contract:
 * keys in snake_case, units in key names, null where a figure does not
 * exist; an incompatible change bumps REPORT_SCHEMA_VERSION (see the man
 * page's JSON OUTPUT section). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "util/json.h"
#include "advice/verdict.h"
#include "report/advice_words.h"
#include "report/warning_words.h"
#include "report/report_counts.h"
#include "probe/method.h"
#include "probe/plan.h"
#include "probe/precision.h"
#include "util/platform.h"
#include "report/report.h"
#include "report/report_group.h"
#include "group/group_result.h"

#define USECS_DECIMALS      3	/* nanoseconds */
#define LABEL_LEN           8192	/* the default label holds every path */

static void put_sleep(struct json *j, const struct sleep_result *sl);

static const char *const status_names[] = { "ok", "unsupported", "error" };

static void
put_system(struct json *j, const struct system_info *sys)
{
	json_begin_object(j, "system");
	json_string(j, "os", sys->os);
	json_string(j, "release", sys->release);
	json_string(j, "machine", sys->machine);
	json_end_object(j);
}

/* What names the run and says where and when it ran. */
static void
put_run(struct json *j, const struct report *r)
{
	char label[LABEL_LEN], kernel[sizeof r->system.os + sizeof r->system.release + 2];
	char when[48];

	report_label(r, label, sizeof label);
	json_string(j, "label", label);
	json_string(j, "host", r->system.host);
	snprintf(kernel, sizeof kernel, "%s %s", r->system.os, r->system.release);
	json_string(j, "kernel", kernel);
	report_time(r->when, true, when, sizeof when);
	json_string(j, "started_at", when);
	if (r->duration_secs < 0)
		json_null(j, "duration_secs");
	else
		json_double(j, "duration_secs", r->duration_secs, 3);
	json_bool(j, "interrupted", r->interrupted_by != 0);
}

/* v, or null where no chosen group uses the setting. */
static void
put_uint_used(struct json *j, const char *key, uint64_t v, unsigned used)
{
	if (used)
		json_uint(j, key, v);
	else
		json_null(j, key);
}

static void
put_settings(struct json *j, const struct options *o)
{
	unsigned i;

	json_begin_object(j, "settings");
	json_bool(j, "adaptive", o->adaptive);
	if (o->adaptive)
		json_double(j, "precision_target_percent", PRECISION_TARGET * 100.0, 1);
	else
		json_null(j, "precision_target_percent");
	if (o->test_ns)
		json_double(j, "secs_per_test", row_secs(o->test_ns), 6);
	else
		json_null(j, "secs_per_test");
	if (o->ops_per_test)
		json_uint(j, "ops_per_test", o->ops_per_test);
	else
		json_null(j, "ops_per_test");
	/* Only the settings a chosen group uses (the sets the option check
	 * and the text header read), null for the others: -t etcd's rows
	 * have their own writes, file and sync call. */
	put_uint_used(j, "block_bytes", o->block_bytes, o->groups & PLAN_BLOCK_GROUPS);
	put_uint_used(j, "file_bytes", o->file_bytes, o->groups & PLAN_TEST_FILE_GROUPS);
	json_string(j, "pattern", o->groups & PLAN_PATTERN_GROUPS ?
	    options_pattern_name(o->pattern) : NULL);
	json_string(j, "direct", o->groups & PLAN_DIRECT_GROUPS ?
	    options_direct_name(o->direct) : NULL);
	json_uint(j, "rounds", o->rounds);
	json_begin_array(j, "tests");
	for (i = 0; i < GROUP_COUNT; i++)
		if ((o->groups | plan_added_groups(o)) & (1u << i))
			json_string(j, NULL, plan_group_name((enum group)i));
	json_end_array(j);
	if (o->groups & PLAN_METHOD_GROUPS) {
		json_begin_array(j, "methods");
		for (i = 0; i < METHOD_COUNT; i++)
			if (o->methods & (1u << i))
				json_string(j, NULL, method_table[i].name);
		json_end_array(j);
	} else {
		json_null(j, "methods");
	}
	json_string(j, "wal_sync_method", o->wal_method ? o->wal_method->name : NULL);
	json_end_object(j);
}

/* The seven latency figures of s, or null when it holds nothing. */
static void
put_latency(struct json *j, const char *key, const struct stats *s)
{
	static const struct {
		const char *key;
		double p;
	} pcts[] = { { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p999", 99.9 } };
	size_t i;

	if (s->count == 0) {
		json_null(j, key);
		return;
	}
	json_begin_object(j, key);
	/* Rounded to the ns first, as row_finish rounds the mean the advice
	 * uses, so that a tie cannot print two different figures. */
	json_double(j, "mean", row_usecs(round(stats_mean_ns(s))), USECS_DECIMALS);
	json_double(j, "min", row_usecs((double)s->min_ns), USECS_DECIMALS);
	for (i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
		json_double(j, pcts[i].key, row_usecs(stats_percentile_ns(s, pcts[i].p)),
		    USECS_DECIMALS);
	json_double(j, "max", row_usecs((double)s->max_ns), USECS_DECIMALS);
	json_end_object(j);
}

static void
put_slices(struct json *j, const struct row_result *row)
{
	unsigned i;

	json_begin_array(j, "slices");
	for (i = 0; i < row->nslices; i++) {
		const struct slice *s = &row->slices[i];

		/* A round the row never ran (fewer operations than rounds,
		 * or a run stopped by an error) is no slice. */
		if (s->ops == 0)
			continue;
		json_begin_object(j, NULL);
		json_uint(j, "ops", s->ops);
		json_double(j, "ops_per_sec", row_per_sec(s->ops, s->ns), 1);
		json_end_object(j);
	}
	json_end_array(j);
}

/* The row's non-empty histogram buckets, with fixed bounds (stats.h) so
 * that histograms of several runs can be merged bucket by bucket: each
 * holds the operations that took at most le_usecs and more than the
 * bucket before it (the open-ended last one: le_usecs is the max). */
static void
put_histogram(struct json *j, const struct stats *s)
{
	unsigned b;

	json_begin_array(j, "histogram");
	for (b = 0; b < STATS_BUCKETS && s->count > 0; b++) {
		uint64_t le = stats_bucket_low(b) + stats_bucket_width(b) - 1;

		if (s->buckets[b] == 0)
			continue;
		if (b == STATS_BUCKETS - 1)
			le = s->max_ns;	/* the open-ended last bucket */
		json_begin_object_line(j, NULL);
		json_double(j, "le_usecs", row_usecs((double)le), USECS_DECIMALS);
		json_uint(j, "count", s->buckets[b]);
		json_end_object(j);
	}
	json_end_array(j);
}

/* What a row of -t etcd adds: the sync it calls, the segment it appends
 * to, the rate it was paced at (null: back to back) and its missed starts. */
static void
put_log_row(struct json *j, const struct row_result *row)
{
	const struct row_spec *sp = &row->spec;

	json_string(j, "sync_call", sp->io ? sp->io->name : NULL);
	json_uint(j, "segment_bytes", sp->segment_bytes);
	if (sp->pace_per_sec > 0) {
		json_uint(j, "pace_per_sec", sp->pace_per_sec);
		json_uint(j, "missed_starts", row->missed_starts);
	} else {
		json_null(j, "pace_per_sec");
		json_null(j, "missed_starts");
	}
}

/* Other systems' verdicts (advice/verdict.h), each by its stable code;
 * an empty array when the run has none. */
static void
put_verdicts(struct json *j, const struct advice *a)
{
	size_t i;

	json_begin_array(j, "verdicts");
	for (i = 0; i < a->nverdicts; i++) {
		const struct verdict *v = &a->verdicts[i];

		json_begin_object(j, NULL);
		json_string(j, "code", v->code);
		json_string(j, "result", verdict_result_name(v->result));
		if (v->value_usecs >= 0)
			json_double(j, "value_usecs", v->value_usecs, USECS_DECIMALS);
		else
			json_null(j, "value_usecs");
		if (v->limit_usecs > 0)
			json_double(j, "limit_usecs", v->limit_usecs, USECS_DECIMALS);
		else
			json_null(j, "limit_usecs");
		json_uint(j, "ops", v->ops);
		json_uint(j, "min_ops", v->min_ops);
		json_string(j, "row", v->row);
		json_string(j, "caution", v->caution);
		json_end_object(j);
	}
	json_end_array(j);
}

static void
put_row(struct json *j, const struct row_result *row)
{
	const struct row_spec *sp = &row->spec;

	json_begin_object(j, NULL);
	json_string(j, "group", plan_group_name(sp->group));
	json_string(j, "name", sp->name);
	json_string(j, "method", sp->method ? sp->method->name : NULL);
	json_bool(j, "direct", sp->direct);
	json_uint(j, "writes_per_op", sp->writes_per_op);
	json_uint(j, "write_bytes", sp->write_bytes);
	json_string(j, "status", status_names[row->status]);
	json_string(j, "reason", row->status == ROW_OK ? NULL : row->reason);
	json_uint(j, "ops", row->ops);
	if (row->ops > 0) {
		json_double(j, "secs", row_secs(row->elapsed_ns), 6);
		json_double(j, "ops_per_sec", row->ops_per_sec, 1);
	} else {
		json_null(j, "secs");
		json_null(j, "ops_per_sec");
	}
	if (row->mean_ci95_usecs >= 0.0)
		json_double(j, "mean_ci95_usecs", row->mean_ci95_usecs, USECS_DECIMALS);
	else
		json_null(j, "mean_ci95_usecs");
	json_bool(j, "capped", row->capped);
	json_uint(j, "batch_ops", row->batch_ops);
	if (sp->segment_bytes > 0 || sp->pace_per_sec > 0)
		put_log_row(j, row);
	put_latency(j, "usecs", &row->total);
	put_latency(j, "write_usecs", &row->write);
	put_latency(j, "sync_usecs", &row->sync);
	put_slices(j, row);
	put_histogram(j, &row->total);
	json_end_object(j);
}


static void
put_advice(struct json *j, const struct target_result *tr)
{
	const struct advice *a = &tr->advice;
	struct words w;
	size_t i;

	json_begin_object(j, "advice");
	json_string(j, "wal_sync_method", a->wal_sync_method ? a->wal_sync_method->name : NULL);
	json_string(j, "wal_sync_method_reason", advice_words_method(a, &w));
	if (a->have_delay)
		json_int(j, "commit_delay_usecs", a->commit_delay_usecs);
	else
		json_null(j, "commit_delay_usecs");
	json_string(j, "commit_delay_reason", advice_words_delay(a, &w));
	json_string(j, "commit_delay_source", !a->have_delay ? NULL :
	    a->delay_measured ? plan_group_name(GROUP_GROUP) : "rule");
	if (a->have_delay)
		json_int(j, "rule_commit_delay_usecs", a->rule_delay_usecs);
	else
		json_null(j, "rule_commit_delay_usecs");
	json_string(j, "rule_commit_delay_reason", a->delay_measured ?
	    advice_words_rule(a, &w) : NULL);
	json_uint(j, "commit_siblings", a->commit_siblings);
	json_string(j, "commit_siblings_reason", advice_words_siblings(a, &w));
	report_counts_json(j, a);
	if (a->have_delay && a->basis == NULL) {
		/* -t group without the one-write test: its own flush. */
		json_begin_object(j, "basis");
		json_string(j, "group", plan_group_name(GROUP_GROUP));
		json_string(j, "name", "one committer, commit_delay 0");
		json_string(j, "method", a->delay_method->name);
		json_bool(j, "direct", false);
		json_double(j, "mean_usecs", a->basis_mean_usecs, USECS_DECIMALS);
		json_uint(j, "ops", tr->group ? tr->group->flush_count : 0);
		json_end_object(j);
	} else if (a->have_delay) {
		json_begin_object(j, "basis");
		json_string(j, "group", plan_group_name(a->basis->spec.group));
		json_string(j, "name", a->basis->spec.name);
		json_string(j, "method", a->basis->spec.method->name);
		json_bool(j, "direct", a->basis->spec.direct);
		json_double(j, "mean_usecs", a->basis_mean_usecs, USECS_DECIMALS);
		json_uint(j, "ops", a->basis->ops);
		json_end_object(j);
	} else {
		json_null(j, "basis");
	}
	put_sleep(j, &tr->sleep);
	json_begin_array(j, "warnings");
	for (i = 0; i < a->nwarnings; i++) {
		json_begin_object(j, NULL);
		json_string(j, "code", a->warnings[i].code);
		json_string(j, "message", warning_words_message(&a->warnings[i], &w));
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void
put_int_or_null(struct json *j, const char *key, long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_int(j, key, v);
}

static void
put_bool_or_null(struct json *j, const char *key, int v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_bool(j, key, v != 0);
}

static void
put_device(struct json *j, const char *key, const struct storage_device *d)
{
	json_begin_object(j, key);
	json_string(j, "name", d->name[0] ? d->name : NULL);
	json_string(j, "model", d->have_model ? d->model : NULL);
	put_bool_or_null(j, "rotational", d->rotational);
	json_string(j, "write_cache", d->have_write_cache ? d->write_cache : NULL);
	put_bool_or_null(j, "fua", d->fua);
	put_int_or_null(j, "logical_block_bytes", d->logical_block_bytes);
	put_int_or_null(j, "physical_block_bytes", d->physical_block_bytes);
	json_string(j, "layers", d->layers[0] ? d->layers : NULL);
	json_end_object(j);
}

static void
put_storage(struct json *j, const struct storage_info *st)
{
	char chain[STORAGE_CHAIN_LEN];
	size_t i;

	json_string(j, "filesystem", st->have_filesystem ? st->filesystem : NULL);
	json_string(j, "mount_options", st->have_mount_options ? st->mount_options : NULL);
	if (st->have_device)
		put_device(j, "device", &st->device);
	else
		json_null(j, "device");
	json_begin_array(j, "devices");
	for (i = 0; i < storage_device_count(st); i++)
		put_device(j, NULL, storage_device_at(st, i));
	json_end_array(j);
	/* The steps that could not be followed, each as the text report
	 * words it: a script can tell "no device" from "not found". */
	json_begin_array(j, "unresolved");
	for (i = 0; i < st->nlayers; i++) {
		if (st->layers[i].kind != STORAGE_LAYER_GAP)
			continue;
		storage_layer_chain(st, i, chain, sizeof chain);
		json_string(j, NULL, chain);
	}
	json_end_array(j);
}

static void
put_sleep(struct json *j, const struct sleep_result *sl)
{
	if (sl->samples == 0) {
		json_null(j, "sleep");
		return;
	}
	json_begin_object(j, "sleep");
	json_int(j, "requested_usecs", sl->requested_usecs);
	json_uint(j, "samples", sl->samples);
	json_begin_object(j, "usecs");
	json_double(j, "mean", sl->mean_usecs, USECS_DECIMALS);
	json_double(j, "p50", sl->p50_usecs, USECS_DECIMALS);
	json_double(j, "p99", sl->p99_usecs, USECS_DECIMALS);
	json_end_object(j);
	if (sl->timer_slack_usecs < 0)
		json_null(j, "timer_slack_usecs");
	else
		json_double(j, "timer_slack_usecs", sl->timer_slack_usecs, USECS_DECIMALS);
	json_end_object(j);
}

static void
put_target(struct json *j, const struct target_result *tr)
{
	size_t i;

	json_begin_object(j, NULL);
	json_string(j, "path", tr->run.path);
	json_string(j, "status", tr->run.failed ? "error" : "ok");
	json_string(j, "error", tr->run.failed ? tr->run.error : NULL);
	put_storage(j, &tr->run.storage);
	json_begin_array(j, "tests");
	for (i = 0; i < tr->run.nrows; i++)
		put_row(j, &tr->run.rows[i]);
	json_end_array(j);
	report_group_json(j, tr->group);
	put_advice(j, tr);
	put_verdicts(j, &tr->advice);
	report_settings_json(j, &tr->to_set);
	json_end_object(j);
}

void
report_json(FILE *out, const struct report *r)
{
	struct json j;
	size_t i;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", REPORT_SCHEMA_VERSION);
	json_string(&j, "syncprobe_version", PACKAGE_VERSION);
	put_run(&j, r);
	put_system(&j, &r->system);
	put_settings(&j, r->options);
	json_begin_array(&j, "targets");
	for (i = 0; i < r->ntargets; i++)
		put_target(&j, &r->targets[i]);
	json_end_array(&j);
	json_end_object(&j);
}
