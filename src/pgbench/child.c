/* child.c: fork and execve with an explicit argv, pipes for standard
 * output and error read with poll until the child is gone, a deadline,
 * and the whole process group killed on the way out, so that nothing the
 * child started in it outlives it. */
#include "config.h"

#include "pgbench/child.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/escape.h"
#include "util/platform.h"
#include "util/space.h"
#include "util/units.h"

#define CHILD_POLL_MS      100	/* how soon a stop signal is seen */
#define CHILD_ENDING_MS    2	/* how soon the end of a child that closed its pipes is */
#define CHILD_KILL_GRACE_NS 2000000000ULL	/* SIGTERM, then SIGKILL after this */
#define CHILD_MAX_ENV      256

extern char **environ;

/* Whether the caller's variable NAME=... is kept: the PG* ones could point
 * pgbench or psql at another server (PGHOST, PGPORT, PGSERVICE...), and the
 * locale would translate the output this parses. */
static bool
env_kept(const char *v)
{
	return strncmp(v, "PG", 2) != 0 && strncmp(v, "LC_", 3) != 0 &&
	    strncmp(v, "LANG=", 5) != 0 && strncmp(v, "LANGUAGE=", 9) != 0 &&
	    strncmp(v, "HOME=", 5) != 0;
}

/* The child's environment: the caller's kept variables, LC_ALL=C, HOME
 * (the work directory: as another user, root's is not theirs), then the
 * spec's own. */
static size_t
build_env(const struct child_spec *s, char *home, size_t homelen, const char **env)
{
	size_t n = 0, i;

	for (i = 0; environ[i] != NULL && n < CHILD_MAX_ENV - 16; i++)
		if (env_kept(environ[i]))
			env[n++] = environ[i];
	env[n++] = "LC_ALL=C";
	snprintf(home, homelen, "HOME=%s", s->cwd);
	env[n++] = home;
	for (i = 0; s->env != NULL && s->env[i] != NULL && n < CHILD_MAX_ENV - 1; i++)
		env[n++] = s->env[i];
	env[n] = NULL;
	return n;
}

/* Become the user: groups first, while still allowed to set them. */
static int
become(const struct child_user *u)
{
	if (u == NULL || !u->set)
		return 0;
	if (initgroups(u->name, u->gid) == -1 || setgid(u->gid) == -1 ||
	    setuid(u->uid) == -1)
		return -1;
	return 0;
}

/* In the child: a process group of its own (a terminal's Ctrl-C goes to
 * syncprobe, which decides), default signals, the pipes, then exec. On
 * failure, errno goes up the status pipe. */
static _Noreturn void
exec_child(const struct child_spec *s, const char **env, int out, int err, int status)
{
	sigset_t none;
	int devnull, e;

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The signals syncprobe stops it with reach it, even where syncprobe
	 * itself was started with them ignored (a shell's background job
	 * ignores SIGINT and SIGQUIT): a program may keep an ignored signal
	 * ignored, and a shell must. */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull == -1 || dup2(devnull, 0) == -1 || dup2(out, 1) == -1 ||
	    dup2(err, 2) == -1 || become(s->user) == -1 || chdir(s->cwd) == -1)
		goto fail;
	execve(s->argv[0], (char *const *)s->argv, (char *const *)env);
fail:
	e = errno;
	(void)!write(status, &e, sizeof e);
	_exit(127);
}

/* Keep the end of stderr: the last CHILD_ERR_TAIL bytes. */
static void
keep_tail(struct child_result *r, const char *buf, size_t n)
{
	size_t have = strlen(r->err);

	if (n >= CHILD_ERR_TAIL) {
		memcpy(r->err, buf + n - CHILD_ERR_TAIL, CHILD_ERR_TAIL);
		r->err[CHILD_ERR_TAIL] = '\0';
		return;
	}
	if (have + n > CHILD_ERR_TAIL) {
		memmove(r->err, r->err + (have + n - CHILD_ERR_TAIL), CHILD_ERR_TAIL - n);
		have = CHILD_ERR_TAIL - n;
	}
	memcpy(r->err + have, buf, n);
	r->err[have + n] = '\0';
}

enum got { GOT_DATA, GOT_NOTHING, GOT_END };

/* Read what is there: GOT_END at end of file or error. too_much is set
 * when stdout passed its bound (what follows is read and dropped). */
