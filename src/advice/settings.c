/* settings.c: the advice as the settings to type, each with its source
 * and one-line reason, and whether anything may take effect (settings.h).
 * The reasons state what was measured, read from the advice and the
 * experiment's cells; they never restate how the advice chose, which its
 * own sentences say. */
#include "config.h"

#include "advice/settings.h"

#include <stdio.h>
#include <string.h>

#include "advice/warnings.h"
#include "group/group_result.h"
#include "probe/options.h"
#include "util/strbuf.h"

bool
settings_source_active(enum setting_source s)
{
	return s != SOURCE_RULE && s != SOURCE_DEFAULT;
}

const char *
settings_source_text(enum setting_source s)
{
	switch (s) {
	case SOURCE_PROBE:
		return "measured here";
	case SOURCE_GIVEN:
		return "as given";
	case SOURCE_DEFAULT:
		return "the platform's default, not compared";
	case SOURCE_RULE:
		return "the half rule, untested";
	case SOURCE_GROUP:
		return "measured by -t group";
	case SOURCE_SERVER:
		return "measured on the server by syncprobe pgbench";
	}
	return "?";
}

const char *
settings_source_code(enum setting_source s)
{
	static const char *const codes[] = {
		[SOURCE_PROBE] = "probe", [SOURCE_GIVEN] = "given", [SOURCE_GROUP] = "group",
		[SOURCE_SERVER] = "server", [SOURCE_RULE] = "rule", [SOURCE_DEFAULT] = "default",
	};

	return codes[s];
}

const char *
settings_nothing_code(enum nothing_to_set n)
{
	static const char *const codes[] = {
		[NOTHING_NONE] = NULL, [NOTHING_NO_SYNC_ROW] = "no_sync_row",
		[NOTHING_NOT_MEASURED] = "not_measured", [NOTHING_NOT_DURABLE] = "not_durable",
		[NOTHING_INTERRUPTED] = "interrupted", [NOTHING_FAILED] = "failed",
	};

	return codes[n];
}

bool
settings_active(const struct settings *set, size_t i)
{
	return set->nothing == NOTHING_NONE && settings_source_active(set->list[i].source);
}

void
settings_block(struct settings *set, enum nothing_to_set n, const char *why)
{
	/* The enum is in order of precedence: an error says more than a
	 * signal, which says more than the storage. */
	if (n <= set->nothing)
		return;
	set->nothing = n;
	snprintf(set->why, sizeof set->why, "%s", why);
}

static const char *const setting_names[] = {
	[SETTING_WAL_SYNC_METHOD] = "wal_sync_method",
	[SETTING_COMMIT_DELAY] = "commit_delay",
	[SETTING_COMMIT_SIBLINGS] = "commit_siblings",
};

static struct setting *
add_setting(struct settings *out, enum setting_id id, enum setting_source source)
{
	struct setting *s;

	if (out->n >= SETTINGS_MAX)
		return NULL;
	s = &out->list[out->n++];
	memset(s, 0, sizeof *s);
	s->id = id;
	s->name = setting_names[id];
	s->source = source;
	return s;
}

/* wal_sync_method: the method commit_delay rests on, as -F conf sets it
 * (the server's own with --wal-sync-method). */
static void
add_method(const struct advice *a, size_t block_bytes, struct settings *out)
{
	const struct method *m = a->delay_method;
	enum setting_source source = SOURCE_PROBE;
	struct setting *s;
	char block[16];

	if (a->method_given && a->wal_sync_method != m)
		source = SOURCE_GIVEN;
	else if (a->wal_sync_method == NULL)
		source = SOURCE_DEFAULT;
	if ((s = add_setting(out, SETTING_WAL_SYNC_METHOD, source)) == NULL)
		return;
	units_format_size(block_bytes, block, sizeof block);
	snprintf(s->value, sizeof s->value, "%s", m->name);
	s->is_name = true;
	if (source == SOURCE_GIVEN && a->wal_sync_method != NULL)
		snprintf(s->reason, sizeof s->reason, "the server's (--wal-sync-method), "
		    "%.1f us per %s write + flush; syncprobe would advise '%s', %s",
		    a->basis_mean_usecs, block, a->wal_sync_method->name, a->method_brief);
	else if (source == SOURCE_GIVEN)
		snprintf(s->reason, sizeof s->reason, "the server's (--wal-sync-method), "
		    "%.1f us per %s write + flush", a->basis_mean_usecs, block);
	else if (source == SOURCE_DEFAULT)
		snprintf(s->reason, sizeof s->reason, "the platform's default, which -t "
		    "group flushed with (%.1f us per %s write + flush); no method ran in "
		    "the one-write test", a->basis_mean_usecs, block);
	else
		snprintf(s->reason, sizeof s->reason, "%s, %.1f us per %s write + flush",
		    a->method_brief, a->basis_mean_usecs, block);
}

