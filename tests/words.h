/* words.h: the advice's sentences as the reports write them from its
 * facts (report/advice_words.h), for a test to read: each in a buffer of
 * its own, so that one check may quote two. Static functions, like
 * rows.h: each test includes it. */
#ifndef SYNCPROBE_TEST_WORDS_H
#define SYNCPROBE_TEST_WORDS_H

#include "report/advice_words.h"
#include "report/settings_words.h"
#include "report/warning_words.h"

__attribute__((unused)) static const char *
words_method(const struct advice *a)
{
	static struct words w;

	return advice_words_method(a, &w);
}

/* The method's choice in a few words, as "What to set" says it. */
__attribute__((unused)) static const char *
words_brief(const struct advice *a)
{
	static char brief[ADVICE_TEXT_LEN];

	advice_words_method_brief(&a->method_why, brief, sizeof brief);
	return brief;
}

__attribute__((unused)) static const char *
words_delay(const struct advice *a)
{
	static struct words w;

	return advice_words_delay(a, &w);
}

__attribute__((unused)) static const char *
words_rule(const struct advice *a)
{
	static struct words w;

	return advice_words_rule(a, &w);
}

__attribute__((unused)) static const char *
words_siblings(const struct advice *a)
{
	static struct words w;

	return advice_words_siblings(a, &w);
}

/* A setting's reason, one buffer per setting. */
__attribute__((unused)) static const char *
words_setting(const struct setting *s)
{
	static struct words w[SETTINGS_MAX];

	return settings_words_reason(s, &w[s->id]);
}

__attribute__((unused)) static const char *
words_nothing(const struct settings *set)
{
	static struct words w;

	return settings_words_nothing(set, &w);
}

__attribute__((unused)) static const char *
words_warning(const struct advice_warning *aw)
{
	static struct words w;

	return warning_words_message(aw, &w);
}

#endif