static enum got
drain(int fd, bool is_out, const struct child_spec *s, struct child_result *r,
    bool *too_much)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf);

	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return GOT_NOTHING;
	if (n <= 0)
		return GOT_END;
	if (!is_out)
		keep_tail(r, buf, (size_t)n);
	else if (r->out_len + (size_t)n > s->out_max)
		*too_much = true;
	else {
		memcpy(r->out + r->out_len, buf, (size_t)n);
		r->out_len += (size_t)n;
		r->out[r->out_len] = '\0';
	}
	return GOT_DATA;
}

/* What an ended child left in a pipe, up to what is there now. */
static void
drain_rest(int fd, bool open, bool is_out, const struct child_spec *s,
    struct child_result *r, bool *too_much)
{
	while (open && drain(fd, is_out, s, r, too_much) == GOT_DATA)
		;
}

/* Whether the child's filesystem has fallen under its floor. */
static bool
under_floor(const struct child_spec *s)
{
	uint64_t avail, total;

	return s->space != NULL &&
	    space_available(s->space->dirfd, &avail, &total) == 0 &&
	    avail < s->space->floor_bytes;
}

bool
child_has_ended(pid_t pid)
{
	siginfo_t info;

	memset(&info, 0, sizeof info);
	if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == -1)
		return errno != EINTR;
	return info.si_pid == pid;
}

enum ending { ENDED, TIMED_OUT, TOO_MUCH, STOPPED, NO_SPACE };

/* Read until the child ends, its time is up, it prints too much, or a
 * signal asks us to stop; then kill what is left of its group. */
static enum ending
watch(pid_t pid, int out, int err, const struct child_spec *s, struct child_result *r)
{
	uint64_t deadline = platform_now_ns() + s->timeout_ns, killed_at = 0;
	enum ending how = ENDED;
	bool out_open = true, err_open = true, too_much = false;

	for (;;) {
		struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };

		if (!out_open)
			p[0].fd = -1;
		if (!err_open)
			p[1].fd = -1;
		/* Both pipes closed: it is ending, look again soon. */
		if (poll(p, 2, out_open || err_open ? CHILD_POLL_MS : CHILD_ENDING_MS) > 0) {
			if (p[0].revents && drain(out, true, s, r, &too_much) == GOT_END)
				out_open = false;
			if (p[1].revents && drain(err, false, s, r, &too_much) == GOT_END)
				err_open = false;
		}
		if (child_has_ended(pid)) {
			/* Not waiting for an end of file: something it left
			 * behind may hold the pipes open. */
			drain_rest(out, out_open, true, s, r, &too_much);
			drain_rest(err, err_open, false, s, r, &too_much);
			if (too_much && how == ENDED)
				how = TOO_MUCH;
			break;
		}
		if (killed_at == 0) {
			if (too_much)
				how = TOO_MUCH;
			else if (cleanup_stop_signal() != 0)
				how = STOPPED;
			else if (platform_now_ns() > deadline)
				how = TIMED_OUT;
			else if (under_floor(s))
				how = NO_SPACE;
			if (how != ENDED) {
				kill(-pid, SIGTERM);
				killed_at = platform_now_ns();
			}
		} else if (platform_now_ns() - killed_at > CHILD_KILL_GRACE_NS)
			kill(-pid, SIGKILL);
	}
	/* What it left running in its group goes with it. */
	kill(-pid, SIGKILL);
	return how;
}

static void
explain(struct child_result *r, const char *what)
{
	char tail[ESCAPE_LEN(CHILD_ERR_TAIL)];
	size_t n = strlen(r->err);

	while (n > 0 && (r->err[n - 1] == '\n' || r->err[n - 1] == ' '))
		r->err[--n] = '\0';
	escape_for_terminal(r->err, tail, sizeof tail);
	if (n > 0)
		snprintf(r->why, sizeof r->why, "%s: %s", what, tail);
	else
		snprintf(r->why, sizeof r->why, "%s", what);
}

