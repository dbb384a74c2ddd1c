/* test_warnings.c: each warning rule at its boundary, with made-up rows,
 * storage facts and sleeps: the rules are pure, so every case is exact. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "probe/method.h"
#include "probe/plan.h"
#include "probe/row.h"
#include "probe/sleep.h"
#include "storage/storage.h"
#include "rows.h"
#include "tap.h"
#include "advice/warnings.h"
#include "words.h"

#define NROWS 8

/* Rows are large (three histograms each): static, not on the stack. */
static struct row_result rows[NROWS];
static struct row_spec specs[NROWS];
static struct advice adv;

/* An ok one-write row of method (direct or not) with ops operations in
 * elapsed_ns, each taking an equal share of it. */
static struct row_result *
make_row(size_t i, const char *method, bool direct, uint64_t ops, uint64_t elapsed_ns)
{
	struct row_spec *s = &specs[i];
	struct row_result *r = &rows[i];
	uint64_t each = ops ? elapsed_ns / ops : 0;

	row_spec_method(s, GROUP_ONE, method_find(method), direct, 1, 8192);
	row_init(r, s);
	rows_record(r, ops, rows_constant_ns, &each, 0);
	r->elapsed_ns = elapsed_ns;
	row_finish(r);
	return r;
}

/* Advice resting on row 0, with commit_delay the half-interval rule. */
static void
basis_advice(void)
{
	memset(&adv, 0, sizeof adv);
	adv.wal_sync_method = method_find("fdatasync");
	adv.basis = &rows[0];
	adv.basis_mean_usecs = rows[0].mean_usecs;
	adv.commit_delay_usecs = advice_commit_delay(adv.basis_mean_usecs);
	adv.have_delay = true;
}

static const struct advice_warning *
find(const char *code)
{
	size_t i;

	for (i = 0; i < adv.nwarnings; i++)
		if (strcmp(adv.warnings[i].code, code) == 0)
			return &adv.warnings[i];
	return NULL;
}

/* Advice from row 0, then the rules over the first nrows rows: the
 * warning with that code, or NULL. */
static const struct advice_warning *
rules(size_t nrows, const struct storage_info *st, const struct sleep_result *sl,
    const char *code)
{
	basis_advice();
	warnings_compute(rows, nrows, st, sl, &adv);
	return find(code);
}

/* No message may be cut by the warning's buffer. */
static bool
all_fit(void)
{
	size_t i;

	for (i = 0; i < adv.nwarnings; i++)
		if (strlen(words_warning(&adv.warnings[i])) + 1 >= ADVICE_TEXT_LEN)
			return false;
	return true;
}

/* A healthy row: 1000 flushes of 500 us. */
static void
healthy(void)
{
	make_row(0, "fdatasync", false, 1000, 1000 * 500000ULL);
}

static void
test_implausible(void)
{
	const struct advice_warning *w;

	make_row(0, "fdatasync", false, 1000, 1000 * 9990ULL);
	w = rules(1, NULL, NULL, "implausible_flush");
	ok(w != NULL, "9.99 us per flush: implausible");
	ok(w && strstr(words_warning(w), "9.990 us") && strstr(words_warning(w), "8kB"),
	    "says the figure and the size: %s", w ? words_warning(w) : "");

	make_row(0, "fdatasync", false, 1000, 1000 * 10000ULL);
	ok(rules(1, NULL, NULL, "implausible_flush") == NULL, "10.0 us per flush: plausible");

	memset(&adv, 0, sizeof adv);
	warnings_compute(rows, 1, NULL, NULL, &adv);
	ok(adv.nwarnings == 0, "no basis row: no row warnings");
}

static void
test_rotational(void)
{
	const struct advice_warning *w;
	struct storage_info st;

	storage_info_init(&st);
	st.have_device = true;
	snprintf(st.device.name, sizeof st.device.name, "sda");
	st.device.rotational = 1;

	make_row(0, "fdatasync", false, 250, 1000000000ULL);
	ok(rules(1, &st, NULL, "rotational_too_fast") == NULL, "250 flushes a second: a disk can");

	make_row(0, "fdatasync", false, 251, 1000000000ULL);
	w = rules(1, &st, NULL, "rotational_too_fast");
	ok(w != NULL, "251 flushes a second on a rotating disk");
	ok(w && strstr(words_warning(w), "sda") && strstr(words_warning(w), "251"),
	    "names the disk and the rate");

	st.device.rotational = 0;
	ok(rules(1, &st, NULL, "rotational_too_fast") == NULL, "not rotational: no warning");
	st.device.rotational = -1;
	ok(rules(1, &st, NULL, "rotational_too_fast") == NULL, "rotational unknown: no warning");
	st.device.rotational = 1;
	st.have_device = false;
	ok(rules(1, &st, NULL, "rotational_too_fast") == NULL, "no device: no warning");
}

