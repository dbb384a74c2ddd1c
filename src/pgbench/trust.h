/* trust.h: whether a directory's path can be changed only by users that
 * syncprobe pgbench trusts. The server's programs (initdb, postgres, psql,
 * pgbench) take their directories by path, and PostgreSQL makes every
 * relative one absolute (getcwd) and reads its postgresql.conf through
 * that path: whoever can rename an entry on the way, at any time, could
 * hand them a directory of their own (the server's configuration, its
 * socket, a trust login as its superuser). So the whole path, from / to
 * DIR, must be theirs that syncprobe trusts: root, the caller, and the
 * server's user, who runs those programs. */
#ifndef SYNCPROBE_PGBENCH_TRUST_H
#define SYNCPROBE_PGBENCH_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define TRUST_MAX_USERS 3

/* The users whose directories may be on the path. */
struct trust_users {
	uid_t uid[TRUST_MAX_USERS];
	size_t n;
	const char *server_name;	/* for the message: the server's user */
};

/* Walk path (absolute, with no symbolic link: realpath's) from /, each
 * directory opened under the one above, never through a symbolic link:
 * each must be owned by one of the users, and writable by no one else
 * (by its group or others only with the sticky bit, which keeps them from
 * renaming what is not theirs). 0 with *last the final directory's
 * identity; -1 with a whole message in why (path first). */
int trust_check_path(const char *path, const struct trust_users *u, struct stat *last,
    char *why, size_t len);

#endif
