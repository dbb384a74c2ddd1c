/* group_commit.h: PostgreSQL's group commit, as XLogFlush does it in
 * PostgreSQL 15 to 17, over a shared in-memory log and one log file. The
 * protocol only: the writes, the sync and the commit_delay sleep go through
 * struct gc_io, so the unit tests drive it with a fake sync; group_run.c
 * gives it real calls and the threads. See DESIGN.md, "Group commit
 * experiment". */
#ifndef SYNCPROBE_GROUP_COMMIT_H
#define SYNCPROBE_GROUP_COMMIT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GC_PAGE_HEADER_BYTES 24	/* XLogPageHeaderData, MAXALIGNed */
#define GC_PAGE_MAGIC        0xD110u	/* PostgreSQL 15's XLOG_PAGE_MAGIC */

/* How the lock holder writes and syncs the log, and sleeps commit_delay. */
struct gc_io {
	/* Write len bytes at offset off of the log file: 0, or -1 with errno. */
	int (*write)(void *ctx, const unsigned char *buf, size_t len, uint64_t off);
	/* Make the writes durable (nothing for open_* methods): 0, or -1
	 * with errno. */
	int (*sync)(void *ctx);
	/* Sleep ns nanoseconds, as pg_usleep(commit_delay) does. */
	void (*sleep)(void *ctx, uint64_t ns);
	void *ctx;
};

/* One committer's own view: whether it is inside a transaction, and its
 * place among those asleep until the write lock is released. */
struct gc_member {
	bool in_txn;
	sem_t wake;			/* posted by the release that wakes it */
	struct gc_member *next_waiter;	/* the one queued before it */
};

/* The shared state. Positions are byte addresses in the log, page headers
 * included; position p is at p % ring_bytes in memory and p % file_bytes
 * in the file, which the log wraps around in as in a WAL segment. The lock
 * and the ring work across processes: committers that are processes (as
 * a server's backends are) keep this struct and their gc_member in memory
 * they share (platform_shared_alloc) and fork after gc_log_init. */
struct gc_log {
	pthread_mutex_t m;		/* guards everything below but in_txn */
	unsigned char *ring;		/* the log pages in memory */
	uint64_t ring_bytes;
	uint64_t file_bytes;
	size_t page_bytes;
	unsigned char *wbuf;		/* the lock holder's copy of what it writes */
	uint64_t insert_end;		/* the end of the last record appended */
	uint64_t written;		/* written and flushed move together: */
	uint64_t flushed;		/* every write is followed by its sync */
	bool lock_held;			/* the write lock (WALWriteLock) */
	/* Committers asleep until the release, the last to queue first:
	 * LWLockQueueSelf puts a waiter that only waits for the lock to be
	 * free at the head of the queue, and the release wakes from there. */
	struct gc_member *queue;
	unsigned waiters;		/* how many are in it */
	bool failed;			/* a write or sync failed: everyone stops */
	bool failed_in_sync;		/* the sync call, not a write */
	int failed_errno;
	uint64_t delay_ns;		/* commit_delay of the current cell */
	unsigned siblings;		/* commit_siblings */
	struct gc_io io;
	/* Committers holding a transaction id, read without m as the
	 * server's MinimumActiveBackends reads the proc array. */
	atomic_uint in_txn;
};

/* What one gc_flush_to call did, for the caller to count. */
struct gc_flush {
	bool led;		/* this committer wrote and synced */
	bool slept;		/* and slept commit_delay first */
	uint64_t flush_ns;	/* its writes and sync, when led */
	uint64_t pages;		/* pages written, when led */
};

/* Pages of memory the log needs so that no record waits for space: every
 * committer has at most one record not yet durable, and the partly
 * written page is kept until it fills. */
uint64_t gc_ring_pages(size_t page_bytes, size_t record_bytes, unsigned committers);

/* Set up an empty log of ring_pages pages of page_bytes in memory, written
 * to a file region of file_bytes (a multiple of page_bytes, at least the
 * ring). 0, or -1 with errno. */
int gc_log_init(struct gc_log *log, size_t page_bytes, uint64_t ring_pages,
    uint64_t file_bytes, const struct gc_io *io);
/* Give back the log's memory. abandoned: a process that used it was
 * killed, so its lock is left as it is (it may have died holding it). */
void gc_log_destroy(struct gc_log *log, bool abandoned);

/* commit_delay and commit_siblings for what follows; only while no
 * committer is running. */
void gc_log_set(struct gc_log *log, uint64_t delay_ns, unsigned siblings);

/* A committer's view, in memory every process that uses the log shares.
 * 0, or -1 with errno. destroy: not while anyone may wait on it, and not
 * at all where a process that used it was killed (as gc_log_destroy). */
int gc_member_init(struct gc_member *me);
void gc_member_destroy(struct gc_member *me);

/* A committer takes a transaction id (starts its work) and, once its
 * record is durable, gives it back. */
void gc_txn_begin(struct gc_log *log, struct gc_member *me);
void gc_txn_end(struct gc_log *log, struct gc_member *me);

/* Append a record of len bytes to the log; *end is the position just
 * past it. 0, or -1 with errno ENOBUFS when the log has no room (the ring
 * was sized for fewer committers or smaller records). */
int gc_insert(struct gc_log *log, const unsigned char *rec, size_t len, uint64_t *end);

/* Return once the log is durable up to rec_end: by this committer's own
 * write and sync, or by another's. 0, or -1 with errno when a write or
 * sync failed (gc_failure says which). */
int gc_flush_to(struct gc_log *log, struct gc_member *me, uint64_t rec_end,
    struct gc_flush *out);

/* A consistent look at the shared state, for the caller and the tests. */
struct gc_state {
	uint64_t insert_end;
	uint64_t flushed;
	unsigned waiters;	/* asleep until the lock is released */
	const struct gc_member *woken_first;	/* by the next release; or NULL */
	bool failed;		/* a write or sync failed ... */
	bool failed_in_sync;	/* ... the sync call, not a write */
	int failed_errno;
};

void gc_state(struct gc_log *log, struct gc_state *out);

#endif
