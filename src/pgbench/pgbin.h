/* pgbin.h: where the PostgreSQL programs syncprobe pgbench runs are:
 * --pg-bin=DIR, else what `pg_config --bindir` says, else the newest
 * /usr/lib/postgresql/VERSION/bin (Debian's layout). */
#ifndef SYNCPROBE_PGBENCH_PGBIN_H
#define SYNCPROBE_PGBENCH_PGBIN_H

#include <limits.h>
#include <stddef.h>

#define PGBIN_ROOT "/usr/lib/postgresql"
#define PGBIN_PATH_LEN 4096

/* The server itself (postgres) is started as syncprobe's own child, not
 * through pg_ctl: its pid is then the one fork returned, and no file the
 * server's user can write names what syncprobe signals. */
enum pgbin_program { PGBIN_INITDB, PGBIN_POSTGRES, PGBIN_PGBENCH, PGBIN_PSQL, PGBIN_COUNT };

struct pgbin {
	char dir[PGBIN_PATH_LEN];
	char path[PGBIN_COUNT][PGBIN_PATH_LEN];
	const char *found_by;	/* "--pg-bin", "pg_config --bindir", PGBIN_ROOT */
};

/* Find the directory and its four programs. 0, or -1 with a whole message
 * in err (what is missing where, and how to point at the right place). */
int pgbin_find(const char *given, struct pgbin *b, char *err, size_t errlen);

struct child_user;

/* Whether user, who runs the server, can run all four programs: root
 * finds them, but a directory above them closed to user stops their exec.
 * 0, or -1 with a whole message in err naming the program and the user. */
int pgbin_user_can_run(const struct pgbin *b, const struct child_user *user, char *err,
    size_t errlen);

/* "initdb": the program's name. */
const char *pgbin_name(enum pgbin_program p);

#endif
