/* group_run.c: the committers and clients of the group-commit experiment
 * and its sweep.
 *
 * A committer waits for its client's request (the round trip: it holds no
 * transaction id then), does a third of --txn-work of CPU work, takes a
 * transaction id, appends its record, waits until the log is durable up
 * to it (group_commit.c), does another third and replies.
 * The client does the last third, then sends the next request. A client
 * thread over a socketpair is what made the prototype agree with pgbench:
 * committers that only spun between commits, or a round trip modelled
 * as a timer sleep, batched commits as no server does.
 *
 * Each committer is a process, as each of the server's backends is, and
 * the clients are threads of syncprobe, as pgbench's are with -j: every
 * round trip then switches address spaces as the server's does. With
 * committer threads the experiment put twice the server's commits in a
 * flush at 32 clients, ran 1.6 times its commits/s and called a delay a
 * gain at 8 clients on a slowed disk where the server measured none
 * (bench/README, 2026-12-04). The log, the slice control and the pairs'
 * counts live in memory the processes share.
 *
 * The pairs are made once, for the largest client count, and parked
 * between slices; a slice wakes the first C pairs. Only commits that end
 * inside a slice's window count, so the pipeline's filling (the warm-up)
 * and draining stay out of the figures. */
#include "config.h"

#include "group/group_run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "group/group_commit.h"
#include "group/group_result.h"
#include "probe/plan.h"
#include "util/platform.h"
#include "util/delay_grid.h"
#include "util/random.h"
#include "probe/run.h"
#include "util/postgres.h"

/* The bytes client and committer exchange. */
#define MSG_REQUEST 'r'
#define MSG_STOP    's'		/* the client's last word in a slice */
#define MSG_DONE    'k'		/* committed */
#define MSG_FAILED  'x'		/* the log failed: the slice is over */

/* How often the main thread looks for a stop signal while a slice runs. */
#define STOP_POLL_NS 10000000ULL	/* 10 ms */

/* The factors of d the default sweep takes, each snapped to the delay grid
 * (util/delay_grid.h); d/2 is PostgreSQL's rule. d/8 reaches the gains a
 * short delay makes at few clients on a disk capped at N I/O a second
 * (250 us at 8 clients, d = 2.14 ms: bench/README); 4d, which lost at
 * every client count on every disk measured, made room for it. */
static const double sweep_factors[] = { 0.125, 0.25, 0.5, 1.0, 2.0 };

struct experiment;

/* A committer and the client that feeds it. */
struct pair {
	struct experiment *x;
	unsigned index;
	int client_fd;
	int committer_fd;
	pthread_t client;
	pid_t committer;	/* its process */
	bool client_started;
	bool committer_started;
	struct gc_member me;
	unsigned char *record;
	uint64_t counter;	/* stamped into each record: no two alike */
	/* Counted by the committer in the current slice, read after it. */
	struct stats latency;
	uint64_t commits;
	uint64_t flushes;
	uint64_t delayed;
	uint64_t flush_ns;
	uint64_t last_end;
	/* What stopped each side of the pair, if anything did: a socket
	 * call that failed, or an append that found no room. */
	struct pair_error {
		const char *op;
		int err;
	} client_error, committer_error;
};

/* How long a slice runs: a window of ns, or until ops commits (-n). */
struct slice_plan {
	uint64_t warm_ns;
	uint64_t ns;
	uint64_t ops;
};

/* In memory shared with the committer processes (platform_shared_alloc);
 * what only syncprobe's own process uses is marked so. */
struct experiment {
	const struct options *o;
	const struct testfile *tf;
	const char *path;	/* the target, for the progress line */
	const struct method *method;
	bool direct;		/* the log file opened with direct I/O */
	int fd;
	struct gc_log log;
	bool log_ready;
	struct pair *pairs;	/* shared too */
	unsigned npairs;
	pid_t group;		/* the committers' process group, 0 before one */
	bool ends_closed;	/* syncprobe's copies of the committers' ends */
	pid_t dead;		/* a committer that was killed or failed, or 0 */
	int dead_status;
	bool ctl_ready;

