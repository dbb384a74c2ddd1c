/* test_advice.c: the wal_sync_method and commit_delay rules on made-up rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "advice/settings.h"
#include "rows.h"
#include "tap.h"
#include "words.h"

#define MAX_ROWS 20

struct fixture {
	struct row_result rows[MAX_ROWS];
	size_t n;
};

/* A row of group g for method m whose every operation took usecs, built
 * and recorded as the probe builds and records rows. */
static struct row_result *
add(struct fixture *f, enum group g, const char *m, bool direct, double usecs, int ops)
{
	struct row_spec spec;
	struct row_result *r = &f->rows[f->n++];
	uint64_t ns = (uint64_t)(usecs * 1000.0 + 0.5);

	row_spec_method(&spec, g, method_find(m), direct, g == GROUP_TWO ? 2 : 1, 8192);
	row_init(r, &spec);
	rows_record(r, (uint64_t)ops, rows_constant_ns, &ns, 10);
	row_finish(r);
	return r;
}

/* Whether the advised method is the one named. */
static bool
advised(const struct advice *a, const char *name)
{
	return a->wal_sync_method != NULL && strcmp(a->wal_sync_method->name, name) == 0;
}

static struct advice_input linux_like;

static void
test_commit_delay_rule(void)
{
	ok(advice_commit_delay(88.0) == 44, "half of 88 is 44");
	ok(advice_commit_delay(89.0) == 45, "44.5 rounds to 45");
	ok(advice_commit_delay(88.998) == 44, "44.499 rounds to 44");
	ok(advice_commit_delay(0.0) == 0, "zero stays zero");
	ok(advice_commit_delay(0.9) == 0, "0.45 rounds to 0");
	ok(advice_commit_delay(200000.0) == 100000, "100000 is allowed");
	ok(advice_commit_delay(500000.0) == 100000, "clamped to PostgreSQL's 100000");
}

static void
test_keeps_default_within_ten_percent(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice a;

	add(f, GROUP_ONE, "open_datasync", false, 80, 200);
	add(f, GROUP_ONE, "fdatasync", false, 88, 200);
	add(f, GROUP_TWO, "open_datasync", false, 160, 200);
	add(f, GROUP_TWO, "fdatasync", false, 92, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fdatasync"),
	    "fdatasync (180) beats open_datasync (240)");
	ok(a.have_delay && a.commit_delay_usecs == 44 && a.basis == &f->rows[1],
	    "commit_delay is half of the fdatasync one-write mean: %ld", a.commit_delay_usecs);
	ok(strstr(words_method(&a), "is the fastest: 88.0 us for one write and 92.0 us for "
	    "two (180.0 us together); the sums are compared, with a 10% margin in favour "
	    "of the default") != NULL, "the reason names both parts and the rule: %s",
	    words_method(&a));
	free(f);
}

static void
test_within_and_beyond_ten_percent(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice a;

	/* default 110, best 100: exactly 10% — keep the default. */
	add(f, GROUP_ONE, "fdatasync", false, 110, 200);
	add(f, GROUP_ONE, "fsync", false, 100, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fdatasync") && a.method_why.choice == CHOICE_DEFAULT_WITHIN_MARGIN,
	    "default kept at exactly +10%%");
	ok(a.commit_delay_usecs == 55, "delay from the kept default: %ld", a.commit_delay_usecs);
	ok(strstr(words_method(&a), "takes 110.0 us for one write, within 10% of the "
	    "fastest, fsync (100.0 us): keep the default; one write is compared") != NULL,
	    "kept: both figures and the margin: %s", words_method(&a));

	f->n = 0;
	add(f, GROUP_ONE, "fdatasync", false, 110.2, 200);
	add(f, GROUP_ONE, "fsync", false, 100, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fsync") && a.method_why.choice == CHOICE_FASTEST,
	    "fsync advised when the default is 10.2%% slower");
	ok(a.commit_delay_usecs == 50, "delay from fsync: %ld", a.commit_delay_usecs);
	ok(strstr(words_method(&a), "fsync is the fastest: 100.0 us for one write; the "
	    "default fdatasync takes 10.2% longer (110.2 us), beyond the 10% margin") != NULL,
	    "beyond the margin: both figures: %s", words_method(&a));

	/* 30% slower on the means, but their intervals (+-15 and +-10 us)
	 * leave 115 against 110 x 1.1: the noise could make up the margin,
	 * and the advice must not flip with it from run to run. */
	f->n = 0;
	add(f, GROUP_ONE, "fdatasync", false, 130, 200)->mean_ci95_usecs = 15.0;
	add(f, GROUP_ONE, "fsync", false, 100, 200)->mean_ci95_usecs = 10.0;
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fdatasync") && a.method_why.choice == CHOICE_DEFAULT_WITHIN_NOISE &&
	    strstr(words_method(&a), "the fastest, fsync (100.0 us), "
	    "is not faster by 10% beyond the figures' noise") != NULL &&
	    strstr(words_brief(&a), "not 10% faster beyond noise") != NULL,
	    "default kept where the margin is within the means' intervals: %s", words_method(&a));
	f->rows[0].mean_ci95_usecs = 5.0;
	f->rows[1].mean_ci95_usecs = 5.0;
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fsync"), "and left where it is beyond them (125 > 105 x 1.1)");

	f->n = 0;
	add(f, GROUP_ONE, "fdatasync", false, 110, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(a.method_why.choice == CHOICE_DEFAULT_ONLY &&
	    strstr(words_method(&a), "the only method measured: 110.0 us") != NULL,
	    "one method: not called the fastest: %s", words_method(&a));
	free(f);
}

