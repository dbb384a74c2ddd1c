/* report_counts.c: the answer at each client count (report_counts.h). The
 * server has one commit_delay: the advice is the one pair not worse than 0
 * at any count measured, often 0. These lines name what paid at each
 * concurrency, for the admin who knows how many clients commit at once. */
#include "config.h"

#include "report/report_counts.h"

#include "util/wrap.h"

#define LINE_WIDTH 79

void
report_counts_text(FILE *out, const struct advice *a, int indent)
{
	char line[160];
	size_t i;

	if (a->ncounts == 0)
		return;
	wrap_print(out, indent, indent, LINE_WIDTH, "what paid at each client count "
	    "measured (of the delays that beat 0 beyond noise, the longest within noise "
	    "of the one that beat it by the most; 0 where none did):", false);
	for (i = 0; i < a->ncounts; i++) {
		const struct advice_count *c = &a->counts[i];

		if (c->commit_delay_usecs > 0)
			snprintf(line, sizeof line, "at %u client%s at once: commit_delay = %ld, "
			    "%+.1f%% measured", c->clients, c->clients == 1 ? "" : "s",
			    c->commit_delay_usecs, c->vs_zero_pct);
		else
			snprintf(line, sizeof line, "at %u client%s at once: 0%s", c->clients,
			    c->clients == 1 ? "" : "s", c->any_worse ?
			    " (a delay lost to 0 beyond noise there)" : "");
		wrap_print(out, indent + 2, indent + 4, LINE_WIDTH, line, false);
	}
}

void
report_counts_json(struct json *j, const struct advice *a)
{
	size_t i;

	json_begin_array(j, "by_clients");
	for (i = 0; i < a->ncounts; i++) {
		const struct advice_count *c = &a->counts[i];

		json_begin_object(j, NULL);
		json_uint(j, "clients", c->clients);
		json_int(j, "commit_delay_usecs", c->commit_delay_usecs);
		json_double(j, "versus_zero_percent", c->vs_zero_pct, 2);
		json_bool(j, "any_worse", c->any_worse);
		json_end_object(j);
	}
	json_end_array(j);
}
