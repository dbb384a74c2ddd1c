/* warnings.c: the warning rules. Pure: no I/O, no clock; each rule is a
 * function of the rows, the advice, the storage facts and the measured
 * sleep, so the unit tests check each at its boundary. */
#include "config.h"

#include "advice/warnings.h"

#include <stdio.h>
#include <string.h>

#include "probe/options.h"

#define NAMES_LEN     160	/* the rows a warning lists, within its message */
#define NAMES_LISTED  4		/* more rows than this: "and N more" */
#define REASON_SHOWN  "%.80s"	/* a row's reason, cut to fit the message */
#define DEVICE_NAMES_LEN 160	/* the devices a warning names */
#define DEVICES_NAMED 2		/* more devices than this: "and N more" */

const char *const warning_codes[WARNING_COUNT] = {
	[WARNING_IMPLAUSIBLE_FLUSH] = "implausible_flush",
	[WARNING_NONDURABLE_FS] = "nondurable_fs",
	[WARNING_NOBARRIER] = "nobarrier",
	[WARNING_VOLATILE_OVERLAY] = "volatile_overlay",
	[WARNING_ROTATIONAL_TOO_FAST] = "rotational_too_fast",
	[WARNING_WRITEBACK_CACHE] = "writeback_cache",
	[WARNING_DIRECT_REFUSED] = "direct_refused",
	[WARNING_FEW_SAMPLES] = "few_samples",
	[WARNING_SLEEP_OVERSHOOT] = "sleep_overshoot",
	[WARNING_STALL] = "stall",
	[WARNING_STALL_OVER_20S] = "stall_over_20s",
	[WARNING_PACED_SLOWER] = "paced_slower",
};

static void warn_implausible(const struct row_result *flush, struct advice *a);
static void warn_nondurable(const struct storage_info *st, struct advice *a);
static void warn_nobarrier(const struct storage_info *st, struct advice *a);
static void warn_volatile(const struct storage_info *st, struct advice *a);
static void warn_rotational(const struct storage_info *st, const struct row_result *flush,
    struct advice *a);
static void warn_writeback(const struct storage_info *st, struct advice *a);
static void warn_direct(const struct row_result *rows, size_t n, struct advice *a);
static void warn_few_samples(struct advice *a);
static void warn_sleep(const struct sleep_result *sleep, struct advice *a);
static void warn_paced(const struct row_result *rows, size_t n, struct advice *a);

/* "8kB": the bytes one operation of row writes. */
static void
op_size(const struct row_result *row, char *buf, size_t len)
{
	units_format_size((uint64_t)row->spec.write_bytes * row->spec.writes_per_op,
	    buf, len);
}

/* The row whose flush rate the rules below read: the advice's basis (one
 * write + sync), or without one a row of appends to a log segment back to
 * back (-t etcd's). */
static const struct row_result *
flush_row(const struct row_result *rows, size_t n, const struct advice *a)
{
	size_t i;

	if (a->basis != NULL)
		return a->basis;
	for (i = 0; i < n; i++)
		if (rows[i].spec.segment_bytes > 0 && rows[i].spec.pace_per_sec == 0 &&
		    rows[i].status == ROW_OK && rows[i].ops > 0)
			return &rows[i];
	return NULL;
}

static void
warn_implausible(const struct row_result *flush, struct advice *a)
{
	char size[32];
	double mean;

	if (flush == NULL)
		return;
	mean = flush->mean_usecs;
	if (!(mean < WARN_MIN_FLUSH_USECS))
		return;
	op_size(flush, size, sizeof size);
	advice_warn(a, warning_codes[WARNING_IMPLAUSIBLE_FLUSH],
	    "%s took %.3f us per %s write and sync: nothing durable is that fast, so "
	    "the target is in memory (tmpfs, a RAM disk) or syncs are skipped "
	    "(eatmydata, nobarrier). Test the directory the database will really use.",
	    flush->spec.name, mean, size);
}

