/* run.c: one target from start to finish. Rows of a group are measured in
 * rounds, round-robin, each row getting a slice of its time in every round,
 * so that drift in the machine is shared between the methods fairly. */
#include "config.h"

#include "probe/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/cleanup.h"
#include "probe/plan.h"
#include "util/platform.h"
#include "probe/precision.h"
#include "probe/probe.h"
#include "probe/testfile.h"

#define PROGRESS_OPS 100	/* with --ops-per-test, redraw this often */

/* Whether a row is expected to run here (a method and direct I/O the
 * system has, and not found unable to run): what the progress line counts
 * and times. */
static bool
row_expected(const struct row_result *res)
{
	const struct row_spec *spec = &res->spec;

	if (res->status != ROW_OK)
		return false;
	if (spec->io != NULL && method_unavailable(spec->io) != NULL)
		return false;
	return !spec->direct || platform_direct_unavailable() == NULL;
}

/* The operations a row runs: -n's count, or without -s and -n the row's
 * own count where it has one (-t etcd); 0: it runs for a time. */
static uint64_t
count_goal(const struct options *o, const struct row_spec *spec)
{
	if (o->ops_per_test)
		return o->ops_per_test;
	return o->adaptive ? spec->default_ops : 0;
}

/* Whether the row runs until its mean is known (precision.h). */
static bool
row_adaptive(const struct options *o, const struct row_spec *spec)
{
	return o->adaptive && spec->default_ops == 0;
}

/* When an adaptive row stops: rows the advice reads get more time, since
 * the advice rests on their means, and most the one-write rows that
 * commit_delay is half of; the others a short ceiling. */
static void
limits_for(const struct options *o, const struct row_spec *spec, struct precision_limits *lim)
{
	bool advice_row = plan_advice_reads(spec, o->direct == DIRECT_ON);

	lim->min_slices = o->rounds;
	lim->min_ops = ADAPTIVE_MIN_OPS;
	lim->target = PRECISION_TARGET;
	if (advice_row && spec->group == GROUP_ONE)
		lim->ceiling_ns = ADAPTIVE_BASIS_CEILING_NS;
	else if (advice_row)
		lim->ceiling_ns = ADAPTIVE_ADVICE_CEILING_NS;
	else
		lim->ceiling_ns = ADAPTIVE_OTHER_CEILING_NS;
	lim->hard_ns = advice_row ? ADAPTIVE_ADVICE_CAP_NS : ADAPTIVE_OTHER_CAP_NS;
}

/* The time a row is expected to take: -s's, or an adaptive row's ceiling
 * (the most it takes on a disk that is not slow). */
static uint64_t
row_budget_ns(const struct options *o, const struct row_result *res)
{
	const struct row_spec *spec = &res->spec;
	struct precision_limits lim;
	uint64_t goal = count_goal(o, spec);

	/* A count: a paced row's takes its rate; a row back to back, what
	 * its operations took so far. */
	if (goal && spec->pace_per_sec)
		return goal * NSEC_PER_SEC / spec->pace_per_sec;
	if (goal)
		return res->ops ? res->elapsed_ns / res->ops * goal : 0;
	if (!o->adaptive)
		return o->test_ns;
	limits_for(o, spec, &lim);
	return lim.ceiling_ns;
}

/* The time the run still needs: the rest of each expected row of this
 * target from the group at first on, and the whole plan for each target
 * after it (adaptive: at most that; rows often stop sooner). */
static double
secs_left(const struct options *o, const struct run_result *tr, size_t first,
    const struct run *h)
{
	uint64_t ns = 0, plan_ns = 0;
	size_t i;

	for (i = 0; i < tr->nrows; i++) {
		const struct row_result *res = &tr->rows[i];
		uint64_t budget;

		if (!row_expected(res))
			continue;
		budget = row_budget_ns(o, res);
		plan_ns += budget;
		if (i >= first && (!row_adaptive(o, &res->spec) || !res->capped))
			ns += res->elapsed_ns >= budget ? 0 : budget - res->elapsed_ns;
	}
	return row_secs(ns + plan_ns * (h->ntargets - h->target_no));
}

