/* group_commit.c: XLogFlush's group commit (PostgreSQL 15-17), step by
 * step as DESIGN.md writes it out. One committer at a time holds the write
 * lock; the others sleep until it is released and then look again whether
 * their record is already durable before competing for the lock. The
 * holder may sleep commit_delay with the lock held, then writes every
 * record appended so far, whole pages from the partly written one, syncs,
 * publishes the new durable position and wakes every waiter, the last to
 * queue first, as LWLockRelease does. */
#include "config.h"

#include "group/group_commit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/platform.h"

/* What a committer found when it went for the write lock. */
enum acquire {
	ACQUIRE_DURABLE,	/* its record is durable already */
	ACQUIRE_HELD,		/* it holds the lock */
	ACQUIRE_WOKE,		/* it slept until a release, without the lock */
	ACQUIRE_FAILED		/* a write or sync failed */
};

static uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The most log a record of len bytes can take: its bytes and the header
 * of every page it starts or crosses into. */
static uint64_t
span_bound(size_t page_bytes, size_t len)
{
	return len + (len / (page_bytes - GC_PAGE_HEADER_BYTES) + 2) * GC_PAGE_HEADER_BYTES;
}

uint64_t
gc_ring_pages(size_t page_bytes, size_t record_bytes, unsigned committers)
{
	uint64_t pending = (uint64_t)committers * span_bound(page_bytes, record_bytes);

	/* The records not yet durable, the partly written page before them
	 * and a page of slack for the last record's page header. */
	return (pending + page_bytes - 1) / page_bytes + 2;
}

int
gc_log_init(struct gc_log *log, size_t page_bytes, uint64_t ring_pages,
    uint64_t file_bytes, const struct gc_io *io)
{
	long mem_page = sysconf(_SC_PAGESIZE);
	int err;

	memset(log, 0, sizeof *log);
	if (page_bytes <= GC_PAGE_HEADER_BYTES || ring_pages < 2 ||
	    file_bytes % page_bytes != 0 || file_bytes < ring_pages * page_bytes) {
		errno = EINVAL;
		return -1;
	}
	log->page_bytes = page_bytes;
	log->ring_bytes = ring_pages * page_bytes;
	log->file_bytes = file_bytes;
	log->io = *io;
	atomic_init(&log->in_txn, 0);
	/* Shared with the committer processes, as WAL buffers are. */
	log->ring = platform_shared_alloc(log->ring_bytes);
	/* The lock holder's own copy, each process its own, aligned to a
	 * memory page for a log file opened with direct I/O: the runs of log
	 * pages written from it start at multiples of page_bytes in it. */
	log->wbuf = platform_aligned_alloc(mem_page > 0 ? (size_t)mem_page : 4096,
	    log->ring_bytes);
	if (log->wbuf != NULL)
		memset(log->wbuf, 0, log->ring_bytes);
	if (log->ring == NULL || log->wbuf == NULL) {
		platform_shared_free(log->ring, log->ring_bytes);
		free(log->wbuf);
		errno = ENOMEM;
		return -1;
	}
	if ((err = platform_shared_mutex_init(&log->m, false)) != 0) {
		platform_shared_free(log->ring, log->ring_bytes);
		free(log->wbuf);
		errno = err;
		return -1;
	}
	return 0;
}

void
gc_log_destroy(struct gc_log *log, bool abandoned)
{
	if (!abandoned)
		pthread_mutex_destroy(&log->m);
	platform_shared_free(log->ring, log->ring_bytes);
	free(log->wbuf);
	log->ring = log->wbuf = NULL;
}

void
gc_log_set(struct gc_log *log, uint64_t delay_ns, unsigned siblings)
{
	pthread_mutex_lock(&log->m);
	log->delay_ns = delay_ns;
	log->siblings = siblings;
	pthread_mutex_unlock(&log->m);
}

int
gc_member_init(struct gc_member *me)
{
	me->in_txn = false;
	me->next_waiter = NULL;
	/* Shared between processes: a committer posts another's. */
	return sem_init(&me->wake, 1, 0);
}

void
gc_member_destroy(struct gc_member *me)
{
	sem_destroy(&me->wake);
}

void
gc_txn_begin(struct gc_log *log, struct gc_member *me)
{
	if (me->in_txn)
		return;
	me->in_txn = true;
	atomic_fetch_add_explicit(&log->in_txn, 1, memory_order_relaxed);
}

