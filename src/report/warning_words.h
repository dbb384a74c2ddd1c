/* warning_words.h: each warning's message, from its code and facts
 * (advice/warnings.h). */
#ifndef SYNCPROBE_WARNING_WORDS_H
#define SYNCPROBE_WARNING_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/advice_words.h"

/* A warning's message. */
const char *warning_words_message(const struct advice_warning *aw, struct words *w);

/* The paced_slower message: at per_sec a second, paced_usecs against
 * b2b_usecs back to back, as the probe and watch both say it; the probe's
 * (point_to_watch) ends by naming syncprobe watch, which measures it over
 * time. */
void warning_words_paced(char *buf, size_t len, unsigned long long per_sec,
    double paced_usecs, double b2b_usecs, bool point_to_watch);

#endif
