/* watch.c: syncprobe watch from start to finish: the test file, the
 * back-to-back burst of the method watched, the paced load
 * interval by interval, the summary, and the file removed on every way out.
 * Measuring only: watch_result.c turns the figures into warnings and
 * watch_report.c prints them. */
#include "config.h"

#include "watch/watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/pace.h"
#include "probe/probe.h"
#include "probe/row.h"
#include "probe/testfile.h"
#include "storage/storage.h"
#include "util/cleanup.h"
#include "util/platform.h"
#include "util/progress.h"
#include "util/relay.h"
#include "util/safefile.h"
#include "util/units.h"
#include "watch/watch_clock.h"
#include "watch/watch_interval.h"
#include "watch/watch_result.h"
#include "watch/watch_plot.h"
#include "watch/watch_report.h"
#include "watch/watch_svgfile.h"
#include "watch/watch_textfile.h"


/* Everything a run needs, allocated before the test file exists (the
 * histograms are large): running out of memory leaves nothing behind. */
struct watch_state {
	const struct watch_options *o;
	FILE *out;			/* the report, into relay */
	struct relay relay;		/* ... and from there to standard output */
	uint64_t deadline_ns;		/* --for's end (0: none): output waits no longer */
	struct testfile tf;
	unsigned char *buf;
	struct row_result burst;	/* back to back, at the start */
	struct row_result paced;	/* the paced operations, for the timed loop */
	struct row_run run;
	struct watch_tally tally;
	struct watch_plot plot;
	struct watch_setup setup;
	struct watch_summary sum;
	struct storage_info storage;
	struct system_info system;	/* the host's name, for the picture */
	struct watch_svgfile svgfile;	/* --svg's, when given */
	struct watch_textfile textfile;	/* --textfile's, when given */
	struct progress progress;	/* the status line on a terminal */
	bool textfile_failed;		/* an update failed: the run stops */
	uint64_t t0;			/* the monotonic clock at slot time 0 */
	uint64_t day;			/* the UTC date of the last line */
	char error[REASON_LEN];
};

void
watch_defaults(struct watch_options *o)
{
	memset(o, 0, sizeof *o);
	o->dir = ".";
	o->block_bytes = DEFAULT_BLOCK_BYTES;
	o->file_bytes = DEFAULT_FILE_BYTES;
	o->pattern = PATTERN_OVERWRITE;
	o->rate = WATCH_DEFAULT_RATE;
	o->interval_ns = WATCH_DEFAULT_INTERVAL_NS;
	o->stall_ns = WATCH_DEFAULT_STALL_NS;
	o->format = &watch_formats[0];
}

int
watch_parse_rate(const char *s, uint64_t *out, char *err, size_t errlen)
{
	if (strcmp(s, "max") == 0) {
		*out = 0;
		return 0;
	}
	if (units_parse_count(s, WATCH_MAX_RATE, out, err, errlen) == -1) {
		if (strcmp(err, "not a whole number") == 0)
			snprintf(err, errlen, "not a whole number of operations a second, "
			    "nor max");
		return -1;
	}
	return 0;
}

/* A buffered one-write row of method m, opened on the test file. */
static void
open_row(struct watch_state *w, struct row_result *res, const struct method *m,
    struct row_run *run)
{
	struct row_spec spec;

	row_spec_method(&spec, GROUP_ONE, m, false, 1, w->o->block_bytes);
	row_init_zeroed(res, &spec);
	probe_row_open(run, res, &w->tf, w->o->pattern, w->buf);
}

/* The back-to-back burst at the start, of the method watched, as the
 * probe measures it: what the paced figures are set beside. It decides
 * nothing (the method is chosen before it). */
static enum exit_status
measure_burst(struct watch_state *w)
{
	struct row_result *res = &w->burst;
	struct row_run run;

	open_row(w, res, w->setup.method, &run);
	if (res->status == ROW_OK)
		probe_row_slice(&run, res, UINT64_MAX, WATCH_BURST_NS);
	if (probe_row_close(&run, res) == -1 || res->status != ROW_OK) {
		snprintf(w->error, sizeof w->error, "%s", res->reason);
		return res->status == ROW_ERROR ? STATUS_IO : STATUS_USAGE;
	}
	row_finish(res);
	w->setup.burst_secs = row_secs(res->elapsed_ns);
	watch_figures_of(&res->total, &w->setup.burst);
	return STATUS_OK;
}

/* The wall clock at slot time 0 as it reads now: a step of the clock
 * since the start moves the stamps after it, never the pace. */
static uint64_t
wall_zero(const struct watch_state *w)
{
	uint64_t wall = platform_wall_ns();

	return watch_clock_wall_at(wall, platform_now_ns(), w->t0);
}