	/* Parking and waking the pairs: all under ctl. */
	pthread_mutex_t ctl;
	pthread_cond_t go;
	pthread_cond_t done;
	uint64_t generation;	/* one per slice */
	unsigned active;	/* pairs 0..active-1 run this slice */
	unsigned finished;	/* their sides that are done with it */
	bool quit;
	/* The slice, fixed before it starts. */
	uint64_t window_start;
	uint64_t deadline;	/* UINT64_MAX with -n */
	uint64_t quota;		/* UINT64_MAX for timed slices */
	atomic_uint_fast64_t counted;	/* commits counted, with -n */
	/* The first INT, TERM or HUP: the handler sets *stop (main thread);
	 * the main thread, waiting for a slice, passes it on as stopping, so
	 * that every client stops at its next commit; the slice it cut is not
	 * counted. */
	const volatile sig_atomic_t *stop;
	atomic_bool stopping;
	bool stopped;		/* a slice was cut by it */
	bool nothing;		/* ... before any cell was measured */
	/* The log's last write, when it was short: bytes written, of those
	 * asked (short_want 0: no short write). */
	size_t short_done, short_want;
};

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
static void
ctl_owner_dead(struct experiment *x, int rc)
{
	if (rc == EOWNERDEAD)
		pthread_mutex_consistent(&x->ctl);
}

static void
ctl_lock(struct experiment *x)
{
	ctl_owner_dead(x, pthread_mutex_lock(&x->ctl));
}