/* The experiment's column of delay us, or g->ndelays. */
static size_t
delay_index(const struct group_result *g, long us)
{
	size_t di;

	for (di = 0; di < g->ndelays; di++)
		if (g->delays[di] == us)
			return di;
	return g->ndelays;
}

/* "beat 0 at 16 clients (+9.4% commits/s) and 64 (+12.0%)": where delay
 * column di was better than 0; the count of such client counts. */
static size_t
list_gains(const struct group_result *g, size_t di, char *buf, size_t len)
{
	struct strbuf b;
	size_t ci, k = 0;

	strbuf_resume(&b, buf, len);
	for (ci = 0; ci < g->nclients; ci++) {
		const struct group_cell *c = group_cell_at(g, ci, di);

		if (c->vs_zero != GROUP_BETTER)
			continue;
		if (k == 0)
			strbuf_add(&b, "beat 0 at %u client%s (%+.1f%% commits/s)",
			    c->clients, c->clients == 1 ? "" : "s", c->vs_zero_pct);
		else
			strbuf_add(&b, " and %u (%+.1f%%)", c->clients, c->vs_zero_pct);
		k++;
	}
	return k;
}

/* Whether every delay that beat 0 at some client count lost at a higher one. */
static bool
gains_lost_above(const struct group_result *g, bool *any_gain)
{
	size_t ci, cj, di;

	*any_gain = false;
	for (di = 1; di < g->ndelays; di++)
		for (ci = 0; ci < g->nclients; ci++) {
			bool lost = false;

			if (group_cell_at(g, ci, di)->vs_zero != GROUP_BETTER)
				continue;
			*any_gain = true;
			for (cj = ci + 1; cj < g->nclients; cj++)
				lost |= group_cell_lost(group_cell_at(g, cj, di));
			if (!lost)
				return false;
		}
	return true;
}

static void
measured_delay_reason(const struct advice *a, const struct group_result *g,
    char *buf, size_t len)
{
	bool any_gain, all_lost;
	char span[64];
	size_t di;

	if (g == NULL || g->nclients == 0) {
		snprintf(buf, len, "what the experiment's cells gave");
		return;
	}
	group_client_span(g, span, sizeof span);
	di = delay_index(g, a->commit_delay_usecs);
	if (a->commit_delay_usecs > 0 && di < g->ndelays && list_gains(g, di, buf, len) > 0)
		return;
	all_lost = gains_lost_above(g, &any_gain);
	if (a->commit_delay_usecs > 0)
		snprintf(buf, len, "from the cells at %s", span);
	else if (!any_gain)
		snprintf(buf, len, "no delay beat 0 beyond noise at %s", span);
	else if (all_lost)
		snprintf(buf, len, "each delay that beat 0 at some client count lost at a "
		    "higher one (%s)", span);
	else
		snprintf(buf, len, "no delay, from the cells at %s", span);
}

/* The rule's delay: what it rests on, and what would make it a setting.
 * A sleep that lasts much longer than asked (the sleep_overshoot warning)
 * is said here too, so that the line and the warning agree. */
static void
rule_delay_reason(const struct advice *a, const struct sleep_result *sleep,
    char *buf, size_t len)
{
	long d = a->commit_delay_usecs;
	struct strbuf b;

	strbuf_init(&b, buf, len);
	strbuf_add(&b, "half of the %.3f us %s flush", a->basis_mean_usecs,
	    a->basis != NULL ? a->basis->spec.name : a->delay_method->name);
	if (d <= 0)
		return;
	if (sleep != NULL && sleep->samples > 0 && sleep->requested_usecs == d &&
	    sleep->mean_usecs > WARN_SLEEP_OVERSHOOT * (double)d)
		strbuf_add(&b, "; a %ld us sleep really lasts %.0f us here%s", d,
		    sleep->mean_usecs, sleep->mean_usecs > a->basis_mean_usecs ?
		    ", longer than the flush itself" : "");
	strbuf_add(&b, "; not set until measured: -t group or syncprobe pgbench "
	    "measures what a delay does here");
}

