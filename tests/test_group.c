/* test_group.c: the group-commit protocol (group_commit.c) driven with a
 * fake log file: writes are recorded, the sync and the commit_delay sleep
 * are hooks. Deterministic: where two committers must overlap, the one
 * holding the lock waits in its fake sync until the other is asleep on it. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "group/group_commit.h"
#include "tap.h"

#define PAGE       1024u	/* small pages: a few records cross one */
#define MAX_WRITES 64
#define WAIT_NS    (10ULL * 1000000000ULL)	/* give up on a thread after 10 s */

struct fake_write {
	uint64_t off;
	size_t len;
};

/* The fake log file and what was done to it. */
struct fake {
	unsigned char *file;
	uint64_t file_bytes;
	struct fake_write writes[MAX_WRITES];
	unsigned nwrites;
	unsigned syncs;
	unsigned sleeps;
	int fail_sync;			/* errno for the next sync to fail with */
	struct gc_log *log;
	/* During the sleep: append this record as another committer. */
	const unsigned char *sleep_record;
	size_t sleep_len;
	uint64_t sleep_end;
	/* During the sync: wait until this many committers wait for the
	 * lock (0: do not wait), and say that the sync has started. */
	int sync_waits_for;
	int in_sync;
	pthread_mutex_t mu;		/* guards the two above */
};

static int
fake_write(void *ctx, const unsigned char *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;

	if (off + len > f->file_bytes || f->nwrites == MAX_WRITES) {
		errno = EFBIG;
		return -1;
	}
	memcpy(f->file + off, buf, len);
	f->writes[f->nwrites].off = off;
	f->writes[f->nwrites].len = len;
	f->nwrites++;
	return 0;
}

static void
nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

/* A field of f that two threads share, read under its lock. */
static int
shared(struct fake *f, const int *field)
{
	int v;

	pthread_mutex_lock(&f->mu);
	v = *field;
	pthread_mutex_unlock(&f->mu);
	return v;
}

static struct gc_state
state(struct gc_log *log)
{
	struct gc_state st;

	gc_state(log, &st);
	return st;
}

static int
fake_sync(void *ctx)
{
	struct fake *f = ctx;
	unsigned waited = 0;

	pthread_mutex_lock(&f->mu);
	f->in_sync = 1;
	pthread_mutex_unlock(&f->mu);
	while (shared(f, &f->sync_waits_for) > 0 &&
	    (int)state(f->log).waiters < shared(f, &f->sync_waits_for) &&
	    waited++ < WAIT_NS / 1000000)
		nap();
	f->syncs++;
	if (f->fail_sync) {
		errno = f->fail_sync;
		return -1;
	}
	return 0;
}

static void
fake_sleep(void *ctx, uint64_t ns)
{
	struct fake *f = ctx;

	(void)ns;
	f->sleeps++;
	if (f->sleep_record != NULL &&
	    gc_insert(f->log, f->sleep_record, f->sleep_len, &f->sleep_end) == -1)
		f->sleep_end = 0;
}

static void
member_open(struct gc_member *me)
{
	if (gc_member_init(me) == -1) {
		printf("Bail out! gc_member_init: %s\n", strerror(errno));
		exit(1);
	}
}

static void
fake_open(struct fake *f, struct gc_log *log, uint64_t ring_pages, uint64_t file_pages)
{
	struct gc_io io = { fake_write, fake_sync, fake_sleep, f };

	memset(f, 0, sizeof *f);
	pthread_mutex_init(&f->mu, NULL);
	f->file_bytes = file_pages * PAGE;
	f->file = calloc(1, f->file_bytes);
	f->log = log;
	if (gc_log_init(log, PAGE, ring_pages, f->file_bytes, &io) == -1) {
		printf("Bail out! gc_log_init: %s\n", strerror(errno));
		exit(1);
	}
}

/* A log on a fake file, and one committer's view, for the tests that
 * drive it from one thread. */
struct rig {
	struct gc_log log;
	struct fake f;
	struct gc_member me;
	struct gc_flush fl;
};

static void
rig_open(struct rig *r, uint64_t ring_pages, uint64_t file_pages, uint64_t delay_ns,
    unsigned siblings)
{
	fake_open(&r->f, &r->log, ring_pages, file_pages);
	gc_log_set(&r->log, delay_ns, siblings);
	member_open(&r->me);
}

static void
fake_close(struct fake *f)
{
	gc_log_destroy(f->log, false);
	pthread_mutex_destroy(&f->mu);
	free(f->file);
}

static void
rig_close(struct rig *r)
{
	gc_member_destroy(&r->me);
	fake_close(&r->f);
}

static uint64_t
insert(struct gc_log *log, const unsigned char *rec, size_t len)
{
	uint64_t end = 0;

	if (gc_insert(log, rec, len, &end) == -1)
		return 0;
	return end;
}

