/* group_pair.c: what a committer and its client do in a slice of the
 * group-commit experiment.
 *
 * A committer waits for its client's request (the round trip: it holds no
 * transaction id then), does a third of --txn-work of CPU work, takes a
 * transaction id, appends its record, waits until the log is durable up
 * to it (group_commit.c), does another third and replies.
 * The client does the last third, then sends the next request. A client
 * thread over a socketpair is what made the prototype agree with pgbench:
 * committers that only spun between commits, or a round trip modelled
 * as a timer sleep, batched commits as no server does. Only commits that
 * end inside a slice's window count, so the pipeline's filling (the
 * warm-up) and draining stay out of the figures. */
#include "config.h"

#include "group/group_pair.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/platform.h"

/* The bytes client and committer exchange. */
#define MSG_REQUEST 'r'
#define MSG_STOP    's'		/* the client's last word in a slice */
#define MSG_DONE    'k'		/* committed */
#define MSG_FAILED  'x'		/* the log failed: the slice is over */

/* Called by the lock holder only, so the short write's counts are one
 * committer's; the slice's end publishes them to the main thread. */
static int
log_write(void *ctx, const unsigned char *buf, size_t len, uint64_t off)
{
	struct experiment *x = ctx;
	ssize_t n = pwrite(x->fd, buf, len, (off_t)off);

	if (n == (ssize_t)len)
		return 0;
	if (n >= 0) {
		/* A short write is no error the device reported: kept to be
		 * said as what it was. */
		x->short_done = (size_t)n;
		x->short_want = len;
		errno = EIO;
	}
	return -1;
}

static int
log_sync(void *ctx)
{
	const struct experiment *x = ctx;

	return method_sync(x->method, x->fd);
}

