/* run.c: one target from start to finish. Rows of a group are measured in
 * rounds, round-robin, each row getting a slice of its time in every round,
 * so that drift in the machine is shared between the methods fairly. */
#include "config.h"

#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "plan.h"
#include "precision.h"
#include "platform.h"
#include "probe.h"
#include "testfile.h"

#define PROGRESS_OPS 100	/* with --ops-per-test, redraw this often */

/* The slice of a row's budget that round r gets: a share of -n's count,
 * or every operation that fits the slice's time. */
static uint64_t
slice_ops(const struct options *o, unsigned r)
{
	if (o->ops_per_test == 0)
		return UINT64_MAX;
	return o->ops_per_test / o->rounds + (r < o->ops_per_test % o->rounds ? 1 : 0);
}

static uint64_t
slice_ns(const struct options *o)
{
	if (o->adaptive)
		return ADAPTIVE_SLICE_NS;
	return o->ops_per_test ? 0 : o->test_ns / o->rounds;
}

/* When an adaptive row stops: rows the advice reads get more time, since
 * the advice rests on their means; the others a short ceiling. */
static void
limits_for(const struct options *o, const struct row_spec *spec, struct precision_limits *lim)
{
	bool advice_row = advice_reads_row(spec, o->direct == DIRECT_ON);

	lim->min_slices = o->rounds;
	lim->min_ops = ADAPTIVE_MIN_OPS;
	lim->target = PRECISION_TARGET;
	lim->ceiling_ns = advice_row ? ADAPTIVE_ADVICE_CEILING_NS : ADAPTIVE_OTHER_CEILING_NS;
	lim->hard_ns = advice_row ? ADAPTIVE_ADVICE_CAP_NS : ADAPTIVE_OTHER_CAP_NS;
}

/* Whether the row gets a slice in round r; marks an adaptive row capped
 * when its time ran out first. */
static bool
wants_slice(const struct options *o, struct row_result *res, unsigned r)
{
	struct precision_limits lim;
	enum precision_state st;

	if (res->status != ROW_OK)
		return false;
	if (!o->adaptive)
		return r < o->rounds;
	limits_for(o, &res->spec, &lim);
	st = precision_check(res, &lim);
	res->capped = st == PRECISION_CAPPED;
	return st == PRECISION_MORE;
}

/* Run one slice, in pieces when a progress line is shown, so it can be
 * redrawn between them; the timed loop itself never draws. */
static int
run_slice(const struct options *o, struct row_run *run, struct row_result *res,
    unsigned r, const char *target, struct progress *p)
{
	uint64_t ops_left = slice_ops(o, r), ns_left = slice_ns(o);
	uint64_t before_ops = res->ops, before_ns = res->elapsed_ns;
	int rc = 0;

	while (rc == 0 && ops_left > 0) {
		uint64_t ops = ops_left, ns = ns_left;
		uint64_t ops_then = res->ops, ns_then = res->elapsed_ns, spent;

		if (p->enabled) {
			double left = o->ops_per_test || o->adaptive ? -1.0 :
			    row_secs((o->rounds - r - 1) * slice_ns(o) + ns_left);

			progress_show(p, target, res->spec.name, left, res->ops);
			if (o->ops_per_test == 0 && ns > PROGRESS_INTERVAL_NS)
				ns = PROGRESS_INTERVAL_NS;
			if (o->ops_per_test != 0 && ops > PROGRESS_OPS)
				ops = PROGRESS_OPS;
		}
		rc = probe_row_slice(run, res, ops, ns);
		if (o->ops_per_test) {
			ops_left -= res->ops - ops_then;
			continue;
		}
		/* A timed piece lasts at least its time: it stops at the first
		 * operation ending past the deadline. */
		spent = res->elapsed_ns - ns_then;
		ns_left = spent >= ns_left ? 0 : ns_left - spent;
		if (ns_left == 0)
			break;
	}
	/* A round that ran nothing (-n smaller than --rounds) is no slice. */
	if (res->ops > before_ops &&
	    row_add_slice(res, res->ops - before_ops, res->elapsed_ns - before_ns) == -1)
		row_fail(res, ROW_WHY_IO_ERROR, "%s: out of memory", res->spec.name);
	return rc;
}

static void
stop_with_error(struct target_result *tr, const struct row_result *res)
{
	tr->failed = true;
	snprintf(tr->error, sizeof tr->error, "%s", res->reason);
}

