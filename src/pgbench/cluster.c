/* cluster.c: the throwaway cluster's life: made, initialized, started,
 * stopped, removed. Nothing here reaches another cluster: the server
 * listens on no TCP address and its socket is in the work directory, and
 * psql and pgbench are given that directory and port, with the caller's
 * PG* variables (PGHOST, PGSERVICE...) kept from them (child.c). The
 * server is syncprobe's own child, its settings on its command line:
 * nothing is written as root into a directory the server's user owns,
 * and the only process ever signalled is the one fork returned. */
#include "config.h"

#include "pgbench/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "pgbench/trust.h"
#include "util/cleanup.h"
#include "util/escape.h"
#include "util/platform.h"
#include "util/space.h"
#include "util/units.h"

#define CLUSTER_INITDB_NS   (300ULL * NSEC_PER_SEC)	/* 5 min: a slow disk's initdb */
#define CLUSTER_START_NS    (120ULL * NSEC_PER_SEC)	/* until it accepts connections */
#define CLUSTER_READY_POLL_US 100000		/* how often psql tries meanwhile */
/* psql's exit status when "the connection to the server went bad" (its
 * manual): while the server starts, its socket is not there yet, or it
 * answers that the database system is starting up. */
#define PSQL_NO_CONNECTION 2
#define CLUSTER_QUIT_NS     (30ULL * NSEC_PER_SEC)	/* the stop, before SIGKILL */
#define CLUSTER_KILL_NS     (10ULL * NSEC_PER_SEC)	/* SIGKILL, then it is left */
#define CLUSTER_KILL_SIGNALS 2	/* later signals (a third in all) that end the stop's wait */
#define CLUSTER_SQL_NS      (600ULL * NSEC_PER_SEC)	/* a CHECKPOINT on a slow disk */
#define CLUSTER_SOCKET_NAME "/.s.PGSQL." "5432"

/* Characters a path must not hold to be written into postgresql.conf as
 * unix_socket_directories: its quote, its escape, the list's separator,
 * and control characters. */