void
gc_txn_end(struct gc_log *log, struct gc_member *me)
{
	if (!me->in_txn)
		return;
	me->in_txn = false;
	atomic_fetch_sub_explicit(&log->in_txn, 1, memory_order_relaxed);
}

/* MinimumActiveBackends: the other committers holding a transaction id,
 * waiting for the lock or not. A rough count, read without a lock, as the
 * server reads it. */
static unsigned
others_in_txn(struct gc_log *log, const struct gc_member *me)
{
	unsigned n = atomic_load_explicit(&log->in_txn, memory_order_relaxed);

	return me->in_txn && n > 0 ? n - 1 : n;
}

static uint64_t
page_floor(const struct gc_log *log, uint64_t pos)
{
	return pos - pos % log->page_bytes;
}

static uint64_t
page_ceil(const struct gc_log *log, uint64_t pos)
{
	return page_floor(log, pos + log->page_bytes - 1);
}

/* A page header at pos (a page start): the magic and the page's address,
 * so that no two pages are alike. */
static void
put_page_header(struct gc_log *log, uint64_t pos)
{
	unsigned char *h = log->ring + pos % log->ring_bytes;
	uint16_t magic = GC_PAGE_MAGIC;
	uint32_t timeline = 1;

	memset(h, 0, GC_PAGE_HEADER_BYTES);
	memcpy(h, &magic, sizeof magic);
	memcpy(h + 4, &timeline, sizeof timeline);
	memcpy(h + 8, &pos, sizeof pos);
}

int
gc_insert(struct gc_log *log, const unsigned char *rec, size_t len, uint64_t *end)
{
	uint64_t pos;

	pthread_mutex_lock(&log->m);
	pos = log->insert_end;
	if (pos + span_bound(log->page_bytes, len) - page_floor(log, log->written) >
	    log->ring_bytes) {
		pthread_mutex_unlock(&log->m);
		errno = ENOBUFS;
		return -1;
	}
	while (len > 0) {
		uint64_t in_page = pos % log->page_bytes;
		size_t n;

		if (in_page == 0) {
			put_page_header(log, pos);
			pos += GC_PAGE_HEADER_BYTES;
			continue;
		}
		/* The ring is whole pages: a piece within a page never wraps. */
		n = (size_t)min_u64(len, log->page_bytes - in_page);
		memcpy(log->ring + pos % log->ring_bytes, rec, n);
		pos += n;
		rec += n;
		len -= n;
	}
	log->insert_end = pos;
	*end = pos;
	pthread_mutex_unlock(&log->m);
	return 0;
}

/* Copy the log from..to (positions) out of the ring into dst. */
static void
ring_copy(const struct gc_log *log, unsigned char *dst, uint64_t from, uint64_t to)
{
	while (from < to) {
		uint64_t off = from % log->ring_bytes;
		uint64_t n = min_u64(to - from, log->ring_bytes - off);

		memcpy(dst, log->ring + off, (size_t)n);
		dst += n;
		from += n;
	}
}

/* One write per run of pages that is contiguous in the file: the log
 * wraps around at the end of it. */
static int
write_pages(struct gc_log *log, uint64_t from, uint64_t to)
{
	const unsigned char *src = log->wbuf;

	while (from < to) {
		uint64_t off = from % log->file_bytes;
		uint64_t n = min_u64(to - from, log->file_bytes - off);

		if (log->io.write(log->io.ctx, src, (size_t)n, off) == -1)
			return -1;
		src += n;
		from += n;
	}
	return 0;
}

/* LWLockAcquireOrWait: queue at the head, sleep until the holder
 * releases the lock, then return without it. Called with m held; returns
 * with it released. */
static void
wait_for_release(struct gc_log *log, struct gc_member *me)
{
	me->next_waiter = log->queue;
	log->queue = me;
	log->waiters++;
	pthread_mutex_unlock(&log->m);
	while (sem_wait(&me->wake) == -1 && errno == EINTR)
		;
}

static enum acquire
acquire_or_wait(struct gc_log *log, struct gc_member *me, uint64_t rec_end, int *err)
{
	enum acquire r;

	pthread_mutex_lock(&log->m);
	if (log->failed) {
		*err = log->failed_errno;
		r = ACQUIRE_FAILED;
	} else if (rec_end <= log->flushed) {
		r = ACQUIRE_DURABLE;
	} else if (!log->lock_held) {
		log->lock_held = true;
		r = ACQUIRE_HELD;
	} else {
		wait_for_release(log, me);
		return ACQUIRE_WOKE;
	}
	pthread_mutex_unlock(&log->m);
	return r;
}