/* A transaction's CPU (--txn-work) is spent where the server and pgbench
 * spend theirs: a third before the commit record (the statement), a third
 * after the flush (the commit's end and the reply) and a third in the
 * client. All of it before the record, the returns a flush releases came
 * back sooner than the server's and a delay batched them as no server
 * does: on a disk slowed by 2 ms a flush, at 32 clients, the experiment
 * called d/4 and d/2 gains (+15%, +12%) where the server lost 12% and
 * 4.5 to 9% (bench/README, 2026-12-04, "Where the CPU goes"). */
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

	ctl_lock(x);
	while (!x->quit && !run) {
		if (x->generation == *gen) {
			ctl_owner_dead(x, pthread_cond_wait(&x->go, &x->ctl));
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
	ctl_lock(x);
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
static void *
client_main(void *arg)
{
	struct pair *pr = arg;
	uint64_t gen = 0;

	while (wait_for_slice(pr->x, pr->index, &gen)) {
		client_slice(pr);
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
	 * server kept shut (bench/README). */
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
static void __attribute__((noreturn))
committer_process(struct experiment *x, unsigned index, pid_t parent)
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
		committer_slice(pr);
		slice_done(x);
		if (pr->committer_error.op != NULL)
			break;
	}
	_exit(0);
}

/* rs->error as an I/O error of the experiment. */
static enum exit_status
group_fail(struct run_status *rs, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static enum exit_status
group_fail(struct run_status *rs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rs->error, sizeof rs->error, fmt, ap);
	va_end(ap);
	rs->failed = true;
	return STATUS_IO;
}

static int
open_pair(struct experiment *x, struct pair *pr, unsigned index, struct run_status *rs)
{
	uint64_t seed = random_seed();
	int sv[2];

	pr->x = x;
	pr->index = index;
	if ((pr->record = malloc(x->o->record_bytes)) == NULL) {
		group_fail(rs, "%s: out of memory", x->tf->file.path);
		return -1;
	}
	random_fill(pr->record, x->o->record_bytes, &seed);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1) {
		group_fail(rs, "socketpair: %s%s", strerror(errno),
		    errno == EMFILE || errno == ENFILE ? " (fewer --clients, or raise ulimit -n)" : "");
		return -1;
	}
	pr->client_fd = sv[0];
	pr->committer_fd = sv[1];
	return 0;
}

/* Fork the committers, each into the committers' process group, which
 * the signal cleanup kills should syncprobe die at once. 0, or -1 with
 * errno. */
static int
fork_committers(struct experiment *x)
{
	pid_t parent = getpid();
	unsigned i;

	for (i = 0; i < x->npairs; i++) {
		struct pair *pr = &x->pairs[i];
		pid_t pid = fork();

		if (pid == -1)
			return -1;
		if (pid == 0) {
			/* In both, whichever runs first: the group exists
			 * before anyone signals it. */
			setpgid(0, x->group ? x->group : 0);
			committer_process(x, i, parent);
		}
		setpgid(pid, x->group ? x->group : pid);
		if (x->group == 0) {
			x->group = pid;
			cleanup_register_group(pid);
		}
		pr->committer = pid;
		pr->committer_started = true;
	}
	/* Only the committers hold their ends now: a committer that ends
	 * closes its socket, and its client sees that. */
	for (i = 0; i < x->npairs; i++)
		close(x->pairs[i].committer_fd);
	x->ends_closed = true;
	return 0;
}

/* Start the committer processes, then the client threads (a fork after
 * threads exist copies only the forking one), with the cleanup signals
 * blocked: a signal lands on the main thread, which removes the test
 * file. */
static int
start_pairs(struct experiment *x, struct run_status *rs)
{
	pthread_attr_t attr;
	sigset_t old;
	size_t stack = GROUP_STACK_BYTES;
	unsigned i;
	int err = 0;

	if ((err = pthread_attr_init(&attr)) != 0) {
		group_fail(rs, "pthread_attr_init: %s", strerror(err));
		return -1;
	}
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	pthread_attr_setstacksize(&attr, stack);
	cleanup_block(&old);
	if (fork_committers(x) == -1) {
		err = errno;
		cleanup_unblock(&old);
		pthread_attr_destroy(&attr);
		group_fail(rs, "fork: %s (fewer --clients)", strerror(err));
		return -1;
	}
	for (i = 0; i < x->npairs && err == 0; i++)
		if ((err = pthread_create(&x->pairs[i].client, &attr, client_main,
		    &x->pairs[i])) == 0)
			x->pairs[i].client_started = true;
	cleanup_unblock(&old);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		group_fail(rs, "pthread_create: %s (fewer --clients)", strerror(err));
		return -1;
	}
	return 0;
}

/* Wait for committer pid, EINTR or not (ECHILD: reaped already). */
static void
reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
}

static void
stop_pairs(struct experiment *x)
{
	unsigned i;

	/* A committer that died may have left the others waiting for a
	 * flush that never comes, and their clients for a reply: end them
	 * all, so that every client sees its socket close. */
	if (x->dead != 0 && x->group != 0)
		kill(-x->group, SIGKILL);
	if (!x->ctl_ready)
		return;		/* nothing was started */
	ctl_lock(x);
	x->quit = true;
	pthread_cond_broadcast(&x->go);
	pthread_mutex_unlock(&x->ctl);
	for (i = 0; i < x->npairs; i++)
		if (x->pairs[i].client_started)
			pthread_join(x->pairs[i].client, NULL);
	for (i = 0; i < x->npairs; i++)
		if (x->pairs[i].committer_started && x->pairs[i].committer != x->dead)
			reap(x->pairs[i].committer);
	cleanup_forget_group();
}

/* Release what setup made, however far it got; a failing close of the
 * log file is an I/O error. */
