/* advice_words.c: the advice's sentences, written from its facts
 * (advice_words.h). Each function reads one family of the advice's
 * reasons and writes it whole, cut short at the sentence's length. */
#include "config.h"

#include "report/advice_words.h"

#include <stdio.h>
#include <string.h>

#include "group/group_result.h"
#include "util/strbuf.h"
#include "util/units.h"

#define NAMES_LEN     160	/* the rows a warning lists, within its message */
#define REASON_SHOWN  "%.80s"	/* a row's reason, cut to fit the message */
#define DEVICE_NAMES_LEN 160	/* the devices a warning names */
#define BRIEF_LEN     128	/* the method's choice in a few words */


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

static void
measurer_words(struct strbuf *t, const struct advice_measurer *by)
{
	char span[64];

	if (by->clients_lo == by->clients_hi)
		snprintf(span, sizeof span, "%u client%s", by->clients_lo,
		    plural(by->clients_lo));
	else
		snprintf(span, sizeof span, "%u to %u clients", by->clients_lo, by->clients_hi);
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
		    "that beat 0 loses at more clients, and commit_siblings can only keep a "
		    "delay away from fewer", d->delay_usecs, d->vs_zero_pct, d->clients,
		    plural(d->clients));
		break;
	case DELAY_CHOSEN:
		measurer_words(&t, &d->by);
		strbuf_add(&t, "at %u client%s, the most at which a delay beat 0 beyond "
		    "noise%s, %ld us did with the most commits/s (%+.1f%%); against 0 it "
		    "measured ", d->clients, plural(d->clients), d->lost_above ?
		    " and lost at no higher count" : "", d->delay_usecs, d->vs_zero_pct);
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

/* "vda", "sdb and sdc", "sdb, sdc and 2 more": the devices a warning
 * names, the first two of how many. */
static void
device_words(const struct advice_warning *aw, char *buf, size_t len)
{
	size_t n = aw->count;

	buf[0] = '\0';
	if (n == 1)
		snprintf(buf, len, "%s", aw->names[0]);
	else if (n == 2)
		snprintf(buf, len, "%s and %s", aw->names[0], aw->names[1]);
	else if (n > 2)
		snprintf(buf, len, "%s, %s and %zu more", aw->names[0], aw->names[1], n - 2);
}

/* "a, b, c, d and 1 more": the rows a warning names, the first
 * WARNING_NAMES_MAX of how many. */
static void
row_words(const struct advice_warning *aw, char *buf, size_t len)
{
	size_t i, used;

	buf[0] = '\0';
	for (i = 0; i < aw->count && i < WARNING_NAMES_MAX; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", i ? ", " : "", aw->names[i]);
	}
	if (aw->count > WARNING_NAMES_MAX) {
		used = strlen(buf);
		snprintf(buf + used, len - used, " and %zu more", aw->count - WARNING_NAMES_MAX);
	}
}

static void
implausible_words(const struct advice_warning *aw, struct words *w)
{
	char size[32];

	units_format_size(aw->bytes, size, sizeof size);
	snprintf(w->text, sizeof w->text, "%s took %.3f us per %s write and sync: nothing "
	    "durable is that fast, so the target is in memory (tmpfs, a RAM disk) or syncs "
	    "are skipped (eatmydata, nobarrier). Test the directory the database will "
	    "really use.", aw->row, aw->usecs, size);
}

static void
rotational_words(const struct advice_warning *aw, struct words *w)
{
	char names[DEVICE_NAMES_LEN];

	device_words(aw, names, sizeof names);
	snprintf(w->text, sizeof w->text, "%s %s a rotating disk, yet %s made %.0f flushes "
	    "a second, more than a 15,000 rpm disk turns (250): a write cache is absorbing "
	    "them. That is durable only if the cache is battery- or flash-backed (a "
	    "virtual disk: ask how the host caches it).", names, aw->count == 1 ?
	    "reports" : "each report", aw->row, aw->per_sec);
}

static void
writeback_words(const struct advice_warning *aw, struct words *w)
{
	char names[DEVICE_NAMES_LEN];
	bool one = aw->count == 1;

	device_words(aw, names, sizeof names);
	snprintf(w->text, sizeof w->text, "%s %s a volatile write cache (write back): "
	    "commits are durable only if %s honours flush requests, which these figures "
	    "cannot prove. Check that %s has power-loss protection or a battery-backed "
	    "cache (a virtual disk: the host's cache mode).", names, one ? "has" :
	    "each have", one ? "it" : "each", one ? "it" : "each");
}

static void
direct_words(const struct advice_warning *aw, struct words *w)
{
	char names[NAMES_LEN];

	row_words(aw, names, sizeof names);
	snprintf(w->text, sizeof w->text, "Direct I/O was refused for %s: " REASON_SHOWN
	    ". They have no figures; the buffered rows still apply, and a server set to "
	    "use direct I/O would fail here.", names, aw->what);
}