static void
test_ignores_direct_and_failed_rows(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct row_result *r;
	struct advice a;

	add(f, GROUP_ONE, "open_datasync", true, 20, 200);	/* direct: not the server's way */
	r = add(f, GROUP_ONE, "fsync", false, 10, 200);
	r->status = ROW_UNSUPPORTED;
	add(f, GROUP_ONE, "fdatasync", false, 300, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(advised(&a, "fdatasync") && !a.direct_basis,
	    "only buffered rows that ran count");
	ok(a.basis == &f->rows[2] && a.commit_delay_usecs == 150, "basis is the buffered fdatasync row");
	free(f);
}

static void
test_direct_only_and_forced(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice_input forced = { method_find("open_sync"), method_find("fdatasync"), NULL };
	struct advice a;

	add(f, GROUP_ONE, "fdatasync", true, 100, 200);
	add(f, GROUP_ONE, "open_sync", true, 60, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(a.direct_basis && advised(&a, "open_sync"),
	    "with only direct rows, advice rests on them");
	advice_compute(f->rows, f->n, &forced, &a);
	ok(a.have_delay && a.commit_delay_usecs == 30 && strcmp(a.basis->spec.method->name, "open_sync") == 0,
	    "--wal-sync-method picks the basis row");

	f->n = 0;
	add(f, GROUP_ONE, "fdatasync", false, 100, 200);
	add(f, GROUP_ONE, "fsync", false, 140, 200);
	forced.forced_method = method_find("fsync");
	advice_compute(f->rows, f->n, &forced, &a);
	ok(advised(&a, "fdatasync") && a.commit_delay_usecs == 70,
	    "forced method changes the delay, not the advised method");
	free(f);
}

static void
test_full_fsync_platform(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice_input mac = { NULL, method_find("open_datasync"),
	    method_find("fsync_writethrough") };
	struct advice a;

	add(f, GROUP_ONE, "fsync", false, 50, 200);
	add(f, GROUP_ONE, "fsync_writethrough", false, 5000, 200);
	advice_compute(f->rows, f->n, &mac, &a);
	ok(advised(&a, "fsync_writethrough") &&
	    strstr(words_method(&a), "does not flush") != NULL,
	    "F_FULLFSYNC platforms get fsync_writethrough, with why");
	ok(a.commit_delay_usecs == 2500, "delay from the writethrough row");
	free(f);
}

static void
test_nothing_to_advise(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice a;

	add(f, GROUP_NOSYNC, "fsync", false, 1, 200);
	f->rows[0].spec.method = NULL;
	f->rows[0].spec.io = NULL;
	advice_compute(f->rows, f->n, &linux_like, &a);
	ok(a.wal_sync_method == NULL && !a.have_delay && a.method_why.choice == CHOICE_NONE_RAN &&
	    words_method(&a)[0] != '\0',
	    "no one-write rows: no advice, and a reason");
	free(f);
}

/* The settings to type, from the advice: value, source, reason, and
 * what may take effect. */
static void
test_settings(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	struct advice_input forced = { method_find("fsync"), method_find("fdatasync"), NULL };
	struct sleep_result sleep = { 44, 200, 130.0, 120.0, 300.0, 400.0, 50.0 };
	struct settings set;
	struct advice a;

	add(f, GROUP_ONE, "fdatasync", false, 88, 200);
	add(f, GROUP_ONE, "fsync", false, 140, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	settings_from_advice(&a, NULL, &sleep, 8192, &set);
	ok(set.n == 2 && set.list[0].id == SETTING_WAL_SYNC_METHOD &&
	    strcmp(set.list[0].value, "fdatasync") == 0 && set.list[0].is_name &&
	    set.list[0].source == SOURCE_PROBE &&
	    strstr(words_setting(&set.list[0]), "the default and the fastest, 88.0 us per 8kB") != NULL,
	    "settings: the advised method, measured: %s", words_setting(&set.list[0]));
	ok(strcmp(set.list[1].name, "commit_delay") == 0 && strcmp(set.list[1].value, "44") == 0 &&
	    !set.list[1].is_name && set.list[1].source == SOURCE_RULE &&
	    strstr(words_setting(&set.list[1]), "half of the 88.000 us fdatasync flush; a 44 us "
	    "sleep really lasts 130 us here, longer than the flush itself; not set until "
	    "measured") != NULL,
	    "settings: the rule's delay says its sleep overshoots, as the warning does: %s",
	    words_setting(&set.list[1]));
	ok(set.nothing == NOTHING_NONE && settings_active(&set, 0) && !settings_active(&set, 1),
	    "settings: the measured method is active, the rule's delay is not");
	sleep.mean_usecs = 60.0;
	settings_from_advice(&a, NULL, &sleep, 8192, &set);
	ok(strstr(words_setting(&set.list[1]), "really lasts") == NULL &&
	    strstr(words_setting(&set.list[1]), "; not set until measured: -t group or syncprobe "
	    "pgbench measures what a delay does here") != NULL,
	    "settings: a sleep that lasts about as asked is not called long: %s",
	    words_setting(&set.list[1]));
	ok(strcmp(settings_words_source(SOURCE_RULE), "the half rule, untested") == 0 &&
	    strcmp(settings_words_source(SOURCE_GROUP), "measured by -t group") == 0 &&
	    strcmp(settings_words_source(SOURCE_SERVER),
	    "measured on the server by syncprobe pgbench") == 0,
	    "settings: each source says how sure it is");
	ok(strcmp(settings_source_code(SOURCE_PROBE), "probe") == 0 &&
	    strcmp(settings_source_code(SOURCE_SERVER), "server") == 0 &&
	    settings_nothing_code(NOTHING_NONE) == NULL &&
	    strcmp(settings_nothing_code(NOTHING_NOT_DURABLE), "not_durable") == 0,
	    "settings: stable codes for sources and for nothing to set");
	settings_block(&set, BLOCK_RUN_FAILED);
	settings_block(&set, BLOCK_SWEEP_STOPPED);
	ok(set.nothing == NOTHING_FAILED && set.why == BLOCK_RUN_FAILED &&
	    strcmp(words_nothing(&set), "the run stopped at an error, so these figures are "
	    "not advice") == 0 && !settings_active(&set, 0),
	    "settings: an error outranks a signal, and blocks all: %s", words_nothing(&set));

	memset(&set, 0, sizeof set);
	settings_block(&set, BLOCK_NO_REPEAT);
	ok(set.nothing == NOTHING_INTERRUPTED && strcmp(words_nothing(&set),
	    "no whole repeat was measured, so nothing is advice") == 0,
	    "settings: a sweep with no whole repeat is interrupted: %s", words_nothing(&set));
	settings_block(&set, BLOCK_SWEEP_STOPPED);
	ok(set.why == BLOCK_NO_REPEAT, "settings: a signal after it changes nothing");
	memset(&set, 0, sizeof set);
	settings_block(&set, BLOCK_SWEEP_STOPPED);
	ok(set.nothing == NOTHING_INTERRUPTED && strcmp(words_nothing(&set),
	    "a signal ended the sweep early, so these figures are not advice") == 0,
	    "settings: a sweep a signal ended: %s", words_nothing(&set));

	advice_compute(f->rows, f->n, &forced, &a);
	settings_from_advice(&a, NULL, NULL, 8192, &set);
	ok(set.n == 2 && strcmp(set.list[0].value, "fsync") == 0 &&
	    set.list[0].source == SOURCE_GIVEN && settings_active(&set, 0) &&
	    strstr(words_setting(&set.list[0]), "syncprobe would advise 'fdatasync'") != NULL &&
	    strcmp(set.list[1].value, "70") == 0,
	    "settings: --wal-sync-method's method is kept, as given: %s", words_setting(&set.list[0]));

	f->n = 0;
	add(f, GROUP_TWO, "fdatasync", false, 88, 200);
	advice_compute(f->rows, f->n, &linux_like, &a);
	settings_from_advice(&a, NULL, NULL, 8192, &set);
	ok(set.n == 0 && set.nothing == NOTHING_NO_SYNC_ROW &&
	    strcmp(words_nothing(&set), "no one-write row to base commit_delay on") == 0,
	    "settings: none without a one-write row, and why: %s", words_nothing(&set));
	free(f);
}

int
main(void)
{
	linux_like.platform_default = method_find("fdatasync");
	test_commit_delay_rule();
	test_keeps_default_within_ten_percent();
	test_within_and_beyond_ten_percent();
	test_ignores_direct_and_failed_rows();
	test_direct_only_and_forced();
	test_full_fsync_platform();
	test_nothing_to_advise();
	test_settings();
	return tap_done();
}