/* One storage fact, a string, set to each value in turn (and then to the
 * first value but marked unknown): whether the rule for code fires. */
struct string_case {
	const char *value;
	bool warns;
};

static void
check_string_fact(struct storage_info *st, char *field, size_t len, bool *have,
    const struct string_case *cases, size_t n, const char *code)
{
	size_t i;

	healthy();
	*have = true;
	for (i = 0; i < n; i++) {
		snprintf(field, len, "%s", cases[i].value);
		ok((rules(1, st, NULL, code) != NULL) == cases[i].warns, "%s '%s': %s",
		    code, cases[i].value, cases[i].warns ? "warned" : "no warning");
	}
	*have = false;
	snprintf(field, len, "%s", cases[0].value);
	ok(rules(1, st, NULL, code) == NULL, "%s: unknown, no warning", code);
}

static void
test_filesystem(void)
{
	static const struct string_case cases[] = {
		{ "tmpfs", true }, { "ramfs", true }, { "ext4", false }, { "tmpfs2", false },
	};
	struct storage_info st;

	const struct advice_warning *w;

	storage_info_init(&st);
	check_string_fact(&st, st.filesystem, sizeof st.filesystem, &st.have_filesystem,
	    cases, sizeof cases / sizeof cases[0], "nondurable_fs");

	/* An overlay whose upper directory is on tmpfs keeps nothing either. */
	storage_info_init(&st);
	st.have_filesystem = true;
	snprintf(st.filesystem, sizeof st.filesystem, "overlay");
	st.layers[0] = (struct storage_layer){ .kind = STORAGE_LAYER_FILESYSTEM,
	    .parent = -1, .name = "overlay" };
	st.layers[1] = (struct storage_layer){ .kind = STORAGE_LAYER_FILESYSTEM,
	    .parent = 0, .name = "tmpfs" };
	st.nlayers = 2;
	w = rules(1, &st, NULL, "nondurable_fs");
	ok(w != NULL && strstr(words_warning(w), "a layer on tmpfs") != NULL,
	    "overlay over tmpfs: warned, naming the layer: %s", w ? words_warning(w) : "");
	snprintf(st.layers[1].name, sizeof st.layers[1].name, "ext4");
	ok(rules(1, &st, NULL, "nondurable_fs") == NULL, "overlay over ext4: no warning");
}

static void
test_nobarrier(void)
{
	static const struct string_case cases[] = {
		{ "rw,relatime,nobarrier", true }, { "rw,barrier=0,data=ordered", true },
		{ "rw,barrier=1", false }, { "rw,nobarrierx", false },
		{ "xnobarrier", false }, { "", false },
	};
	struct storage_info st;

	storage_info_init(&st);
	check_string_fact(&st, st.mount_options, sizeof st.mount_options,
	    &st.have_mount_options, cases, sizeof cases / sizeof cases[0], "nobarrier");
}

static void
test_volatile(void)
{
	static const struct string_case cases[] = {
		{ "rw,relatime,lowerdir=/l,upperdir=/u,workdir=/w,volatile", true },
		{ "volatile", true }, { "rw,volatilex", false }, { "rw,relatime", false },
	};
	struct storage_info st;

	storage_info_init(&st);
	st.have_filesystem = true;
	snprintf(st.filesystem, sizeof st.filesystem, "overlay");
	check_string_fact(&st, st.mount_options, sizeof st.mount_options,
	    &st.have_mount_options, cases, sizeof cases / sizeof cases[0], "volatile_overlay");
	snprintf(st.filesystem, sizeof st.filesystem, "ext4");
	st.have_mount_options = true;
	snprintf(st.mount_options, sizeof st.mount_options, "volatile");
	ok(rules(1, &st, NULL, "volatile_overlay") == NULL, "volatile on ext4 means nothing");
}