static bool
in_memory_fs(const char *name)
{
	return strcmp(name, "tmpfs") == 0 || strcmp(name, "ramfs") == 0;
}

/* The target's filesystem, or one under it (an overlay's upper directory,
 * a loop device's backing file) that lives in memory: writes end there. */
static const char *
memory_layer(const struct storage_info *st)
{
	size_t i;

	if (st->have_filesystem && in_memory_fs(st->filesystem))
		return st->filesystem;
	for (i = 1; i < st->nlayers; i++)
		if (st->layers[i].kind == STORAGE_LAYER_FILESYSTEM &&
		    in_memory_fs(st->layers[i].name))
			return st->layers[i].name;
	return NULL;
}

static void
warn_nondurable(const struct storage_info *st, struct advice *a)
{
	const char *fs;

	if (st == NULL || (fs = memory_layer(st)) == NULL)
		return;
	advice_warn(a, warning_codes[WARNING_NONDURABLE_FS],
	    "The target is on %s%s, which lives in memory: nothing written here "
	    "survives a reboot, and the figures say nothing about a disk. Test the "
	    "directory the database will really use.",
	    fs == st->filesystem ? "" : "a layer on ", fs);
}

static void
warn_nobarrier(const struct storage_info *st, struct advice *a)
{
	const char *opt;

	if (st == NULL || !st->have_mount_options)
		return;
	if (storage_has_option(st->mount_options, "nobarrier"))
		opt = "nobarrier";
	else if (storage_has_option(st->mount_options, "barrier=0"))
		opt = "barrier=0";
	else
		return;
	advice_warn(a, warning_codes[WARNING_NOBARRIER],
	    "The filesystem is mounted with %s: syncs do not make the device flush "
	    "its write cache, so a power loss can lose committed transactions. "
	    "Remount without it unless that cache is battery- or flash-backed.", opt);
}

static bool
is_rotational(const struct storage_device *d)
{
	return d->rotational == 1;
}

static bool
is_write_back(const struct storage_device *d)
{
	return d->have_write_cache && strcmp(d->write_cache, "write back") == 0;
}

/* The devices under st that match, named in buf ("vda", "sdb and sdc",
 * "sdb, sdc and 2 more"): how many there are. Every device counts: a
 * multi-device btrfs or an md mirror is only as durable as its worst. */
static size_t
matching_devices(const struct storage_info *st,
    bool (*match)(const struct storage_device *), char *buf, size_t len)
{
	const struct storage_device *named[DEVICES_NAMED];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; st != NULL && i < storage_device_count(st); i++) {
		const struct storage_device *d = storage_device_at(st, i);

		if (!match(d))
			continue;
		if (n < DEVICES_NAMED)
			named[n] = d;
		n++;
	}
	if (n == 1)
		snprintf(buf, len, "%s", named[0]->name);
	else if (n == 2)
		snprintf(buf, len, "%s and %s", named[0]->name, named[1]->name);
	else if (n > 2)
		snprintf(buf, len, "%s, %s and %zu more", named[0]->name, named[1]->name, n - 2);
	return n;
}

/* overlayfs's "volatile" mount option makes every sync a no-op: fast, and
 * nothing durable (containers use it for scratch space). */
static void
warn_volatile(const struct storage_info *st, struct advice *a)
{
	if (st == NULL || !st->have_filesystem || strcmp(st->filesystem, "overlay") != 0 ||
	    !st->have_mount_options || !storage_has_option(st->mount_options, "volatile"))
		return;
	advice_warn(a, warning_codes[WARNING_VOLATILE_OVERLAY],
	    "The overlay is mounted with volatile: it skips every sync, so nothing "
	    "here is durable and the figures are not a disk's. Test a directory "
	    "outside it, or remount without volatile.");
}

static void
warn_rotational(const struct storage_info *st, const struct row_result *flush,
    struct advice *a)
{
	char names[DEVICE_NAMES_LEN];
	double per_sec;
	size_t n;

