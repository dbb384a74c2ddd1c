/* report_settings.c: "What to set", the block that ends the text report:
 * the settings -F conf makes active, each with how sure it is and why, or
 * why none may be (an error, a signal, figures not of durable storage).
 * Both read the one list of advice/settings.h through this file, so the
 * block and the conf lines cannot drift apart. */
#include "config.h"

#include "report/report.h"

#include <limits.h>
#include <string.h>

#include "util/escape.h"
#include "util/wrap.h"

#define LINE_WIDTH 79

bool
report_settings_of(const struct report *r, const struct target_result *tr,
    struct settings *out, char *why_off, size_t len)
{
	settings_from_advice(&tr->advice, tr->group, tr->sleep.samples > 0 ? &tr->sleep : NULL,
	    r->options->block_bytes, out);
	/* A run cut short gives figures from however many operations it had,
	 * and figures of memory say nothing of a disk (settings.h's off):
	 * nothing may take effect from them. */
	if (tr->failed)
		snprintf(why_off, len, "the run stopped at an error, so these figures are "
		    "not advice");
	else if (r->interrupted_by != 0)
		snprintf(why_off, len, "a signal ended the measuring early, so these "
		    "figures are not advice");
	else if (out->off[0] != '\0')
		snprintf(why_off, len, "%s", out->off);
	else
		return true;
	return false;
}

void
report_setting_comment(const struct setting *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %s", settings_basis_text(s->basis), s->reason);
}

static void
put_wrapped(FILE *out, int indent, const char *text)
{
	char shown[ESCAPE_LEN(SETTING_TEXT_LEN + 64)];

	escape_for_terminal(text, shown, sizeof shown);
	wrap_print(out, indent, indent, LINE_WIDTH, shown, false);
}

void
report_print_settings(FILE *out, const struct settings *set, const char *why_off)
{
	char line[SETTING_TEXT_LEN + 80];
	size_t i;

	if (why_off != NULL || set->n == 0) {
		snprintf(line, sizeof line, "nothing: %s", why_off != NULL ? why_off : set->none);
		put_wrapped(out, 2, line);
		return;
	}
	for (i = 0; i < set->n; i++) {
		fprintf(out, "  %s = %s\n", set->list[i].name, set->list[i].value);
		report_setting_comment(&set->list[i], line, sizeof line);
		put_wrapped(out, 4, line);
	}
}

static void
print_target_settings(FILE *out, const struct report *r, const struct target_result *tr)
{
	struct settings set;
	char why[SETTING_TEXT_LEN];

	if (report_settings_of(r, tr, &set, why, sizeof why))
		report_print_settings(out, &set, NULL);
	else
		report_print_settings(out, &set, why);
}

void
report_what_to_set(FILE *out, const struct report *r)
{
	char shown[ESCAPE_LEN(PATH_MAX)];
	size_t t;

	for (t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];

		if (!tr->measured)
			continue;
		if (report_several(r)) {
			escape_for_terminal(tr->path, shown, sizeof shown);
			fprintf(out, "\nWhat to set for target %zu: %s\n", t + 1, shown);
		} else {
			fprintf(out, "\nWhat to set\n");
		}
		print_target_settings(out, r, tr);
	}
}