static enum exit_status
teardown(struct experiment *x, struct run_status *rs, enum exit_status rc)
{
	unsigned i;

	stop_pairs(x);
	for (i = 0; i < x->npairs; i++) {
		struct pair *pr = &x->pairs[i];

		if (pr->client_fd >= 0)
			close(pr->client_fd);	/* sockets: nothing to lose */
		if (pr->committer_fd >= 0 && !x->ends_closed)
			close(pr->committer_fd);
		free(pr->record);
	}
	platform_shared_free(x->pairs, x->npairs * sizeof *x->pairs);
	/* After a committer died, a condition it waited on stays as it is:
	 * destroying it would wait for that waiter for ever. */
	if (x->log_ready)
		gc_log_destroy(&x->log, x->dead != 0);
	if (x->ctl_ready && x->dead == 0) {
		pthread_cond_destroy(&x->go);
		pthread_cond_destroy(&x->done);
		pthread_mutex_destroy(&x->ctl);
	}
	if (close(x->fd) == -1 && rc == STATUS_OK)
		rc = group_fail(rs, "close %s: %s", x->tf->file.path, strerror(errno));
	return rc;
}

/* The slice control, which the committer processes wait on too. 0, or an
 * error number. */
static int
init_control(struct experiment *x)
{
	int err;

	if ((err = platform_shared_mutex_init(&x->ctl, true)) != 0)
		return err;
	if ((err = platform_shared_cond_init(&x->go)) != 0) {
		pthread_mutex_destroy(&x->ctl);
		return err;
	}
	if ((err = platform_shared_cond_init(&x->done)) != 0) {
		pthread_cond_destroy(&x->go);
		pthread_mutex_destroy(&x->ctl);
		return err;
	}
	x->ctl_ready = true;
	return 0;
}

static enum exit_status
setup(struct experiment *x, struct run_status *rs)
{
	const struct options *o = x->o;
	const char *what;
	unsigned i, most = o->clients[o->nclients - 1];
	struct gc_io io = { log_write, log_sync, log_sleep, x };
	uint64_t file = x->tf->bytes - x->tf->bytes % o->block_bytes;
	int err;

	/* Buffered, as the server writes its WAL and as the advice's basis
	 * row is; direct when that row is (--direct=on measured no buffered
	 * one), so that d and the flushes swept around it are of one kind. */
	x->fd = safefile_reopen(&x->tf->file, method_open_flags(x->method), x->direct, &what);
	if (x->fd == SAFEFILE_REPLACED) {
		x->fd = -1;
		return group_fail(rs, "%s %s: %s", what, x->tf->file.path, TESTFILE_REPLACED_WHY);
	}
	if (x->fd == -1)
		return group_fail(rs, "%s %s: %s", what, x->tf->file.path, strerror(errno));
	if ((err = init_control(x)) != 0) {
		group_fail(rs, "%s: %s", x->tf->file.path, strerror(err));
		return teardown(x, rs, STATUS_IO);
	}
	atomic_init(&x->counted, 0);
	atomic_init(&x->stopping, false);
	if ((x->pairs = platform_shared_alloc(most * sizeof *x->pairs)) == NULL) {
		group_fail(rs, "%s: out of memory", x->tf->file.path);
		return teardown(x, rs, STATUS_IO);
	}
	x->npairs = most;
	for (i = 0; i < most; i++)
		x->pairs[i].client_fd = x->pairs[i].committer_fd = -1;
	if (gc_log_init(&x->log, o->block_bytes,
	    gc_ring_pages(o->block_bytes, o->record_bytes, most), file, &io) == -1) {
		group_fail(rs, "%s: %s", x->tf->file.path, strerror(errno));
		return teardown(x, rs, STATUS_IO);
	}
	x->log_ready = true;
	for (i = 0; i < most; i++)
		if (open_pair(x, &x->pairs[i], i, rs) == -1)
			return teardown(x, rs, STATUS_IO);
	if (start_pairs(x, rs) == -1)
		return teardown(x, rs, STATUS_IO);
	return STATUS_OK;
}

static void
reset_pair(struct pair *pr)
{
	stats_init(&pr->latency);
	pr->commits = pr->flushes = pr->delayed = pr->flush_ns = pr->last_end = 0;
}

/* Add the pairs' counts to cell (and its slice k, if any). */
static void
collect(struct experiment *x, unsigned clients, const struct slice_plan *plan,
    struct group_cell *cell, unsigned k)
{
	uint64_t commits = 0, flushes = 0, last_end = 0, ns;
	unsigned i;