/* Measure rows [first, last), all of one group. */
static enum exit_status
run_group(const struct options *o, const struct testfile *tf, unsigned char *buf,
    uint64_t batch_below_ns, struct target_result *tr, size_t first, size_t last,
    const char *target, struct progress *p)
{
	struct row_run runs[PLAN_MAX_ROWS];
	size_t i;
	unsigned r;
	enum exit_status rc = STATUS_OK;

	for (i = first; i < last; i++) {
		struct row_result *res = &tr->rows[i];

		probe_row_open(&runs[i - first], res, tf, o->pattern, buf);
		runs[i - first].batch_below_ns = batch_below_ns;
		if (res->status == ROW_ERROR) {
			stop_with_error(tr, res);
			rc = STATUS_IO;
			last = i + 1;
			break;
		}
	}
	/* Round-robin until no row wants another slice. */
	for (r = 0; rc == STATUS_OK; r++) {
		bool any = false;

		for (i = first; i < last && rc == STATUS_OK; i++) {
			struct row_result *res = &tr->rows[i];

			if (!wants_slice(o, res, r))
				continue;
			any = true;
			if (run_slice(o, &runs[i - first], res, r, target, p) == -1 &&
			    res->status == ROW_ERROR) {
				stop_with_error(tr, res);
				rc = STATUS_IO;
			}
		}
		if (!any)
			break;
	}
	for (i = first; i < last; i++) {
		struct row_result *res = &tr->rows[i];

		if (probe_row_close(&runs[i - first], res) == -1 && rc == STATUS_OK) {
			stop_with_error(tr, res);
			rc = STATUS_IO;
		}
		row_finish(res);
	}
	return rc;
}

static size_t
largest_write(const struct row_result *rows, size_t n)
{
	size_t i, max = 0;

	for (i = 0; i < n; i++)
		if (rows[i].spec.write_bytes > max)
			max = rows[i].spec.write_bytes;
	return max;
}

/* The rows of the plan, each with a slice per round. -1 when memory ran
 * out (what was allocated is run_free's). */
static int
alloc_rows(const struct options *o, struct target_result *tr)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	size_t i, n = plan_build(o, specs, PLAN_MAX_ROWS);

	tr->rows = calloc(n, sizeof *tr->rows);
	if (tr->rows == NULL)
		return -1;
	tr->nrows = n;
	for (i = 0; i < n; i++) {
		struct row_result *res = &tr->rows[i];

		row_init(res, &specs[i]);
		/* Every round a row can have: a fixed run's --rounds, or as many
		 * 20ms rounds as an adaptive row's cap holds. */
		if (row_reserve_slices(res, o->adaptive ?
		    (unsigned)(ADAPTIVE_ADVICE_CAP_NS / ADAPTIVE_SLICE_NS) + o->rounds :
		    o->rounds) == -1)
			return -1;
	}
	return 0;
}

static enum exit_status
measure(const struct options *o, const struct testfile *tf, unsigned char *buf,
    struct target_result *tr, const char *target, struct progress *p)
{
	/* Operations shorter than this many clock reads are timed in batches,
	 * so that reading the clock costs them under 1%. */
	uint64_t batch_below_ns = BATCH_CLOCK_READS * platform_clock_read_ns();
	size_t first = 0, last;
	enum exit_status rc = STATUS_OK;

	tr->measured = true;
	while (first < tr->nrows && rc == STATUS_OK) {
		for (last = first; last < tr->nrows &&
		    tr->rows[last].spec.group == tr->rows[first].spec.group; last++)
			;
		rc = run_group(o, tf, buf, batch_below_ns, tr, first, last, target, p);
		first = last;
	}
	/* Rows after an error never ran: drop them from the report. */
	if (rc != STATUS_OK) {
		size_t i;

		for (i = 0; i < tr->nrows; i++)
			if (tr->rows[i].status == ROW_ERROR) {
				size_t j;

				for (j = i + 1; j < tr->nrows; j++)
					free(tr->rows[j].slices);
				tr->nrows = i + 1;
				break;
			}
	}
	progress_clear(p);
	return rc;
}

enum exit_status
run_target(const struct options *o, const char *dir, struct progress *p,
    struct target_result *tr)
{
	struct testfile tf;
	char rmerr[REASON_LEN];
	unsigned char *buf;
	enum exit_status rc;

	memset(tr, 0, sizeof *tr);
	tr->path = o->filename ? o->filename : dir;
	/* Everything the run needs is allocated before the test file
	 * exists: running out of memory leaves nothing to clean up. */
	if (alloc_rows(o, tr) == -1 ||
	    (buf = probe_alloc_buffer(largest_write(tr->rows, tr->nrows))) == NULL) {
		snprintf(tr->error, sizeof tr->error, "%s: out of memory", tr->path);
		return STATUS_IO;
	}
	rc = testfile_create(&tf, dir, o->filename, o->file_bytes, o->block_bytes,
	    tr->error, sizeof tr->error);
	if (rc != STATUS_OK) {
		free(buf);
		return rc;
	}
	/* Probed once the file exists, so that -f's directory is the one
	 * described; what cannot be found stays unknown. */
	if (storage_probe(tf.dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH, &tr->storage) == -1)
		storage_info_init(&tr->storage);
	rc = measure(o, &tf, buf, tr, tr->path, p);
	free(buf);
	if (testfile_remove(&tf, rmerr, sizeof rmerr) == -1 && rc == STATUS_OK) {
		tr->failed = true;
		snprintf(tr->error, sizeof tr->error, "%s", rmerr);
		rc = STATUS_IO;
	}
	return rc;
}

void
run_free(struct target_result *tr)
{
	size_t i;

	for (i = 0; i < tr->nrows; i++)
		free(tr->rows[i].slices);
	free(tr->rows);
	tr->rows = NULL;
	tr->nrows = 0;
}
