/* warnings.c: the warning rules. Pure: no I/O, no clock; each rule is a
 * function of the rows, the advice, the storage facts and the measured
 * sleep, so the unit tests check each at its boundary. */
#include "config.h"

#include "advice/warnings.h"

#include <stdio.h>
#include <string.h>

#include "probe/options.h"

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

struct advice_warning *
warnings_add(struct advice *a, enum warning_code id)
{
	struct advice_warning *w;

	if (a->nwarnings >= ADVICE_MAX_WARNINGS)
		return NULL;
	w = &a->warnings[a->nwarnings++];
	memset(w, 0, sizeof *w);
	w->id = id;
	w->code = warning_codes[id];
	return w;
}

/* A name kept in a warning (a copy: the rows and the storage facts may be
 * gone when the report prints it). */
static void
keep_name(char *dst, size_t len, const char *name)
{
	snprintf(dst, len, "%s", name);
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

/* implausible_flush: row, usecs (its mean), bytes (one operation's). */
static void
warn_implausible(const struct row_result *flush, struct advice *a)
{
	struct advice_warning *w;

	if (flush == NULL || !(flush->mean_usecs < WARN_MIN_FLUSH_USECS))
		return;
	if ((w = warnings_add(a, WARNING_IMPLAUSIBLE_FLUSH)) == NULL)
		return;
	keep_name(w->row, sizeof w->row, flush->spec.name);
	w->usecs = flush->mean_usecs;
	w->bytes = (uint64_t)flush->spec.write_bytes * flush->spec.writes_per_op;
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

/* nondurable_fs: what (the filesystem in memory), flag (it is a layer
 * under the target's, not the target's own). */
static void
warn_nondurable(const struct storage_info *st, struct advice *a)
{
	struct advice_warning *w;
	const char *fs;

	if (st == NULL || (fs = memory_layer(st)) == NULL)
		return;
	if ((w = warnings_add(a, WARNING_NONDURABLE_FS)) == NULL)
		return;
	keep_name(w->what, sizeof w->what, fs);
	w->flag = fs != st->filesystem;
}

/* nobarrier: what (the mount option, nobarrier or barrier=0). */
static void
warn_nobarrier(const struct storage_info *st, struct advice *a)
{
	struct advice_warning *w;
	const char *opt;

	if (st == NULL || !st->have_mount_options)
		return;
	if (storage_has_option(st->mount_options, "nobarrier"))
		opt = "nobarrier";
	else if (storage_has_option(st->mount_options, "barrier=0"))
		opt = "barrier=0";
	else
		return;
	if ((w = warnings_add(a, WARNING_NOBARRIER)) != NULL)
		keep_name(w->what, sizeof w->what, opt);
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

/* The devices under st that match, the first DEVICES_NAMED kept in w's
 * names, and how many there are in w's count. Every device counts: a
 * multi-device btrfs or an md mirror is only as durable as its worst. */
static size_t
matching_devices(const struct storage_info *st,
    bool (*match)(const struct storage_device *), struct advice_warning *w)
{
	size_t i, n = 0;

	for (i = 0; st != NULL && i < storage_device_count(st); i++) {
		const struct storage_device *d = storage_device_at(st, i);

		if (!match(d))
			continue;
		if (w != NULL && n < DEVICES_NAMED)
			keep_name(w->names[n], sizeof w->names[n], d->name);
		n++;
	}
	if (w != NULL)
		w->count = n;
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
	warnings_add(a, WARNING_VOLATILE_OVERLAY);
}

/* rotational_too_fast: names and count (the rotating devices), row and
 * per_sec (its flushes a second). */
static void
warn_rotational(const struct storage_info *st, const struct row_result *flush,
    struct advice *a)
{
	struct advice_warning *w;

	if (matching_devices(st, is_rotational, NULL) == 0 || flush == NULL ||
	    flush->elapsed_ns == 0 || !(flush->ops_per_sec > WARN_MAX_ROTATIONS_PER_SEC))
		return;
	if ((w = warnings_add(a, WARNING_ROTATIONAL_TOO_FAST)) == NULL)
		return;
	matching_devices(st, is_rotational, w);
	keep_name(w->row, sizeof w->row, flush->spec.name);
	w->per_sec = flush->ops_per_sec;
}

/* writeback_cache: names and count (the devices that cache writes). */
static void
warn_writeback(const struct storage_info *st, struct advice *a)
{
	struct advice_warning *w;

	if (matching_devices(st, is_write_back, NULL) == 0)
		return;
	if ((w = warnings_add(a, WARNING_WRITEBACK_CACHE)) != NULL)
		matching_devices(st, is_write_back, w);
}

/* Direct rows the filesystem refused; rows that could not run for another
 * reason (a method missing here, a write below the direct-I/O unit) are
 * the report's n/a lines, not a warning. */
static bool
direct_refused(const struct row_result *r)
{
	return r->spec.direct && r->why == ROW_WHY_DIRECT_REFUSED;
}

/* direct_refused: names and count (the refused rows, the first
 * WARNING_NAMES_MAX kept), what (the first one's reason). */
static void
warn_direct(const struct row_result *rows, size_t n, struct advice *a)
{
	struct advice_warning *w = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!direct_refused(&rows[i]))
			continue;
		if (w == NULL && (w = warnings_add(a, WARNING_DIRECT_REFUSED)) == NULL)
			return;
		if (w->count == 0)
			keep_name(w->what, sizeof w->what, rows[i].reason);
		if (w->count < WARNING_NAMES_MAX)
			keep_name(w->names[w->count], sizeof w->names[w->count], rows[i].spec.name);
		w->count++;
	}
}

/* few_samples: ops and row (the basis's). */
static void
warn_few_samples(struct advice *a)
{
	struct advice_warning *w;

	/* A delay measured by -t group rests on its cells, not on the row. */
	if (a->basis == NULL || a->basis->ops >= WARN_MIN_BASIS_OPS || a->delay_measured)
		return;
	if ((w = warnings_add(a, WARNING_FEW_SAMPLES)) == NULL)
		return;
	w->ops = a->basis->ops;
	keep_name(w->row, sizeof w->row, a->basis->spec.name);
}

/* sleep_overshoot: delay_usecs, usecs (the mean sleep), p99_usecs,
 * slack_usecs (< 0 unknown), flag (the delay was measured by -t group,
 * whose delays slept as long). */
static void
warn_sleep(const struct sleep_result *sleep, struct advice *a)
{
	struct advice_warning *w;

	if (sleep == NULL || sleep->samples == 0 || !a->have_delay ||
	    a->commit_delay_usecs <= 0 ||
	    !(sleep->mean_usecs > WARN_SLEEP_OVERSHOOT * (double)a->commit_delay_usecs))
		return;
	if ((w = warnings_add(a, WARNING_SLEEP_OVERSHOOT)) == NULL)
		return;
	w->delay_usecs = a->commit_delay_usecs;
	w->usecs = sleep->mean_usecs;
	w->p99_usecs = sleep->p99_usecs;
	w->slack_usecs = sleep->timer_slack_usecs;
	w->flag = a->delay_measured;
}

/* paced_slower: per_sec (the pace), usecs (a paced commit), other_usecs
 * (back to back), flag (the words point to syncprobe watch). The
 * one-write group's paced row against its method's back-to-back row. */
static void
warn_paced(const struct row_result *rows, size_t n, struct advice *a)
{
	struct advice_warning *w;
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
			if (p->mean_usecs > WARN_PACED_RATIO * b->mean_usecs &&
			    (w = warnings_add(a, WARNING_PACED_SLOWER)) != NULL) {
				w->per_sec = (double)p->spec.pace_per_sec;
				w->usecs = p->mean_usecs;
				w->other_usecs = b->mean_usecs;
				w->flag = true;
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
			if (a->warnings[i].id == codes[k])
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
