/* cluster.c: the throwaway cluster's life: made, initialized, started,
 * stopped, removed. Nothing here reaches another cluster: the server
 * listens on no TCP address and its socket is in the work directory, and
 * psql and pgbench are given that directory and port, with the caller's
 * PG* variables (PGHOST, PGSERVICE...) kept from them (child.c). */
#include "config.h"

#include "pgbench/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/escape.h"

#define CLUSTER_INITDB_NS   300000000000ULL	/* 5 min: a slow disk's initdb */
#define CLUSTER_START_SECS  "120"
#define CLUSTER_CTL_NS      180000000000ULL
#define CLUSTER_STOP_SECS   "60"
#define CLUSTER_IMMEDIATE_NS 30000000000ULL	/* -m immediate takes no checkpoint */
#define CLUSTER_SQL_NS      600000000000ULL	/* a CHECKPOINT on a slow disk */
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

int
cluster_make(struct cluster *c, const char *dir, const struct pgbin *bin,
    const struct child_user *user, char *why, size_t len, bool *usage)
{
	struct sockaddr_un sun;
	char *real;

	memset(c, 0, sizeof *c);
	c->bin = bin;
	c->user = user;
	c->top.dirfd = -1;
	c->workfd = -1;
	snprintf(c->port, sizeof c->port, "%d", CLUSTER_PORT);
	*usage = true;
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
	if (safefile_locate(&c->top, c->work, "", NULL, why, len) == -1 ||
	    safefile_open_dir(&c->top, why, len) == -1)
		return -1;
	if (make_work(c, why, len) == -1) {
		*usage = errno == EACCES || errno == EROFS || errno == ENOSPC;
		return -1;
	}
	*usage = false;
	snprintf(c->work, sizeof c->work, "%s", c->top.path);
	snprintf(c->data, sizeof c->data, "%s/data", c->work);
	if (!child_user_can_enter(user, c->work)) {
		*usage = true;
		snprintf(why, len, "%s: %s cannot enter it (every directory above it must be "
		    "searchable by that user)", c->work, user->set ? user->name : "the server's user");
		return -1;
	}
	return 0;
}

/* Run one of the server's programs as the server's user, in the work
 * directory; stdout into out (NUL-terminated) when given. */
static int
run(struct cluster *c, const char *const *argv, const char *const *env, uint64_t ns,
    enum child_stop stop, char *out, size_t outlen, char *why, size_t len)
{
	struct child_spec s = { argv, env, c->user, c->work, ns, CLUSTER_OUT_MAX, stop };
	struct child_result r;
	int rc;

	rc = child_run(&s, &r);
	if (rc == -1) {
		const char *name = strrchr(argv[0], '/');

		snprintf(why, len, "%s: %s", name ? name + 1 : argv[0], r.why);
	} else if (out != NULL)
		snprintf(out, outlen, "%s", r.out);
	child_result_free(&r);
	return rc;
}

