/* report_settings.c: "What to set", the block that ends the text report:
 * the settings -F conf makes active and JSON's what_to_set lists, each
 * with its source and why, then what was derived but not measured (never
 * set), or why nothing may be set (an error, a signal, figures not of
 * durable storage). All print the one list judged with the rest of the
 * advice (target_result.to_set) through this file, so the block, the conf
 * lines and the JSON cannot drift apart. */
#include "config.h"

#include "report/report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report/settings_words.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/wrap.h"

#define LINE_WIDTH 79

void
report_setting_line(FILE *out, const struct setting *s)
{
	fprintf(out, s->is_name ? "%s = '%s'" : "%s = %s", s->name, s->value);
}

void
report_setting_comment(const struct setting *s, char *buf, size_t len)
{
	struct words w;

	snprintf(buf, len, "%s: %s", settings_words_source(s->source),
	    settings_words_reason(s, &w));
}

static void
put_wrapped(FILE *out, int indent, int hang, const char *text)
{
	char shown[ESCAPE_LEN(SETTING_TEXT_LEN + 160)];

	escape_for_terminal(text, shown, sizeof shown);
	wrap_print(out, indent, hang, LINE_WIDTH, shown, false);
}

/* "not set: commit_delay = 58 (the half rule, untested: ...)": a setting
 * derived but not measured, after the ones to set. */
static void
put_not_set(FILE *out, const struct setting *s)
{
	char line[SETTING_TEXT_LEN + 160], comment[SETTING_TEXT_LEN + 80];

	report_setting_comment(s, comment, sizeof comment);
	snprintf(line, sizeof line, "not set: %s = %s%s%s (%s)", s->name, s->is_name ? "'" : "",
	    s->value, s->is_name ? "'" : "", comment);
	put_wrapped(out, 2, 4, line);
}

void
report_print_settings(FILE *out, const struct settings *set)
{
	char line[SETTING_TEXT_LEN + 80];
	struct words w;
	size_t i;

	if (set->nothing != NOTHING_NONE) {
		snprintf(line, sizeof line, "nothing: %s", settings_words_nothing(set, &w));
		put_wrapped(out, 2, 2, line);
		return;
	}
	for (i = 0; i < set->n; i++) {
		if (!settings_active(set, i))
			continue;
		fputs("  ", out);
		report_setting_line(out, &set->list[i]);
		fputc('\n', out);
		report_setting_comment(&set->list[i], line, sizeof line);
		put_wrapped(out, 4, 4, line);
	}
	for (i = 0; i < set->n; i++)
		if (!settings_source_active(set->list[i].source))
			put_not_set(out, &set->list[i]);
}

void
report_settings_json(struct json *j, const struct settings *set)
{
	struct words w;
	size_t i;

	json_begin_array(j, "what_to_set");
	for (i = 0; i < set->n; i++) {
		if (!settings_active(set, i))
			continue;
		json_begin_object(j, NULL);
		json_string(j, "name", set->list[i].name);
		if (set->list[i].is_name)
			json_string(j, "value", set->list[i].value);
		else
			json_int(j, "value", strtol(set->list[i].value, NULL, 10));
		json_string(j, "source", settings_source_code(set->list[i].source));
		json_string(j, "reason", settings_words_reason(&set->list[i], &w));
		json_end_object(j);
	}
	json_end_array(j);
	if (set->nothing == NOTHING_NONE) {
		json_null(j, "nothing_to_set");
		return;
	}
	json_begin_object(j, "nothing_to_set");
	json_string(j, "code", settings_nothing_code(set->nothing));
	json_string(j, "reason", settings_words_nothing(set, &w));
	json_end_object(j);
}

void
report_what_to_set(FILE *out, const struct report *r)
{
	char shown[ESCAPE_LEN(PATH_MAX)];
	size_t t;

	for (t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];

		if (!tr->run.measured)
			continue;
		if (report_several(r)) {
			escape_for_terminal(tr->run.path, shown, sizeof shown);
			fprintf(out, "\nWhat to set for target %zu: %s\n", t + 1, shown);
		} else {
			fprintf(out, "\nWhat to set\n");
		}
		report_print_settings(out, &tr->to_set);
	}
}