static void
test_sleep_joins_flush(void)
{
	static const unsigned char a[100] = { 'a' }, b[100] = { 'b' };
	struct rig r;
	uint64_t end_a;

	rig_open(&r, 8, 8, 1000, 0);	/* siblings 0: always sleep */
	r.f.sleep_record = b;
	r.f.sleep_len = sizeof b;
	end_a = insert(&r.log, a, sizeof a);
	gc_txn_begin(&r.log, &r.me);
	ok(gc_flush_to(&r.log, &r.me, end_a, &r.fl) == 0 && r.fl.led && r.fl.slept,
	    "the leader slept commit_delay with the lock held");
	gc_txn_end(&r.log, &r.me);
	ok(r.f.sleep_end > end_a, "a record was appended during the sleep (ends at %llu)",
	    (unsigned long long)r.f.sleep_end);
	ok(state(&r.log).flushed == r.f.sleep_end,
	    "the flush after the sleep covers it: durable to %llu",
	    (unsigned long long)state(&r.log).flushed);
	ok(r.f.syncs == 1 && r.f.nwrites == 1, "one write, one sync (%u, %u)", r.f.nwrites,
	    r.f.syncs);
	ok(memcmp(r.f.file + GC_PAGE_HEADER_BYTES + sizeof a, b, sizeof b) == 0,
	    "the record appended during the sleep is in the file, after the first");
	ok(gc_flush_to(&r.log, &r.me, r.f.sleep_end, &r.fl) == 0 && !r.fl.led && r.f.syncs == 1,
	    "its committer finds it durable: no second flush");
	rig_close(&r);
}

struct committer_arg {
	struct gc_log *log;
	struct gc_member me;
	uint64_t end;
	struct gc_flush fl;
	int rc;
};

static void
committer_open(struct committer_arg *c, struct gc_log *log)
{
	memset(c, 0, sizeof *c);
	c->log = log;
	member_open(&c->me);
}

static void *
committer(void *p)
{
	struct committer_arg *c = p;

	gc_txn_begin(c->log, &c->me);
	c->rc = gc_flush_to(c->log, &c->me, c->end, &c->fl);
	gc_txn_end(c->log, &c->me);
	return NULL;
}

/* A holds the lock and syncs until B waits for it; B's record was (or,
 * when late, was not) appended before A took the insert position. */
static void
waiter_case(bool late)
{
	static const unsigned char a[80] = { 'a' }, b[80] = { 'b' };
	struct committer_arg ca, cb;
	pthread_t ta, tb;
	struct gc_log log;
	struct fake f;
	unsigned waited = 0;

	fake_open(&f, &log, 8, 8);
	gc_log_set(&log, 0, 5);
	f.sync_waits_for = 1;
	committer_open(&ca, &log);
	committer_open(&cb, &log);
	ca.end = insert(&log, a, sizeof a);
	if (!late)
		cb.end = insert(&log, b, sizeof b);
	pthread_create(&ta, NULL, committer, &ca);
	while (!shared(&f, &f.in_sync) && waited++ < WAIT_NS / 1000000)
		nap();
	if (late)
		cb.end = insert(&log, b, sizeof b);
	pthread_create(&tb, NULL, committer, &cb);
	pthread_join(ta, NULL);
	pthread_mutex_lock(&f.mu);
	f.sync_waits_for = 0;	/* B may lead a flush of its own now */
	pthread_mutex_unlock(&f.mu);
	pthread_join(tb, NULL);
	ok(ca.rc == 0 && ca.fl.led, "%s: A led the flush", late ? "late" : "early");
	if (!late) {
		ok(cb.rc == 0 && !cb.fl.led,
		    "a woken waiter whose record is durable does not flush");
		ok(f.syncs == 1, "one sync for both commits (%u)", f.syncs);
	} else {
		ok(cb.rc == 0 && cb.fl.led,
		    "a woken waiter whose record came after the flush's position flushes it");
		ok(f.syncs == 2 && state(&log).flushed == cb.end, "two syncs, durable to B's record");
	}
	gc_member_destroy(&ca.me);
	gc_member_destroy(&cb.me);
	fake_close(&f);
}

/* Wait until n committers are asleep on the lock; false after WAIT_NS. */
static bool
await_waiters(struct gc_log *log, unsigned n)
{
	unsigned waited = 0;

	while (state(log).waiters < n && waited++ < WAIT_NS / 1000000)
		nap();
	return state(log).waiters >= n;
}

/* A syncs while B, C and D queue for the lock, in that order: the release
 * wakes D first, as LWLockRelease wakes the last LWLockAcquireOrWait
 * waiter first, so that one whose record the flush did not cover can take
 * the lock at once. */