static void
test_writeback(void)
{
	const struct advice_warning *w;
	struct storage_info st;

	healthy();
	storage_info_init(&st);
	st.have_device = true;
	snprintf(st.device.name, sizeof st.device.name, "vda");
	st.device.have_write_cache = true;
	snprintf(st.device.write_cache, sizeof st.device.write_cache, "write back");
	w = rules(1, &st, NULL, "writeback_cache");
	ok(w != NULL && strstr(words_warning(w), "vda"), "write back: a note naming the device");

	snprintf(st.device.write_cache, sizeof st.device.write_cache, "write through");
	ok(rules(1, &st, NULL, "writeback_cache") == NULL, "write through: no note");

	snprintf(st.device.write_cache, sizeof st.device.write_cache, "write back");
	st.device.have_write_cache = false;
	ok(rules(1, &st, NULL, "writeback_cache") == NULL, "cache mode unknown: no note");
}

/* Device i of st (0 is st->device) named name, with a cache mode and a
 * rotational flag. */
static void
set_device(struct storage_info *st, size_t i, const char *name, const char *cache, int rot)
{
	struct storage_device *d = i == 0 ? &st->device : &st->more_devices[i - 1];

	snprintf(d->name, sizeof d->name, "%s", name);
	d->have_write_cache = true;
	snprintf(d->write_cache, sizeof d->write_cache, "%s", cache);
	d->rotational = rot;
	st->have_device = true;
	if (i > st->nmore_devices)
		st->nmore_devices = i;
}

static void
test_several_devices(void)
{
	const struct advice_warning *w;
	struct storage_info st;

	/* A two-device btrfs or an md mirror: every device counts. */
	healthy();
	storage_info_init(&st);
	set_device(&st, 0, "sdb", "write through", 0);
	set_device(&st, 1, "sdc", "write back", 1);
	w = rules(1, &st, NULL, "writeback_cache");
	ok(w && strncmp(words_warning(w), "sdc has a volatile", 18) == 0 && !strstr(words_warning(w), "sdb"),
	    "the second device's cache: %s", w ? words_warning(w) : "");
	w = rules(1, &st, NULL, "rotational_too_fast");
	ok(w && strncmp(words_warning(w), "sdc reports a rotating disk", 27) == 0,
	    "the second device rotates: %s", w ? words_warning(w) : "");

	set_device(&st, 0, "sdb", "write back", 1);
	w = rules(1, &st, NULL, "writeback_cache");
	ok(w && strncmp(words_warning(w), "sdb and sdc each have a volatile", 32) == 0 &&
	    strstr(words_warning(w), "only if each honours"), "both named: %s", w ? words_warning(w) : "");
	w = rules(1, &st, NULL, "rotational_too_fast");
	ok(w && strncmp(words_warning(w), "sdb and sdc each report a rotating disk", 39) == 0,
	    "both rotate: %s", w ? words_warning(w) : "");

	set_device(&st, 2, "sdd", "write back", 0);
	set_device(&st, 3, "sde", "write back", 0);
	w = rules(1, &st, NULL, "writeback_cache");
	ok(w && strncmp(words_warning(w), "sdb, sdc and 2 more each have", 29) == 0 && all_fit(),
	    "four: two named, and how many more: %s", w ? words_warning(w) : "");

	set_device(&st, 0, "sdb", "write through", 0);
	set_device(&st, 1, "sdc", "write through", 0);
	set_device(&st, 2, "sdd", "write through", 0);
	set_device(&st, 3, "sde", "write through", 0);
	ok(rules(1, &st, NULL, "writeback_cache") == NULL &&
	    rules(1, &st, NULL, "rotational_too_fast") == NULL, "none: no warning");
}

static void
unsupported(size_t i, const char *method, bool direct, enum row_why why, const char *reason)
{
	struct row_result *r = make_row(i, method, direct, 0, 0);

	row_fail(r, why, "%s", reason);
}