	for (i = 0; i < clients; i++) {
		const struct pair *pr = &x->pairs[i];

		stats_merge(&cell->latency, &pr->latency);
		commits += pr->commits;
		flushes += pr->flushes;
		cell->delayed += pr->delayed;
		cell->flush_ns += pr->flush_ns;
		if (pr->last_end > last_end)
			last_end = pr->last_end;
	}
	if (plan->ns != 0)
		ns = plan->ns;
	else
		ns = last_end > x->window_start ? last_end - x->window_start : 0;
	cell->commits += commits;
	cell->flushes += flushes;
	cell->elapsed_ns += ns;
	if (k < cell->nslices) {
		cell->slices[k].commits = commits;
		cell->slices[k].flushes = flushes;
		cell->slices[k].ns = ns;
	}
}

/* What stopped a slice: the log's write or sync, or a pair. */
static enum exit_status
slice_status(struct experiment *x, unsigned clients, struct run_status *rs)
{
	struct gc_state st;
	unsigned i;

	if (x->dead != 0) {
		if (WIFSIGNALED(x->dead_status))
			return group_fail(rs, "%s: a committer process was killed by signal %d",
			    plan_group_name(GROUP_GROUP), WTERMSIG(x->dead_status));
		return group_fail(rs, "%s: a committer process ended (status %d)",
		    plan_group_name(GROUP_GROUP), WIFEXITED(x->dead_status) ?
		    WEXITSTATUS(x->dead_status) : -1);
	}
	gc_state(&x->log, &st);
	if (st.failed && !st.failed_in_sync && x->short_want != 0)
		return group_fail(rs, "pwrite %s: short write (%zu of %zu bytes)", x->tf->file.path,
		    x->short_done, x->short_want);
	if (st.failed)
		return group_fail(rs, "%s %s: %s",
		    st.failed_in_sync ? method_sync_op(x->method) : "pwrite", x->tf->file.path,
		    strerror(st.failed_errno));
	for (i = 0; i < clients; i++) {
		const struct pair_error *e = x->pairs[i].committer_error.op ?
		    &x->pairs[i].committer_error : &x->pairs[i].client_error;

		if (e->op != NULL)
			return group_fail(rs, "%s: %s: %s", plan_group_name(GROUP_GROUP),
			    e->op, strerror(e->err));
	}
	return STATUS_OK;
}

/* A committer that ended on its own (a crash, a kill) never finishes its
 * slice: noticed here, between waits, with one call for the whole group. */
static void
find_dead_committer(struct experiment *x)
{
	int st;
	pid_t pid;

	if (x->dead != 0 || x->group == 0)
		return;
	while ((pid = waitpid(-x->group, &st, WNOHANG)) == -1 && errno == EINTR)
		;
	/* One that ended well stopped at a socket error or a full log,
	 * after finishing its slice: its pair says why. */
	if (pid > 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		x->dead = pid;
		x->dead_status = st;
	}
}

/* Wait (ctl held) until a pair's thread is done with the slice, or a
 * while: a signal does not wake a condition wait, so the flag the handler
 * set is looked at every STOP_POLL_NS and passed on to the clients. */
static void
wait_for_pairs(struct experiment *x)
{
	struct timespec until;
	uint64_t ns;
	int rc;

	if (*x->stop != 0)
		atomic_store_explicit(&x->stopping, true, memory_order_relaxed);
	clock_gettime(CLOCK_REALTIME, &until);
	ns = (uint64_t)until.tv_nsec + STOP_POLL_NS;
	until.tv_sec += (time_t)(ns / NSEC_PER_SEC);
	until.tv_nsec = (long)(ns % NSEC_PER_SEC);
	rc = pthread_cond_timedwait(&x->done, &x->ctl, &until);
	ctl_owner_dead(x, rc);
	if (rc == ETIMEDOUT)
		find_dead_committer(x);
}