static void
test_last_waiter_woken_first(void)
{
	static const unsigned char rec[40] = { 'w' };
	struct committer_arg c[4];
	pthread_t t[4];
	struct gc_log log;
	struct fake f;
	bool queued = true;
	unsigned i, waited = 0;

	fake_open(&f, &log, 8, 8);
	gc_log_set(&log, 0, 5);
	f.sync_waits_for = 4;	/* A syncs until told: one more than will wait */
	for (i = 0; i < 4; i++) {
		committer_open(&c[i], &log);
		c[i].end = insert(&log, rec, sizeof rec);
	}
	pthread_create(&t[0], NULL, committer, &c[0]);
	while (!shared(&f, &f.in_sync) && waited++ < WAIT_NS / 1000000)
		nap();
	for (i = 1; i < 4; i++) {
		pthread_create(&t[i], NULL, committer, &c[i]);
		queued = queued && await_waiters(&log, i);
	}
	ok(queued && state(&log).woken_first == &c[3].me,
	    "of three waiters, the release wakes the last to queue first");
	pthread_mutex_lock(&f.mu);
	f.sync_waits_for = 0;
	pthread_mutex_unlock(&f.mu);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ok(c[0].fl.led && !c[1].fl.led && !c[2].fl.led && !c[3].fl.led && f.syncs == 1 &&
	    c[1].rc == 0 && c[2].rc == 0 && c[3].rc == 0,
	    "every waiter woke to find its record durable: one sync for four");
	ok(state(&log).waiters == 0 && state(&log).woken_first == NULL,
	    "no one is left queued");
	for (i = 0; i < 4; i++)
		gc_member_destroy(&c[i].me);
	fake_close(&f);
}

static void
test_siblings_gate(void)
{
	static const unsigned char rec[40] = { 'r' };
	struct gc_member others[3];
	struct rig r;
	uint64_t end;
	unsigned i;

	for (i = 0; i < 3; i++)
		member_open(&others[i]);
	rig_open(&r, 8, 8, 1000, 2);
	gc_txn_begin(&r.log, &r.me);
	gc_txn_begin(&r.log, &others[0]);
	end = insert(&r.log, rec, sizeof rec);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && !r.fl.slept && r.f.sleeps == 0,
	    "siblings 2, one other in a transaction: no sleep");
	gc_txn_begin(&r.log, &others[1]);
	end = insert(&r.log, rec, sizeof rec);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && r.fl.slept && r.f.sleeps == 1,
	    "two others in a transaction: the leader sleeps");
	gc_txn_end(&r.log, &others[0]);
	gc_txn_end(&r.log, &others[1]);
	gc_txn_begin(&r.log, &others[2]);
	end = insert(&r.log, rec, sizeof rec);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && !r.fl.slept && r.f.sleeps == 1,
	    "committers out of their transaction do not count: no sleep with one in");
	gc_txn_end(&r.log, &r.me);
	end = insert(&r.log, rec, sizeof rec);
	gc_txn_begin(&r.log, &others[0]);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && r.fl.slept,
	    "the leader itself is not counted: two others, and it sleeps outside one too");
	gc_log_set(&r.log, 0, 0);
	end = insert(&r.log, rec, sizeof rec);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && !r.fl.slept,
	    "commit_delay 0: never a sleep");
	for (i = 0; i < 3; i++)
		gc_member_destroy(&others[i]);
	rig_close(&r);
}

