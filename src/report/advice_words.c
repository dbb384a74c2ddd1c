/* advice_words.c: the advice's own sentences, written from its facts
 * (advice_words.h): why the method, commit_delay, the rule and
 * commit_siblings are what they are. Each function reads one family of
 * the advice's reasons and writes it whole, cut short at the sentence's
 * length. */
#include "config.h"

#include "report/advice_words.h"

#include <stdio.h>

#include "group/group_result.h"
#include "util/strbuf.h"



/* The parts of a method's score, so that a reader sees what was
 * compared: in full, "59.8 us for one write and 73.9 us for two (133.7 us
 * together)"; short, "59.8 and 73.9 us, 133.7 us together". */
static void
score_words(const struct method_score *s, bool full, char *buf, size_t len)
{
	double o = s->one_usecs;

	if (!s->with_two)
		snprintf(buf, len, full ? "%.1f us for one write" : "%.1f us", o);
	else
		snprintf(buf, len, full ? "%.1f us for one write and %.1f us for two (%.1f us "
		    "together)" : "%.1f and %.1f us, %.1f us together", o, s->two_usecs,
		    o + s->two_usecs);
}

const char *
advice_words_method(const struct advice *a, struct words *w)
{
	const struct method_facts *f = &a->method_why;
	const char *best = f->fastest ? f->fastest->name : "?";
	const char *def = f->platform_default ? f->platform_default->name : "?";
	char rule[96], best_full[96], best_short[64], def_full[96], def_short[64];

	snprintf(rule, sizeof rule, "%s compared, with a %.0f%% margin in favour of "
	    "the default", f->with_two ? "the sums are" : "one write is", f->margin_pct);
	score_words(&f->fastest_score, true, best_full, sizeof best_full);
	score_words(&f->fastest_score, false, best_short, sizeof best_short);
	score_words(&f->default_score, true, def_full, sizeof def_full);
	score_words(&f->default_score, false, def_short, sizeof def_short);
	switch (f->choice) {
	case CHOICE_NONE_RAN:
		snprintf(w->text, sizeof w->text, "no sync method ran in the one-write test");
		break;
	case CHOICE_WRITETHROUGH:
		snprintf(w->text, sizeof w->text, "F_FULLFSYNC exists here: plain fsync does "
		    "not flush the drive's cache, so only fsync_writethrough makes a commit "
		    "durable");
		break;
	case CHOICE_DEFAULT_ONLY:
		snprintf(w->text, sizeof w->text, "%s, the default here, is the only method "
		    "measured: %s", best, def_full);
		break;
	case CHOICE_DEFAULT_FASTEST:
		snprintf(w->text, sizeof w->text, "%s, the default here, is the fastest: %s; "
		    "%s", best, def_full, rule);
		break;
	case CHOICE_DEFAULT_WITHIN_MARGIN:
		snprintf(w->text, sizeof w->text, "%s, the default here, takes %s, within "
		    "%.0f%% of the fastest, %s (%s): keep the default; %s", def, def_full,
		    f->margin_pct, best, best_short, rule);
		break;
	case CHOICE_DEFAULT_WITHIN_NOISE:
		snprintf(w->text, sizeof w->text, "%s, the default here, takes %s; the "
		    "fastest, %s (%s), is not faster by %.0f%% beyond the figures' noise "
		    "(their 95%% intervals): keep the default; %s", def, def_full, best,
		    best_short, f->margin_pct, rule);
		break;
	case CHOICE_FASTEST:
		snprintf(w->text, sizeof w->text, "%s is the fastest: %s; the default %s "
		    "takes %.1f%% longer (%s), beyond the %.0f%% margin in favour of the "
		    "default and the figures' noise", best, best_full, def,
		    (f->default_score.score / f->fastest_score.score - 1.0) * 100.0,
		    def_short, f->margin_pct);
		break;
	case CHOICE_FASTEST_UNCOMPARED:
		snprintf(w->text, sizeof w->text, "%s is the fastest: %s; the default %s was "
		    "not measured", best, best_full, def);
		break;
	}
	return w->text;
}