/* --textfile's file after the intervals closed so far (last: the last of
 * them, or NULL); a failure stops the run, which says why. */
static void
update_textfile(struct watch_state *w, const struct watch_figures *last)
{
	if (w->o->textfile == NULL || w->textfile_failed)
		return;
	if (watch_textfile_update(&w->textfile, &w->setup, &w->tally, last, w->error,
	    sizeof w->error) == -1)
		w->textfile_failed = true;
}

/* What the report printed, to standard output: a reader that takes
 * nothing holds the load only until --for's end or a stop signal. */
static bool
emit(struct watch_state *w)
{
	return relay_push(&w->relay, w->deadline_ns) == RELAY_DONE;
}

static void
close_interval(struct watch_state *w, uint64_t cutoff_ns)
{
	struct watch_figures f;

	watch_tally_close(&w->tally, cutoff_ns, wall_zero(w), &f);
	f.new_date = watch_clock_new_date(&w->day, f.end_wall_ns);
	watch_plot_add(&w->plot, &f);
	progress_clear(&w->progress);
	watch_report_interval(w->out, w->o->format, &w->setup, &f);
	update_textfile(w, &f);
	emit(w);
}

/* One paced operation in the current slot; its time is what the timed
 * loop added to the row. -1 when it failed, 1 when a stop signal came
 * before it started. */
static int
paced_op(struct watch_state *w)
{
	uint64_t sum = w->paced.total.sum_ns, count = w->paced.total.count, ns, now, wall;
	struct watch_stall st;

	if (probe_row_slice(&w->run, &w->paced, 1, 0) == -1)
		return -1;
	if (w->paced.total.count == count)
		return 1;
	now = platform_now_ns();
	ns = w->paced.total.sum_ns - sum;
	watch_tally_add(&w->tally, ns, ns > w->o->stall_ns);
	if (ns > w->o->stall_ns) {
		wall = platform_wall_ns();
		st.start_ns = now - ns - w->t0;
		st.ns = ns;
		st.wall_ns = watch_clock_wall_at(wall, platform_now_ns(), now - ns);
		st.new_date = watch_clock_new_date(&w->day, st.wall_ns);
		watch_note_stall(&w->sum, &st);
		watch_plot_add_stall(&w->plot, st.start_ns, st.ns);
		progress_clear(&w->progress);
		watch_report_stall(w->out, w->o->format, &st);
		emit(w);
	}
	return 0;
}

/* On a terminal, a status line on standard error while an interval
 * fills, so that something shows before its line: drawn between
 * operations, at most 5 times a second, erased before anything goes to
 * standard output. */
static void
show_status(struct watch_state *w)
{
	char line[160];

	if (!progress_due(&w->progress))
		return;
	watch_report_status(line, sizeof line, platform_wall_ns(), &w->tally,
	    wall_zero(w) + w->tally.end_ns);
	progress_show_text(&w->progress, line);
}

/* Where a run stopped early ends: now, or the slot it would have gone on
 * in if that came first (the slots before either are the same), so that
 * the last interval ends no later than the run does. */
static uint64_t
stopped_at(const struct watch_state *w, uint64_t slot_ns)
{
	uint64_t now = platform_now_ns() - w->t0;

	return now < slot_ns ? now : slot_ns;
}

/* The end of --for, after the last slot before it: the run lasts what it
 * was asked to, so that its last interval does not end after it. 0, or
 * -1 with errno; *cutoff_ns is where it ended (earlier on a stop
 * signal). */
static int
wait_for_end(const struct watch_state *w, uint64_t *cutoff_ns)
{
	const volatile sig_atomic_t *stop = cleanup_stop_flag();
	struct pace end;
	int rc;

	pace_init(&end, w->t0 + w->o->for_ns, 0);
	if ((rc = pace_wait(&end, stop)) == -1)
		return -1;
	*cutoff_ns = rc == 1 ? stopped_at(w, w->o->for_ns) : w->o->for_ns;
	return 0;
}

/* The paced load until --for or a stop signal; *cutoff_ns (from the
 * start) is where the last interval ends. */