static void
test_direct(void)
{
	const char *refused = "direct I/O refused by this filesystem (Invalid argument)";
	const char *missing = "F_FULLFSYNC is not available on this system";
	const struct advice_warning *w;
	size_t i, count;

	healthy();
	unsupported(1, "open_datasync", true, ROW_WHY_DIRECT_REFUSED, refused);
	unsupported(2, "fsync_writethrough", true, ROW_WHY_NO_METHOD, missing);
	unsupported(3, "fsync_writethrough", false, ROW_WHY_NO_METHOD, missing);
	unsupported(4, "fdatasync", true, ROW_WHY_DIRECT_ALIGN, 
	    "a 1kB write is below the 4kB direct-I/O unit of this file");
	w = rules(5, NULL, NULL, "direct_refused");
	ok(w != NULL, "a refused direct row: warned");
	ok(w && strstr(words_warning(w), "open_datasync (direct)") && strstr(words_warning(w), refused) &&
	    !strstr(words_warning(w), "fsync_writethrough") && !strstr(words_warning(w), "fdatasync (direct)"),
	    "names the refused row and why, not the others: %s", w ? words_warning(w) : "");

	/* Rows 2..4 only: the basis row is not among them, which is fine. */
	memset(&adv, 0, sizeof adv);
	warnings_compute(rows + 2, 3, NULL, NULL, &adv);
	ok(find("direct_refused") == NULL, "a missing method or a small write: no warning");

	unsupported(2, "fdatasync", true, ROW_WHY_DIRECT_REFUSED, refused);
	unsupported(3, "fsync", true, ROW_WHY_DIRECT_REFUSED, refused);
	unsupported(4, "open_sync", true, ROW_WHY_DIRECT_REFUSED, refused);
	unsupported(5, "fsync_writethrough", true, ROW_WHY_DIRECT_REFUSED,
	    "direct I/O write refused by this filesystem "
	    "(Invalid argument)");
	unsupported(6, "fsync", false, ROW_WHY_DIRECT_REFUSED, refused);	/* buffered: not a direct row */
	w = rules(7, NULL, NULL, "direct_refused");
	ok(w && strstr(words_warning(w), "and 1 more") && !strstr(words_warning(w), "fsync_writethrough"),
	    "five rows: four named and one more: %s", w ? words_warning(w) : "");
	for (i = 0, count = 0; i < adv.nwarnings; i++)
		count += strcmp(adv.warnings[i].code, "direct_refused") == 0;
	ok(count == 1, "one warning for all of them");
}

static void
test_few_samples(void)
{
	const struct advice_warning *w;

	make_row(0, "fdatasync", false, 99, 99 * 500000ULL);
	w = rules(1, NULL, NULL, "few_samples");
	ok(w != NULL && strstr(words_warning(w), "99 operations"), "99 operations: too few");

	make_row(0, "fdatasync", false, 100, 100 * 500000ULL);
	ok(rules(1, NULL, NULL, "few_samples") == NULL, "100 operations: enough");

	make_row(0, "fdatasync", false, 99, 99 * 500000ULL);
	basis_advice();
	adv.delay_measured = true;
	warnings_compute(rows, 1, NULL, NULL, &adv);
	ok(adv.nwarnings == 0, "a delay measured by -t group does not rest on the row's count");
}

static void
test_sleep(void)
{
	struct sleep_result sl = { .requested_usecs = 44, .samples = 200,
	    .mean_usecs = 88.0, .p50_usecs = 87.0, .p99_usecs = 120.0,
	    .timer_slack_usecs = 50.0 };
	const struct advice_warning *w;

	make_row(0, "fdatasync", false, 1000, 1000 * 88000ULL);	/* commit_delay 44 */
	ok(rules(1, NULL, &sl, "sleep_overshoot") == NULL,
	    "exactly twice commit_delay (%ld us): no warning", adv.commit_delay_usecs);
	ok(adv.commit_delay_usecs == 44, "commit_delay 44 from an 88 us flush");

	sl.mean_usecs = 88.001;
	w = rules(1, NULL, &sl, "sleep_overshoot");
	ok(w != NULL, "just over twice: warned");
	ok(w && strstr(words_warning(w), "44 us") && strstr(words_warning(w), "timer slack 50 us"),
	    "says the delay and the slack: %s", w ? words_warning(w) : "");
	ok(w && strstr(words_warning(w), "-t group") && !strstr(words_warning(w), "at 0"),
	    "points at -t group, never at another commit_delay than the advice");
	basis_advice();
	adv.delay_measured = true;
	warnings_compute(rows, 1, NULL, &sl, &adv);
	ok(adv.nwarnings == 1 && strstr(words_warning(&adv.warnings[0]), "its figures include this"),
	    "measured by -t group: the experiment slept as long, and says so");

	sl.timer_slack_usecs = -1.0;
	w = rules(1, NULL, &sl, "sleep_overshoot");
	ok(w && !strstr(words_warning(w), "us, timer slack"), "slack unknown: not mentioned");

	sl.samples = 0;
	ok(rules(1, NULL, &sl, "sleep_overshoot") == NULL, "nothing slept: no warning");

	/* A basis so fast that half of it rounds to 0 us: no delay to judge. */
	sl.samples = 200;
	make_row(0, "fdatasync", false, 1000, 1000 * 800ULL);
	ok(rules(1, NULL, &sl, "sleep_overshoot") == NULL && adv.commit_delay_usecs == 0,
	    "commit_delay 0: no warning");
}