void
advice_words_method_brief(const struct method_facts *f, char *buf, size_t len)
{
	const char *best = f->fastest ? f->fastest->name : "?";
	const char *def = f->platform_default ? f->platform_default->name : "?";

	buf[0] = '\0';
	switch (f->choice) {
	case CHOICE_NONE_RAN:
		break;
	case CHOICE_WRITETHROUGH:
		snprintf(buf, len, "the only method that flushes the drive's cache here "
		    "(F_FULLFSYNC)");
		break;
	case CHOICE_DEFAULT_ONLY:
		snprintf(buf, len, "the default and the only method measured");
		break;
	case CHOICE_DEFAULT_FASTEST:
		snprintf(buf, len, "the default and the fastest");
		break;
	case CHOICE_DEFAULT_WITHIN_MARGIN:
		snprintf(buf, len, "the default, within %.0f%% of the fastest (%s)",
		    f->margin_pct, best);
		break;
	case CHOICE_DEFAULT_WITHIN_NOISE:
		snprintf(buf, len, "the default, the fastest (%s) not %.0f%% faster beyond "
		    "noise", best, f->margin_pct);
		break;
	case CHOICE_FASTEST:
		snprintf(buf, len, "the fastest, the default %s taking %.1f%% longer", def,
		    (f->default_score.score / f->fastest_score.score - 1.0) * 100.0);
		break;
	case CHOICE_FASTEST_UNCOMPARED:
		snprintf(buf, len, "the fastest measured (the default %s was not)", def);
		break;
	}
}

static const char *
plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

/* "no sleep at 1 client, +12.0% at 16 (better), -1.0% at 64": a delay
 * against 0 at each client count. A cell that never slept ran as delay 0
 * did: its difference from 0 is noise, never quoted as the delay's. */
static void
cells_words(struct strbuf *t, const struct advice_cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct advice_cell *c = &cells[i];
		const char *unit = i == 0 ? (c->clients == 1 ? " client" : " clients") : "";

		if (c->never_slept) {
			strbuf_add(t, "%sno sleep at %u%s", i > 0 ? ", " : "", c->clients, unit);
			continue;
		}
		strbuf_add(t, "%s%+.1f%% at %u%s", i > 0 ? ", " : "", c->vs_zero_pct,
		    c->clients, unit);
		if (c->vs_zero != GROUP_SAME)
			strbuf_add(t, " (%s)", group_verdict_name(c->vs_zero));
	}
}

void
advice_words_clients(unsigned lo, unsigned hi, char *buf, size_t len)
{
	if (lo == hi)
		snprintf(buf, len, "%u client%s", lo, plural(lo));
	else
		snprintf(buf, len, "%u to %u clients", lo, hi);
}

static void
measurer_words(struct strbuf *t, const struct advice_measurer *by)
{
	char span[64];

	advice_words_clients(by->clients_lo, by->clients_hi, span, sizeof span);
	strbuf_add(t, "measured by %s (%s, %s): ", by->on_server ? "pgbench on the server" :
	    "the group-commit experiment", by->method ? by->method->name : "?", span);
}

/* The delay's reason from its facts (the advice's, or those a run with
 * nothing to set kept). */
static const char *
delay_words(const struct delay_facts *d, struct words *w)
{
	struct strbuf t;

	strbuf_init(&t, w->text, sizeof w->text);
	switch (d->basis) {
	case DELAY_NO_METHOD:
		strbuf_add(&t, "no one-write row to base commit_delay on");
		break;
	case DELAY_METHOD_NOT_RUN:
		strbuf_add(&t, "%s did not run in the one-write test", d->method->name);
		break;
	case DELAY_RULE_ROW:
		strbuf_add(&t, "half of %.3f us, the mean of one write + sync with %s%s",
		    d->mean_usecs, d->row, d->forced ? " (--wal-sync-method)" : "");
		break;
	case DELAY_RULE_GROUP:
		strbuf_add(&t, "half of %.3f us, the mean flush at one committer in the "
		    "group-commit experiment", d->mean_usecs);
		break;
	case DELAY_NONE_BEAT_ZERO:
		measurer_words(&t, &d->by);
		/* syncprobe pgbench's rounds are its repeats */
		strbuf_add(&t, "no delay beat 0 by more than the %s' noise at any client "
		    "count", d->by.on_server ? "repeats" : "rounds");
		break;
	case DELAY_GAINS_LOST:
		measurer_words(&t, &d->by);
		strbuf_add(&t, "%ld us beat 0 by %+.1f%% at %u client%s, but every delay "
		    "that beat 0 loses at more clients, or is not shown to cost under 3%% "
		    "there, and commit_siblings can only keep a delay away from fewer",
		    d->delay_usecs, d->vs_zero_pct, d->clients, plural(d->clients));
		break;
	case DELAY_CHOSEN:
		measurer_words(&t, &d->by);
		strbuf_add(&t, "at %u client%s, the most at which a delay beat 0 beyond "
		    "noise%s, %ld us beat it by %+.1f%%, the longest delay within noise "
		    "of the best there; against 0 it measured ", d->clients, plural(d->clients),
		    d->lost_above ? " and cost under 3% at every higher count" : "",
		    d->delay_usecs, d->vs_zero_pct);
		cells_words(&t, d->cells, d->ncells);
		break;
	}
	if (d->cut_short)
		strbuf_add(&t, "; the group-commit experiment was cut short by a signal, so "
		    "it measured no advice");
	return w->text;
}

