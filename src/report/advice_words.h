/* advice_words.h: the advice's facts in words. The advice layer judges
 * and returns values, sources and codes with the numbers behind them;
 * these functions write the sentences that text, conf, JSON and SVG
 * print, so that every format says the same thing the same way. */
#ifndef SYNCPROBE_ADVICE_WORDS_H
#define SYNCPROBE_ADVICE_WORDS_H

#include "advice/advice.h"
#include "advice/settings.h"

/* One sentence, as long as the advice's sentences ever were. */
struct words {
	char text[ADVICE_TEXT_LEN];
};

/* Why wal_sync_method is what it is: "fdatasync, the default here, is the
 * fastest: ..."; returns w->text. */
const char *advice_words_method(const struct advice *a, struct words *w);

/* Why commit_delay is what it is: what it rests on, or what -t group (or
 * syncprobe pgbench) measured. */
const char *advice_words_delay(const struct advice *a, struct words *w);

/* What PostgreSQL's half rule measured, where the delay was measured. */
const char *advice_words_rule(const struct advice *a, struct words *w);

/* Why commit_siblings is what it is. */
const char *advice_words_siblings(const struct advice *a, struct words *w);

/* The method's choice in a few words, for "What to set": "the default
 * and the fastest"; "" where no method was chosen. */
void advice_words_method_brief(const struct method_facts *f, char *buf, size_t len);

/* What a source means, as "What to set" and -F conf say it: "measured
 * here", "the half rule, untested", "measured by -t group", ... */
const char *advice_words_source(enum setting_source s);

/* Why a setting has its value, in one line. */
const char *advice_words_setting(const struct setting *s, struct words *w);

/* Why a run has nothing to set (set->nothing is not NOTHING_NONE). */
const char *advice_words_nothing(const struct settings *set, struct words *w);

/* A warning's message, from its code and facts (advice/warnings.c). */
const char *advice_words_warning(const struct advice_warning *aw, struct words *w);

/* The paced_slower message: at per_sec a second, paced_usecs against
 * b2b_usecs back to back, as the probe and watch both say it; the probe's
 * (point_to_watch) ends by naming syncprobe watch, which measures it over
 * time. */
void advice_words_paced(char *buf, size_t len, unsigned long long per_sec,
    double paced_usecs, double b2b_usecs, bool point_to_watch);

#endif