/* Row i as the one-write group's paced row of method: no candidate
 * (method NULL), 100 a second. */
static void
make_paced(size_t i, const char *method, uint64_t ops, uint64_t elapsed_ns)
{
	make_row(i, method, false, ops, elapsed_ns);
	rows[i].spec.method = NULL;
	rows[i].spec.pace_per_sec = 100;
}

static void
test_paced(void)
{
	const struct advice_warning *w;

	make_row(0, "fdatasync", false, 1000, 1000 * 100000ULL);	/* 100 us */
	make_paced(1, "fdatasync", 100, 100 * 200000ULL);	/* exactly twice */
	ok(rules(2, NULL, NULL, "paced_slower") == NULL, "paced exactly twice back to back: no warning");
	make_paced(1, "fdatasync", 100, 100 * 200100ULL);
	w = rules(2, NULL, NULL, "paced_slower");
	ok(w != NULL && strstr(words_warning(w), "100 a second") && strstr(words_warning(w), "syncprobe watch"),
	    "paced just over twice: paced_slower, pointing at watch");
	make_paced(1, "fsync", 100, 100 * 900000ULL);
	ok(rules(2, NULL, NULL, "paced_slower") == NULL,
	    "a paced row of another method than the back-to-back rows: no comparison");
	make_paced(1, "fdatasync", 100, 100 * 900000ULL);
	ok(rules(1, NULL, NULL, "paced_slower") == NULL, "no paced row: no warning");
}

static void
test_all_at_once(void)
{
	struct storage_info st;
	struct sleep_result sl = { .requested_usecs = 2, .samples = 10,
	    .mean_usecs = 60.0, .p50_usecs = 58.0, .p99_usecs = 70.0,
	    .timer_slack_usecs = 50.0 };

	/* Everything wrong at once: every message still fits whole. */
	storage_info_init(&st);
	st.have_filesystem = true;
	snprintf(st.filesystem, sizeof st.filesystem, "tmpfs");
	st.have_mount_options = true;
	snprintf(st.mount_options, sizeof st.mount_options, "rw,nobarrier");
	st.have_device = true;
	snprintf(st.device.name, sizeof st.device.name, "nvme0n1p1234567890");
	st.device.rotational = 1;
	st.device.have_write_cache = true;
	snprintf(st.device.write_cache, sizeof st.device.write_cache, "write back");
	make_row(0, "fdatasync", false, 50, 50 * 4000ULL);
	unsupported(1, "open_datasync", true, ROW_WHY_DIRECT_REFUSED,
	    "direct I/O refused by this filesystem "
	    "(Invalid argument) and a long tail of words that has to be cut somewhere");
	rules(2, &st, &sl, "implausible_flush");
	ok(adv.nwarnings == 8, "all eight rules fire: %zu", adv.nwarnings);
	ok(all_fit(), "no message is cut");
	ok(strcmp(adv.warnings[0].code, "implausible_flush") == 0,
	    "the most serious first");
}


int
main(void)
{
	test_implausible();
	test_rotational();
	test_filesystem();
	test_nobarrier();
	test_volatile();
	test_writeback();
	test_several_devices();
	test_direct();
	test_few_samples();
	test_sleep();
	test_paced();
	test_all_at_once();
	return tap_done();
}