/* One slice of one cell: C pairs, the delay, the plan's window. */
static enum exit_status
run_slice(struct experiment *x, unsigned clients, long delay_usecs,
    const struct slice_plan *plan, struct group_cell *cell, unsigned k,
    struct run_status *rs)
{
	unsigned i;
	uint64_t now;

	gc_log_set(&x->log, (uint64_t)delay_usecs * NSEC_PER_USEC, x->o->commit_siblings);
	for (i = 0; i < clients; i++)
		reset_pair(&x->pairs[i]);
	now = platform_now_ns();
	ctl_lock(x);
	x->window_start = now + plan->warm_ns;
	x->deadline = plan->ns ? x->window_start + plan->ns : UINT64_MAX;
	x->quota = plan->ns ? UINT64_MAX : plan->ops;
	atomic_store_explicit(&x->counted, 0, memory_order_relaxed);
	x->active = clients;
	x->finished = 0;
	x->generation++;
	pthread_cond_broadcast(&x->go);
	while (x->finished < 2 * clients && x->dead == 0)
		wait_for_pairs(x);
	pthread_mutex_unlock(&x->ctl);
	/* A slice a stop signal may have cut is not a whole window: left out. */
	if (atomic_load_explicit(&x->stopping, memory_order_relaxed))
		x->stopped = true;
	else
		collect(x, clients, plan, cell, k);
	return slice_status(x, clients, rs);
}

/* Round r's share of the time or of -n's operations, as run.c slices a
 * row; the warm-up lets every client's requests start flowing and covers
 * two delays and flushes. */
/* A cell's time: -s's, or without -s (adaptive rows, which a cell is
 * not) half a second, in --rounds slices; 24 cells at the defaults. */
static uint64_t
cell_ns(const struct options *o)
{
	return o->test_ns ? o->test_ns : GROUP_DEFAULT_CELL_NS;
}

static void
plan_slice(const struct options *o, unsigned r, long delay_usecs, double d_usecs,
    struct slice_plan *plan)
{
	double cycle_ns = 2.0 * ((double)delay_usecs + d_usecs) * (double)NSEC_PER_USEC;

	plan->warm_ns = GROUP_WARMUP_NS + (uint64_t)cycle_ns;
	plan->ns = o->ops_per_test ? 0 : cell_ns(o) / o->rounds;
	plan->ops = o->ops_per_test / o->rounds + (r < o->ops_per_test % o->rounds ? 1 : 0);
	if (o->ops_per_test && plan->ops == 0)
		plan->ops = 1;
}

/* d: the mean write + sync of a flush at one committer, delay 0, and the
 * number of flushes it rests on. */
static enum exit_status
measure_flush(struct experiment *x, double *d_usecs, uint64_t *count,
    struct run_status *rs)
{
	struct group_cell *one = calloc(1, sizeof *one);
	struct slice_plan plan;
	enum exit_status rc;

	if (one == NULL)
		return group_fail(rs, "%s: out of memory", x->tf->file.path);
	stats_init(&one->latency);
	plan_slice(x->o, 0, 0, 0.0, &plan);
	rc = run_slice(x, 1, 0, &plan, one, 0, rs);
	*count = one->flushes;
	*d_usecs = one->flushes ?
	    row_usecs(round((double)one->flush_ns / (double)one->flushes)) : 0.0;
	free(one);
	return rc;
}

/* The delays to sweep: --commit-delays with 0 added, or 0 and the grid's
 * values nearest d/8 to 2d; ascending, no repeats. */
static size_t
sweep_delays(const struct options *o, double d_usecs, long *out)
{
	size_t i, n = 0;

	out[n++] = 0;
	if (o->ndelays > 0) {
		for (i = 0; i < o->ndelays; i++)
			if (o->commit_delays[i] != 0)
				out[n++] = o->commit_delays[i];
		return n;
	}
	return n + delay_grid_sweep(d_usecs, sweep_factors,
	    sizeof sweep_factors / sizeof sweep_factors[0], out + n);
}

