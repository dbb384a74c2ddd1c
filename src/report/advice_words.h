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

#endif