static uint16_t
u16_at(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static uint64_t
u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static bool
all_zero(const unsigned char *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return false;
	return true;
}

/* Append len bytes of rec, then flush up to them as r's committer. */
static uint64_t
commit(struct rig *r, const unsigned char *rec, size_t len)
{
	uint64_t end = insert(&r->log, rec, len);

	gc_flush_to(&r->log, &r->me, end, &r->fl);
	return end;
}

static void
test_partial_pages(void)
{
	unsigned char rec[300];
	const struct fake_write *w;
	struct rig r;
	uint64_t end;

	memset(rec, 0xAB, sizeof rec);
	rig_open(&r, 8, 8, 0, 5);
	end = commit(&r, rec, 100);
	w = r.f.writes;
	ok(r.f.nwrites == 1 && w[0].off == 0 && w[0].len == PAGE,
	    "first flush: the whole first page, at 0");
	ok(u16_at(r.f.file) == GC_PAGE_MAGIC && u64_at(r.f.file + 8) == 0,
	    "the page starts with its header (magic, address 0)");
	ok(all_zero(r.f.file + end, PAGE - end), "the page is zeros after the record");
	commit(&r, rec, 100);
	ok(r.f.nwrites == 2 && w[1].off == 0 && w[1].len == PAGE,
	    "second flush rewrites the partly written page at 0");
	insert(&r.log, rec, 300);
	insert(&r.log, rec, 300);
	end = commit(&r, rec, 300);	/* 224 + 900 crosses into page 2 */
	ok(r.f.nwrites == 3 && w[2].off == 0 && w[2].len == 2 * PAGE && r.fl.pages == 2,
	    "a flush into the next page: from the partial page, two pages in one write "
	    "(%llu+%zu)", (unsigned long long)w[2].off, w[2].len);
	ok(u16_at(r.f.file + PAGE) == GC_PAGE_MAGIC && u64_at(r.f.file + PAGE + 8) == PAGE,
	    "the second page has its own header, address %u", PAGE);
	ok(r.f.file[PAGE - 1] == 0xAB && r.f.file[PAGE + GC_PAGE_HEADER_BYTES] == 0xAB,
	    "the record crossing the page goes on after the header");
	ok(end == 224 + 900 + GC_PAGE_HEADER_BYTES, "positions count the page header (%llu)",
	    (unsigned long long)end);
	commit(&r, rec, 10);
	ok(r.f.nwrites == 4 && w[3].off == PAGE && w[3].len == PAGE,
	    "once a page is full, the next flush starts at the next page");
	rig_close(&r);
}

static void
test_wraps_in_file(void)
{
	unsigned char rec[500];
	const struct fake_write *w;
	struct rig r;
	uint64_t end = 0;
	unsigned i;

	memset(rec, 0x5C, sizeof rec);
	rig_open(&r, 4, 4, 0, 5);
	/* Seven pages' worth, flushed every two records. */
	for (i = 0; i < 7; i++) {
		insert(&r.log, rec, sizeof rec);
		end = commit(&r, rec, sizeof rec);
	}
	w = r.f.writes;
	ok(end > 4 * PAGE, "the log went past the end of the 4-page file (%llu)",
	    (unsigned long long)end);
	for (i = 0; i < r.f.nwrites && w[i].off + w[i].len <= r.f.file_bytes; i++)
		;
	ok(i == r.f.nwrites, "no write past the end of the file");
	for (i = 1; i < r.f.nwrites && !(w[i].off == 0 && w[i - 1].off + w[i - 1].len == 4 * PAGE);
	    i++)
		;
	ok(i < r.f.nwrites, "a flush across the end is two writes: to the end, then at 0");
	ok(u64_at(r.f.file + 8) == 4 * PAGE, "page 0 of the file now holds log page 4");
	rig_close(&r);
}

static void
test_ring_room(void)
{
	static const unsigned char rec[112] = { 1 };
	uint64_t pages = gc_ring_pages(PAGE, sizeof rec, 16);
	struct rig r;
	uint64_t end = 0;
	unsigned i, fit = 0;

	rig_open(&r, pages, pages, 0, 5);
	for (i = 0; i < 16; i++)
		fit += insert(&r.log, rec, sizeof rec) != 0;
	ok(fit == 16, "16 committers' records fit the ring sized for 16 (%llu pages)",
	    (unsigned long long)pages);
	for (i = 0; i < 1000 && (end = insert(&r.log, rec, sizeof rec)) != 0; i++)
		;
	ok(end == 0 && errno == ENOBUFS, "a full ring refuses a record (ENOBUFS)");
	ok(gc_insert(&r.log, rec, sizeof rec, &end) == -1, "still full before a flush");
	end = state(&r.log).insert_end;
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == 0 && insert(&r.log, rec, sizeof rec) != 0,
	    "after a flush there is room again");
	rig_close(&r);
}

static void
test_sync_failure(void)
{
	static const unsigned char rec[50] = { 2 };
	struct gc_state st;
	struct rig r;
	uint64_t end;

	rig_open(&r, 8, 8, 0, 5);
	r.f.fail_sync = EIO;
	end = insert(&r.log, rec, sizeof rec);
	errno = 0;
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == -1 && errno == EIO,
	    "a failed sync fails the flush");
	st = state(&r.log);
	ok(st.failed && st.failed_in_sync && st.failed_errno == EIO,
	    "the log says it failed in the sync, with EIO");
	r.f.fail_sync = 0;
	end = insert(&r.log, rec, sizeof rec);
	ok(gc_flush_to(&r.log, &r.me, end, &r.fl) == -1 && errno == EIO && r.f.syncs == 1,
	    "after a failure every committer stops, no further sync");
	ok(state(&r.log).flushed == 0, "nothing was published as durable");
	rig_close(&r);
}

int
main(void)
{
	test_sleep_joins_flush();
	waiter_case(false);
	waiter_case(true);
	test_last_waiter_woken_first();
	test_siblings_gate();
	test_partial_pages();
	test_wraps_in_file();
	test_ring_room();
	test_sync_failure();
	return tap_done();
}