static enum exit_status
paced_load(struct watch_state *w, uint64_t *cutoff_ns)
{
	const struct watch_options *o = w->o;
	const volatile sig_atomic_t *stop = cleanup_stop_flag();
	struct pace p;
	uint64_t slot;
	int rc;

	/* The warm-up operations first (untimed), so that the first slot
	 * is on time. */
	if (probe_row_slice(&w->run, &w->paced, 0, 0) == -1)
		goto failed;
	w->t0 = platform_now_ns();
	w->deadline_ns = o->for_ns != 0 ? w->t0 + o->for_ns : 0;
	pace_init(&p, w->t0, pace_period_ns(o->rate));
	for (;;) {
		slot = p.next_ns - w->t0;
		*cutoff_ns = slot;	/* where an error ends it: the slots before */
		if (o->for_ns != 0 && slot >= o->for_ns) {
			if (wait_for_end(w, cutoff_ns) == -1)
				goto nanosleep_failed;
			break;
		}
		while (watch_interval_over(&w->tally, slot))
			close_interval(w, slot);
		if (w->textfile_failed)
			return STATUS_IO;
		/* Its reader took nothing until --for's end or a stop signal:
		 * the load ends there, not when the reader wakes. */
		if (w->relay.state != RELAY_DONE) {
			*cutoff_ns = slot;
			break;
		}
		if ((rc = pace_wait(&p, stop)) == -1)
			goto nanosleep_failed;
		if (rc == 0 && (rc = paced_op(w)) == -1)
			goto failed;
		if (rc == 1) {
			*cutoff_ns = stopped_at(w, slot);
			break;
		}
		pace_after(&p, platform_now_ns());
		show_status(w);
		if (*stop) {
			*cutoff_ns = stopped_at(w, p.next_ns - w->t0);
			break;
		}
	}
	return STATUS_OK;
nanosleep_failed:
	snprintf(w->error, sizeof w->error, "nanosleep: %s", strerror(errno));
	return STATUS_IO;
failed:
	snprintf(w->error, sizeof w->error, "%s", w->paced.reason);
	return STATUS_IO;
}

/* The intervals still open up to cutoff_ns: whole ones, then the last,
 * cut short, if any of it ran. */
static void
close_remaining(struct watch_state *w, uint64_t cutoff_ns)
{
	while (w->tally.end_ns <= cutoff_ns)
		close_interval(w, cutoff_ns);
	if (cutoff_ns > w->tally.start_ns || w->tally.ops > 0)
		close_interval(w, cutoff_ns);
}

static enum exit_status
watch_measure(struct watch_state *w)
{
	enum exit_status rc;
	uint64_t start = platform_now_ns(), cutoff = 0;

	rc = measure_burst(w);
	if (rc != STATUS_OK || cleanup_stop_signal() != 0)
		return rc;
	if (storage_probe(w->tf.file.dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH,
	    &w->storage) == 0) {
		w->setup.storage = &w->storage;
		if (w->storage.have_filesystem)
			w->setup.filesystem = w->storage.filesystem;
	}
	w->setup.start_wall_ns = platform_wall_ns();
	(void)watch_clock_new_date(&w->day, w->setup.start_wall_ns);
	watch_report_start(w->out, w->o->format, &w->setup);
	emit(w);
	open_row(w, &w->paced, w->setup.method, &w->run);
	if (w->paced.status != ROW_OK) {
		snprintf(w->error, sizeof w->error, "%s", w->paced.reason);
		return STATUS_IO;
	}
	w->sum.started = true;
	rc = paced_load(w, &cutoff);
	if (probe_row_close(&w->run, &w->paced) == -1 && rc == STATUS_OK) {
		snprintf(w->error, sizeof w->error, "%s", w->paced.reason);
		rc = STATUS_IO;
	}
	close_remaining(w, cutoff);
	if (w->textfile_failed)
		rc = STATUS_IO;
	w->sum.elapsed_secs = row_secs(platform_now_ns() - start);
	w->sum.end_wall_ns = platform_wall_ns();
	w->sum.run_secs = row_secs(cutoff);
	return rc;
}

/* Whether standard output lost part of the report; said on stderr. */
static bool
report_lost(const struct watch_state *w)
{
	char why[64];

	if (w->relay.state == RELAY_DONE)
		return false;
	if (w->relay.state == RELAY_FAILED)
		snprintf(why, sizeof why, "%s", strerror(w->relay.error));
	else if (cleanup_stop_signal() != 0)
		snprintf(why, sizeof why, "its reader took nothing until %s",
		    cleanup_signal_name(cleanup_stop_signal()));
	else
		snprintf(why, sizeof why, "its reader took nothing until --for ended");
	fprintf(stderr, "syncprobe: write standard output: %s (%llu bytes of the report "
	    "not written; the test file is removed)\n", why,
	    (unsigned long long)w->relay.dropped);
	return true;
}

static void
describe(const struct watch_options *o, struct watch_state *w)
{
	w->setup.path = o->dir;
	w->setup.textfile = o->textfile;
	platform_system(&w->system);
	w->setup.host = w->system.host;
	/* The server's own default unless -m says otherwise: the same
	 * method in every run, so that two watches can be compared. */
	w->setup.method = o->method != NULL ? o->method : method_platform_default();
	w->setup.method_source = o->method != NULL ? WATCH_METHOD_OPTION :
	    WATCH_METHOD_SERVER_DEFAULT;
	w->setup.block_bytes = o->block_bytes;
	w->setup.file_bytes = o->file_bytes;
	w->setup.pattern = o->pattern;
	w->setup.rate = o->rate;
	w->setup.for_ns = o->for_ns;
	w->setup.interval_ns = o->interval_ns;
	w->setup.stall_ns = o->stall_ns;
	w->setup.plot_width = o->plot_width;
	if (w->setup.plot_width == 0)
		w->setup.plot_width = platform_terminal_columns(fileno(w->out));
	if (w->setup.plot_width <= 0)
		w->setup.plot_width = WATCH_PLOT_WIDTH;
}

