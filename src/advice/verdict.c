/* verdict.c: etcd's rules of thumb over the paced row of -t etcd: the
 * p99 of the sync and of write + sync against 10 ms and 2 ms, the p99.9,
 * and the worst stall against the second after which etcd logs a slow
 * fdatasync. */
#include "config.h"

#include "advice/verdict.h"

#include <string.h>

#include "advice/advice.h"
#include "advice/warnings.h"
#include "util/stats.h"

/* The warnings that say a flush may not be durable however fast it is:
 * nothing durable is that fast, the target lives in memory, syncs skip
 * the device's cache, or a cache absorbs flushes faster than the device
 * can make them. A volatile write cache alone (writeback_cache) is not
 * here: a flush that costs what the device's does may well reach it. */
static const enum warning_code caution_codes[] = {
	WARNING_IMPLAUSIBLE_FLUSH, WARNING_NONDURABLE_FS, WARNING_NOBARRIER,
	WARNING_VOLATILE_OVERLAY, WARNING_ROTATIONAL_TOO_FAST,
};

enum verdict_result
verdict_judge(double value_usecs, double limit_usecs, uint64_t ops, uint64_t min_ops)
{
	if (ops == 0 || value_usecs < 0)
		return VERDICT_NOT_RUN;
	if (ops < min_ops)
		return VERDICT_TOO_FEW;
	if (limit_usecs <= 0)
		return VERDICT_MEASURED;
	if (!(value_usecs < limit_usecs))
		return VERDICT_FAIL;
	return VERDICT_PASS;
}

const char *
verdict_result_name(enum verdict_result r)
{
	switch (r) {
	case VERDICT_PASS:
		return "pass";
	case VERDICT_FAIL:
		return "fail";
	case VERDICT_TOO_FEW:
		return "too_few_ops";
	case VERDICT_UNPROVEN:
		return "not_proven_durable";
	case VERDICT_MEASURED:
		return "measured";
	case VERDICT_NOT_RUN:
		return "not_run";
	case VERDICT_NO_DOUBT:
		return "no_doubt_found";
	}
	return "?";
}

const char *
verdict_caution(const struct advice *a)
{
	const struct advice_warning *w = warnings_find_first(a, caution_codes,
	    sizeof caution_codes / sizeof caution_codes[0]);

	return w != NULL ? w->code : NULL;
}

/* The row etcd's verdict reads: -t etcd's paced row. */
static const struct row_result *
paced_row(const struct row_result *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].spec.group == GROUP_ETCD && rows[i].spec.pace_per_sec > 0)
			return &rows[i];
	return NULL;
}

static struct verdict *
add_row(struct advice *a, const char *code, const struct row_result *row)
{
	struct verdict *v;

	if (a->nverdicts >= VERDICT_MAX)
		return NULL;
	v = &a->verdicts[a->nverdicts++];
	memset(v, 0, sizeof *v);
	v->code = code;
	v->row = row->spec.name;
	v->sync_call = row->spec.io != NULL ? row->spec.io->name : "sync";
	v->pace_per_sec = row->spec.pace_per_sec;
	v->missed_starts = row->missed_starts;
	v->value_usecs = -1.0;
	return v;
}

static void
add(struct advice *a, const char *code, const struct row_result *row, const struct stats *s,
    double pct, double limit, uint64_t min_ops)
{
	struct verdict *v;
	bool ran = row->status == ROW_OK && s->count > 0;

	if ((v = add_row(a, code, row)) == NULL)
		return;
	v->ops = ran ? s->count : 0;
	v->min_ops = min_ops;
	v->limit_usecs = limit;
	/* pct 100: the maximum, exactly. */
	v->value_usecs = !ran ? -1.0 : pct >= 100.0 ? row_usecs((double)s->max_ns) :
	    row_usecs(stats_percentile_ns(s, pct));
	v->result = verdict_judge(v->value_usecs, limit, v->ops, min_ops);
}

/* The doubt beside the latency: a warning that the flushes may not be
 * durable, whatever their speed, or none. */
static void
add_durability(struct advice *a, const struct row_result *row, const char *caution)
{
	struct verdict *v = add_row(a, "etcd_durability", row);

	if (v == NULL)
		return;
	v->ops = row->status == ROW_OK ? row->ops : 0;
	if (v->ops == 0)
		v->result = VERDICT_NOT_RUN;
	else
		v->result = caution != NULL ? VERDICT_UNPROVEN : VERDICT_NO_DOUBT;
	v->caution = v->result == VERDICT_UNPROVEN ? caution : NULL;
}

void
verdict_etcd(const struct row_result *rows, size_t n, struct advice *a)
{
	const struct row_result *row = paced_row(rows, n);
	const char *caution = verdict_caution(a);
	/* Rows whose sync is not timed apart (none yet) are judged whole. */
	const struct stats *sync;

	if (row == NULL)
		return;
	sync = row->splits ? &row->sync : &row->total;
	add(a, "etcd_sync_p99", row, sync, 99.0, VERDICT_ETCD_USECS, VERDICT_MIN_OPS_P99);
	add(a, "etcd_sync_p99_heavy", row, sync, 99.0, VERDICT_ETCD_HEAVY_USECS,
	    VERDICT_MIN_OPS_P99);
	add(a, "etcd_write_sync_p99", row, &row->total, 99.0, VERDICT_ETCD_USECS,
	    VERDICT_MIN_OPS_P99);
	add(a, "etcd_write_sync_p99_heavy", row, &row->total, 99.0, VERDICT_ETCD_HEAVY_USECS,
	    VERDICT_MIN_OPS_P99);
	add(a, "etcd_sync_p999", row, sync, 99.9, 0, VERDICT_MIN_OPS_P999);
	add(a, "etcd_worst_stall", row, &row->total, 100.0, VERDICT_ETCD_STALL_USECS, 1);
	add_durability(a, row, caution);
}

const struct verdict *
verdict_find(const struct advice *a, const char *code)
{
	size_t i;

	for (i = 0; i < a->nverdicts; i++)
		if (strcmp(a->verdicts[i].code, code) == 0)
			return &a->verdicts[i];
	return NULL;
}