/* Redraw the progress line for row i (of the group starting at first). */
static void
show_progress(const struct options *o, const struct run_result *tr, size_t first,
    size_t i, const struct run *h)
{
	struct progress_line l;
	size_t j;

	memset(&l, 0, sizeof l);
	l.target = tr->path;
	l.target_no = h->target_no;
	l.ntargets = h->ntargets;
	l.group = plan_group_name(tr->rows[i].spec.group);
	l.row = tr->rows[i].spec.name;
	for (j = 0; j < tr->nrows; j++) {
		if (j == 0 || tr->rows[j].spec.group != tr->rows[j - 1].spec.group) {
			l.ngroups++;
			if (j <= i)
				l.group_no = l.ngroups;
		}
		if (row_expected(&tr->rows[j])) {
			l.nrows++;
			if (j <= i)
				l.row_no = l.nrows;
		}
	}
	l.secs_left = o->ops_per_test ? -1.0 : secs_left(o, tr, first, h);
	progress_show(h->progress, &l);
}

/* The slice of a row's budget that round r gets: a share of -n's count,
 * or every operation that fits the slice's time. */
static uint64_t
slice_ops(const struct options *o, const struct row_spec *spec, unsigned r)
{
	uint64_t goal = count_goal(o, spec);

	if (goal == 0)
		return UINT64_MAX;
	return goal / o->rounds + (r < goal % o->rounds ? 1 : 0);
}

static uint64_t
slice_ns(const struct options *o, const struct row_spec *spec)
{
	if (row_adaptive(o, spec))
		return ADAPTIVE_SLICE_NS;
	return count_goal(o, spec) ? 0 : o->test_ns / o->rounds;
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
	if (!row_adaptive(o, &res->spec))
		return r < o->rounds;
	limits_for(o, &res->spec, &lim);
	st = precision_check(res->ops, res->elapsed_ns, res->slices, res->nslices, &lim);
	res->capped = st == PRECISION_CAPPED;
	return st == PRECISION_MORE;
}

/* Run one slice of row i, in pieces when a progress line is shown, so it
 * can be redrawn between them; the timed loop itself never draws. A stop
 * signal ends it early. */
