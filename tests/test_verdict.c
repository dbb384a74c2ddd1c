/* test_verdict.c: etcd's verdict rule at its boundaries, on made-up rows:
 * 10 ms and 2 ms exactly (not under them: no pass), just below them, too
 * few operations for a p99 or a p99.9, and the warnings that turn a fast
 * figure into no pass. The rule is pure, so every case is exact. */
#include "config.h"

#include <string.h>

#include "advice/advice.h"
#include "advice/verdict.h"
#include "advice/warnings.h"
#include "probe/method.h"
#include "probe/row.h"
#include "tap.h"

/* Rows are large (three histograms each): static, not on the stack. */
static struct row_result rows[2];
static struct advice adv;

/* -t etcd's two rows; the paced one has ops appends, each a 5 us write
 * and a sync of sync_ns (the last one's sync last_ns instead, when not 0). */
static void
make_rows(uint64_t ops, uint64_t sync_ns, uint64_t last_ns)
{
	int paced;
	uint64_t k, t = 0;

	for (paced = 0; paced <= 1; paced++) {
		struct row_spec s;

		memset(&s, 0, sizeof s);
		s.group = GROUP_ETCD;
		s.io = method_find("fdatasync");
		s.kind = OP_WRITE_SYNC;
		s.writes_per_op = 1;
		s.write_bytes = 2300;
		s.segment_bytes = 64000000;
		s.pace_per_sec = paced ? 150 : 0;
		snprintf(s.name, sizeof s.name, paced ? "fdatasync 2300B, 150/s" :
		    "fdatasync 2300B, back to back");
		row_init(&rows[paced], &s);
	}
	for (k = 0; k < ops; k++) {
		uint64_t sync = k + 1 == ops && last_ns ? last_ns : sync_ns;

		row_record(&rows[1], t, t + 5000, t + 5000 + sync);
		t += 5000 + sync;
	}
	rows[1].ops = ops;
	rows[1].elapsed_ns = t;
	row_finish(&rows[0]);
	row_finish(&rows[1]);
	memset(&adv, 0, sizeof adv);
}

static enum verdict_result
result_of(const char *code)
{
	const struct verdict *v = verdict_find(&adv, code);

	return v != NULL ? v->result : (enum verdict_result)-1;
}

static void
test_judge(void)
{
	ok(verdict_judge(9999.999, 10000, 100, 100) == VERDICT_PASS, "just under 10 ms: pass");
	ok(verdict_judge(10000.0, 10000, 100, 100) == VERDICT_FAIL,
	    "10 ms exactly is not under 10 ms: fail");
	ok(verdict_judge(10000.001, 10000, 100, 100) == VERDICT_FAIL, "over 10 ms: fail");
	ok(verdict_judge(1999.999, 2000, 100, 100) == VERDICT_PASS, "just under 2 ms: pass");
	ok(verdict_judge(2000.0, 2000, 100, 100) == VERDICT_FAIL, "2 ms exactly: fail");
	ok(verdict_judge(50, 10000, 99, 100) == VERDICT_TOO_FEW,
	    "99 operations for a p99: too few, not a pass");
	ok(verdict_judge(50000, 10000, 99, 100) == VERDICT_TOO_FEW,
	    "99 operations: too few, not a fail either");
	ok(verdict_judge(50, 10000, 100, 100) == VERDICT_PASS, "100 operations: judged");
	ok(verdict_judge(50, 10000, 0, 100) == VERDICT_NOT_RUN, "no operations: not run");
	ok(verdict_judge(-1, 10000, 100, 100) == VERDICT_NOT_RUN, "no figure: not run");
	ok(verdict_judge(50, 0, 1000, 1000) == VERDICT_MEASURED, "no limit: measured");
	ok(strcmp(verdict_result_name(VERDICT_UNPROVEN), "not_proven_durable") == 0 &&
	    strcmp(verdict_result_name(VERDICT_TOO_FEW), "too_few_ops") == 0 &&
	    strcmp(verdict_result_name(VERDICT_NO_DOUBT), "no_doubt_found") == 0,
	    "result names as the JSON prints them");
}