static void
sleep_words(const struct advice_warning *aw, struct words *w)
{
	char slack[48] = "";

	if (aw->slack_usecs >= 0.0)
		snprintf(slack, sizeof slack, ", timer slack %.0f us", aw->slack_usecs);
	/* Point at what settles it, never at another value than the advice. */
	snprintf(w->text, sizeof w->text, "A commit_delay of %ld us really sleeps %.1f us "
	    "on average here (p99 %.1f us%s): each delayed flush waits over twice as long "
	    "as asked. %s", aw->delay_usecs, aw->usecs, aw->p99_usecs, slack, aw->flag ?
	    "The group-commit experiment's delays slept as long, so its figures include "
	    "this; a lower timer slack for the server (systemd TimerSlackNSec=) would "
	    "change them." : "Lower the server's timer slack (systemd TimerSlackNSec=), "
	    "and measure what a delay does here with the group-commit experiment (-t "
	    "group).");
}

const char *
advice_words_warning(const struct advice_warning *aw, struct words *w)
{
	w->text[0] = '\0';
	switch (aw->id) {
	case WARNING_IMPLAUSIBLE_FLUSH:
		implausible_words(aw, w);
		break;
	case WARNING_NONDURABLE_FS:
		snprintf(w->text, sizeof w->text, "The target is on %s%s, which lives in "
		    "memory: nothing written here survives a reboot, and the figures say "
		    "nothing about a disk. Test the directory the database will really use.",
		    aw->flag ? "a layer on " : "", aw->what);
		break;
	case WARNING_NOBARRIER:
		snprintf(w->text, sizeof w->text, "The filesystem is mounted with %s: syncs "
		    "do not make the device flush its write cache, so a power loss can lose "
		    "committed transactions. Remount without it unless that cache is "
		    "battery- or flash-backed.", aw->what);
		break;
	case WARNING_VOLATILE_OVERLAY:
		snprintf(w->text, sizeof w->text, "The overlay is mounted with volatile: it "
		    "skips every sync, so nothing here is durable and the figures are not a "
		    "disk's. Test a directory outside it, or remount without volatile.");
		break;
	case WARNING_ROTATIONAL_TOO_FAST:
		rotational_words(aw, w);
		break;
	case WARNING_WRITEBACK_CACHE:
		writeback_words(aw, w);
		break;
	case WARNING_DIRECT_REFUSED:
		direct_words(aw, w);
		break;
	case WARNING_FEW_SAMPLES:
		snprintf(w->text, sizeof w->text, "commit_delay rests on only %llu operations "
		    "of %s, so it may move from run to run. Run each test longer (-s, "
		    "--secs-per-test) for a stable figure.", (unsigned long long)aw->ops, aw->row);
		break;
	case WARNING_SLEEP_OVERSHOOT:
		sleep_words(aw, w);
		break;
	case WARNING_PACED_SLOWER:
		advice_words_paced(w->text, sizeof w->text, (unsigned long long)aw->per_sec,
		    aw->usecs, aw->other_usecs, aw->flag);
		break;
	case WARNING_STALL:
	case WARNING_STALL_OVER_20S:
	case WARNING_COUNT:
		/* watch's own, which its summary words (watch_result.c) */
		break;
	}
	return w->text;
}

void
advice_words_paced(char *buf, size_t len, unsigned long long per_sec,
    double paced_usecs, double b2b_usecs, bool point_to_watch)
{
	snprintf(buf, len, "one commit at a time, %llu a second, took %.1f times as long "
	    "as back to back (%.1f vs %.1f us): a flush after an idle gap is slower here, "
	    "so the commits of a lightly loaded server wait longer than any back-to-back "
	    "figure (%s, pg_test_fsync's, fio's) says.%s", per_sec, paced_usecs / b2b_usecs,
	    paced_usecs, b2b_usecs, point_to_watch ? "this table's" : "the burst's",
	    point_to_watch ? " syncprobe watch measures it over time." : "");
}

const char *
advice_words_source(enum setting_source s)
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

/* wal_sync_method's reason: what the method measured, and where the user
 * gave another, what syncprobe would advise. */
static void
method_setting_words(const struct setting *s, struct words *w)
{
	char block[16], brief[BRIEF_LEN];

	units_format_size(s->block_bytes, block, sizeof block);
	advice_words_method_brief(&s->method, brief, sizeof brief);
	if (s->reason == REASON_METHOD_GIVEN_ADVISED)
		snprintf(w->text, sizeof w->text, "the server's (--wal-sync-method), %.1f us "
		    "per %s write + flush; syncprobe would advise '%s', %s", s->flush_usecs,
		    block, s->advised->name, brief);
	else if (s->reason == REASON_METHOD_GIVEN)
		snprintf(w->text, sizeof w->text, "the server's (--wal-sync-method), %.1f us "
		    "per %s write + flush", s->flush_usecs, block);
	else if (s->reason == REASON_METHOD_DEFAULT)
		snprintf(w->text, sizeof w->text, "the platform's default, which -t group "
		    "flushed with (%.1f us per %s write + flush); no method ran in the "
		    "one-write test", s->flush_usecs, block);
	else
		snprintf(w->text, sizeof w->text, "%s, %.1f us per %s write + flush", brief,
		    s->flush_usecs, block);
}

