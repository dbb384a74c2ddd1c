/* advice_words.h: the advice's facts in words. The advice layer judges
 * and returns values, sources and codes with the numbers behind them;
 * these functions write the sentences that text, conf, JSON and SVG
 * print, so that every format says the same thing the same way. */
#ifndef SYNCPROBE_ADVICE_WORDS_H
#define SYNCPROBE_ADVICE_WORDS_H

#include "advice/advice.h"

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

/* The same from the delay's facts alone (those a run with nothing to set
 * kept). */
const char *advice_words_delay_facts(const struct delay_facts *d, struct words *w);

/* What PostgreSQL's half rule measured, where the delay was measured. */
const char *advice_words_rule(const struct advice *a, struct words *w);

/* Why commit_siblings is what it is. */
const char *advice_words_siblings(const struct advice *a, struct words *w);

/* The method's choice in a few words, for "What to set": "the default
 * and the fastest"; "" where no method was chosen. */
void advice_words_method_brief(const struct method_facts *f, char *buf, size_t len);

/* The client counts lo to hi, for a sentence: "8 clients", "1 client" or
 * "1 to 64 clients". */
void advice_words_clients(unsigned lo, unsigned hi, char *buf, size_t len);

#endif