static void
test_rows(void)
{
	const struct verdict *v;

	/* Every sync 10 ms exactly: the p99 is 10 ms, not under it. */
	make_rows(100, 10000000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(adv.nverdicts == 7, "seven verdicts");
	v = verdict_find(&adv, "etcd_sync_p99");
	ok(v != NULL && v->value_usecs == 10000.0 && v->result == VERDICT_FAIL,
	    "syncs of exactly 10 ms: etcd_sync_p99 fails");
	ok(result_of("etcd_write_sync_p99") == VERDICT_FAIL, "write + sync over 10 ms: fails");
	ok(v != NULL && strcmp(v->row, "fdatasync 2300B, 150/s") == 0, "the paced row is read");

	make_rows(100, 9000000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_PASS, "syncs of 9 ms: fast enough");
	ok(result_of("etcd_sync_p99_heavy") == VERDICT_FAIL, "syncs of 9 ms: not for heavy load");

	/* Exactly 2 ms: not under 2 ms; the write makes write + sync more. */
	make_rows(100, 2000000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99_heavy") == VERDICT_FAIL, "syncs of exactly 2 ms: heavy fails");
	ok(result_of("etcd_sync_p99") == VERDICT_PASS, "syncs of exactly 2 ms: fast enough");

	make_rows(100, 1900000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99_heavy") == VERDICT_PASS, "syncs of 1.9 ms: heavy passes");

	make_rows(99, 100000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_TOO_FEW &&
	    result_of("etcd_write_sync_p99_heavy") == VERDICT_TOO_FEW,
	    "99 appends: no p99 verdict, too few");

	make_rows(999, 100000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p999") == VERDICT_TOO_FEW, "999 appends: too few for a p99.9");
	make_rows(1000, 100000, 0);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p999") == VERDICT_MEASURED, "1000 appends: a p99.9");

	/* One stall of exactly a second among fast syncs. */
	make_rows(1000, 100000, 1000000000 - 5000);
	verdict_etcd(rows, 2, &adv);
	v = verdict_find(&adv, "etcd_worst_stall");
	ok(v != NULL && v->value_usecs == 1000000.0 && v->result == VERDICT_FAIL,
	    "a stall of exactly 1 s (write + sync): the worst stall fails");
	ok(result_of("etcd_sync_p99") == VERDICT_PASS, "one stall in 1000: the p99 still passes");
}

/* The durability doubt is its own code: a warning never turns a latency
 * verdict into anything but its figure's. */
static void
test_caution(void)
{
	make_rows(100, 100000, 0);
	warnings_add(&adv, WARNING_WRITEBACK_CACHE);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_PASS && result_of("etcd_durability") ==
	    VERDICT_NO_DOUBT, "a volatile write cache alone (a flush that costs): pass, "
	    "and no doubt found");

	make_rows(100, 100000, 0);
	warnings_add(&adv, WARNING_ROTATIONAL_TOO_FAST);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_PASS && result_of("etcd_sync_p99_heavy") ==
	    VERDICT_PASS, "flushes faster than the disk turns: the latency passes on its own");
	ok(result_of("etcd_durability") == VERDICT_UNPROVEN &&
	    strcmp(verdict_find(&adv, "etcd_durability")->caution, "rotational_too_fast") == 0 &&
	    verdict_find(&adv, "etcd_sync_p99")->caution == NULL,
	    "the doubt is its own code, naming the warning; the latency has no caution");
	ok(result_of("etcd_sync_p999") == VERDICT_TOO_FEW, "the p99.9 has no limit to pass");

	make_rows(100, 20000000, 0);
	warnings_add(&adv, WARNING_IMPLAUSIBLE_FLUSH);
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_FAIL && result_of("etcd_durability") ==
	    VERDICT_UNPROVEN, "slow and doubted: a fail, and the doubt beside it");
	ok(verdict_caution(&adv) != NULL && strcmp(verdict_caution(&adv), "implausible_flush") == 0,
	    "the caution names the warning");
}

static void
test_absent(void)
{
	make_rows(100, 100000, 0);
	rows[1].spec.group = GROUP_ONE;	/* no paced etcd row */
	rows[1].spec.pace_per_sec = 0;
	verdict_etcd(rows, 2, &adv);
	ok(adv.nverdicts == 0, "no -t etcd: no verdicts");

	make_rows(0, 100000, 0);
	rows[1].status = ROW_ERROR;
	verdict_etcd(rows, 2, &adv);
	ok(result_of("etcd_sync_p99") == VERDICT_NOT_RUN &&
	    result_of("etcd_durability") == VERDICT_NOT_RUN, "the paced row failed: not run");
}

int
main(void)
{
	test_judge();
	test_rows();
	test_caution();
	test_absent();
	return tap_done();
}
