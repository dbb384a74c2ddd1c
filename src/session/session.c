/* session.c: the probe command's run: the targets measured one after
 * another, each judged once measured (target/), the report streamed
 * between their steps, and a stop by a signal still reporting what was
 * measured. */
#include "config.h"

#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "target/target.h"
#include "util/cleanup.h"
#include "util/output.h"
#include "util/platform.h"
#include "util/progress.h"
#include "util/status.h"
#include "util/diag.h"

/* The run as it goes: the report streams between a target's steps. */
struct session {
	const struct options *o;
	const struct report_format *format;	/* -F */
	struct report *rep;
	struct target_result *results;
	bool begun;
};

/* Target t is ready (its test file exists, its storage is probed): the
 * stream begins with the first, and says where each lives. */
static void
stream_target(struct session *s, size_t t)
{
	const struct report_stream *st = s->format->stream;

	s->rep->ntargets = t + 1;
	if (st == NULL)
		return;
	if (!s->begun)
		st->begin(stdout, s->rep);
	s->begun = true;
	st->target(stdout, s->rep, t);
	fflush(stdout);
}

/* A group of target t's rows ended: [first, last). */
static void
stream_group(struct session *s, size_t t, size_t first, size_t last)
{
	const struct report_stream *st = s->format->stream;

	if (st == NULL)
		return;
	st->group(stdout, s->rep, t, first, last);
	fflush(stdout);
}

/* Run target i to its end, streaming the report between its steps. */
static enum exit_status
run_one(struct session *s, size_t i, struct progress *p)
{
	struct target_run run;
	enum target_step step;

	target_begin(&run, s->o, s->o->targets[i], p, i + 1, s->o->ntargets, &s->results[i]);
	while ((step = target_next(&run)) != TARGET_DONE) {
		if (step == TARGET_READY)
			stream_target(s, i);
		else if (step == TARGET_GROUP)
			stream_group(s, i, run.first, run.last);
	}
	return run.status;
}

/* Measure the targets one after another, stopping at the first that
 * fails or when a signal asks to stop; *ndone is how many have results to
 * report. */
static enum exit_status
measure_targets(struct session *s, size_t *ndone)
{
	const struct options *o = s->o;
	struct progress p;
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
		rc = run_one(s, i, &p);
		if (rc != STATUS_OK)
			diag_error("%s", tr->run.error);
		if (!tr->run.measured) {
			target_free(tr);
			break;
		}
		(*ndone)++;
	}
	return rc;
}

/* Write what was measured: the rest of the stream, or the whole report. */
static enum exit_status
write_report(struct session *s, size_t ndone)
{
	const struct report_format *f = s->format;

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
session_run(const struct session_options *so)
{
	const struct options *o = &so->probe;
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
	s.format = so->format;
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
	/* A signal after a target was judged still stops what it advises. */
	for (i = 0; rep.interrupted_by != 0 && i < ndone; i++)
		target_stopped(&s.results[i]);
	if (ndone > 0 && write_report(&s, ndone) != STATUS_OK)
		status = STATUS_IO;
	for (i = 0; i < ndone; i++)
		target_free(&s.results[i]);
	free(s.results);
	/* Stopped by a signal: die of it now that the report is out. */
	cleanup_die();
	return status;
}
