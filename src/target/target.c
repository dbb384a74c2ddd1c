/* target.c: a target's run, step by step: its rows measured group by
 * group, the experiment on its test file after them, the segment rows on
 * their own file, then everything judged once. Each step returns to the
 * caller, which prints what it streams in between. */
#include "config.h"

#include "target/target.h"

#include <stdio.h>
#include <string.h>

#include "advice/judge.h"
#include "advice/verdict.h"
#include "advice/warnings.h"
#include "group/group_result.h"
#include "group/group_run.h"
#include "probe/plan.h"

enum phase {
	PHASE_OPEN,		/* nothing made yet */
	PHASE_ROWS,		/* the rows on the test file */
	PHASE_EXPERIMENT,	/* the experiment on it, then the file removed */
	PHASE_SEGMENT_ROWS,	/* the rows on their own segment */
	PHASE_DONE,
};

void
target_begin(struct target_run *t, const struct options *o, const char *dir,
    struct progress *p, size_t target_no, size_t ntargets, struct target_result *tr)
{
	memset(t, 0, sizeof *t);
	memset(tr, 0, sizeof *tr);
	t->o = o;
	t->tr = tr;
	t->dir = dir;
	t->progress = p;
	t->target_no = target_no;
	t->ntargets = ntargets;
	t->phase = PHASE_OPEN;
}

/* The group-commit experiment, after the rows: it starts from what the
 * rows say (the method and the flush the rule halves), and the rule's
 * commit_delay is judged from what it measured. */
static enum exit_status
run_experiment(struct target_run *t, const struct testfile *tf)
{
	struct target_result *tr = t->tr;
	struct group_basis basis;
	struct run_status st;
	enum exit_status rc;

	memset(&st, 0, sizeof st);
	basis.path = tr->run.path;
	basis.method = judge_flush_basis(t->o, tr->run.rows, tr->run.nrows, &basis.row_usecs,
	    &basis.direct);
	rc = group_run(t->o, &basis, tf, t->progress, &st, &tr->group);
	if (tr->group != NULL)
		tr->group->rule_usecs = advice_commit_delay(tr->group->basis_usecs);
	if (st.failed) {
		tr->run.failed = true;
		snprintf(tr->run.error, sizeof tr->run.error, "%s", st.error);
	}
	if (st.interrupted)
		tr->run.interrupted = true;
	return rc;
}

/* Judge the measured target once: the advice from its rows and the
 * experiment's cells, the real length of the advised sleep (timed here,
 * after the test file is gone: it touches no disk), the warnings, other
 * systems' verdicts and what to set. */
static void
judge(const struct options *o, struct target_result *tr)
{
	const struct run_result *run = &tr->run;
	struct advice_input in;

	judge_input(o, &in);
	advice_compute(run->rows, run->nrows, &in, &tr->advice);
	if (tr->group != NULL)
		advice_from_group(tr->group, &tr->advice);
	/* After a stop signal nothing more is measured, the sleep neither. */
	if (!tr->advice.have_delay || run->interrupted ||
	    sleep_measure(tr->advice.commit_delay_usecs, 0, &tr->sleep) == -1)
		memset(&tr->sleep, 0, sizeof tr->sleep);
	warnings_compute(run->rows, run->nrows, &run->storage,
	    tr->sleep.samples > 0 ? &tr->sleep : NULL, &tr->advice);
	verdict_etcd(run->rows, run->nrows, &tr->advice);
	target_settings(o, tr);
}

void
target_settings(const struct options *o, struct target_result *tr)
{
	settings_from_advice(&tr->advice, tr->group, tr->sleep.samples > 0 ? &tr->sleep : NULL,
	    o->block_bytes, &tr->to_set);
	/* A run cut short gives figures from however many operations it had:
	 * nothing may take effect from them. */
	if (tr->run.failed)
		settings_block(&tr->to_set, BLOCK_RUN_FAILED);
	else if (tr->run.interrupted)
		target_stopped(tr);
}

/* The end of the run: the last file removed, the status, the judging. */
static enum target_step
finish(struct target_run *t)
{
	t->status = run_close(&t->probe);
	if (t->tr->run.measured)
		judge(t->o, t->tr);
	t->phase = PHASE_DONE;
	return TARGET_DONE;
}

/* Whether the experiment runs now: chosen, and the rows before it ended
 * well on a test file. */
static const struct testfile *
experiment_file(const struct target_run *t)
{
	if (!(t->o->groups & PLAN_BIT(GROUP_GROUP)))
		return NULL;
	return run_test_file(&t->probe);
}

enum target_step
target_next(struct target_run *t)
{
	const struct testfile *tf;

	switch ((enum phase)t->phase) {
	case PHASE_OPEN:
		t->status = run_open(&t->probe, t->o, t->dir, t->progress, t->target_no,
		    t->ntargets, &t->tr->run);
		if (t->status != STATUS_OK) {
			t->phase = PHASE_DONE;
			return TARGET_DONE;
		}
		t->phase = PHASE_ROWS;
		return TARGET_READY;
	case PHASE_ROWS:
		if (run_next_group(&t->probe, &t->first, &t->last))
			return TARGET_GROUP;
		t->phase = PHASE_EXPERIMENT;
		/* Groups that are not rows (the group-commit experiment) come
		 * last, on the same file. */
		if (experiment_file(t) != NULL)
			return TARGET_EXPERIMENT;
		/* FALLTHROUGH */
	case PHASE_EXPERIMENT:
		tf = experiment_file(t);
		run_close_test_file(&t->probe, tf != NULL ? run_experiment(t, tf) : STATUS_OK);
		t->phase = PHASE_SEGMENT_ROWS;
		/* FALLTHROUGH */
	case PHASE_SEGMENT_ROWS:
		if (run_next_group(&t->probe, &t->first, &t->last))
			return TARGET_GROUP;
		return finish(t);
	case PHASE_DONE:
		break;
	}
	return TARGET_DONE;
}

void
target_stopped(struct target_result *tr)
{
	settings_block(&tr->to_set, BLOCK_MEASURING_STOPPED);
}

void
target_free(struct target_result *tr)
{
	group_result_free(tr->group);
	tr->group = NULL;
	run_free(&tr->run);
}