static int
run_slice(const struct options *o, struct row_run *run, struct run_result *tr,
    size_t first, size_t i, unsigned r, const struct run *h)
{
	struct row_result *res = &tr->rows[i];
	uint64_t goal = count_goal(o, &res->spec);
	uint64_t ops_left = slice_ops(o, &res->spec, r), ns_left = slice_ns(o, &res->spec);
	uint64_t before_ops = res->ops, before_ns = res->elapsed_ns;
	int rc = 0;

	while (rc == 0 && ops_left > 0 && cleanup_stop_signal() == 0) {
		uint64_t ops = ops_left, ns = ns_left;
		uint64_t ops_then = res->ops, ns_then = res->elapsed_ns, spent;

		if (h->progress->enabled) {
			show_progress(o, tr, first, i, h);
			if (goal == 0 && ns > PROGRESS_INTERVAL_NS)
				ns = PROGRESS_INTERVAL_NS;
			if (goal != 0 && ops > PROGRESS_OPS)
				ops = PROGRESS_OPS;
		}
		rc = probe_row_slice(run, res, ops, ns);
		if (goal) {
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
stop_with_error(struct run_result *tr, const struct row_result *res)
{
	tr->failed = true;
	snprintf(tr->error, sizeof tr->error, "%s", res->reason);
}

/* A stop signal came in round r at row i of the group [first, last): the
 * rows that never had a turn are cut (the group ends before them), and
 * each row keeps the slices of the rounds it had. The end of the group. */
static size_t
cut_at_stop(struct run_result *tr, size_t first, size_t last, unsigned r, size_t i)
{
	size_t j;

	if (r == 0)
		last = tr->rows[i].ops > 0 ? i + 1 : i;
	for (j = first; j < last; j++) {
		struct row_result *res = &tr->rows[j];

		while (res->nslices > 0 && res->slices[res->nslices - 1].ops == 0)
			res->nslices--;
	}
	tr->interrupted = true;
	return last;
}

/* The group [first, last) ends with its row that failed. */
static size_t
after_error(const struct run_result *tr, size_t first, size_t last)
{
	size_t i;

	for (i = first; i < last; i++)
		if (tr->rows[i].status == ROW_ERROR)
			return i + 1;
	return last;
}

/* Measure rows [first, *last), all of one group; *last becomes the end of
 * what was measured when a stop signal cut the group short. */
static enum exit_status
run_group(const struct options *o, const struct testfile *tf, unsigned char *buf,
    uint64_t batch_below_ns, struct run_result *tr, size_t first, size_t *last,
    const struct run *h)
{
	struct row_run runs[PLAN_MAX_ROWS];
	uint64_t tail = 0;	/* the segment's one tail, for segment rows */
	size_t i, end = *last, stop_row = first;
	unsigned r, stop_round = 0;
	bool stopped = false;
	enum exit_status rc = STATUS_OK;

	for (i = first; i < end; i++) {
		struct row_result *res = &tr->rows[i];

		probe_row_open(&runs[i - first], res, tf, o->pattern, buf);
		runs[i - first].batch_below_ns = batch_below_ns;
		if (res->spec.segment_bytes > 0)
			runs[i - first].tail = &tail;
		if (res->status == ROW_ERROR) {
			stop_with_error(tr, res);
			rc = STATUS_IO;
			end = i + 1;
			break;
		}
	}
	/* Round-robin until no row wants another slice. */
	for (r = 0; rc == STATUS_OK && !stopped; r++) {
		bool any = false;

		for (i = first; i < end && rc == STATUS_OK; i++) {
			struct row_result *res = &tr->rows[i];

			if (!wants_slice(o, res, r))
				continue;
			any = true;
			if (run_slice(o, &runs[i - first], tr, first, i, r, h) == -1 &&
			    res->status == ROW_ERROR) {
				stop_with_error(tr, res);
				rc = STATUS_IO;
			}
			if (cleanup_stop_signal() != 0) {
				stopped = true;
				stop_round = r;
				stop_row = i;
				break;
			}
		}
		if (!any)
			break;
	}
	for (i = first; i < end; i++) {
		struct row_result *res = &tr->rows[i];

		if (probe_row_close(&runs[i - first], res) == -1 && rc == STATUS_OK) {
			stop_with_error(tr, res);
			rc = STATUS_IO;
		}
		row_finish(res);
	}
	if (rc != STATUS_OK)
		end = after_error(tr, first, end);
	else if (stopped)
		end = cut_at_stop(tr, first, end, stop_round, stop_row);
	*last = end;
	return rc;
}

/* The largest write of the rows, and at least one block (-t group alone
 * has no rows). */
static size_t
largest_write(const struct row_result *rows, size_t n, size_t block)
{
	size_t i, max = block;

	for (i = 0; i < n; i++)
		if (rows[i].spec.write_bytes > max)
			max = rows[i].spec.write_bytes;
	return max;
}

/* The rows of the plan, each with room for its slices. -1 when memory ran
 * out (what was allocated is run_free's). */
static int
alloc_rows(const struct options *o, struct run_result *tr)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	size_t i, n = plan_build(o, specs, PLAN_MAX_ROWS);

	/* -t group alone plans no row: still a (one-row) array to free. */
	tr->rows = calloc(n ? n : 1, sizeof *tr->rows);
	if (tr->rows == NULL)
		return -1;
	tr->nrows = n;
	for (i = 0; i < n; i++) {
		struct row_result *res = &tr->rows[i];

		/* calloc's rows: the histograms' unused pages cost nothing. */
		row_init_zeroed(res, &specs[i]);
		/* Every round a row can have: a fixed run's --rounds, or as many
		 * 20ms rounds as an adaptive row's cap holds. */
		if (row_reserve_slices(res, o->adaptive ?
		    (unsigned)(ADAPTIVE_ADVICE_CAP_NS / ADAPTIVE_SLICE_NS) + o->rounds :
		    o->rounds) == -1)
			return -1;
	}
	return 0;
}

/* Only rows [0, n) were measured: drop the others from the report. */
static void
cut_rows(struct run_result *tr, size_t n)
{
	size_t i;

	for (i = n; i < tr->nrows; i++)
		free(tr->rows[i].slices);
	if (n < tr->nrows)
		tr->nrows = n;
}

/* The rows from r->next to r->stop are those of the open file: measure
 * them from here, timing operations shorter than this many clock reads in
 * batches, so that reading the clock costs them under 1%. */
static void
start_file_rows(struct run *r, size_t first, size_t stop)
{
	r->batch_below_ns = BATCH_CLOCK_READS * platform_clock_read_ns();
	r->next = first;
	r->stop = stop;
	r->res->measured = true;
}

/* The open file, the segment's once it is open. */
static const struct testfile *
open_file(const struct run *r)
{
	return r->seg_open ? &r->seg : &r->tf;
}

bool
run_next_group(struct run *r, size_t *first, size_t *last)
{
	struct run_result *tr = r->res;
	size_t end, group_end;

	if (r->next >= r->stop || r->rc != STATUS_OK || tr->interrupted) {
		progress_clear(r->progress);
		return false;
	}
	if (cleanup_stop_signal() != 0) {
		tr->interrupted = true;
		cut_rows(tr, r->next);
		progress_clear(r->progress);
		return false;
	}
	for (group_end = r->next; group_end < r->stop &&
	    tr->rows[group_end].spec.group == tr->rows[r->next].spec.group; group_end++)
		;
	end = group_end;
	r->rc = run_group(r->o, open_file(r), r->buf, r->batch_below_ns, tr, r->next, &end, r);
	/* Rows after an error or a stop never ran. */
	if (r->rc != STATUS_OK || tr->interrupted)
		cut_rows(tr, end);
	progress_clear(r->progress);
	*first = r->next;
	*last = end;
	r->next = group_end;
	if (end > *first)
		return true;
	progress_clear(r->progress);
	return false;
}

/* Remove f (the test file or a segment) once its rows are measured; a
 * failed removal is the run's I/O error. */
static void
remove_file(struct run *r, struct testfile *f)
{
	char rmerr[REASON_LEN];

	if (safefile_remove(&f->file, rmerr, sizeof rmerr) == -1 && r->rc == STATUS_OK) {
		r->res->failed = true;
		snprintf(r->res->error, sizeof r->res->error, "%s", rmerr);
		r->rc = STATUS_IO;
	}
}

/* The first row that appends to a segment of its own: those come last in
 * the plan, and run on their own file once the test file is gone, so that
 * there is never more than one file to remove. */
static size_t
first_segment_row(const struct run_result *tr)
{
	size_t i;

	for (i = 0; i < tr->nrows; i++)
		if (tr->rows[i].spec.segment_bytes > 0)
			return i;
	return tr->nrows;
}

/* The target directory's device, to tell targets on one filesystem. */
static void
note_filesystem(struct run_result *tr, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		tr->have_fs_dev = true;
		tr->fs_dev = st.st_dev;
	}
}

/* Whether anything of the plan uses the probe's test file: a row before
 * the segment rows, or an experiment (which runs on it). */
static bool
test_file_needed(const struct options *o, const struct run_result *tr, size_t seg_first)
{
	size_t i;

	if (seg_first > 0 || tr->nrows == 0)
		return true;
	for (i = 0; i < GROUP_COUNT; i++)
		if ((o->groups & (1u << i)) && group_table[i].experiment)
			return true;
	return false;
}

/* What follows the file's creation whichever file came first: the
 * storage under it; the target is ready. */
static void
target_ready(const char *dir, struct run_result *tr)
{
	/* Probed once the file exists, so that -f's directory is the one
	 * described; what cannot be found stays unknown. */
	if (storage_probe(dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH, &tr->storage) == -1)
		storage_info_init(&tr->storage);
	note_filesystem(tr, dir);
}

/* Only segment rows (-t etcd alone): their segment is the one file made,
 * created first as the test file would be, so that a target that cannot
 * be used (no room for the segment) is refused before anything is
 * printed; the 16MB test file no row would read is never made. */
static enum exit_status
open_segment_only(struct run *r, const char *dir)
{
	struct run_result *tr = r->res;
	enum exit_status rc = testfile_create_segment(&r->seg, dir,
	    tr->rows[0].spec.segment_bytes, tr->error, sizeof tr->error);

	if (rc != STATUS_OK)
		return rc;
	r->seg_open = true;
	target_ready(r->seg.file.dir, tr);
	start_file_rows(r, 0, tr->nrows);
	return STATUS_OK;
}

enum exit_status
run_open(struct run *r, const struct options *o, const char *dir, struct progress *p,
    size_t target_no, size_t ntargets, struct run_result *tr)
{
	enum exit_status rc;

	memset(r, 0, sizeof *r);
	memset(tr, 0, sizeof *tr);
	r->o = o;
	r->res = tr;
	r->progress = p;
	r->target_no = target_no;
	r->ntargets = ntargets;
	tr->path = o->filename ? o->filename : dir;
	/* Everything the run needs is allocated before the test file
	 * exists: running out of memory leaves nothing to clean up. */
	if (alloc_rows(o, tr) == -1 ||
	    (r->buf = probe_alloc_buffer(largest_write(tr->rows, tr->nrows,
	    o->block_bytes))) == NULL) {
		snprintf(tr->error, sizeof tr->error, "%s: out of memory", tr->path);
		return r->rc = STATUS_IO;
	}
	r->seg_first = first_segment_row(tr);
	if (!test_file_needed(o, tr, r->seg_first))
		rc = open_segment_only(r, dir);
	else if ((rc = testfile_create(&r->tf, dir, o->filename, o->file_bytes,
	    o->block_bytes, tr->error, sizeof tr->error)) == STATUS_OK) {
		r->test_file_open = true;
		target_ready(r->tf.file.dir, tr);
		start_file_rows(r, 0, r->seg_first);
	}
	if (rc != STATUS_OK) {
		free(r->buf);
		r->buf = NULL;
	}
	return r->rc = rc;
}

const struct testfile *
run_test_file(const struct run *r)
{
	return r->test_file_open && r->rc == STATUS_OK && !r->res->interrupted ? &r->tf : NULL;
}

enum exit_status
run_close_test_file(struct run *r, enum exit_status rc)
{
	struct run_result *tr = r->res;
	char segdir[PATH_MAX];

	if (!r->test_file_open)
		return r->rc;
	if (r->rc == STATUS_OK)
		r->rc = rc;
	progress_clear(r->progress);
	snprintf(segdir, sizeof segdir, "%s", r->tf.file.dir);
	remove_file(r, &r->tf);
	r->test_file_open = false;
	if (r->rc != STATUS_OK || tr->interrupted) {
		cut_rows(tr, r->seg_first < tr->nrows ? r->seg_first : tr->nrows);
		return r->rc;
	}
	if (r->seg_first >= tr->nrows)
		return r->rc;
	r->rc = testfile_create_segment(&r->seg, segdir, tr->rows[r->seg_first].spec.segment_bytes,
	    tr->error, sizeof tr->error);
	if (r->rc != STATUS_OK) {
		/* The rows measured before stand; these never ran. */
		tr->failed = true;
		cut_rows(tr, r->seg_first);
		return r->rc;
	}
	r->seg_open = true;
	start_file_rows(r, r->seg_first, tr->nrows);
	return r->rc;
}

enum exit_status
run_close(struct run *r)
{
	if (r->seg_open) {
		remove_file(r, &r->seg);
		r->seg_open = false;
	}
	progress_clear(r->progress);
	free(r->buf);
	r->buf = NULL;
	return r->rc;
}

void
run_free(struct run_result *tr)
{
	size_t i;

	for (i = 0; i < tr->nrows; i++)
		free(tr->rows[i].slices);
	free(tr->rows);
	tr->rows = NULL;
	tr->nrows = 0;
}