/* --textfile's file, before anything else is made: refused when its name
 * is taken, and written once with nothing counted yet, so that a
 * directory it cannot be written in is found at once. */
static enum exit_status
start_textfile(struct watch_state *w)
{
	enum exit_status rc;

	if (w->o->textfile == NULL)
		return STATUS_OK;
	rc = watch_textfile_open(&w->textfile, w->o->textfile, &w->setup, w->error,
	    sizeof w->error);
	if (rc == STATUS_OK && watch_textfile_update(&w->textfile, &w->setup, &w->tally, NULL,
	    w->error, sizeof w->error) == -1)
		rc = STATUS_USAGE;
	return rc;
}

/* --svg's file: refused now when its name is taken, written at the end. */
static enum exit_status
start_svgfile(struct watch_state *w)
{
	if (w->o->svg == NULL)
		return STATUS_OK;
	return watch_svgfile_open(&w->svgfile, w->o->svg, w->error, sizeof w->error);
}

/* The picture, once the summary is out; a failure is the run's when it
 * had none. */
static void
write_svgfile(struct watch_state *w, enum exit_status *rc)
{
	char err[REASON_LEN];

	if (watch_svgfile_write(&w->svgfile, &w->setup, &w->sum, &w->plot, err,
	    sizeof err) == -1 && *rc == STATUS_OK) {
		snprintf(w->error, sizeof w->error, "%s", err);
		*rc = STATUS_IO;
	}
}

enum exit_status
watch_run(const struct watch_options *o, FILE *out)
{
	struct watch_state *w = calloc(1, sizeof *w);
	char rmerr[REASON_LEN];
	enum exit_status rc;

	if (w == NULL || (w->buf = probe_alloc_buffer(o->block_bytes)) == NULL) {
		fprintf(stderr, "syncprobe: %s: out of memory\n", o->dir);
		free(w);
		return STATUS_IO;
	}
	w->o = o;
	w->out = out;
	progress_init(&w->progress, false);
	describe(o, w);
	if (relay_open(&w->relay, fileno(out)) == -1) {
		fprintf(stderr, "syncprobe: %s: out of memory\n", o->dir);
		free(w->buf);
		free(w);
		return STATUS_IO;
	}
	w->out = w->relay.f;
	/* Until the load starts (and sets it from there), --for from now. */
	w->deadline_ns = o->for_ns != 0 ? platform_now_ns() + o->for_ns : 0;
	watch_tally_init(&w->tally, pace_period_ns(o->rate), o->interval_ns);
	watch_plot_init(&w->plot);
	rc = start_textfile(w);
	if (rc == STATUS_OK)
		rc = start_svgfile(w);
	if (rc == STATUS_OK)
		rc = testfile_create(&w->tf, o->dir, NULL, o->file_bytes, o->block_bytes,
		    w->error, sizeof w->error);
	if (rc == STATUS_OK) {
		rc = watch_measure(w);
		if (safefile_remove(&w->tf.file, rmerr, sizeof rmerr) == -1 && rc == STATUS_OK) {
			snprintf(w->error, sizeof w->error, "%s", rmerr);
			rc = STATUS_IO;
		}
		if (watch_textfile_close(&w->textfile, rmerr, sizeof rmerr) == -1 &&
		    rc == STATUS_OK) {
			snprintf(w->error, sizeof w->error, "%s", rmerr);
			rc = STATUS_IO;
		}
		if (w->sum.started) {
			w->sum.failed = rc != STATUS_OK;
			w->sum.stopped_by = cleanup_stop_signal();
			watch_summarize(&w->tally, &w->setup, &w->sum);
			progress_clear(&w->progress);
			watch_report_end(w->out, o->format, &w->setup, &w->sum, &w->plot);
			write_svgfile(w, &rc);
			emit(w);
		}
	}
	(void)watch_textfile_close(&w->textfile, rmerr, sizeof rmerr);
	watch_svgfile_close(&w->svgfile);
	if (rc != STATUS_OK)
		fprintf(stderr, "syncprobe: %s\n", w->error);
	if (report_lost(w) && rc == STATUS_OK)
		rc = STATUS_IO;
	relay_close(&w->relay);
	free(w->buf);
	free(w);
	return rc;
}
