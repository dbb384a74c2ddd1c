/* settings_words.h: "What to set" in words, from the facts each setting
 * and the list carry (advice/settings.h). */
#ifndef SYNCPROBE_SETTINGS_WORDS_H
#define SYNCPROBE_SETTINGS_WORDS_H

#include "advice/settings.h"
#include "report/advice_words.h"

/* What a source means, as "What to set" and -F conf say it: "measured
 * here", "the half rule, untested", "measured by -t group", ... */
const char *settings_words_source(enum setting_source s);

/* Why a setting has its value, in one line. */
const char *settings_words_reason(const struct setting *s, struct words *w);

/* Why a run has nothing to set ("" while something is set). */
const char *settings_words_nothing(const struct settings *set, struct words *w);

#endif