static void
show_progress(struct progress *p, const char *target, const struct options *o,
    const struct group_cell *c, size_t left, size_t ncells)
{
	struct progress_line l;
	char label[80];

	snprintf(label, sizeof label, "%u clients, commit_delay %ld us",
	    c->clients, c->delay_usecs);
	memset(&l, 0, sizeof l);
	l.target = target;
	l.group = plan_group_name(GROUP_GROUP);
	l.group_no = l.ngroups = 1;
	l.row = label;
	l.nrows = ncells;
	l.row_no = ncells - left % ncells;
	l.secs_left = o->ops_per_test ? -1.0 : row_secs(left * (cell_ns(o) / o->rounds));
	progress_show(p, &l);
}

/* Every cell, round after round, so that drift lands on all of them. A
 * stop signal ends the sweep at the slice it cut: the cells keep the
 * rounds they completed (group_result_cut). */
static enum exit_status
sweep(struct experiment *x, struct group_result *g, struct run_status *rs,
    struct progress *p)
{
	size_t ci, di, left = (size_t)x->o->rounds * g->nclients * g->ndelays;
	struct slice_plan plan;
	enum exit_status rc = STATUS_OK;
	unsigned r;

	for (r = 0; r < x->o->rounds; r++)
		for (ci = 0; ci < g->nclients; ci++)
			for (di = 0; di < g->ndelays; di++) {
				struct group_cell *c = group_cell_at(g, ci, di);

				show_progress(p, x->path, x->o, c, left--,
				    g->nclients * g->ndelays);
				plan_slice(x->o, r, c->delay_usecs, g->basis_usecs, &plan);
				rc = run_slice(x, c->clients, c->delay_usecs, &plan, c, r, rs);
				if (rc != STATUS_OK)
					return rc;
				if (x->stopped) {
					if (!group_result_cut(g, r, ci * g->ndelays + di))
						x->nothing = true;
					return STATUS_OK;
				}
			}
	return rc;
}

/* Deciding a delay at client count ci: it and 0 run --decide more paired
 * rounds, back to back, 0 first in every other pair so that a drift the
 * pair shares cancels in its ratio, each pair into the same new slice of
 * both (group_compare pairs slice k with slice k). Only whole pairs count. */
static enum exit_status
decide_cell(struct experiment *x, struct group_result *g, size_t ci, size_t di,
    struct run_status *rs, struct progress *p)
{
	struct group_cell *pair[2] = { group_cell_at(g, ci, 0), group_cell_at(g, ci, di) };
	struct slice_plan plan;
	enum exit_status rc;
	unsigned k, idx, i;

	for (k = 0; k < x->o->decide; k++) {
		idx = pair[0]->nslices;
		pair[0]->nslices = pair[1]->nslices = idx + 1;
		for (i = 0; i < 2; i++) {
			struct group_cell *c = pair[(i + k) % 2];

			show_progress(p, x->path, x->o, c, 2 * (x->o->decide - k) - i,
			    g->nclients * g->ndelays);
			plan_slice(x->o, idx, c->delay_usecs, g->basis_usecs, &plan);
			rc = run_slice(x, c->clients, c->delay_usecs, &plan, c, idx, rs);
			if (rc != STATUS_OK || x->stopped) {
				pair[0]->nslices = pair[1]->nslices = idx;
				return rc;
			}
		}
		pair[0]->decided++;
		pair[1]->decided++;
	}
	return STATUS_OK;
}

/* Deciding, before anything becomes the advice: each delay that leads 0
 * at some client count after the rounds, at that count and at every
 * higher one where it sleeps (the advice takes a delay only where it
 * loses at no higher count). A few short rounds called gains the server
 * did not have, and flipped between runs (a delay "better" by 9% in one
 * run, "same" in the next); judged over more, a leader by chance falls
 * back, and a loss at more clients shows. Then the figures and verdicts
 * are derived again, over every round. */
