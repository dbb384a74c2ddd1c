/* watch.c: syncprobe watch from start to finish: the test file, the
 * back-to-back burst that also picks the advised method, the paced load
 * interval by interval, the summary, and the file removed on every way out.
 * Measuring only: watch_result.c turns the figures into warnings and
 * watch_report.c prints them. */
#include "config.h"

#include "watch/watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "probe/pace.h"
#include "probe/probe.h"
#include "probe/row.h"
#include "probe/testfile.h"
#include "storage/storage.h"
#include "util/cleanup.h"
#include "util/names.h"
#include "util/platform.h"
#include "util/relay.h"
#include "util/safefile.h"
#include "util/units.h"
#include "watch/watch_interval.h"
#include "watch/watch_result.h"
#include "watch/watch_plot.h"
#include "watch/watch_report.h"

static const char *const format_names[] = { "text", "json", "openmetrics" };
static const struct name_list watch_format_names = NAME_LIST_STRINGS(format_names);

/* Everything a run needs, allocated before the test file exists (the
 * histograms are large): running out of memory leaves nothing behind. */
struct watch_state {
	const struct watch_options *o;
	FILE *out;			/* the report, into relay */
	struct relay relay;		/* ... and from there to standard output */
	uint64_t deadline_ns;		/* --for's end (0: none): output waits no longer */
	struct testfile tf;
	unsigned char *buf;
	struct row_result bursts[METHOD_COUNT];
	size_t nbursts;
	struct row_result paced;	/* the paced operations, for the timed loop */
	struct row_run run;
	struct watch_tally tally;
	struct watch_plot plot;
	struct watch_setup setup;
	struct watch_summary sum;
	struct storage_info storage;
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
	o->format = WATCH_TEXT;
}

