/* session.c: the probe's run: the targets measured one after another,
 * each judged once measured, the report streamed from the run's hooks,
 * and a stop by a signal still reporting what was measured. */
#include "config.h"

#include "report/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "advice/advice.h"
#include "advice/judge.h"
#include "group/group_result.h"
#include "group/group_run.h"
#include "probe/run.h"
#include "report/report.h"
#include "util/cleanup.h"
#include "util/output.h"
#include "util/platform.h"
#include "util/progress.h"
#include "util/status.h"
#include "util/diag.h"

/* The run as it goes: the report streams from the run's hooks. */
struct session {
	const struct options *o;
	struct report *rep;
	struct target_result *results;
	bool begun;
};

static void
on_target_ready(void *ctx, struct target_result *tr)
{
	struct session *s = ctx;
	const struct report_stream *st = s->o->format->stream;
	size_t t = (size_t)(tr - s->results);

	s->rep->ntargets = t + 1;
	if (st == NULL)
		return;
	if (!s->begun)
		st->begin(stdout, s->rep);
	s->begun = true;
	st->target(stdout, s->rep, t);
	fflush(stdout);
}

static void
on_group_done(void *ctx, struct target_result *tr, size_t first, size_t last)
{
	struct session *s = ctx;
	const struct report_stream *st = s->o->format->stream;

	if (st == NULL)
		return;
	st->group(stdout, s->rep, (size_t)(tr - s->results), first, last);
	fflush(stdout);
}

/* The group-commit experiment, after the rows: it starts from what the
 * rows so far say (the judging step reads them), and the rule's
 * commit_delay is judged from what it measured. */
enum exit_status
session_run_experiment(void *ctx, enum group g, const struct options *o, const struct testfile *tf,
    struct target_result *tr, struct progress *p)
{
	struct group_basis basis;
	struct run_status st;
	enum exit_status rc;

	(void)ctx;
	if (g != GROUP_GROUP)
		return STATUS_OK;
	memset(&st, 0, sizeof st);
	basis.path = tr->path;
	basis.method = judge_flush_basis(o, tr, &basis.row_usecs, &basis.direct);
	rc = group_run(o, &basis, tf, p, &st, &tr->group);
	if (tr->group != NULL)
		tr->group->rule_usecs = advice_commit_delay(tr->group->basis_usecs);
	if (st.failed) {
		tr->failed = true;
		snprintf(tr->error, sizeof tr->error, "%s", st.error);
	}
	if (st.interrupted)
		tr->interrupted = true;
	return rc;
}

/* What a target's run allocated, the experiment's cells included. */
static void
free_target(struct target_result *tr)
{
	group_result_free(tr->group);
	tr->group = NULL;
	run_free(tr);
}

/* Measure the targets one after another, stopping at the first that
 * fails or when a signal asks to stop; *ndone is how many have results to
 * report. */
static enum exit_status
measure_targets(struct session *s, size_t *ndone)
{
	const struct options *o = s->o;
	struct progress p;
	struct run_hooks h = { &p, 0, o->ntargets, on_target_ready, on_group_done, s,
	    session_run_experiment };
	enum exit_status rc = STATUS_OK;
	size_t i;

	progress_init(&p, o->quiet);
	*ndone = 0;
	for (i = 0; i < o->ntargets && rc == STATUS_OK; i++) {
		struct target_result *tr = &s->results[i];

		/* The first target always starts, so that a stop before it
		 * still reports (an empty run, marked as interrupted). */
		if (i > 0 && cleanup_stop_signal() != 0)
			break;
		h.target_no = i + 1;
		rc = run_target(o, o->targets[i], &h, tr);
		if (rc != STATUS_OK)
			diag_error("%s", tr->error);
		if (!tr->measured) {
			free_target(tr);
			break;
		}
		judge_target(o, tr);
		(*ndone)++;
	}
	return rc;
}

/* Write what was measured: the rest of the stream, or the whole report. */
static enum exit_status
write_report(struct session *s, size_t ndone)
{
	const struct report_format *f = s->o->format;

	s->rep->ntargets = ndone;
	if (f->stream != NULL && s->begun)
		f->stream->end(stdout, s->rep);
	else if (f->stream != NULL)
		report_replay(f->stream, stdout, s->rep);
	else
		f->write(stdout, s->rep);
	return output_finish();
}

int
session_run(const struct options *o)
{
	struct report rep;
	struct session s;
	size_t i, ndone;
	uint64_t start_ns;
	enum exit_status status;

	memset(&rep, 0, sizeof rep);
	rep.options = o;
	rep.when = time(NULL);
	rep.duration_secs = -1.0;
	platform_system(&rep.system);
	start_ns = platform_now_ns();
	cleanup_install();
	memset(&s, 0, sizeof s);
	s.o = o;
	s.rep = &rep;
	s.results = calloc(o->ntargets, sizeof *s.results);
	if (s.results == NULL) {
		diag_error("results: out of memory");
		return STATUS_IO;
	}
	rep.targets = s.results;
	status = measure_targets(&s, &ndone);
	rep.duration_secs = row_secs(platform_now_ns() - start_ns);
	rep.interrupted_by = cleanup_stop_signal();
	if (ndone > 0 && write_report(&s, ndone) != STATUS_OK)
		status = STATUS_IO;
	for (i = 0; i < ndone; i++)
		free_target(&s.results[i]);
	free(s.results);
	/* Stopped by a signal: die of it now that the report is out. */
	cleanup_die();
	return status;
}
