/* group_pair.h: the group-commit experiment's state, in memory the
 * committer processes share, and what each pair of a committer and its
 * client does in a slice (group_pair.c). Each committer is a process, as
 * each of the server's backends is, and the clients are threads of
 * syncprobe, as pgbench's are with -j: every round trip then switches
 * address spaces as the server's does. With committer threads the
 * experiment put twice the server's commits in a flush at 32 clients, ran
 * 1.6 times its commits/s and called a delay a gain at 8 clients on a
 * slowed disk where the server measured none (bench/pgbench_delay.sh,
 * 2026-12-04; bench/README's history).
 * The log, the slice control and the pairs' counts live in memory the
 * processes share. */
#ifndef SYNCPROBE_GROUP_PAIR_H
#define SYNCPROBE_GROUP_PAIR_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "group/group_commit.h"
#include "probe/method.h"
#include "probe/options.h"
#include "probe/run.h"
#include "probe/testfile.h"
#include "util/stats.h"
#include "util/status.h"

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
	bool member_ready;	/* me's semaphore made */
	unsigned char *record;
	uint64_t counter;	/* stamped into each record: no two alike */
	/* Counted by the committer in the current slice, read after it. */
	struct stats latency;
	uint64_t commits;
	uint64_t flushes;
	uint64_t delayed;
	uint64_t flush_ns;
	uint64_t last_end;
	/* The slice's commits, counted or not, and the CPU time each side
	 * spent in it, on its own thread's clock. */
	uint64_t done;
	uint64_t client_cpu_ns;
	uint64_t committer_cpu_ns;
	/* What stopped each side of the pair, if anything did: a socket
	 * call that failed, or an append that found no room. */
	struct pair_error {
		const char *op;
		int err;
	} client_error, committer_error;
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

/* The log's writes, syncs and sleeps (group_commit.h) on x's file. */
void group_pair_log_io(struct experiment *x, struct gc_io *io);

/* The slice control's mutex, taken; and what to do when a lock or wait on
 * it says its owner died. */
void group_pair_ctl_lock(struct experiment *x);
void group_pair_ctl_owner_dead(struct experiment *x, int rc);

/* A client thread (arg: its struct pair): its part of every slice it is
 * woken for, until the experiment is over. */
void *group_pair_client_main(void *arg);

/* Committer index's process, from fork to _exit (parent: syncprobe). */
void group_pair_committer_process(struct experiment *x, unsigned index, pid_t parent)
    __attribute__((noreturn));

/* rs->error as an I/O error of the experiment: STATUS_IO. */
enum exit_status group_fail(struct run_status *rs, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
