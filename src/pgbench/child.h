/* child.h: one other program run as a child process, the way syncprobe
 * pgbench runs PostgreSQL's: fork and execve with an explicit argv (never a
 * shell), in a process group of its own, as another user when asked, its
 * standard output kept (bounded: more is an error) and the end of its
 * standard error kept for the message. A child that outlives its time, or
 * one running when a signal asks syncprobe to stop, is killed with its
 * whole process group. */
#ifndef SYNCPROBE_PGBENCH_CHILD_H
#define SYNCPROBE_PGBENCH_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CHILD_ERR_TAIL 400	/* bytes of stderr kept for a message */
#define CHILD_WHY_LEN  (CHILD_ERR_TAIL * 4 + 256)

/* Whom the child runs as: set (root running the server as --pg-user), or
 * the caller. */
struct child_user {
	bool set;
	uid_t uid;
	gid_t gid;
	const char *name;
};

/* A floor under the free space of the filesystem holding dirfd: a child
 * that takes it below is killed (a run must not fill the disk that a
 * server beside it writes to). */
struct child_space {
	int dirfd;
	uint64_t floor_bytes;
};

/* A child ends with its work, its time limit, or the first stop signal. */
struct child_spec {
	const char *const *argv;	/* argv[0]: the program's path */
	const char *const *env;		/* "NAME=value" set on top, or NULL */
	const struct child_user *user;
	const char *cwd;		/* where it runs */
	uint64_t timeout_ns;
	size_t out_max;			/* more standard output is an error */
	const struct child_space *space;	/* or NULL: no floor */
};

struct child_result {
	char *out;		/* its standard output, NUL-terminated */
	size_t out_len;
	char err[CHILD_ERR_TAIL + 1];	/* the end of its standard error */
	bool stopped;		/* killed because a signal asked us to stop */
	int exit_status;	/* its exit status when it exited, else -1 */
	/* Why it failed, with the end of stderr, escaped: "exited with
	 * status 1: initdb: error: ...". */
	char why[CHILD_WHY_LEN];
};

/* Run it and wait. 0 when it exited with status 0; -1 otherwise (could
 * not start, exited non-zero, died of a signal, ran out of time, printed
 * more than out_max, or stopped) with r->why set. Free r with
 * child_result_free either way. */
int child_run(const struct child_spec *s, struct child_result *r);
void child_result_free(struct child_result *r);

/* Start it and return: standard input /dev/null, standard output and
 * error to out_fd, in a process group of its own (a terminal's Ctrl-C
 * goes to syncprobe, which decides), as the user, in cwd (timeout_ns,
 * out_max and space are not used). Its pid is the one syncprobe signals:
 * it stays this child's until child_reap, whatever any file says. 0 with
 * *pid, or -1 with why (the exec's own failure included). */
int child_spawn(const struct child_spec *s, int out_fd, pid_t *pid, char *why, size_t len);

/* Whether the child pid has ended, without reaping it (its pid, and its
 * process group, stay syncprobe's to signal until it is reaped). */
bool child_has_ended(pid_t pid);

/* Kill what the ended child pid left in its process group, reap it, and
 * return its wait status. */
int child_reap(pid_t pid);

/* Whether user can read, write and enter path (every directory above it
 * searchable for it): asked in a child that has become that user. */
bool child_user_can_enter(const struct child_user *user, const char *path);

/* Whether user can run the program at path (every directory above it
 * searchable for it, the file executable for it). */
bool child_user_can_run(const struct child_user *user, const char *path);

#endif