static int
finish(pid_t pid, enum ending how, int start_errno, const struct child_spec *s,
    struct child_result *r)
{
	char what[160], floor[32];
	int st = 0;

	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	if (start_errno != 0) {
		snprintf(what, sizeof what, "could not run it: %s", strerror(start_errno));
		explain(r, what);
		return -1;
	}
	switch (how) {
	case TIMED_OUT:
		snprintf(what, sizeof what, "no end after %.0f s: killed",
		    (double)s->timeout_ns / (double)NSEC_PER_SEC);
		break;
	case TOO_MUCH:
		snprintf(what, sizeof what, "printed more than %zu bytes: killed", s->out_max);
		break;
	case STOPPED:
		r->stopped = true;
		snprintf(what, sizeof what, "stopped by %s",
		    cleanup_signal_name(cleanup_stop_signal()));
		break;
	case NO_SPACE:
		space_format(s->space->floor_bytes, floor, sizeof floor);
		snprintf(what, sizeof what, "killed: the free space of its filesystem fell "
		    "under %s, which syncprobe keeps free", floor);
		break;
	case ENDED:
		if (WIFEXITED(st))
			r->exit_status = WEXITSTATUS(st);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			return 0;
		if (WIFEXITED(st))
			snprintf(what, sizeof what, "exited with status %d", WEXITSTATUS(st));
		else
			snprintf(what, sizeof what, "died of signal %d",
			    WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		break;
	}
	explain(r, what);
	return -1;
}

int
child_run(const struct child_spec *s, struct child_result *r)
{
	const char *env[CHILD_MAX_ENV];
	char home[4200];
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, status[2] = { -1, -1 };
	int start_errno = 0;
	enum ending how;
	pid_t pid;

	memset(r, 0, sizeof *r);
	r->exit_status = -1;
	if ((r->out = malloc(s->out_max + 1)) == NULL) {
		snprintf(r->why, sizeof r->why, "out of memory");
		return -1;
	}
	r->out[0] = '\0';
	build_env(s, home, sizeof home, env);
	if (pipe(out) == -1 || pipe(err) == -1 || pipe(status) == -1) {
		snprintf(r->why, sizeof r->why, "pipe: %s", strerror(errno));
		goto fail;
	}
	fcntl(status[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	fcntl(err[0], F_SETFD, FD_CLOEXEC);
	fcntl(status[0], F_SETFD, FD_CLOEXEC);
	if ((pid = fork()) == -1) {
		snprintf(r->why, sizeof r->why, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0)
		exec_child(s, env, out[1], err[1], status[1]);
	/* Also here: whichever runs first, the group exists before a kill. */
	setpgid(pid, pid);
	close(out[1]);
	close(err[1]);
	close(status[1]);
	out[1] = err[1] = status[1] = -1;
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	how = watch(pid, out[0], err[0], s, r);
	if (read(status[0], &start_errno, sizeof start_errno) != sizeof start_errno)
		start_errno = 0;
	close(out[0]);
	close(err[0]);
	close(status[0]);
	return finish(pid, how, start_errno, s, r);
fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] != -1)
			close(out[i]);
		if (err[i] != -1)
			close(err[i]);
		if (status[i] != -1)
			close(status[i]);
	}
	return -1;
}

int
child_spawn(const struct child_spec *s, int out_fd, pid_t *pid, char *why, size_t len)
{
	const char *env[CHILD_MAX_ENV];
	char home[4200];
	int status[2], start_errno = 0;
	ssize_t n;

	build_env(s, home, sizeof home, env);
	if (pipe(status) == -1) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(status[0], F_SETFD, FD_CLOEXEC);
	fcntl(status[1], F_SETFD, FD_CLOEXEC);
	if ((*pid = fork()) == -1) {
		snprintf(why, len, "fork: %s", strerror(errno));
		close(status[0]);
		close(status[1]);
		return -1;
	}
	if (*pid == 0)
		exec_child(s, env, out_fd, out_fd, status[1]);
	/* Also here: whichever runs first, the group exists before a kill. */
	setpgid(*pid, *pid);
	close(status[1]);
	/* The exec's errno, or nothing once the exec closed the pipe. */
	while ((n = read(status[0], &start_errno, sizeof start_errno)) == -1 && errno == EINTR)
		;
	close(status[0]);
	if (n == (ssize_t)sizeof start_errno) {
		child_reap(*pid);
		*pid = 0;
		snprintf(why, len, "could not run it: %s", strerror(start_errno));
		return -1;
	}
	return 0;
}

int
child_reap(pid_t pid)
{
	int st = 0;

	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	return st;
}

void
child_result_free(struct child_result *r)
{
	free(r->out);
	r->out = NULL;
}

/* Whether user has access mode to path, asked in a child that has become
 * that user (the kernel's answer, groups and ACLs included). */
static bool
user_access(const struct child_user *user, const char *path, int mode)
{
	pid_t pid;
	int st;

	if (user == NULL || !user->set)
		return access(path, mode) == 0;
	if ((pid = fork()) == -1)
		return false;
	if (pid == 0)
		_exit(become(user) == 0 && access(path, mode) == 0 ? 0 : 1);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

bool
child_user_can_enter(const struct child_user *user, const char *path)
{
	return user_access(user, path, R_OK | W_OK | X_OK);
}

bool
child_user_can_run(const struct child_user *user, const char *path)
{
	return user_access(user, path, X_OK);
}
