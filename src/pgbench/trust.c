/* trust.c: who can change a path (trust.h). Each component is opened
 * relative to the one above it with O_NOFOLLOW, so what is judged is what
 * the walk reached, not what a name led to a moment earlier; ownership
 * and mode are the kernel's (an ACL granting write shows in the group
 * bits, its mask). */
#include "config.h"

#include "pgbench/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool
trusted(const struct trust_users *u, uid_t uid)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (u->uid[i] == uid)
			return true;
	return false;
}

/* "alice", or "uid 1001" for one without a name here. */
static void
user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "uid %lu", (unsigned long)uid);
}

#define TRUST_HARM "the server's programs could be handed a directory of theirs " \
	"(give a directory that only root or %s can change, and every directory above " \
	"it too"

/* Why the directory here (st), on the way to path, lets another user
 * rename what is in it; 0 when it does not. */
static int
judge(const char *path, const char *here, const struct stat *st,
    const struct trust_users *u, char *why, size_t len)
{
	char owner[64];

	if (!trusted(u, st->st_uid)) {
		user_name(st->st_uid, owner, sizeof owner);
		snprintf(why, len, "%s: %s owns %s and can rename what is in it: " TRUST_HARM
		    ", or run the server as its owner: --pg-user=%s)", path, owner, here,
		    u->server_name, owner);
		return -1;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st->st_mode & S_ISVTX) == 0) {
		snprintf(why, len, "%s: %s can write to %s (mode %04o, no sticky bit) and rename "
		    "what is in it: " TRUST_HARM ")", path,
		    (st->st_mode & S_IWOTH) ? "anyone" : "its group", here,
		    (unsigned)(st->st_mode & 07777), u->server_name);
		return -1;
	}
	return 0;
}

int
trust_check_path(const char *path, const struct trust_users *u, struct stat *last,
    char *why, size_t len)
{
	char here[PATH_MAX];
	const char *p = path;
	size_t used = 1;
	int fd, next;

	if (path[0] != '/' || strlen(path) >= sizeof here) {
		snprintf(why, len, "%s: not an absolute path", path);
		return -1;
	}
	snprintf(here, sizeof here, "/");
	if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 || fstat(fd, last) == -1)
		goto failed;
	for (;;) {
		size_t n;

		if (judge(path, here, last, u, why, len) == -1) {
			close(fd);
			return -1;
		}
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			goto too_long;
		snprintf(here + used, sizeof here - used, "%s%.*s", used > 1 ? "/" : "", (int)n, p);
		used = strlen(here);
		{
			char name[NAME_MAX + 1];

			memcpy(name, p, n);
			name[n] = '\0';
			next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		close(fd);
		fd = next;
		if (fd == -1 || fstat(fd, last) == -1)
			goto failed;
		p += n;
	}
	close(fd);
	return 0;
too_long:
	close(fd);
	fd = -1;
	errno = ENAMETOOLONG;
failed:
	snprintf(why, len, "%s: %s", here, strerror(errno));
	if (fd != -1)
		close(fd);
	return -1;
}