/* Give the lock back, the log durable up to flushed_to (published in the
 * same step, so a woken waiter sees it), or failed; wake every waiter in
 * the queue's order. The last to queue came after the flush took its
 * position, so its record is not yet durable: woken first, it takes the
 * lock for the next flush at once. Woken all at once by a condition's
 * broadcast, the 30 to 60 committers a flush leaves queued at 32 and 64
 * clients on two CPUs each took the log's mutex in turn, and the next
 * flush's leader took the lock 0.23 to 0.32 ms after the release (mean);
 * woken thus, 0.04 ms after, as the server's next write follows its sync
 * (0.03 ms; bench/README, 2026-12-06). */
static void
release(struct gc_log *log, uint64_t flushed_to, bool failed, bool in_sync, int err)
{
	struct gc_member *w, *next;

	pthread_mutex_lock(&log->m);
	if (failed) {
		log->failed = true;
		log->failed_in_sync = in_sync;
		log->failed_errno = err;
	} else if (flushed_to > log->flushed) {
		log->written = log->flushed = flushed_to;
	}
	log->lock_held = false;
	w = log->queue;
	log->queue = NULL;
	log->waiters = 0;
	pthread_mutex_unlock(&log->m);
	/* A woken waiter may queue again at once: its link is read first. */
	for (; w != NULL; w = next) {
		next = w->next_waiter;
		sem_post(&w->wake);
	}
}

/* The lock holder's part: the delay, then everything inserted so far. */
static int
lead_flush(struct gc_log *log, struct gc_member *me, struct gc_flush *out)
{
	uint64_t from, tail, pos, to, start;
	int rc, err;
	bool in_sync = false;

	out->led = true;
	/* The lock is held: followers pile up behind it while we sleep. */
	if (log->delay_ns > 0 && others_in_txn(log, me) >= log->siblings) {
		log->io.sleep(log->io.ctx, log->delay_ns);
		out->slept = true;
	}
	/* The insert position now, after the sleep: records appended during
	 * it go out with this flush. Only the partly filled last page can
	 * still change under inserters: it is copied under m; whole pages
	 * before it are left alone by inserters until they are written. */
	pthread_mutex_lock(&log->m);
	pos = log->insert_end;
	from = page_floor(log, log->written);
	tail = page_floor(log, pos);
	ring_copy(log, log->wbuf + (tail - from), tail, pos);
	pthread_mutex_unlock(&log->m);
	ring_copy(log, log->wbuf, from, tail);
	to = page_ceil(log, pos);
	/* The rest of the last page is zeros, as in a fresh WAL page. */
	memset(log->wbuf + (pos - from), 0, (size_t)(to - pos));

	start = platform_now_ns();
	rc = write_pages(log, from, to);
	if (rc == 0) {
		in_sync = true;
		rc = log->io.sync(log->io.ctx);
	}
	err = errno;
	out->flush_ns = platform_now_ns() - start;
	out->pages = (to - from) / log->page_bytes;
	release(log, pos, rc == -1, in_sync, err);
	if (rc == -1) {
		errno = err;
		return -1;
	}
	return 0;
}

int
gc_flush_to(struct gc_log *log, struct gc_member *me, uint64_t rec_end,
    struct gc_flush *out)
{
	int err = 0;

	memset(out, 0, sizeof *out);
	for (;;) {
		switch (acquire_or_wait(log, me, rec_end, &err)) {
		case ACQUIRE_DURABLE:
			return 0;
		case ACQUIRE_FAILED:
			errno = err;
			return -1;
		case ACQUIRE_WOKE:
			/* Released, but not ours: someone's flush may have
			 * covered our record. Look again before competing. */
			continue;
		case ACQUIRE_HELD:
			/* XLogFlush rechecks the durable position once it holds
			 * the lock; acquire_or_wait looked at it in the same
			 * hold of m that took the lock. */
			return lead_flush(log, me, out);
		}
	}
}

void
gc_state(struct gc_log *log, struct gc_state *out)
{
	pthread_mutex_lock(&log->m);
	out->insert_end = log->insert_end;
	out->flushed = log->flushed;
	out->waiters = log->waiters;
	out->woken_first = log->queue;
	out->failed = log->failed;
	out->failed_in_sync = log->failed_in_sync;
	out->failed_errno = log->failed_errno;
	pthread_mutex_unlock(&log->m);
}
