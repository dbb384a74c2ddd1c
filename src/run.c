/* run.c: one target from start to finish. Rows of a group are measured in
 * rounds, round-robin, each row getting a slice of its time in every round,
 * so that drift in the machine is shared between the methods fairly. */
#include "config.h"

#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group_result.h"
#include "plan.h"
#include "platform.h"
#include "probe.h"
#include "testfile.h"

#define PROGRESS_OPS 100	/* with --ops-per-test, redraw this often */

/* The slice of a row's budget that round r gets. */
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
	return o->ops_per_test ? 0 : o->test_ns / o->rounds;
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
			double left = o->ops_per_test ? -1.0 :
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
	if (res->slices != NULL && r < res->nslices) {
		res->slices[r].ops = res->ops - before_ops;
		res->slices[r].ns = res->elapsed_ns - before_ns;
	}
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
    struct target_result *tr, size_t first, size_t last, const char *target,
    struct progress *p)
{
	struct row_run runs[PLAN_MAX_ROWS];
	size_t i;
	unsigned r;
	enum exit_status rc = STATUS_OK;

	for (i = first; i < last; i++) {
		struct row_result *res = &tr->rows[i];

		probe_row_open(&runs[i - first], res, tf, o->pattern, buf);
		res->slices = calloc(o->rounds, sizeof *res->slices);
		res->nslices = res->slices ? o->rounds : 0;
		if (res->status == ROW_ERROR) {
			stop_with_error(tr, res);
			rc = STATUS_IO;
			last = i + 1;
			break;
		}
	}
	for (r = 0; r < o->rounds && rc == STATUS_OK; r++) {
		for (i = first; i < last && rc == STATUS_OK; i++) {
			struct row_result *res = &tr->rows[i];

			if (res->status != ROW_OK)
				continue;
			if (run_slice(o, &runs[i - first], res, r, target, p) == -1 &&
			    res->status == ROW_ERROR) {
				stop_with_error(tr, res);
				rc = STATUS_IO;
			}
		}
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
	size_t i, max = 1;	/* a buffer even when no group has rows */

	for (i = 0; i < n; i++)
		if (rows[i].spec.write_bytes > max)
			max = rows[i].spec.write_bytes;
	return max;
}

static enum exit_status
measure(const struct options *o, const struct testfile *tf, struct target_result *tr,
    const char *target, struct progress *p)
{
	unsigned char *buf = probe_alloc_buffer(largest_write(tr->rows, tr->nrows));
	size_t first = 0, last;
	enum exit_status rc = STATUS_OK;

	if (buf == NULL) {
		snprintf(tr->error, sizeof tr->error, "%s: out of memory", target);
		return STATUS_USAGE;
	}
	tr->measured = true;
	while (first < tr->nrows && rc == STATUS_OK) {
		for (last = first; last < tr->nrows &&
		    tr->rows[last].spec.group == tr->rows[first].spec.group; last++)
			;
		rc = run_group(o, tf, buf, tr, first, last, target, p);
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
	free(buf);
	progress_clear(p);
	return rc;
}

enum exit_status
run_target(const struct options *o, const char *dir, struct progress *p,
    struct target_result *tr)
{
	struct row_spec specs[PLAN_MAX_ROWS];
	struct testfile tf;
	char rmerr[REASON_LEN];
	size_t i;
	enum exit_status rc;

	memset(tr, 0, sizeof *tr);
	tr->path = o->filename ? o->filename : dir;
	tr->nrows = plan_build(o, specs, PLAN_MAX_ROWS);
	tr->rows = calloc(tr->nrows ? tr->nrows : 1, sizeof *tr->rows);
	if (tr->rows == NULL) {
		snprintf(tr->error, sizeof tr->error, "%s: out of memory", tr->path);
		return STATUS_USAGE;
	}
	for (i = 0; i < tr->nrows; i++)
		row_init(&tr->rows[i], &specs[i]);

	if (testfile_create(&tf, dir, o->filename, o->file_bytes, o->block_bytes,
	    tr->error, sizeof tr->error) == -1)
		return STATUS_USAGE;
	/* Probed once the file exists, so that -f's directory is the one
	 * described; what cannot be found stays unknown. */
	if (storage_probe(tf.dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH, &tr->storage) == -1)
		storage_info_init(&tr->storage);
	rc = measure(o, &tf, tr, tr->path, p);
	/* Groups that are not rows (the group-commit experiment) come last,
	 * on the same file: it is removed at the end. */
	for (i = 0; i < GROUP_COUNT && rc == STATUS_OK; i++)
		if ((o->groups & (1u << i)) && group_table[i].run != NULL)
			rc = group_table[i].run(o, &tf, tr, p);
	progress_clear(p);
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
	group_result_free(tr->group);
	tr->group = NULL;
}
