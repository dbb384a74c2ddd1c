/* advice_words.c: the advice's sentences, written from its facts
 * (advice_words.h). Each function reads one family of the advice's
 * reasons and writes it whole, cut short at the sentence's length. */
#include "config.h"

#include "report/advice_words.h"

#include <stdio.h>


/* The parts of a method's score, so that a reader sees what was
 * compared: in full, "59.8 us for one write and 73.9 us for two (133.7 us
 * together)"; short, "59.8 and 73.9 us, 133.7 us together". */
static void
score_words(const struct method_score *s, bool full, char *buf, size_t len)
{
	double o = s->one_usecs;

	if (!s->with_two)
		snprintf(buf, len, full ? "%.1f us for one write" : "%.1f us", o);
	else
		snprintf(buf, len, full ? "%.1f us for one write and %.1f us for two (%.1f us "
		    "together)" : "%.1f and %.1f us, %.1f us together", o, s->two_usecs,
		    o + s->two_usecs);
}

const char *
advice_words_method(const struct advice *a, struct words *w)
{
	const struct method_facts *f = &a->method_why;
	const char *best = f->fastest ? f->fastest->name : "?";
	const char *def = f->platform_default ? f->platform_default->name : "?";
	char rule[96], best_full[96], best_short[64], def_full[96], def_short[64];

	snprintf(rule, sizeof rule, "%s compared, with a %.0f%% margin in favour of "
	    "the default", f->with_two ? "the sums are" : "one write is", f->margin_pct);
	score_words(&f->fastest_score, true, best_full, sizeof best_full);
	score_words(&f->fastest_score, false, best_short, sizeof best_short);
	score_words(&f->default_score, true, def_full, sizeof def_full);
	score_words(&f->default_score, false, def_short, sizeof def_short);
	switch (f->choice) {
	case CHOICE_NONE_RAN:
		snprintf(w->text, sizeof w->text, "no sync method ran in the one-write test");
		break;
	case CHOICE_WRITETHROUGH:
		snprintf(w->text, sizeof w->text, "F_FULLFSYNC exists here: plain fsync does "
		    "not flush the drive's cache, so only fsync_writethrough makes a commit "
		    "durable");
		break;
	case CHOICE_DEFAULT_ONLY:
		snprintf(w->text, sizeof w->text, "%s, the default here, is the only method "
		    "measured: %s", best, def_full);
		break;
	case CHOICE_DEFAULT_FASTEST:
		snprintf(w->text, sizeof w->text, "%s, the default here, is the fastest: %s; "
		    "%s", best, def_full, rule);
		break;
	case CHOICE_DEFAULT_WITHIN_MARGIN:
		snprintf(w->text, sizeof w->text, "%s, the default here, takes %s, within "
		    "%.0f%% of the fastest, %s (%s): keep the default; %s", def, def_full,
		    f->margin_pct, best, best_short, rule);
		break;
	case CHOICE_DEFAULT_WITHIN_NOISE:
		snprintf(w->text, sizeof w->text, "%s, the default here, takes %s; the "
		    "fastest, %s (%s), is not faster by %.0f%% beyond the figures' noise "
		    "(their 95%% intervals): keep the default; %s", def, def_full, best,
		    best_short, f->margin_pct, rule);
		break;
	case CHOICE_FASTEST:
		snprintf(w->text, sizeof w->text, "%s is the fastest: %s; the default %s "
		    "takes %.1f%% longer (%s), beyond the %.0f%% margin in favour of the "
		    "default and the figures' noise", best, best_full, def,
		    (f->default_score.score / f->fastest_score.score - 1.0) * 100.0,
		    def_short, f->margin_pct);
		break;
	case CHOICE_FASTEST_UNCOMPARED:
		snprintf(w->text, sizeof w->text, "%s is the fastest: %s; the default %s was "
		    "not measured", best, best_full, def);
		break;
	}
	return w->text;
}