static int
append_settings(struct cluster *c, const struct cluster_settings *s, char *why, size_t len)
{
	char path[PGBIN_PATH_LEN + 32], text[PGBIN_PATH_LEN + 1024];
	int fd, n;

	n = snprintf(text, sizeof text,
	    "\n# syncprobe pgbench: a throwaway cluster, removed after the sweep\n"
	    "listen_addresses = ''\t\t# no TCP: the socket below only\n"
	    "unix_socket_directories = '%s'\n"
	    "port = %d\t\t\t# names the socket file\n"
	    "max_connections = %u\n"
	    "fsync = on\n"
	    "synchronous_commit = on\n"
	    "wal_sync_method = '%s'\n"
	    "max_wal_size = '4GB'\t\t# with checkpoint_timeout: no checkpoint in a run\n"
	    "checkpoint_timeout = '1d'\n"
	    "autovacuum = off\t\t# no vacuum in a run\n"
	    "shared_buffers = '128MB'\n",
	    c->work, CLUSTER_PORT, s->max_clients + 10, s->wal_sync_method);
	snprintf(path, sizeof path, "%s/postgresql.conf", c->data);
	/* Through the held work directory: its name in DIR may be swapped. */
	fd = openat(c->workfd, "data/postgresql.conf", O_WRONLY | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1 || write(fd, text, (size_t)n) != n || close(fd) == -1) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
cluster_init(struct cluster *c, const struct cluster_settings *s, char *why, size_t len)
{
	const char *argv[] = { c->bin->path[PGBIN_INITDB], "-D", c->data, "-A", "trust",
		"-U", CLUSTER_SUPERUSER, "-E", "UTF8", "--locale=C", "--no-sync", NULL };

	if (run(c, argv, NULL, CLUSTER_INITDB_NS, CHILD_STOP_FIRST, NULL, 0, why, len) == -1)
		return -1;
	c->initialized = true;
	return append_settings(c, s, why, len);
}

/* Up to len - 1 bytes of dir/name, its end when tail (else its start),
 * NUL-terminated; the count, or -1. Never through a symbolic link. */
static ssize_t
read_part(const char *dir, const char *name, bool tail, char *buf, size_t len)
{
	char path[PGBIN_PATH_LEN + 32];
	ssize_t n;
	off_t end;
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	end = tail ? lseek(fd, 0, SEEK_END) : 0;
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
 * says its reason there, not on pg_ctl's stderr. */
static void
add_log_tail(struct cluster *c, char *why, size_t len)
{
	char buf[CHILD_ERR_TAIL + 1], shown[ESCAPE_LEN(CHILD_ERR_TAIL)], *last;
	ssize_t n = read_part(c->work, "server.log", true, buf, sizeof buf);
	size_t used = strlen(why);

	if (n <= 0)
		return;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	last = strrchr(buf, '\n');
	escape_for_terminal(last ? last + 1 : buf, shown, sizeof shown);
	snprintf(why + used, len - used, " (server log: %s)", shown);
}

int
cluster_start(struct cluster *c, char *why, size_t len)
{
	char log[PGBIN_PATH_LEN + 16];
	const char *argv[] = { c->bin->path[PGBIN_PG_CTL], "start", "-D", c->data, "-w",
		"-t", CLUSTER_START_SECS, "-s", "-l", log, NULL };

	snprintf(log, sizeof log, "%s/server.log", c->work);
	/* Started, for the way out, before it is: a pg_ctl killed by a stop
	 * signal may have started the server already. */
	c->started = true;
	if (run(c, argv, NULL, CLUSTER_CTL_NS, CHILD_STOP_FIRST, NULL, 0, why, len) == -1) {
		add_log_tail(c, why, len);
		return -1;
	}
	return 0;
}

int
cluster_sql(struct cluster *c, const char *sql, char *out, size_t outlen, char *why,
    size_t len)
{
	const char *argv[] = { c->bin->path[PGBIN_PSQL], "-X", "-q", "-A", "-t",
		"-v", "ON_ERROR_STOP=1", "-h", c->work, "-p", c->port, "-U", CLUSTER_SUPERUSER,
		"-d", "postgres", "-c", sql, NULL };

	if (run(c, argv, NULL, CLUSTER_SQL_NS, CHILD_STOP_FIRST, out, outlen, why, len) == -1)
		return -1;
	if (out != NULL) {
		size_t n = strlen(out);

		while (n > 0 && out[n - 1] == '\n')
			out[--n] = '\0';
	}
	return 0;
}

int
cluster_write_file(struct cluster *c, const char *name, const char *text, char *path,
    size_t pathlen, char *why, size_t len)
{
	size_t n = strlen(text);
	int fd;

	snprintf(path, pathlen, "%s/%s", c->work, name);
	fd = openat(c->workfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0644);
	if (fd == -1 || write(fd, text, n) != (ssize_t)n || close(fd) == -1) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* pg_ctl stop in this mode; 0 when the server is down. */
static int
ctl_stop(struct cluster *c, const char *mode, enum child_stop stop, char *why, size_t len)
{
	const char *argv[] = { c->bin->path[PGBIN_PG_CTL], "stop", "-D", c->data, "-m", mode,
		"-w", "-t", CLUSTER_STOP_SECS, "-s", NULL };

	return run(c, argv, NULL, stop == CHILD_STOP_NEVER ? CLUSTER_IMMEDIATE_NS :
	    CLUSTER_CTL_NS, stop, NULL, 0, why, len);
}

/* The last way: the postmaster's pid from its lock file, SIGKILL. Its
 * backends end when they see it gone. */
static void
kill_postmaster(struct cluster *c)
{
	char buf[32];
	long pid;

	if (read_part(c->data, "postmaster.pid", false, buf, sizeof buf) <= 0)
		return;
	pid = strtol(buf, NULL, 10);
	if (pid > 1)
		kill((pid_t)pid, SIGKILL);
}

/* Whether the server is still up: its lock file is there. */
static bool
server_running(struct cluster *c)
{
	char path[PGBIN_PATH_LEN + 32];

	snprintf(path, sizeof path, "%s/postmaster.pid", c->data);
	return access(path, F_OK) == 0;
}

static void
stop_server(struct cluster *c)
{
	char why[CLUSTER_WHY_LEN];

	if (!c->started)
		return;
	if (!cleanup_urgent() && ctl_stop(c, "fast", CHILD_STOP_URGENT, why, sizeof why) == 0)
		goto done;
	if (ctl_stop(c, "immediate", CHILD_STOP_NEVER, why, sizeof why) == 0 ||
	    !server_running(c))
		goto done;
	kill_postmaster(c);
	sleep(1);
done:
	c->started = false;
}

int
cluster_remove(struct cluster *c, char *why, size_t len)
{
	int tries;

	stop_server(c);
	if (c->workfd != -1)
		close(c->workfd);
	c->workfd = -1;
	if (!c->made) {
		safefile_close(&c->top);
		return 0;
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
		snprintf(why, len, "%s: could not remove it: %s", c->work, strerror(errno));
		return -1;
	}
	c->made = false;
	safefile_close(&c->top);
	return 0;
}