/* "beat 0 at 16 clients (+9.4% commits/s) and 64 (+12.0%)". */
static void
gains_words(const struct setting *s, struct strbuf *b)
{
	size_t k;

	for (k = 0; k < s->ngains; k++)
		if (k == 0)
			strbuf_add(b, "beat 0 at %u client%s (%+.1f%% commits/s)",
			    s->gains[k].clients, plural(s->gains[k].clients),
			    s->gains[k].vs_zero_pct);
		else
			strbuf_add(b, " and %u (%+.1f%%)", s->gains[k].clients,
			    s->gains[k].vs_zero_pct);
}

/* The rule's delay: what it rests on, the sleep it really gets where that
 * is much longer, and what would make it a setting. */
static void
rule_setting_words(const struct setting *s, struct strbuf *b)
{
	long d = s->delay_usecs;

	strbuf_add(b, "half of the %.3f us %s flush", s->flush_usecs, s->flush_name);
	if (d <= 0)
		return;
	if (s->sleep_overshoot)
		strbuf_add(b, "; a %ld us sleep really lasts %.0f us here%s", d,
		    s->sleep_usecs, s->sleep_usecs > s->flush_usecs ?
		    ", longer than the flush itself" : "");
	strbuf_add(b, "; not set until measured: -t group or syncprobe pgbench "
	    "measures what a delay does here");
}

const char *
advice_words_setting(const struct setting *s, struct words *w)
{
	char span[64];
	struct strbuf b;

	if (s->clients_lo == s->clients_hi)
		snprintf(span, sizeof span, "%u client%s", s->clients_lo, plural(s->clients_lo));
	else
		snprintf(span, sizeof span, "%u to %u clients", s->clients_lo, s->clients_hi);
	strbuf_init(&b, w->text, sizeof w->text);
	switch (s->reason) {
	case REASON_METHOD_MEASURED:
	case REASON_METHOD_GIVEN:
	case REASON_METHOD_GIVEN_ADVISED:
	case REASON_METHOD_DEFAULT:
		method_setting_words(s, w);
		break;
	case REASON_DELAY_NO_CELLS:
		strbuf_add(&b, "what the experiment's cells gave");
		break;
	case REASON_DELAY_GAINS:
		gains_words(s, &b);
		break;
	case REASON_DELAY_FROM_CELLS:
		strbuf_add(&b, "from the cells at %s", span);
		break;
	case REASON_DELAY_NONE_BEAT:
		strbuf_add(&b, "no delay beat 0 beyond noise at %s", span);
		break;
	case REASON_DELAY_ALL_LOST:
		strbuf_add(&b, "each delay that beat 0 at some client count lost at a higher "
		    "one (%s)", span);
		break;
	case REASON_DELAY_NONE:
		strbuf_add(&b, "no delay, from the cells at %s", span);
		break;
	case REASON_DELAY_RULE:
		rule_setting_words(s, &b);
		break;
	case REASON_SIBLINGS:
		strbuf_add(&b, "the delay never sleeps with %u clients or fewer (fewer than %u "
		    "others active)%s", s->siblings, s->siblings, s->no_gain_below ?
		    ", where it did not beat 0" : "");
		break;
	}
	return w->text;
}

/* Why nothing is set, for the reasons that quote no figure. */
static const char *const block_words[] = {
	[BLOCK_NOT_MEASURED] = "nothing this run measured: PostgreSQL's half rule is "
	    "untested (-t group or syncprobe pgbench measures what a delay does here)",
	[BLOCK_MEASURING_STOPPED] = "a signal ended the measuring early, so these figures "
	    "are not advice",
	[BLOCK_NO_REPEAT] = "no whole repeat was measured, so nothing is advice",
	[BLOCK_SWEEP_STOPPED] = "a signal ended the sweep early, so these figures are not "
	    "advice",
	[BLOCK_RUN_FAILED] = "the run stopped at an error, so these figures are not advice",
};

const char *
advice_words_nothing(const struct settings *set, struct words *w)
{
	w->text[0] = '\0';
	if (set->nothing == NOTHING_NONE)
		return w->text;
	if (set->why == BLOCK_NO_SYNC_ROW)
		return delay_words(&set->no_row, w);
	if (set->why == BLOCK_NOT_DURABLE)
		snprintf(w->text, sizeof w->text, "the figures are not of durable storage "
		    "(warning %s)", set->warning);
	else
		snprintf(w->text, sizeof w->text, "%s", block_words[set->why]);
	return w->text;
}
