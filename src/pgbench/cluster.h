/* cluster.h: the throwaway PostgreSQL cluster of syncprobe pgbench: a
 * fresh directory .syncprobe-pg.XXXXXX inside DIR (mode 0700, owned by
 * the user the server runs as), initdb, the server (postgres, syncprobe's
 * own child) on a Unix socket in that directory only (no TCP listener),
 * SQL through psql, and on the way out the server stopped by signalling
 * that child and the directory removed through a descriptor held on DIR. */
#ifndef SYNCPROBE_PGBENCH_CLUSTER_H
#define SYNCPROBE_PGBENCH_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "pgbench/child.h"
#include "pgbench/pgbin.h"
#include "util/safefile.h"

#define CLUSTER_PREFIX ".syncprobe-pg."
#define CLUSTER_PORT 5432	/* names the socket file only: no TCP is opened */
#define CLUSTER_SUPERUSER "postgres"
#define CLUSTER_OUT_MAX (64u * 1024u)
#define CLUSTER_WHY_LEN (CHILD_WHY_LEN + 512)
#define CLUSTER_MAX_WAL "1GB"	/* max_wal_size: the most WAL a run keeps */
#define CLUSTER_MAX_WAL_BYTES (1ULL << 30)
#define CLUSTER_INITDB_BYTES (64ULL << 20)	/* initdb's cluster: some 40MB */

/* The settings a run needs of the server (given on its command line). */
struct cluster_settings {
	const char *wal_sync_method;
	unsigned max_clients;	/* max_connections is set above it */
};

struct cluster {
	const struct pgbin *bin;
	const struct child_user *user;
	struct safefile top;		/* DIR, held from creation to removal, and
					 * the work directory's name, dev, ino */
	int workfd;			/* the work directory, held: syncprobe's
					 * own files in it are made through it */
	bool made, initialized;
	pid_t postmaster;		/* the server, syncprobe's child; 0: none */
	bool ready;			/* it accepted a connection */
	struct child_space floor;	/* what a run must leave free on DIR's
					 * filesystem: the space module's margin */
	char work[PGBIN_PATH_LEN];	/* absolute: the children's paths */
	char data[PGBIN_PATH_LEN];
	char port[16];
};

/* Hold dir (realpath'd) once it is found usable: a path the server's
 * socket fits under, that only root, the caller and the server's user can
 * change (trust.h), that the server's user can enter, and on a filesystem
 * with room for the cluster (initdb's, and a run's WAL) above the free
 * space syncprobe keeps. Nothing is made yet. 0, or -1 with a whole message in why: DIR cannot be used (exit 2).
 * cluster_remove lets go of it either way. */
int cluster_open(struct cluster *c, const char *dir, const struct pgbin *bin,
    const struct child_user *user, char *why, size_t len);

/* Whether DIR's filesystem has room for a run: the WAL it may keep
 * (max_wal_size) above the free space syncprobe keeps (util/space). 0, or
 * -1 with why. */
int cluster_room_for_run(struct cluster *c, char *why, size_t len);

/* Make the work directory in the held DIR, owned by the server's user. 0;
 * -1 with a whole message in why, *usage set when DIR cannot be used
 * (exit 2) rather than an I/O error. */
int cluster_make(struct cluster *c, char *why, size_t len, bool *usage);

/* initdb; then the server, with the settings, waited for until it
 * accepts connections. 0, or -1 with why. */
int cluster_init(struct cluster *c, char *why, size_t len);
int cluster_start(struct cluster *c, const struct cluster_settings *s, char *why,
    size_t len);

/* Run sql as the superuser; its output (unaligned, tuples only) into out
 * when out is not NULL. 0, or -1 with why. */
int cluster_sql(struct cluster *c, const char *sql, char *out, size_t outlen,
    char *why, size_t len);

/* A file the server's user can read, written into the work directory. */
int cluster_write_file(struct cluster *c, const char *name, const char *text,
    char *path, size_t pathlen, char *why, size_t len);

/* Stop the server (SIGQUIT, its immediate shutdown; SIGKILL when it does
 * not end in 30 s or a third signal came) and remove the work directory.
 * Safe to call at any stage, and twice. 0, or -1 with why (what is left,
 * and where). */
int cluster_remove(struct cluster *c, char *why, size_t len);

#endif