static enum exit_status
decide(struct experiment *x, struct group_result *g, struct run_status *rs,
    struct progress *p)
{
	bool want[UNITS_MAX_LIST][GROUP_MAX_DELAYS];
	enum exit_status rc = STATUS_OK;
	size_t ci, cj, di;

	if (x->o->decide == 0 || g->cut_short)
		return STATUS_OK;
	memset(want, 0, sizeof want);
	group_result_finish(g);
	for (ci = 0; ci < g->nclients; ci++)
		if ((di = group_leader(g, ci)) != 0)
			for (cj = ci; cj < g->nclients; cj++)
				want[cj][di] |= !group_cell_never_slept(group_cell_at(g, cj, di));
	for (ci = 0; ci < g->nclients && rc == STATUS_OK && !x->stopped; ci++)
		for (di = 1; di < g->ndelays && rc == STATUS_OK && !x->stopped; di++)
			if (want[ci][di])
				rc = decide_cell(x, g, ci, di, rs, p);
	return rc;
}

uint64_t
group_file_bytes(const struct options *o)
{
	unsigned most = o->nclients ? o->clients[o->nclients - 1] : 1;

	return gc_ring_pages(o->block_bytes, o->record_bytes, most) * o->block_bytes;
}

enum exit_status
group_run(const struct options *o, const struct group_basis *basis, const struct testfile *tf,
    struct progress *p, struct run_status *rs, struct group_result **out)
{
	struct experiment *x = platform_shared_alloc(sizeof *x);
	struct group_result *g = NULL;
	long delays[GROUP_MAX_DELAYS];
	double flush_usecs = 0.0, row_usecs;
	uint64_t flushes = 0;
	enum exit_status rc;
	bool stopped, nothing;

	if (x == NULL) {
		group_fail(rs, "%s: %s", tf->file.path, strerror(errno));
		return STATUS_IO;
	}
	x->o = o;
	x->tf = tf;
	x->stop = cleanup_stop_flag();
	x->path = basis->path;
	x->method = basis->method;
	x->direct = basis->direct;
	row_usecs = basis->row_usecs;
	if ((rc = setup(x, rs)) != STATUS_OK) {
		platform_shared_free(x, sizeof *x);
		return rc;
	}
	rc = measure_flush(x, &flush_usecs, &flushes, rs);
	if (rc == STATUS_OK && !x->stopped) {
		double d = row_usecs > 0.0 ? row_usecs : flush_usecs;

		g = group_result_new(o->clients, o->nclients, delays,
		    sweep_delays(o, d, delays), o->rounds, o->decide * o->nclients);
		if (g == NULL) {
			rc = group_fail(rs, "%s: out of memory", tf->file.path);
		} else {
			g->flush_usecs = flush_usecs;
			g->basis_usecs = d;
			g->basis_is_row = row_usecs > 0.0;
		}
	}
	if (rc == STATUS_OK && !x->stopped)
		rc = sweep(x, g, rs, p);
	if (rc == STATUS_OK && !x->stopped)
		rc = decide(x, g, rs, p);
	rc = teardown(x, rs, rc);
	stopped = x->stopped;
	nothing = x->nothing;
	platform_shared_free(x, sizeof *x);
	if (stopped)
		rs->interrupted = true;
	/* Stopped before d, or before the first cell: nothing to report. */
	if (rc != STATUS_OK || (stopped && (g == NULL || nothing))) {
		group_result_free(g);
		return rc;
	}
	g->method = basis->method;
	g->direct = basis->direct;
	g->page_bytes = o->block_bytes;
	g->record_bytes = o->record_bytes;
	g->txn_work_ns = o->txn_work_ns;
	g->siblings = o->commit_siblings;
	g->decide = o->decide;
	g->flush_count = flushes;
	g->delays_given = o->ndelays > 0;
	group_result_finish(g);
	*out = g;
	return STATUS_OK;
}
