/* report_verdict.c: etcd's verdict in words, for the text report's advice:
 * the answer first (fast enough or not, for a normal and for a heavily
 * loaded cluster), then the figures behind it, then the durability doubt,
 * a line of its own. */
#include "config.h"

#include "report/report.h"

#include <stdio.h>

#include "advice/verdict.h"

/* The second limit's answer, in the first line's parenthesis. */
static const char *
heavy_answer(const struct verdict *heavy)
{
	return heavy->result == VERDICT_PASS ? "yes" : "no";
}

static void
answer_line(const struct verdict *v, const struct verdict *heavy, char *buf, size_t len)
{
	char ms[32];

	units_format_latency(v->value_usecs, LATENCY_MS, ms, sizeof ms);
	switch (v->result) {
	case VERDICT_PASS:
		snprintf(buf, len, "etcd: p99 %s %s: fast enough (under %g ms; under %g ms "
		    "for heavy load: %s)", v->sync_call, ms, VERDICT_ETCD_USECS / 1000.0,
		    VERDICT_ETCD_HEAVY_USECS / 1000.0, heavy_answer(heavy));
		return;
	case VERDICT_FAIL:
		snprintf(buf, len, "etcd: p99 %s %s: too slow (etcd needs it under %g ms; "
		    "under %g ms for heavy load: no)", v->sync_call, ms,
		    VERDICT_ETCD_USECS / 1000.0, VERDICT_ETCD_HEAVY_USECS / 1000.0);
		return;
	case VERDICT_TOO_FEW:
		snprintf(buf, len, "etcd: no verdict: the paced row ran %llu operations, "
		    "and a p99 needs at least %llu (run with -n %llu or more)",
		    (unsigned long long)v->ops, (unsigned long long)v->min_ops,
		    (unsigned long long)v->min_ops);
		return;
	default:
		snprintf(buf, len, "etcd: no verdict: the paced row did not run");
		return;
	}
}

static void
figures_line(const struct verdict *ws, const struct verdict *p999,
    const struct verdict *stall, char *buf, size_t len)
{
	char wsms[32], p999ms[48], stallms[32], missed[96] = "", over[96] = "";

	units_format_latency(ws->value_usecs, LATENCY_MS, wsms, sizeof wsms);
	if (p999->result == VERDICT_MEASURED)
		units_format_latency(p999->value_usecs, LATENCY_MS, p999ms, sizeof p999ms);
	else
		snprintf(p999ms, sizeof p999ms, "needs %llu operations",
		    (unsigned long long)p999->min_ops);
	units_format_latency(stall->value_usecs, LATENCY_MS, stallms, sizeof stallms);
	if (ws->missed_starts > 0)
		snprintf(missed, sizeof missed, "; %llu missed start%s (a sync outlasted "
		    "the interval)", (unsigned long long)ws->missed_starts,
		    ws->missed_starts == 1 ? "" : "s");
	if (stall->result == VERDICT_FAIL)
		snprintf(over, sizeof over, ", over the %g s after which etcd logs a slow "
		    "fdatasync", VERDICT_ETCD_STALL_USECS / 1e6);
	snprintf(buf, len, "(%llu appends paced at %llu/s: p99 write + %s %s, p99.9 %s "
	    "%s, worst stall %s%s%s)", (unsigned long long)ws->ops,
	    (unsigned long long)ws->pace_per_sec, ws->sync_call, wsms, ws->sync_call,
	    p999ms, stallms, over, missed);
}

/* The doubt, apart from the latency: what a warning says of durability,
 * in the words of its result's code (not_proven_durable, no_doubt_found). */
static void
doubt_line(const struct verdict *d, char *buf, size_t len)
{
	if (d->result == VERDICT_UNPROVEN)
		snprintf(buf, len, "etcd durability: not proven durable: warning [%s] says "
		    "these flushes may not reach durable storage, however fast (a power cut "
		    "would tell: syncprobe durability)", d->caution);
	else if (d->result == VERDICT_NO_DOUBT)
		snprintf(buf, len, "etcd durability: no doubt found: no warning casts doubt "
		    "on these flushes (a timing cannot prove them durable: syncprobe "
		    "durability can)");
	else
		buf[0] = '\0';
}

int
report_etcd_verdict(const struct advice *a, char *answer, char *figures, char *doubt,
    size_t len)
{
	const struct verdict *d = verdict_find(a, "etcd_durability");
	const struct verdict *v = verdict_find(a, "etcd_sync_p99");
	const struct verdict *heavy = verdict_find(a, "etcd_sync_p99_heavy");
	const struct verdict *ws = verdict_find(a, "etcd_write_sync_p99");
	const struct verdict *p999 = verdict_find(a, "etcd_sync_p999");
	const struct verdict *stall = verdict_find(a, "etcd_worst_stall");

	if (v == NULL || heavy == NULL || ws == NULL || p999 == NULL || stall == NULL ||
	    d == NULL)
		return 0;
	answer_line(v, heavy, answer, len);
	doubt_line(d, doubt, len);
	figures[0] = '\0';
	if (v->result != VERDICT_NOT_RUN && ws->ops > 0)
		figures_line(ws, p999, stall, figures, len);
	return 1;
}