/* Who measured commit_delay and commit_siblings: the server's sweep, the
 * experiment, or nobody (the rule). */
static enum setting_source
measured_source(const struct advice *a, const struct group_result *g)
{
	if (!a->delay_measured)
		return SOURCE_RULE;
	return g != NULL && g->on_server ? SOURCE_SERVER : SOURCE_GROUP;
}

static void
add_delay(const struct advice *a, const struct group_result *g,
    const struct sleep_result *sleep, struct settings *out)
{
	struct setting *s = add_setting(out, SETTING_COMMIT_DELAY, measured_source(a, g));

	if (s == NULL)
		return;
	snprintf(s->value, sizeof s->value, "%ld", a->commit_delay_usecs);
	if (a->delay_measured)
		measured_delay_reason(a, g, s->reason, sizeof s->reason);
	else
		rule_delay_reason(a, sleep, s->reason, sizeof s->reason);
}

/* commit_siblings, where the advice is not the server's default. */
static void
add_siblings(const struct advice *a, const struct group_result *g, struct settings *out)
{
	struct setting *s = add_setting(out, SETTING_COMMIT_SIBLINGS, measured_source(a, g));
	unsigned n = a->commit_siblings;
	bool gain_below = false;
	size_t ci, di;

	if (s == NULL)
		return;
	snprintf(s->value, sizeof s->value, "%u", n);
	/* With c clients at most c - 1 others are active. */
	snprintf(s->reason, sizeof s->reason, "the delay never sleeps with %u clients or "
	    "fewer (fewer than %u others active)", n, n);
	if (g == NULL || (di = delay_index(g, a->commit_delay_usecs)) >= g->ndelays)
		return;
	for (ci = 0; ci < g->nclients; ci++)
		gain_below |= g->clients[ci] <= n &&
		    group_cell_at(g, ci, di)->vs_zero == GROUP_BETTER;
	if (!gain_below) {
		struct strbuf b;

		strbuf_resume(&b, s->reason, sizeof s->reason);
		strbuf_add(&b, ", where it did not beat 0");
	}
}

/* Figures from memory, or from syncs that are skipped, would set the
 * fastest method and a delay sized to a flush no disk makes: a file of
 * them dropped into conf.d must set nothing. */
static void
mark_not_durable(const struct advice *a, struct settings *out)
{
	const struct advice_warning *w = warnings_not_durable(a);
	char why[SETTING_TEXT_LEN];

	if (w == NULL)
		return;
	snprintf(why, sizeof why, "the figures are not of durable storage (warning %s)",
	    w->code);
	settings_block(out, NOTHING_NOT_DURABLE, why);
}

/* Only derived values (the rule, an uncompared default): nothing this
 * run measured may take effect. */
static void
mark_not_measured(struct settings *out)
{
	size_t i;

	for (i = 0; i < out->n; i++)
		if (settings_source_active(out->list[i].source))
			return;
	settings_block(out, NOTHING_NOT_MEASURED, "nothing this run measured: "
	    "PostgreSQL's half rule is untested (-t group or syncprobe pgbench "
	    "measures what a delay does here)");
}

/* The delay's reason where no one-write row ran, until "What to set"
 * gives its own facts to the report's words as the delay does. */
static void
no_row_why(const struct advice *a, char *buf, size_t len)
{
	if (a->delay_why.basis == DELAY_METHOD_NOT_RUN)
		snprintf(buf, len, "%s did not run in the one-write test",
		    a->delay_why.method->name);
	else
		snprintf(buf, len, "no one-write row to base commit_delay on");
}

void
settings_from_advice(const struct advice *a, const struct group_result *g,
    const struct sleep_result *sleep, size_t block_bytes, struct settings *out)
{
	memset(out, 0, sizeof *out);
	if (!a->have_delay || a->delay_method == NULL) {
		char why[SETTING_TEXT_LEN];

		no_row_why(a, why, sizeof why);
		settings_block(out, NOTHING_NO_SYNC_ROW, why);
		return;
	}
	add_method(a, block_bytes, out);
	add_delay(a, g, sleep, out);
	if (a->commit_siblings != DEFAULT_COMMIT_SIBLINGS)
		add_siblings(a, g, out);
	mark_not_measured(out);
	mark_not_durable(a, out);
}