	n = matching_devices(st, is_rotational, names, sizeof names);
	if (n == 0 || flush == NULL || flush->elapsed_ns == 0)
		return;
	per_sec = flush->ops_per_sec;
	if (!(per_sec > WARN_MAX_ROTATIONS_PER_SEC))
		return;
	advice_warn(a, warning_codes[WARNING_ROTATIONAL_TOO_FAST],
	    "%s %s a rotating disk, yet %s made %.0f flushes a second, more than "
	    "a 15,000 rpm disk turns (250): a write cache is absorbing them. That is "
	    "durable only if the cache is battery- or flash-backed (a virtual disk: "
	    "ask how the host caches it).", names, n == 1 ? "reports" : "each report",
	    flush->spec.name, per_sec);
}

static void
warn_writeback(const struct storage_info *st, struct advice *a)
{
	char names[DEVICE_NAMES_LEN];
	size_t n;

	n = matching_devices(st, is_write_back, names, sizeof names);
	if (n == 0)
		return;
	advice_warn(a, warning_codes[WARNING_WRITEBACK_CACHE],
	    "%s %s a volatile write cache (write back): commits are durable only if "
	    "%s honours flush requests, which these figures cannot prove. Check that %s "
	    "has power-loss protection or a battery-backed cache (a virtual disk: the "
	    "host's cache mode).", names, n == 1 ? "has" : "each have",
	    n == 1 ? "it" : "each", n == 1 ? "it" : "each");
}

/* Direct rows the filesystem refused; rows that could not run for another
 * reason (a method missing here, a write below the direct-I/O unit) are
 * the report's n/a lines, not a warning. */
static bool
direct_refused(const struct row_result *r)
{
	return r->spec.direct && r->why == ROW_WHY_DIRECT_REFUSED;
}

static void
warn_direct(const struct row_result *rows, size_t n, struct advice *a)
{
	const struct row_result *first = NULL;
	char names[NAMES_LEN] = "";
	size_t i, count = 0, used;

	for (i = 0; i < n; i++) {
		if (!direct_refused(&rows[i]))
			continue;
		if (first == NULL)
			first = &rows[i];
		if (count < NAMES_LISTED) {
			used = strlen(names);
			snprintf(names + used, sizeof names - used, "%s%s",
			    count ? ", " : "", rows[i].spec.name);
		}
		count++;
	}
	if (first == NULL)
		return;
	if (count > NAMES_LISTED) {
		used = strlen(names);
		snprintf(names + used, sizeof names - used, " and %zu more",
		    count - NAMES_LISTED);
	}
	advice_warn(a, warning_codes[WARNING_DIRECT_REFUSED],
	    "Direct I/O was refused for %s: " REASON_SHOWN ". They have no figures; "
	    "the buffered rows still apply, and a server set to use direct I/O would "
	    "fail here.", names, first->reason);
}

static void
warn_few_samples(struct advice *a)
{
	/* A delay measured by -t group rests on its cells, not on the row. */
	if (a->basis == NULL || a->basis->ops >= WARN_MIN_BASIS_OPS || a->delay_measured)
		return;
	advice_warn(a, warning_codes[WARNING_FEW_SAMPLES],
	    "commit_delay rests on only %llu operations of %s, so it may move from "
	    "run to run. Run each test longer (-s, --secs-per-test) for a stable figure.",
	    (unsigned long long)a->basis->ops, a->basis->spec.name);
}

static void
warn_sleep(const struct sleep_result *sleep, struct advice *a)
{
	char slack[48] = "";

	if (sleep == NULL || sleep->samples == 0 || !a->have_delay ||
	    a->commit_delay_usecs <= 0 ||
	    !(sleep->mean_usecs > WARN_SLEEP_OVERSHOOT * (double)a->commit_delay_usecs))
		return;
	if (sleep->timer_slack_usecs >= 0.0)
		snprintf(slack, sizeof slack, ", timer slack %.0f us", sleep->timer_slack_usecs);
	/* Point at what settles it, never at another value than the advice. */
	advice_warn(a, warning_codes[WARNING_SLEEP_OVERSHOOT],
	    "A commit_delay of %ld us really sleeps %.1f us on average here (p99 %.1f "
	    "us%s): each delayed flush waits over twice as long as asked. %s",
	    a->commit_delay_usecs, sleep->mean_usecs, sleep->p99_usecs, slack,
	    a->delay_measured ? "The group-commit experiment's delays slept as long, so "
	    "its figures include this; a lower timer slack for the server (systemd "
	    "TimerSlackNSec=) would change them." : "Lower the server's timer slack "
	    "(systemd TimerSlackNSec=), and measure what a delay does here with the "
	    "group-commit experiment (-t group).");
}

