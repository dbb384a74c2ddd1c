/* watch_result.c: the summary of a watch run and its warnings: pure
 * functions of what was counted. */
#include "config.h"

#include "watch/watch_result.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advice/warnings.h"
#include "probe/row.h"
#include "report/warning_words.h"

void
watch_note_stall(struct watch_summary *s, const struct watch_stall *st)
{
	if (st->ns > WATCH_FATAL_STALL_NS)
		s->fatal_stalls++;
	if (st->ns > s->longest.ns)
		s->longest = *st;
}

static void
warn(struct watch_summary *s, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
warn(struct watch_summary *s, const char *code, const char *fmt, ...)
{
	struct watch_warning *w;
	va_list ap;

	if (s->nwarnings >= WATCH_MAX_WARNINGS)
		return;
	w = &s->warnings[s->nwarnings++];
	w->code = code;
	va_start(ap, fmt);
	vsnprintf(w->message, sizeof w->message, fmt, ap);
	va_end(ap);
}

static void
judge_stalls(const struct watch_setup *setup, struct watch_summary *s)
{
	char limit[32], longest[32];

	if (s->paced.stalls == 0)
		return;
	units_format_latency(row_usecs((double)setup->stall_ns), LATENCY_READING, limit,
	    sizeof limit);
	units_format_latency(row_usecs((double)s->longest.ns), LATENCY_READING, longest,
	    sizeof longest);
	warn(s, warning_codes[WARNING_STALL], "%llu operation%s took over %s (the longest %s, "
	    "%.3f s into the run): a commit waits that long; each is a line of its own above.",
	    (unsigned long long)s->paced.stalls, s->paced.stalls == 1 ? "" : "s", limit,
	    longest, row_secs(s->longest.start_ns));
	if (s->fatal_stalls > 0)
		warn(s, warning_codes[WARNING_STALL_OVER_20S], "%llu operation%s took over %g s: "
		    "CockroachDB stops a node whose disk sync takes that long "
		    "(storage.max_sync_duration).", (unsigned long long)s->fatal_stalls,
		    s->fatal_stalls == 1 ? "" : "s", (double)WATCH_FATAL_STALL_NS / (double)NSEC_PER_SEC);
}

static void
judge_pacing(const struct watch_setup *setup, struct watch_summary *s)
{
	char msg[ADVICE_TEXT_LEN];

	if (s->ratio <= WARN_PACED_RATIO || setup->rate == 0)
		return;
	warning_words_paced(msg, sizeof msg, (unsigned long long)setup->rate,
	    s->paced.mean_usecs, setup->burst.mean_usecs, false);
	warn(s, warning_codes[WARNING_PACED_SLOWER], "%s", msg);
}

void
watch_summarize(const struct watch_tally *t, const struct watch_setup *setup,
    struct watch_summary *s)
{
	watch_figures_of(&t->run, &s->paced);
	s->paced.missed = t->run_missed;
	s->paced.stalls = t->run_stalls;
	s->intervals = t->intervals;
	s->have_worst = t->have_worst;
	if (t->have_worst)
		s->worst = t->worst;
	s->ratio = 0.0;
	if (s->paced.ops > 0 && setup->burst.ops > 0 && setup->burst.mean_usecs > 0.0)
		s->ratio = s->paced.mean_usecs / setup->burst.mean_usecs;
	s->nwarnings = 0;
	judge_stalls(setup, s);
	judge_pacing(setup, s);
}
