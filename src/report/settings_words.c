/* settings_words.c: "What to set" in words: each setting's one-line
 * reason, what its source means, and why nothing is set, from the facts
 * advice/settings.c kept, for text, conf, JSON and SVG alike. */
#include "config.h"

#include "report/settings_words.h"

#include <stdio.h>

#include "util/strbuf.h"
#include "util/units.h"

#define BRIEF_LEN     128	/* the method's choice in a few words */

/* "a" or "an" before the figure n. */
static const char *
article_of(long n)
{
	char figure[24];

	snprintf(figure, sizeof figure, "%ld", n);
	return units_article(figure);
}

static const char *
plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

const char *
settings_words_source(enum setting_source s)
{
	switch (s) {
	case SOURCE_PROBE:
		return "measured here";
	case SOURCE_GIVEN:
		return "as given";
	case SOURCE_DEFAULT:
		return "the platform's default, not compared";
	case SOURCE_RULE:
		return "the half rule, untested";
	case SOURCE_GROUP:
		return "measured by -t group";
	case SOURCE_SERVER:
		return "measured on the server by syncprobe pgbench";
	}
	return "?";
}

/* wal_sync_method's reason: what the method measured, and where the user
 * gave another, what syncprobe would advise. */
static void
method_setting_words(const struct setting *s, struct words *w)
{
	char block[16], brief[BRIEF_LEN];

	units_format_size(s->block_bytes, block, sizeof block);
	advice_words_method_brief(&s->method, brief, sizeof brief);
	if (s->reason == REASON_METHOD_GIVEN_ADVISED)
		snprintf(w->text, sizeof w->text, "the server's (--wal-sync-method), %.1f us "
		    "per %s write + flush; syncprobe would advise '%s', %s", s->flush_usecs,
		    block, s->advised->name, brief);
	else if (s->reason == REASON_METHOD_GIVEN)
		snprintf(w->text, sizeof w->text, "the server's (--wal-sync-method), %.1f us "
		    "per %s write + flush", s->flush_usecs, block);
	else if (s->reason == REASON_METHOD_DEFAULT)
		snprintf(w->text, sizeof w->text, "the platform's default, which -t group "
		    "flushed with (%.1f us per %s write + flush); no method ran in the "
		    "one-write test", s->flush_usecs, block);
	else
		snprintf(w->text, sizeof w->text, "%s, %.1f us per %s write + flush", brief,
		    s->flush_usecs, block);
}

/* "beat 0 at 16 clients (+9.4% commits/s) and 64 (+12.0%)". */
static void
gains_words(const struct setting *s, struct strbuf *b)
{
	size_t k;

	for (k = 0; k < s->ngains; k++)
		if (k == 0)
			strbuf_add(b, "beat 0 at %u client%s (%+.1f%% commits/s)",
			    s->gains[k].clients, plural(s->gains[k].clients),
			    s->gains[k].vs_zero_pct);
		else
			strbuf_add(b, " and %u (%+.1f%%)", s->gains[k].clients,
			    s->gains[k].vs_zero_pct);
}

/* The rule's delay: what it rests on, the sleep it really gets where that
 * is much longer, and what would make it a setting. */
static void
rule_setting_words(const struct setting *s, struct strbuf *b)
{
	long d = s->delay_usecs;

	strbuf_add(b, "half of the %.3f us %s flush", s->flush_usecs, s->flush_name);
	if (d <= 0)
		return;
	if (s->sleep_overshoot)
		strbuf_add(b, "; %s %ld us sleep really lasts %.0f us here%s", article_of(d), d,
		    s->sleep_usecs, s->sleep_usecs > s->flush_usecs ?
		    ", longer than the flush itself" : "");
	strbuf_add(b, "; not set until measured: -t group or syncprobe pgbench "
	    "measures what a delay does here");
}

const char *
settings_words_reason(const struct setting *s, struct words *w)
{
	char span[64];
	struct strbuf b;

	advice_words_clients(s->clients_lo, s->clients_hi, span, sizeof span);
	strbuf_init(&b, w->text, sizeof w->text);
	switch (s->reason) {
	case REASON_METHOD_MEASURED:
	case REASON_METHOD_GIVEN:
	case REASON_METHOD_GIVEN_ADVISED:
	case REASON_METHOD_DEFAULT:
		method_setting_words(s, w);
		break;
	case REASON_DELAY_NO_CELLS:
		strbuf_add(&b, "what the experiment's cells gave");
		break;
	case REASON_DELAY_GAINS:
		gains_words(s, &b);
		break;
	case REASON_DELAY_FROM_CELLS:
		strbuf_add(&b, "from the cells at %s", span);
		break;
	case REASON_DELAY_NONE_BEAT:
		strbuf_add(&b, "no delay beat 0 beyond noise at %s", span);
		break;
	case REASON_DELAY_ALL_LOST:
		strbuf_add(&b, "each delay that beat 0 at some client count lost at a higher "
		    "one, or was not shown to cost under 3%% there (%s)", span);
		break;
	case REASON_DELAY_NONE:
		strbuf_add(&b, "no delay, from the cells at %s", span);
		break;
	case REASON_DELAY_RULE:
		rule_setting_words(s, &b);
		break;
	case REASON_SIBLINGS:
		strbuf_add(&b, "the delay never sleeps with %u clients or fewer (fewer than %u "
		    "others active)%s", s->siblings, s->siblings, s->no_gain_below ?
		    ", where it did not beat 0" : "");
		break;
	}
	return w->text;
}

/* Why nothing is set, for the reasons that quote no figure. */
static const char *const block_words[] = {
	[BLOCK_NOT_MEASURED] = "nothing this run measured: PostgreSQL's half rule is "
	    "untested (-t group or syncprobe pgbench measures what a delay does here)",
	[BLOCK_MEASURING_STOPPED] = "a signal ended the measuring early, so these figures "
	    "are not advice",
	[BLOCK_NO_REPEAT] = "no whole repeat was measured, so nothing is advice",
	[BLOCK_SWEEP_STOPPED] = "a signal ended the sweep early, so these figures are not "
	    "advice",
	[BLOCK_RUN_FAILED] = "the run stopped at an error, so these figures are not advice",
};

const char *
settings_words_nothing(const struct settings *set, struct words *w)
{
	w->text[0] = '\0';
	if (set->nothing == NOTHING_NONE)
		return w->text;
	if (set->why == BLOCK_NO_SYNC_ROW)
		return advice_words_delay_facts(&set->no_row, w);
	if (set->why == BLOCK_NOT_DURABLE)
		snprintf(w->text, sizeof w->text, "the figures are not of durable storage "
		    "(warning %s)", set->warning);
	else
		snprintf(w->text, sizeof w->text, "%s", block_words[set->why]);
	return w->text;
}
