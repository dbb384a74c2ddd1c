/* report_json.c: one JSON document for scripts. Its shape is a contract:
 * keys in snake_case, units in key names, null where a figure does not
 * exist; an incompatible change bumps JSON_SCHEMA_VERSION (see the man
 * page's JSON OUTPUT section). */
#include "config.h"

#include "json.h"
#include "method.h"
#include "plan.h"
#include "platform.h"
#include "report.h"
#include "report_group.h"
#include "group_result.h"

#define JSON_SCHEMA_VERSION 1
#define USECS_DECIMALS      3	/* nanoseconds */

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

static void
put_settings(struct json *j, const struct options *o)
{
	unsigned i;

	json_begin_object(j, "settings");
	if (o->ops_per_test) {
		json_null(j, "secs_per_test");
		json_uint(j, "ops_per_test", o->ops_per_test);
	} else {
		json_double(j, "secs_per_test", row_secs(o->test_ns), 6);
		json_null(j, "ops_per_test");
	}
	json_uint(j, "block_bytes", o->block_bytes);
	json_uint(j, "file_bytes", o->file_bytes);
	json_string(j, "pattern", options_pattern_name(o->pattern));
	json_string(j, "direct", options_direct_name(o->direct));
	json_uint(j, "rounds", o->rounds);
	json_begin_array(j, "tests");
	for (i = 0; i < GROUP_COUNT; i++)
		if (o->groups & (1u << i))
			json_string(j, NULL, plan_group_name((enum group)i));
	json_end_array(j);
	json_begin_array(j, "methods");
	for (i = 0; i < METHOD_COUNT; i++)
		if (o->methods & (1u << i))
			json_string(j, NULL, method_table[i].name);
	json_end_array(j);
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
	json_double(j, "mean", row_usecs(stats_mean_ns(s)), USECS_DECIMALS);
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
	for (i = 0; i < row->nslices && row->ops > 0; i++) {
		const struct slice *s = &row->slices[i];

		json_begin_object(j, NULL);
		json_uint(j, "ops", s->ops);
		json_double(j, "ops_per_sec", row_per_sec(s->ops, s->ns), 1);
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
		json_double(j, "seconds", row_secs(row->elapsed_ns), 6);
		json_double(j, "ops_per_sec", row->ops_per_sec, 1);
	} else {
		json_null(j, "seconds");
		json_null(j, "ops_per_sec");
	}
	put_latency(j, "usecs", &row->total);
	put_latency(j, "write_usecs", &row->write);
	put_latency(j, "sync_usecs", &row->sync);
	put_slices(j, row);
	json_end_object(j);
}


static void
put_advice(struct json *j, const struct target_result *tr)
{
	const struct advice *a = &tr->advice;
	size_t i;

	json_begin_object(j, "advice");
	json_string(j, "wal_sync_method", a->wal_sync_method ? a->wal_sync_method->name : NULL);
	json_string(j, "wal_sync_method_reason", a->method_reason);
	if (a->have_delay)
		json_int(j, "commit_delay", a->commit_delay_usecs);
	else
		json_null(j, "commit_delay");
	json_string(j, "commit_delay_reason", a->delay_reason);
	json_string(j, "commit_delay_source", !a->have_delay ? NULL :
	    a->delay_measured ? plan_group_name(GROUP_GROUP) : "rule");
	if (a->have_delay)
		json_int(j, "rule_commit_delay", a->rule_delay_usecs);
	else
		json_null(j, "rule_commit_delay");
	json_string(j, "rule_commit_delay_reason", a->delay_measured ? a->rule_reason : NULL);
	json_uint(j, "commit_siblings", a->commit_siblings);
	json_string(j, "commit_siblings_reason", a->siblings_reason);
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
		json_string(j, "message", a->warnings[i].message);
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
put_storage(struct json *j, const struct storage_info *st)
{
	const struct storage_device *d = &st->device;

	json_string(j, "filesystem", st->have_filesystem ? st->filesystem : NULL);
	json_string(j, "mount_options", st->have_mount_options ? st->mount_options : NULL);
	if (!st->have_device) {
		json_null(j, "device");
		return;
	}
	json_begin_object(j, "device");
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
put_sleep(struct json *j, const struct sleep_result *sl)
{
	if (sl->samples == 0) {
		json_null(j, "sleep");
		return;
	}
	json_begin_object(j, "sleep");
	json_int(j, "requested_usecs", sl->requested_usecs);
	json_uint(j, "samples", sl->samples);
	json_double(j, "mean_usecs", sl->mean_usecs, USECS_DECIMALS);
	json_double(j, "p50_usecs", sl->p50_usecs, USECS_DECIMALS);
	json_double(j, "p99_usecs", sl->p99_usecs, USECS_DECIMALS);
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
	json_string(j, "path", tr->path);
	json_string(j, "status", tr->failed ? "error" : "ok");
	json_string(j, "error", tr->failed ? tr->error : NULL);
	put_storage(j, &tr->storage);
	json_begin_array(j, "tests");
	for (i = 0; i < tr->nrows; i++)
		put_row(j, &tr->rows[i]);
	json_end_array(j);
	report_group_json(j, tr->group);
	put_advice(j, tr);
	json_end_object(j);
}

void
report_json(FILE *out, const struct report *r)
{
	struct json j;
	size_t i;

	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", JSON_SCHEMA_VERSION);
	json_string(&j, "syncprobe_version", PACKAGE_VERSION);
	put_system(&j, &r->system);
	put_settings(&j, r->options);
	json_begin_array(&j, "targets");
	for (i = 0; i < r->ntargets; i++)
		put_target(&j, &r->targets[i]);
	json_end_array(&j);
	json_end_object(&j);
}