/* pg_usleep: a plain sleep, timer slack and all. */
static void
log_sleep(void *ctx, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	(void)ctx;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* One byte over a socketpair: 0, or -1 with errno (EPIPE when the peer is
 * gone). MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE. */
static int
send_byte(int fd, char c)
{
	ssize_t n;

	while ((n = send(fd, &c, 1, MSG_NOSIGNAL)) == -1 && errno == EINTR)
		;
	return n == 1 ? 0 : -1;
}

static int
recv_byte(int fd, char *c)
{
	ssize_t n;

	while ((n = recv(fd, c, 1, 0)) == -1 && errno == EINTR)
		;
	if (n == 0)
		errno = EPIPE;
	return n == 1 ? 0 : -1;
}

/* A pair that cannot go on: say why, and close our side for writing so
 * the other side of the pair stops too. */
static void
pair_fail(struct pair_error *e, const char *op, int fd)
{
	e->op = op;
	e->err = errno;
	shutdown(fd, SHUT_WR);
}

/* The slice control's mutex is robust: a committer killed while holding
 * it (a crash, a kill) leaves it to the next one to take, not locked for
 * ever. What it guards is plain counts and flags, consistent at every
 * step. */
void
group_pair_ctl_owner_dead(struct experiment *x, int rc)
{
	if (rc == EOWNERDEAD)
		pthread_mutex_consistent(&x->ctl);
}

void
group_pair_ctl_lock(struct experiment *x)
{
	group_pair_ctl_owner_dead(x, pthread_mutex_lock(&x->ctl));
}

/* A transaction's CPU (--txn-work) is spent where the server and pgbench
 * spend theirs: a third before the commit record (the statement), a third
 * after the flush (the commit's end and the reply) and a third in the
 * client. All of it before the record, the returns a flush releases came
 * back sooner than the server's and a delay batched them as no server
 * does: on a disk slowed by 2 ms a flush, at 32 clients, the experiment
 * called d/4 and d/2 gains (+15%, +12%) where the server lost 12% and
 * 4.5 to 9% (bench/pgbench_delay.sh with WHERE=1, 2026-12-04; the
 * figures are in bench/README's history). */
static uint64_t
work_third(uint64_t ns)
{
	return ns / 3;
}

/* The client's part: the rest, so that the three add up to ns. */
static uint64_t
client_work(uint64_t ns)
{
	return ns - 2 * work_third(ns);
}

/* Spend ns of this thread's CPU time. CPU time, not time on the clock: a
 * busy loop on the clock that the scheduler preempts is done sooner, so
 * that in a burst of returning commits, where the server's backends queue
 * for a CPU and still pay all of their work, the experiment paid less. */
static void
spend_cpu(uint64_t ns)
{
	uint64_t start;

	if (ns == 0)
		return;
	start = platform_thread_cpu_ns();
	while (platform_thread_cpu_ns() - start < ns)
		;
}

/* Wait for the next slice; false when the experiment is over. Pairs past
 * the slice's client count sleep through it. */
static bool
wait_for_slice(struct experiment *x, unsigned index, uint64_t *gen)
{
	bool run = false;

	group_pair_ctl_lock(x);
	while (!x->quit && !run) {
		if (x->generation == *gen) {
			group_pair_ctl_owner_dead(x, pthread_cond_wait(&x->go, &x->ctl));
			continue;
		}
		*gen = x->generation;
		run = index < x->active;
	}
	pthread_mutex_unlock(&x->ctl);
	return run;
}

static void
slice_done(struct experiment *x)
{
	group_pair_ctl_lock(x);
	x->finished++;
	pthread_cond_signal(&x->done);
	pthread_mutex_unlock(&x->ctl);
}

static bool
slice_over(struct experiment *x)
{
	return atomic_load_explicit(&x->stopping, memory_order_relaxed) ||
	    platform_now_ns() >= x->deadline ||
	    atomic_load_explicit(&x->counted, memory_order_relaxed) >= x->quota;
}

/* pgbench's client: a request, the reply, the next request. */
static void
client_slice(struct pair *pr)
{
	char reply;

	for (;;) {
		if (send_byte(pr->client_fd, MSG_REQUEST) == -1) {
			pair_fail(&pr->client_error, "send", pr->client_fd);
			return;
		}
		if (recv_byte(pr->client_fd, &reply) == -1) {
			pair_fail(&pr->client_error, "recv", pr->client_fd);
			return;
		}
		if (reply == MSG_FAILED)
			return;
		/* pgbench's part: reading the result, the next statement. */
		spend_cpu(client_work(pr->x->o->txn_work_ns));
		if (slice_over(pr->x)) {
			if (send_byte(pr->client_fd, MSG_STOP) == -1)
				pair_fail(&pr->client_error, "send", pr->client_fd);
			return;
		}
	}
}

/* A client thread: its part of every slice it is woken for. */
void *
group_pair_client_main(void *arg)
{
	struct pair *pr = arg;
	uint64_t gen = 0;

	while (wait_for_slice(pr->x, pr->index, &gen)) {
		uint64_t cpu = platform_thread_cpu_ns();

		client_slice(pr);
		pr->client_cpu_ns = platform_thread_cpu_ns() - cpu;
		slice_done(pr->x);
	}
	return NULL;
}

/* Count a commit that ended inside the window (and, with -n, within the
 * slice's quota); a flush counts with the commit that led it. */
static void
count_commit(struct pair *pr, uint64_t start, uint64_t end, const struct gc_flush *f)
{
	struct experiment *x = pr->x;

	if (end < x->window_start || end > x->deadline)
		return;
	if (x->quota != UINT64_MAX &&
	    atomic_fetch_add_explicit(&x->counted, 1, memory_order_relaxed) >= x->quota)
		return;
	stats_add(&pr->latency, end - start);
	pr->commits++;
	if (end > pr->last_end)
		pr->last_end = end;
	if (f->led) {
		pr->flushes++;
		pr->flush_ns += f->flush_ns;
		pr->delayed += f->slept;
	}
}

/* The transaction: work, append, wait until durable. 0, or -1 when the
 * log failed (errno) or had no room (pr->error set). */
static int
commit_one(struct pair *pr, struct gc_flush *f)
{
	struct experiment *x = pr->x;
	uint64_t end;
	int rc;

	/* The statement's part of the work: the server parses, plans and
	 * executes before the INSERT takes a transaction id, so a committer
	 * counts as a sibling only from its record on: counted from the
	 * start of its work, it gated delays open at 8 clients that the
	 * server kept shut (bench/pgbench_delay.sh, 2026-12-04). */
	spend_cpu(work_third(x->o->txn_work_ns));
	gc_txn_begin(&x->log, &pr->me);
	memcpy(pr->record, &pr->counter,
	    x->o->record_bytes < sizeof pr->counter ? x->o->record_bytes : sizeof pr->counter);
	pr->counter++;
	if ((rc = gc_insert(&x->log, pr->record, x->o->record_bytes, &end)) == -1) {
		pr->committer_error.op = "append to the log";
		pr->committer_error.err = errno;
		memset(f, 0, sizeof *f);
	} else {
		rc = gc_flush_to(&x->log, &pr->me, end, f);
	}
	/* The transaction id is held until the record is durable. */
	gc_txn_end(&x->log, &pr->me);
	return rc;
}

static void
committer_slice(struct pair *pr)
{
	struct gc_flush f;
	char req;

	for (;;) {
		uint64_t start;

		if (recv_byte(pr->committer_fd, &req) == -1) {
			pair_fail(&pr->committer_error, "recv", pr->committer_fd);
			return;
		}
		if (req == MSG_STOP)
			return;
		start = platform_now_ns();
		if (commit_one(pr, &f) == -1) {
			/* The client stops at this reply; the slice ends. */
			if (send_byte(pr->committer_fd, MSG_FAILED) == -1)
				pair_fail(&pr->committer_error, "send", pr->committer_fd);
			return;
		}
		count_commit(pr, start, platform_now_ns(), &f);
		pr->done++;
		/* The commit's end: the server releases its locks, counts
		 * and builds the reply after the flush. */
		spend_cpu(work_third(pr->x->o->txn_work_ns));
		if (send_byte(pr->committer_fd, MSG_DONE) == -1) {
			pair_fail(&pr->committer_error, "send", pr->committer_fd);
			return;
		}
	}
}

/* A committer's process, from fork to _exit: never syncprobe's exit
 * path (its handlers, atexit, stdio buffers) in a child. It keeps its own
 * end of its own socketpair only, so that it sees syncprobe go, and ends
 * when the socket fails or the log has no room: the slice is over then. */
void
group_pair_committer_process(struct experiment *x, unsigned index, pid_t parent)
{
	struct pair *pr = &x->pairs[index];
	uint64_t gen = 0;
	unsigned i;

	cleanup_child();
	platform_die_with_parent(parent);
	for (i = 0; i < x->npairs; i++) {
		close(x->pairs[i].client_fd);
		if (i != index)
			close(x->pairs[i].committer_fd);
	}
	while (wait_for_slice(x, index, &gen)) {
		uint64_t cpu = platform_thread_cpu_ns();

		committer_slice(pr);
		pr->committer_cpu_ns = platform_thread_cpu_ns() - cpu;
		slice_done(x);
		if (pr->committer_error.op != NULL)
			break;
	}
	_exit(0);
}

void
group_pair_log_io(struct experiment *x, struct gc_io *io)
{
	io->write = log_write;
	io->sync = log_sync;
	io->sleep = log_sleep;
	io->ctx = x;
}

enum exit_status
group_fail(struct run_status *rs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rs->error, sizeof rs->error, fmt, ap);
	va_end(ap);
	rs->failed = true;
	return STATUS_IO;
}