void
warnings_paced_message(char *buf, size_t len, unsigned long long per_sec,
    double paced_usecs, double b2b_usecs, bool point_to_watch)
{
	snprintf(buf, len, "one commit at a time, %llu a second, took %.1f times as long "
	    "as back to back (%.1f vs %.1f us): a flush after an idle gap is slower here, "
	    "so the commits of a lightly loaded server wait longer than any back-to-back "
	    "figure (%s, pg_test_fsync's, fio's) says.%s", per_sec, paced_usecs / b2b_usecs,
	    paced_usecs, b2b_usecs, point_to_watch ? "this table's" : "the burst's",
	    point_to_watch ? " syncprobe watch measures it over time." : "");
}

/* The one-write group's paced row against its method's back-to-back row. */
static void
warn_paced(const struct row_result *rows, size_t n, struct advice *a)
{
	char msg[ADVICE_TEXT_LEN];
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct row_result *p = &rows[i];

		if (p->spec.group != GROUP_ONE || p->spec.pace_per_sec == 0 ||
		    p->status != ROW_OK || p->ops == 0)
			continue;
		for (j = 0; j < n; j++) {
			const struct row_result *b = &rows[j];

			if (b->spec.group != GROUP_ONE || b->spec.method != p->spec.io ||
			    b->spec.direct != p->spec.direct || b->status != ROW_OK ||
			    b->ops == 0 || !(b->mean_usecs > 0.0))
				continue;
			if (p->mean_usecs > WARN_PACED_RATIO * b->mean_usecs) {
				warnings_paced_message(msg, sizeof msg,
				    (unsigned long long)p->spec.pace_per_sec, p->mean_usecs,
				    b->mean_usecs, true);
				advice_warn(a, warning_codes[WARNING_PACED_SLOWER], "%s", msg);
			}
			return;
		}
	}
}

void
warnings_compute(const struct row_result *rows, size_t n,
    const struct storage_info *st, const struct sleep_result *sleep,
    struct advice *a)
{
	const struct row_result *flush = flush_row(rows, n, a);

	/* Most serious first: a target that cannot be durable at all, then a
	 * device that may not be, then figures that may not be stable. */
	warn_implausible(flush, a);
	warn_nondurable(st, a);
	warn_nobarrier(st, a);
	warn_volatile(st, a);
	warn_rotational(st, flush, a);
	warn_writeback(st, a);
	warn_direct(rows, n, a);
	warn_few_samples(a);
	warn_sleep(sleep, a);
	warn_paced(rows, n, a);
}

const struct advice_warning *
warnings_find_first(const struct advice *a, const enum warning_code *codes, size_t n)
{
	size_t i, k;

	for (i = 0; i < a->nwarnings; i++)
		for (k = 0; k < n; k++)
			if (strcmp(a->warnings[i].code, warning_codes[codes[k]]) == 0)
				return &a->warnings[i];
	return NULL;
}

/* The codes warnings_not_durable looks for, in warnings.h's words. */
static const enum warning_code not_durable_codes[] = {
	WARNING_IMPLAUSIBLE_FLUSH, WARNING_NONDURABLE_FS, WARNING_VOLATILE_OVERLAY,
};

const struct advice_warning *
warnings_not_durable(const struct advice *a)
{
	return warnings_find_first(a, not_durable_codes,
	    sizeof not_durable_codes / sizeof not_durable_codes[0]);
}
