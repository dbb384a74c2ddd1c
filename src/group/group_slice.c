/* group_slice.c: the group-commit experiment's machinery: its pairs of a
 * committer process and a client thread made, started and stopped, and
 * one slice run over them: woken, waited for, counted into a cell. The
 * pairs are made once, for the largest client count, and parked between
 * slices; a slice wakes the first C pairs. */
#include "config.h"

#include "group/group_slice.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/plan.h"
#include "util/cleanup.h"
#include "util/platform.h"
#include "util/random.h"

/* How often the main thread looks for a stop signal while a slice runs. */
#define STOP_POLL_NS 10000000ULL	/* 10 ms */

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
	if (gc_member_init(&pr->me) == -1) {
		group_fail(rs, "sem_init: %s", strerror(errno));
		return -1;
	}
	pr->member_ready = true;
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
			group_pair_committer_process(x, i, parent);
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
		if ((err = pthread_create(&x->pairs[i].client, &attr, group_pair_client_main,
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
	group_pair_ctl_lock(x);
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
enum exit_status
group_slice_teardown(struct experiment *x, struct run_status *rs, enum exit_status rc)
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
		/* As the log's lock: one a killed committer waited on or
		 * posted is left as it is. */
		if (pr->member_ready && x->dead == 0)
			gc_member_destroy(&pr->me);
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

enum exit_status
group_slice_setup(struct experiment *x, struct run_status *rs)
{
	const struct options *o = x->o;
	const char *what;
	unsigned i, most = o->clients[o->nclients - 1];
	struct gc_io io;
	uint64_t file = x->tf->bytes - x->tf->bytes % o->block_bytes;
	int err;

	group_pair_log_io(x, &io);
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
		return group_slice_teardown(x, rs, STATUS_IO);
	}
	atomic_init(&x->counted, 0);
	atomic_init(&x->stopping, false);
	if ((x->pairs = platform_shared_alloc(most * sizeof *x->pairs)) == NULL) {
		group_fail(rs, "%s: out of memory", x->tf->file.path);
		return group_slice_teardown(x, rs, STATUS_IO);
	}
	x->npairs = most;
	for (i = 0; i < most; i++)
		x->pairs[i].client_fd = x->pairs[i].committer_fd = -1;
	if (gc_log_init(&x->log, o->block_bytes,
	    gc_ring_pages(o->block_bytes, o->record_bytes, most), file, &io) == -1) {
		group_fail(rs, "%s: %s", x->tf->file.path, strerror(errno));
		return group_slice_teardown(x, rs, STATUS_IO);
	}
	x->log_ready = true;
	for (i = 0; i < most; i++)
		if (open_pair(x, &x->pairs[i], i, rs) == -1)
			return group_slice_teardown(x, rs, STATUS_IO);
	if (start_pairs(x, rs) == -1)
		return group_slice_teardown(x, rs, STATUS_IO);
	return STATUS_OK;
}

static void
reset_pair(struct pair *pr)
{
	stats_init(&pr->latency);
	pr->commits = pr->flushes = pr->delayed = pr->flush_ns = pr->last_end = 0;
	pr->done = pr->client_cpu_ns = pr->committer_cpu_ns = 0;
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
		cell->cpu_ns += pr->client_cpu_ns + pr->committer_cpu_ns;
		cell->cpu_commits += pr->done;
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
	group_pair_ctl_owner_dead(x, rc);
	if (rc == ETIMEDOUT)
		find_dead_committer(x);
}

/* One slice of one cell: C pairs, the delay, the plan's window. */
enum exit_status
group_slice_run(struct experiment *x, unsigned clients, long delay_usecs,
    const struct slice_plan *plan, struct group_cell *cell, unsigned k,
    struct run_status *rs)
{
	unsigned i;
	uint64_t now;

	gc_log_set(&x->log, (uint64_t)delay_usecs * NSEC_PER_USEC, x->o->commit_siblings);
	for (i = 0; i < clients; i++)
		reset_pair(&x->pairs[i]);
	now = platform_now_ns();
	group_pair_ctl_lock(x);
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