int
watch_parse_format(const char *s, enum watch_format *out, char *err, size_t errlen)
{
	char names[64];
	int i = names_find(&watch_format_names, s);

	if (i < 0) {
		names_join(&watch_format_names, ", ", names, sizeof names);
		snprintf(err, errlen, "unknown value (choose %s)", names);
		return -1;
	}
	*out = (enum watch_format)i;
	return 0;
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

/* The burst of one method, back to back, as the probe measures it. */
static enum exit_status
burst_one(struct watch_state *w, const struct method *m)
{
	struct row_result *res = &w->bursts[w->nbursts++];
	struct row_run run;

	open_row(w, res, m, &run);
	if (res->status == ROW_OK)
		probe_row_slice(&run, res, UINT64_MAX, WATCH_BURST_NS);
	if (probe_row_close(&run, res) == -1 || res->status == ROW_ERROR) {
		snprintf(w->error, sizeof w->error, "%s", res->reason);
		return STATUS_IO;
	}
	row_finish(res);
	return STATUS_OK;
}

/* The back-to-back burst at the start: of -m's method, or of every method
 * this system has, the advised one chosen from them by the probe's rule
 * (one write). */
static enum exit_status
measure_bursts(struct watch_state *w)
{
	struct advice_input in = { NULL, method_platform_default(), method_writethrough() };
	struct advice a;
	enum exit_status rc = STATUS_OK;
	size_t i;

	if (w->o->method != NULL)
		rc = burst_one(w, w->o->method);
	for (i = 0; i < METHOD_COUNT && w->o->method == NULL && rc == STATUS_OK; i++)
		if (method_unavailable(&method_table[i]) == NULL &&
		    cleanup_stop_signal() == 0)
			rc = burst_one(w, &method_table[i]);
	if (rc != STATUS_OK || cleanup_stop_signal() != 0)
		return rc;
	advice_compute(w->bursts, w->nbursts, &in, &a);
	if (w->o->method != NULL)
		a.wal_sync_method = w->o->method;
	for (i = 0; i < w->nbursts; i++)
		if (w->bursts[i].spec.method == a.wal_sync_method &&
		    w->bursts[i].status == ROW_OK && w->bursts[i].ops > 0) {
			w->setup.method = a.wal_sync_method;
			w->setup.method_advised = w->o->method == NULL;
			w->setup.burst_secs = row_secs(w->bursts[i].elapsed_ns);
			watch_figures_of(&w->bursts[i].total, &w->setup.burst);
			return STATUS_OK;
		}
	if (w->nbursts > 0 && w->bursts[0].reason[0] != '\0')
		snprintf(w->error, sizeof w->error, "%s", w->bursts[0].reason);
	else
		snprintf(w->error, sizeof w->error, "%s: no sync method can run here",
		    w->tf.file.path);
	return STATUS_USAGE;
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

	watch_tally_close(&w->tally, cutoff_ns, &f);
	watch_plot_add(&w->plot, &f);
	watch_report_interval(w->out, w->o->format, &w->setup, &f);
	emit(w);
}

/* One paced operation in the current slot; its time is what the timed
 * loop added to the row. -1 when it failed, 1 when a stop signal came
 * before it started. */
static int
paced_op(struct watch_state *w, uint64_t t0)
{
	uint64_t sum = w->paced.total.sum_ns, count = w->paced.total.count, ns, now;
	struct watch_stall st;

	if (probe_row_slice(&w->run, &w->paced, 1, 0) == -1)
		return -1;
	if (w->paced.total.count == count)
		return 1;
	now = platform_now_ns();
	ns = w->paced.total.sum_ns - sum;
	watch_tally_add(&w->tally, ns, ns > w->o->stall_ns);
	if (ns > w->o->stall_ns) {
		st.start_ns = now - ns - t0;
		st.ns = ns;
		watch_note_stall(&w->sum, &st);
		watch_report_stall(w->out, w->o->format, &w->setup, &st);
		emit(w);
	}
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
	uint64_t t0, slot;
	int rc;

	/* The warm-up operations first (untimed), so that the first slot
	 * is on time. */
	if (probe_row_slice(&w->run, &w->paced, 0, 0) == -1)
		goto failed;
	t0 = platform_now_ns();
	w->deadline_ns = o->for_ns != 0 ? t0 + o->for_ns : 0;
	pace_init(&p, t0, pace_period_ns(o->rate));
	for (;;) {
		slot = p.next_ns - t0;
		*cutoff_ns = slot;
		if (o->for_ns != 0 && slot >= o->for_ns) {
			*cutoff_ns = o->for_ns;
			break;
		}
		while (watch_interval_over(&w->tally, slot))
			close_interval(w, slot);
		/* Its reader took nothing until --for's end or a stop signal:
		 * the load ends there, not when the reader wakes. */
		if (w->relay.state != RELAY_DONE) {
			*cutoff_ns = slot;
			break;
		}
		if ((rc = pace_wait(&p, stop)) == 1)
			break;
		if (rc == -1) {
			snprintf(w->error, sizeof w->error, "nanosleep: %s", strerror(errno));
			return STATUS_IO;
		}
		if ((rc = paced_op(w, t0)) == -1)
			goto failed;
		if (rc == 1)
			break;
		pace_after(&p, platform_now_ns());
		if (*stop) {
			*cutoff_ns = p.next_ns - t0;
			break;
		}
	}
	return STATUS_OK;
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

	rc = measure_bursts(w);
	if (rc != STATUS_OK || cleanup_stop_signal() != 0)
		return rc;
	if (storage_probe(w->tf.file.dir, STORAGE_SYSFS_ROOT, STORAGE_MOUNTINFO_PATH,
	    &w->storage) == 0 && w->storage.have_filesystem)
		w->setup.filesystem = w->storage.filesystem;
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
	w->sum.elapsed_secs = row_secs(platform_now_ns() - start);
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
	rc = testfile_create(&w->tf, o->dir, NULL, o->file_bytes, o->block_bytes,
	    w->error, sizeof w->error);
	if (rc == STATUS_OK) {
		rc = watch_measure(w);
		if (safefile_remove(&w->tf.file, rmerr, sizeof rmerr) == -1 && rc == STATUS_OK) {
			snprintf(w->error, sizeof w->error, "%s", rmerr);
			rc = STATUS_IO;
		}
		if (w->sum.started) {
			w->sum.failed = rc != STATUS_OK;
			w->sum.stopped_by = cleanup_stop_signal();
			watch_summarize(&w->tally, &w->setup, &w->sum);
			watch_report_end(w->out, o->format, &w->setup, &w->sum, &w->plot);
			emit(w);
		}
	}
	if (rc != STATUS_OK)
		fprintf(stderr, "syncprobe: %s\n", w->error);
	if (report_lost(w) && rc == STATUS_OK)
		rc = STATUS_IO;
	relay_close(&w->relay);
	free(w->buf);
	free(w);
	return rc;
}
