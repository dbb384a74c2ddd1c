/* warning_words.c: each warning's message, written from its code and
 * the facts its rule kept (advice/warnings.c), for every report alike. */
#include "config.h"

#include "report/warning_words.h"

#include <stdio.h>
#include <string.h>

#include "util/units.h"

#define NAMES_LEN     160	/* the rows a warning lists, within its message */
#define REASON_SHOWN  "%.80s"	/* a row's reason, cut to fit the message */
#define DEVICE_NAMES_LEN 160	/* the devices a warning names */

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
warning_words_message(const struct advice_warning *aw, struct words *w)
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
		warning_words_paced(w->text, sizeof w->text, (unsigned long long)aw->per_sec,
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
warning_words_paced(char *buf, size_t len, unsigned long long per_sec,
    double paced_usecs, double b2b_usecs, bool point_to_watch)
{
	snprintf(buf, len, "one commit at a time, %llu a second, took %.1f times as long "
	    "as back to back (%.1f vs %.1f us): a flush after an idle gap is slower here, "
	    "so the commits of a lightly loaded server wait longer than any back-to-back "
	    "figure (%s, pg_test_fsync's, fio's) says.%s", per_sec, paced_usecs / b2b_usecs,
	    paced_usecs, b2b_usecs, point_to_watch ? "this table's" : "the burst's",
	    point_to_watch ? " syncprobe watch measures it over time." : "");
}