static bool
conf_safe(const char *s)
{
	for (; *s; s++)
		if (*s == '\'' || *s == '\\' || *s == ',' || *s == '"' ||
		    (unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* The work directory made in DIR by util/safefile (exclusively, 0700,
 * never through a symbolic link, checked to be the one made), then held
 * and given to the server's user. */
static int
make_work(struct cluster *c, char *why, size_t len)
{
	struct safefile *top = &c->top;

	if ((c->workfd = safefile_make_dir(top, CLUSTER_PREFIX, "try again", why, len)) == -1)
		return -1;
	c->made = true;
	if ((c->user->set && fchown(c->workfd, c->user->uid, c->user->gid) == -1) ||
	    fchmod(c->workfd, 0700) == -1) {
		snprintf(why, len, "%s: %s", top->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* DIR, and every directory above it, changeable only by root, the caller
 * and the server's user (trust.h), and held: the directory checked is
 * the one held. */
static int
hold_trusted_dir(struct cluster *c, char *why, size_t len)
{
	struct trust_users u = { { 0, geteuid(), c->user->set ? c->user->uid : geteuid() }, 3,
		c->user->set ? c->user->name : NULL };
	struct passwd *pw;
	struct stat checked, held;

	if (u.server_name == NULL)
		u.server_name = (pw = getpwuid(geteuid())) != NULL ? pw->pw_name : "the caller";
	if (trust_check_path(c->work, &u, &checked, why, len) == -1 ||
	    safefile_locate(&c->top, c->work, "", NULL, why, len) == -1 ||
	    safefile_open_dir(&c->top, why, len) == -1)
		return -1;
	if (fstat(c->top.dirfd, &held) == -1 || held.st_dev != checked.st_dev ||
	    held.st_ino != checked.st_ino) {
		snprintf(why, len, "%s: replaced while syncprobe checked who can change it "
		    "(try again)", c->work);
		return -1;
	}
	return 0;
}

/* Whether the filesystem has need bytes above the free space syncprobe
 * keeps (space.h): 0, or -1 with "the free space... (X available)" in
 * avail_why, and the margin in floor. */
static int
has_room(struct cluster *c, uint64_t need, char *avail_why, size_t len)
{
	uint64_t avail, total;
	char have[32], keep[32];

	if (space_available(c->top.dirfd, &avail, &total) == -1) {
		snprintf(avail_why, len, "statvfs: %s", strerror(errno));
		return -1;
	}
	c->floor.dirfd = c->top.dirfd;
	c->floor.floor_bytes = space_margin(total);
	if (avail >= need && avail - need >= c->floor.floor_bytes)
		return 0;
	space_format(avail, have, sizeof have);
	space_format(c->floor.floor_bytes, keep, sizeof keep);
	snprintf(avail_why, len, "%s available, and syncprobe keeps %s of this filesystem "
	    "free", have, keep);
	return -1;
}

int
cluster_room_for_run(struct cluster *c, char *why, size_t len)
{
	char avail[128];

	if (has_room(c, CLUSTER_MAX_WAL_BYTES, avail, sizeof avail) == 0)
		return 0;
	snprintf(why, len, "%s: not enough free space left for another run: it may keep "
	    "up to max_wal_size (" CLUSTER_MAX_WAL ") of WAL, and %s (free some space, or "
	    "give a directory on a larger filesystem)", c->work, avail);
	return -1;
}

int
cluster_open(struct cluster *c, const char *dir, const struct pgbin *bin,
    const struct child_user *user, char *why, size_t len)
{
	struct sockaddr_un sun;
	char *real, avail[128], need[32];

	memset(c, 0, sizeof *c);
	c->bin = bin;
	c->user = user;
	c->top.dirfd = -1;
	c->workfd = -1;
	snprintf(c->port, sizeof c->port, "%d", CLUSTER_PORT);
	space_format(CLUSTER_INITDB_BYTES + CLUSTER_MAX_WAL_BYTES, need, sizeof need);
	/* As the probe checks a target: a path too long for the system is
	 * said to be, cut short, before realpath would name it whole. */
	if (safefile_check_dir(dir, why, len) == -1)
		return -1;
	if ((real = realpath(dir, NULL)) == NULL) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(c->work, sizeof c->work, "%s", real);
	free(real);
	if (!conf_safe(c->work)) {
		snprintf(why, len, "%s: its path holds a quote, backslash, comma or control "
		    "character, which the server's unix_socket_directories cannot take",
		    c->work);
		return -1;
	}
	/* The socket's path: DIR/.syncprobe-pg.XXXXXX/.s.PGSQL.5432. */
	if (strlen(c->work) + 1 + strlen(CLUSTER_PREFIX) + 6 + strlen(CLUSTER_SOCKET_NAME) >=
	    sizeof sun.sun_path) {
		snprintf(why, len, "%s: too long a path for the server's Unix socket in it "
		    "(at most %zu bytes with the socket's name)", c->work,
		    sizeof sun.sun_path - 1);
		return -1;
	}
	if (hold_trusted_dir(c, why, len) == -1)
		return -1;
	/* Said now, before the probe's minutes: the work directory will be
	 * the user's, but the way to it must be open to them. */
	if (!child_user_can_run(user, c->work)) {
		snprintf(why, len, "%s: %s cannot enter it (every directory above it must be "
		    "searchable by that user)", c->work, user->set ? user->name : "the server's user");
		return -1;
	}
	if (has_room(c, CLUSTER_INITDB_BYTES + CLUSTER_MAX_WAL_BYTES, avail, sizeof avail) == -1) {
		snprintf(why, len, "%s: not enough free space for the throwaway cluster: it may "
		    "take %s (initdb's, some 40MB, and up to max_wal_size of WAL in a run, "
		    CLUSTER_MAX_WAL "), and %s (free some space, or give a directory on a larger "
		    "filesystem)", c->work, need, avail);
		return -1;
	}
	return 0;
}

int
cluster_make(struct cluster *c, char *why, size_t len, bool *usage)
{
	*usage = true;
	if (make_work(c, why, len) == -1) {
		*usage = errno == EACCES || errno == EROFS || errno == ENOSPC;
		return -1;
	}
	*usage = false;
	snprintf(c->work, sizeof c->work, "%s", c->top.path);
	/* Short: the socket's path fits under it (cluster_open). */
	if ((size_t)snprintf(c->data, sizeof c->data, "%s/data", c->work) >= sizeof c->data) {
		snprintf(why, len, "%s: %s", c->work, strerror(ENAMETOOLONG));
		return -1;
	}
	if (!child_user_can_enter(c->user, c->work)) {
		*usage = true;
		snprintf(why, len, "%s: %s cannot enter it (every directory above it must be "
		    "searchable by that user)", c->work,
		    c->user->set ? c->user->name : "the server's user");
		return -1;
	}
	return 0;
}

/* Run one of the server's programs as the server's user, in the work
 * directory; stdout into out (NUL-terminated) when given, its exit status
 * into *status when given (-1 when it did not exit: not started, killed). */
static int
run(struct cluster *c, const char *const *argv, uint64_t ns, char *out, size_t outlen,
    char *why, size_t len, int *status)
{
	struct child_spec s = { .argv = argv, .user = c->user, .cwd = c->work,
		.timeout_ns = ns, .out_max = CLUSTER_OUT_MAX };
	struct child_result r;
	int rc;

	rc = child_run(&s, &r);
	if (status != NULL)
		*status = r.exit_status;
	if (rc == -1) {
		const char *name = strrchr(argv[0], '/');

		snprintf(why, len, "%s: %s", name ? name + 1 : argv[0], r.why);
	} else if (out != NULL)
		snprintf(out, outlen, "%s", r.out);
	child_result_free(&r);
	return rc;
}

int
cluster_init(struct cluster *c, char *why, size_t len)
{
	const char *argv[] = { c->bin->path[PGBIN_INITDB], "-D", c->data, "-A", "trust",
		"-U", CLUSTER_SUPERUSER, "-E", "UTF8", "--locale=C", "--no-sync", NULL };

	if (run(c, argv, CLUSTER_INITDB_NS, NULL, 0, why, len, NULL) == -1)
		return -1;
	c->initialized = true;
	return 0;
}

/* The last len - 1 bytes of the file name in the work directory,
 * NUL-terminated; the count, or -1. Through the held directory, never
 * through a symbolic link, never waiting on a FIFO, a regular file only:
 * the server's user owns the directory and may have put anything there. */
static ssize_t
read_tail(struct cluster *c, const char *name, char *buf, size_t len)
{
	struct stat st;
	ssize_t n;
	off_t end;
	int fd;

	if ((fd = openat(c->workfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
	    O_NOCTTY)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	end = lseek(fd, 0, SEEK_END);
	if (end > (off_t)(len - 1))
		lseek(fd, end - (off_t)(len - 1), SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* The last line of the server's log, escaped, after why: a failed start
 * says its reason there. */
static void
add_log_tail(struct cluster *c, char *why, size_t len)
{
	char buf[CHILD_ERR_TAIL + 1], shown[ESCAPE_LEN(CHILD_ERR_TAIL)], *last;
	ssize_t n = read_tail(c, "server.log", buf, sizeof buf);
	size_t used = strlen(why);

	if (n <= 0)
		return;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	last = strrchr(buf, '\n');
	escape_for_terminal(last ? last + 1 : buf, shown, sizeof shown);
	snprintf(why + used, len - used, " (server log: %s)", shown);
}

/* The server's command line: the settings a run needs, none written into
 * its files. */
static void
server_argv(struct cluster *c, const struct cluster_settings *s, char text[][64],
    const char **argv)
{
	size_t n = 0;

	snprintf(text[0], sizeof text[0], "max_connections=%u", s->max_clients + 10);
	snprintf(text[1], sizeof text[1], "wal_sync_method=%s", s->wal_sync_method);
	argv[n++] = c->bin->path[PGBIN_POSTGRES];
	argv[n++] = "-D";
	argv[n++] = c->data;
	/* The socket in the work directory only, no TCP; the port names its
	 * file. */
	argv[n++] = "-k";
	argv[n++] = c->work;
	argv[n++] = "-p";
	argv[n++] = c->port;
	argv[n++] = "-c";
	argv[n++] = "listen_addresses=";
	argv[n++] = "-c";
	argv[n++] = text[0];
	/* Every commit waits for its flush, with the method under test. */
	argv[n++] = "-c";
	argv[n++] = "fsync=on";
	argv[n++] = "-c";
	argv[n++] = "synchronous_commit=on";
	argv[n++] = "-c";
	argv[n++] = text[1];
	/* No checkpoint in a run (each follows a CHECKPOINT), and no vacuum. */
	argv[n++] = "-c";
	argv[n++] = "max_wal_size=" CLUSTER_MAX_WAL;
	argv[n++] = "-c";
	argv[n++] = "checkpoint_timeout=1d";
	argv[n++] = "-c";
	argv[n++] = "autovacuum=off";
	argv[n++] = "-c";
	argv[n++] = "shared_buffers=128MB";
	argv[n] = NULL;
}

/* psql -c sql; its exit status into *status as run gives it. */
static int
sql_status(struct cluster *c, const char *sql, char *out, size_t outlen, char *why,
    size_t len, int *status)
{
	const char *argv[] = { c->bin->path[PGBIN_PSQL], "-X", "-q", "-A", "-t",
		"-v", "ON_ERROR_STOP=1", "-h", c->work, "-p", c->port, "-U", CLUSTER_SUPERUSER,
		"-d", "postgres", "-c", sql, NULL };

	if (run(c, argv, CLUSTER_SQL_NS, out, outlen, why, len, status) == -1)
		return -1;
	if (out != NULL) {
		size_t n = strlen(out);

		while (n > 0 && out[n - 1] == '\n')
			out[--n] = '\0';
	}
	return 0;
}

/* Until psql connects, the server ends, the time is up, or a stop signal
 * comes. 0 once it accepts connections. Only a failed connection is worth
 * waiting out (a starting server has no socket yet, or answers that it is
 * starting up); psql failing otherwise (its own error, exit 1; none to
 * run; an answer that is not a connection's failure) will not mend, and
 * ends the wait at once with psql's own words. */
static int
wait_ready(struct cluster *c, char *why, size_t len)
{
	uint64_t deadline = platform_now_ns() + CLUSTER_START_NS;
	char tried[CLUSTER_WHY_LEN];
	int status;

	for (;;) {
		if (child_has_ended(c->postmaster)) {
			int st = child_reap(c->postmaster);

			c->postmaster = 0;
			cleanup_forget_group();
			if (WIFEXITED(st))
				snprintf(why, len, "postgres: exited with status %d", WEXITSTATUS(st));
			else
				snprintf(why, len, "postgres: died of signal %d",
				    WIFSIGNALED(st) ? WTERMSIG(st) : 0);
			return -1;
		}
		if (cleanup_stop_signal() != 0) {
			snprintf(why, len, "postgres: stopped by %s while starting",
			    cleanup_signal_name(cleanup_stop_signal()));
			return -1;
		}
		if (sql_status(c, "SELECT 1", NULL, 0, tried, sizeof tried, &status) == 0)
			return 0;
		if (cleanup_stop_signal() == 0 && status != PSQL_NO_CONNECTION) {
			snprintf(why, len, "%s", tried);
			return -1;
		}
		if (platform_now_ns() > deadline) {
			snprintf(why, len, "postgres: not accepting connections after %.0f s",
			    (double)CLUSTER_START_NS / (double)NSEC_PER_SEC);
			return -1;
		}
		usleep(CLUSTER_READY_POLL_US);
	}
}

int
cluster_start(struct cluster *c, const struct cluster_settings *s, char *why, size_t len)
{
	char text[2][64];
	const char *argv[32];
	struct child_spec spec = { .argv = argv, .user = c->user, .cwd = c->work };
	int log;

	server_argv(c, s, text, argv);
	/* The server's log: made by syncprobe, through the held directory,
	 * and handed to it as its standard output and error. */
	log = safefile_create_in(c->workfd, "server.log", O_WRONLY | O_APPEND, 0600);
	if (log == -1) {
		snprintf(why, len, "%s/server.log: %s", c->work, strerror(errno));
		return -1;
	}
	if (child_spawn(&spec, log, &c->postmaster, why, len) == -1) {
		close(log);
		return -1;
	}
	close(log);
	/* A crash of syncprobe's must not leave it running. */
	cleanup_register_group(c->postmaster);
	if (wait_ready(c, why, len) == -1) {
		add_log_tail(c, why, len);
		return -1;
	}
	c->ready = true;
	return 0;
}

int
cluster_sql(struct cluster *c, const char *sql, char *out, size_t outlen, char *why,
    size_t len)
{
	return sql_status(c, sql, out, outlen, why, len, NULL);
}

int
cluster_write_file(struct cluster *c, const char *name, const char *text, char *path,
    size_t pathlen, char *why, size_t len)
{
	size_t n = strlen(text);
	int fd;

	snprintf(path, pathlen, "%s/%s", c->work, name);
	fd = safefile_create_in(c->workfd, name, O_WRONLY, 0644);
	if (fd == -1 || write(fd, text, n) != (ssize_t)n || close(fd) == -1) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Until the server has ended (reaped), at most ns, or until enough
 * signals came after the first (patient: no such limit); 0 once it
 * ended. */
static int
wait_server(struct cluster *c, uint64_t ns, bool patient)
{
	uint64_t deadline = platform_now_ns() + ns;

	for (;;) {
		if (child_has_ended(c->postmaster)) {
			child_reap(c->postmaster);
			c->postmaster = 0;
			cleanup_forget_group();
			return 0;
		}
		if (platform_now_ns() > deadline ||
		    (!patient && cleanup_later_signals() >= CLUSTER_KILL_SIGNALS))
			return -1;
		usleep(10000);
	}
}

/* The server stopped: SIGQUIT, the immediate shutdown, once it accepts
 * connections (a throwaway cluster needs no shutdown checkpoint, and the
 * server removes its shared memory on the way out), else SIGINT, whose
 * default action ends a server that has not set its handlers yet without
 * a core dump. Only the process syncprobe started is signalled. One that
 * does not end is killed (SIGKILL); 0, or -1 with why saying what may be
 * left. */
static int
stop_server(struct cluster *c, char *why, size_t len)
{
	long pid = (long)c->postmaster;

	if (c->postmaster == 0)
		return 0;
	kill(c->postmaster, c->ready ? SIGQUIT : SIGINT);
	if (wait_server(c, CLUSTER_QUIT_NS, false) == 0)
		return 0;
	kill(c->postmaster, SIGKILL);
	if (wait_server(c, CLUSTER_KILL_NS, true) == -1) {
		snprintf(why, len, "%s: the server (postgres, process %ld) still runs after "
		    "SIGKILL: left running, with its shared memory", c->work, pid);
		return -1;
	}
	snprintf(why, len, "%s: the server (postgres, process %ld) did not stop on %s %s: "
	    "killed (SIGKILL); what it started ends when it sees it gone, but its shared "
	    "memory may be left (ipcs -m; /dev/shm/PostgreSQL.*)", c->work, pid,
	    c->ready ? "SIGQUIT" : "SIGINT", cleanup_later_signals() >= CLUSTER_KILL_SIGNALS ?
	    "before a third signal" : "in 30 s");
	return -1;
}

int
cluster_remove(struct cluster *c, char *why, size_t len)
{
	int tries, stopped = stop_server(c, why, len);

	if (c->workfd != -1)
		close(c->workfd);
	c->workfd = -1;
	if (!c->made) {
		safefile_close(&c->top);
		return stopped;
	}
	/* A server killed the hard way leaves backends for a moment, which
	 * may still write: try again briefly. */
	for (tries = 0; tries < 20; tries++) {
		if (cleanup_remove_tree(c->top.dirfd, c->top.name, c->top.dev, c->top.ino) == 0 ||
		    errno == ENOENT)
			break;
		usleep(100000);
	}
	if (tries == 20) {
		/* The server's fate first: what is left of it matters more. */
		if (stopped == 0)
			snprintf(why, len, "%s: could not remove it: %s", c->work, strerror(errno));
		return -1;
	}
	c->made = false;
	safefile_close(&c->top);
	return stopped;
}
