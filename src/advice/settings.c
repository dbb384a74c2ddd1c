/* settings.c: the advice as the settings to type, each with its source
 * and the facts of its one-line reason, and whether anything may take
 * effect (settings.h). The reasons state what was measured, read from the
 * advice and the experiment's cells; they never restate how the advice
 * chose, which its own reasons say. */
#include "config.h"

#include "advice/settings.h"

#include <stdio.h>
#include <string.h>

#include "advice/warnings.h"
#include "group/group_result.h"
#include "probe/options.h"

bool
settings_source_active(enum setting_source s)
{
	return s != SOURCE_RULE && s != SOURCE_DEFAULT;
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

/* The stable code each detailed reason is one of. */
static const enum nothing_to_set block_codes[] = {
	[BLOCK_NO_SYNC_ROW] = NOTHING_NO_SYNC_ROW,
	[BLOCK_NOT_MEASURED] = NOTHING_NOT_MEASURED,
	[BLOCK_NOT_DURABLE] = NOTHING_NOT_DURABLE,
	[BLOCK_MEASURING_STOPPED] = NOTHING_INTERRUPTED,
	[BLOCK_NO_REPEAT] = NOTHING_INTERRUPTED,
	[BLOCK_SWEEP_STOPPED] = NOTHING_INTERRUPTED,
	[BLOCK_RUN_FAILED] = NOTHING_FAILED,
};

void
settings_block(struct settings *set, enum settings_block_why why)
{
	enum nothing_to_set n = block_codes[why];

	/* The enum is in order of precedence: an error says more than a
	 * signal, which says more than the storage. */
	if (n <= set->nothing)
		return;
	set->nothing = n;
	set->why = why;
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

	if (a->method_given && a->wal_sync_method != m)
		source = SOURCE_GIVEN;
	else if (a->wal_sync_method == NULL)
		source = SOURCE_DEFAULT;
	if ((s = add_setting(out, SETTING_WAL_SYNC_METHOD, source)) == NULL)
		return;
	snprintf(s->value, sizeof s->value, "%s", m->name);
	s->is_name = true;
	s->flush_usecs = a->basis_mean_usecs;
	s->block_bytes = block_bytes;
	s->method = a->method_why;
	s->advised = a->wal_sync_method;
	if (source == SOURCE_GIVEN && a->wal_sync_method != NULL)
		s->reason = REASON_METHOD_GIVEN_ADVISED;
	else if (source == SOURCE_GIVEN)
		s->reason = REASON_METHOD_GIVEN;
	else if (source == SOURCE_DEFAULT)
		s->reason = REASON_METHOD_DEFAULT;
	else
		s->reason = REASON_METHOD_MEASURED;
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

/* Where delay column di was better than 0, kept in s's gains; how many. */
static size_t
keep_gains(const struct group_result *g, size_t di, struct setting *s)
{
	size_t ci;

	s->ngains = 0;
	for (ci = 0; ci < g->nclients; ci++) {
		const struct group_cell *c = group_cell_at(g, ci, di);

		if (c->vs_zero != GROUP_BETTER)
			continue;
		s->gains[s->ngains].clients = c->clients;
		s->gains[s->ngains++].vs_zero_pct = c->vs_zero_pct;
	}
	return s->ngains;
}

/* Whether every delay that beat 0 at some client count is not held
 * (group_cell_held) at a higher one. */
static bool
gains_unheld_above(const struct group_result *g, bool *any_gain)
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
				lost |= !group_cell_held(group_cell_at(g, cj, di));
			if (!lost)
				return false;
		}
	return true;
}

static void
measured_delay_reason(const struct advice *a, const struct group_result *g,
    struct setting *s)
{
	bool any_gain, all_lost;
	size_t di;

	if (g == NULL || g->nclients == 0) {
		s->reason = REASON_DELAY_NO_CELLS;
		return;
	}
	s->clients_lo = g->clients[0];
	s->clients_hi = g->clients[g->nclients - 1];
	di = delay_index(g, a->commit_delay_usecs);
	s->reason = REASON_DELAY_GAINS;
	if (a->commit_delay_usecs > 0 && di < g->ndelays && keep_gains(g, di, s) > 0)
		return;
	all_lost = gains_unheld_above(g, &any_gain);
	if (a->commit_delay_usecs > 0)
		s->reason = REASON_DELAY_FROM_CELLS;
	else if (!any_gain)
		s->reason = REASON_DELAY_NONE_BEAT;
	else if (all_lost)
		s->reason = REASON_DELAY_ALL_LOST;
	else
		s->reason = REASON_DELAY_NONE;
}

/* The rule's delay: what it rests on, and what would make it a setting.
 * A sleep that lasts much longer than asked (the sleep_overshoot warning)
 * is said too, so that the line and the warning agree. */
static void
rule_delay_reason(const struct advice *a, const struct sleep_result *sleep,
    struct setting *s)
{
	long d = a->commit_delay_usecs;

	s->reason = REASON_DELAY_RULE;
	s->flush_usecs = a->basis_mean_usecs;
	snprintf(s->flush_name, sizeof s->flush_name, "%s",
	    a->basis != NULL ? a->basis->spec.name : a->delay_method->name);
	s->sleep_overshoot = d > 0 && sleep != NULL && sleep->samples > 0 &&
	    sleep->requested_usecs == d &&
	    sleep->mean_usecs > WARN_SLEEP_OVERSHOOT * (double)d;
	s->sleep_usecs = s->sleep_overshoot ? sleep->mean_usecs : 0.0;
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
	s->delay_usecs = a->commit_delay_usecs;
	if (a->delay_measured)
		measured_delay_reason(a, g, s);
	else
		rule_delay_reason(a, sleep, s);
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
	s->reason = REASON_SIBLINGS;
	s->siblings = n;
	if (g == NULL || (di = delay_index(g, a->commit_delay_usecs)) >= g->ndelays)
		return;
	/* With c clients at most c - 1 others are active. */
	for (ci = 0; ci < g->nclients; ci++)
		gain_below |= g->clients[ci] <= n &&
		    group_cell_at(g, ci, di)->vs_zero == GROUP_BETTER;
	s->no_gain_below = !gain_below;
}

/* Figures from memory, or from syncs that are skipped, would set the
 * fastest method and a delay sized to a flush no disk makes: a file of
 * them dropped into conf.d must set nothing. */
static void
mark_not_durable(const struct advice *a, struct settings *out)
{
	const struct advice_warning *w = warnings_not_durable(a);

	if (w == NULL)
		return;
	out->warning = w->code;
	settings_block(out, BLOCK_NOT_DURABLE);
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
	settings_block(out, BLOCK_NOT_MEASURED);
}

void
settings_from_advice(const struct advice *a, const struct group_result *g,
    const struct sleep_result *sleep, size_t block_bytes, struct settings *out)
{
	memset(out, 0, sizeof *out);
	if (!a->have_delay || a->delay_method == NULL) {
		out->no_row = a->delay_why;
		settings_block(out, BLOCK_NO_SYNC_ROW);
		return;
	}
	add_method(a, block_bytes, out);
	add_delay(a, g, sleep, out);
	if (a->commit_siblings != DEFAULT_COMMIT_SIBLINGS)
		add_siblings(a, g, out);
	mark_not_measured(out);
	mark_not_durable(a, out);
}