const char *
advice_words_delay(const struct advice *a, struct words *w)
{
	return delay_words(&a->delay_why, w);
}

const char *
advice_words_delay_facts(const struct delay_facts *d, struct words *w)
{
	return delay_words(d, w);
}

const char *
advice_words_rule(const struct advice *a, struct words *w)
{
	const struct rule_facts *r = &a->rule_why;
	struct strbuf t;

	strbuf_init(&t, w->text, sizeof w->text);
	strbuf_add(&t, "half the flush interval (%.3f us%s), PostgreSQL's rule, gives "
	    "%ld us", r->basis_usecs, r->basis_is_row ? ", the one-write row's mean" :
	    " at one committer", r->rule_usecs);
	switch (r->swept) {
	case RULE_NOT_SWEPT:
		strbuf_add(&t, ", which --commit-delays did not include");
		break;
	case RULE_IS_ZERO:
		strbuf_add(&t, ", the same as no delay");
		break;
	case RULE_NEAREST:
		strbuf_add(&t, "; the round value nearest it, %ld us, measured against 0 ",
		    r->measured_usecs);
		cells_words(&t, r->cells, r->ncells);
		break;
	case RULE_EXACT:
		strbuf_add(&t, "; against 0 it measured ");
		cells_words(&t, r->cells, r->ncells);
		break;
	}
	return w->text;
}

/* How many of cells from `from` on have verdict v. */
static unsigned
count_verdict(const struct advice_cell *cells, size_t from, size_t n,
    enum group_verdict v)
{
	unsigned k = 0;

	for (; from < n; from++)
		k += cells[from].vs_zero == v;
	return k;
}

/* "16 and 64": the client counts from `from` on where the verdict is v. */
static void
list_counts(struct strbuf *t, const struct advice_cell *cells, size_t from, size_t n,
    enum group_verdict v)
{
	unsigned k = 0, total = count_verdict(cells, from, n, v);

	for (; from < n; from++)
		if (cells[from].vs_zero == v) {
			k++;
			strbuf_add(t, "%s%u", k == 1 ? "" : k == total ? " and " : ", ",
			    cells[from].clients);
		}
}

/* Where the delay applies with this commit_siblings, and only what was
 * measured there: with c clients at most c-1 others are active, so it
 * applies from siblings+1 clients on. */
static void
measured_siblings_words(struct strbuf *t, const struct siblings_facts *s,
    const struct delay_facts *d)
{
	unsigned from = s->siblings + 1, first = d->cells[s->from].clients;

	strbuf_add(t, "the delay applies from %u client%s on (%u or more others active); "
	    "measured to gain at ", from, plural(from), s->siblings);
	list_counts(t, d->cells, s->from, d->ncells, GROUP_BETTER);
	if (count_verdict(d->cells, s->from, d->ncells, GROUP_SAME) > 0) {
		strbuf_add(t, ", no different from 0 at ");
		list_counts(t, d->cells, s->from, d->ncells, GROUP_SAME);
	}
	if (from + 1 == first)
		strbuf_add(t, "; not measured at %u clients", from);
	else if (from < first)
		strbuf_add(t, "; not measured from %u to %u clients", from, first - 1);
	if (s->siblings != s->experiment_siblings)
		strbuf_add(t, " (measured with commit_siblings %u)", s->experiment_siblings);
}

const char *
advice_words_siblings(const struct advice *a, struct words *w)
{
	const struct siblings_facts *s = &a->siblings_why;
	struct strbuf t;

	strbuf_init(&t, w->text, sizeof w->text);
	switch (s->basis) {
	case SIBLINGS_DEFAULT:
		strbuf_add(&t, "the server's default: a delay applies only while at least %u "
		    "other transactions are active (-t group measures where a delay helps)",
		    s->siblings);
		break;
	case SIBLINGS_NO_DELAY:
		strbuf_add(&t, "the server's default: it changes nothing while commit_delay "
		    "is 0");
		break;
	case SIBLINGS_MEASURED:
		measured_siblings_words(&t, s, &a->delay_why);
		break;
	}
	return w->text;
}
