/* pgbin.c: finding the server's programs. pg_config runs as a child (it
 * is the admin's own installation that says where its programs are);
 * Debian's versioned directories are compared as numbers, so 10 is newer
 * than 9.6. */
#include "config.h"

#include "pgbench/pgbin.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgbench/child.h"
#include "util/units.h"

#define PGBIN_CONFIG_TIMEOUT_NS (10ULL * NSEC_PER_SEC)

static const char *const program_names[PGBIN_COUNT] = {
	[PGBIN_INITDB] = "initdb", [PGBIN_POSTGRES] = "postgres",
	[PGBIN_PGBENCH] = "pgbench", [PGBIN_PSQL] = "psql",
};

const char *
pgbin_name(enum pgbin_program p)
{
	return program_names[p];
}

static bool
is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Fill b's paths from dir; the first program missing, or PGBIN_COUNT. */
static enum pgbin_program
use_dir(struct pgbin *b, const char *dir)
{
	int p;

	snprintf(b->dir, sizeof b->dir, "%s", dir);
	for (p = 0; p < PGBIN_COUNT; p++) {
		snprintf(b->path[p], sizeof b->path[p], "%s/%s", dir, program_names[p]);
		if (!is_executable(b->path[p]))
			return (enum pgbin_program)p;
	}
	return PGBIN_COUNT;
}

/* pg_config on PATH, as a shell would find it; false when there is none. */
static bool
find_pg_config(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[PGBIN_PATH_LEN];
	char *save = NULL, *part;

	if (path == NULL || strlen(path) >= sizeof buf)
		return false;
	snprintf(buf, sizeof buf, "%s", path);
	for (part = strtok_r(buf, ":", &save); part != NULL; part = strtok_r(NULL, ":", &save)) {
		if (part[0] != '/')
			continue;	/* a relative PATH entry: not the admin's install */
		snprintf(out, len, "%s/pg_config", part);
		if (is_executable(out))
			return true;
	}
	return false;
}

/* Whether s holds a control character (C0, DEL): a path with one would
 * carry it into the report and onto a terminal. */
static bool
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* What `pg_config --bindir` prints: one absolute path and a newline.
 * 1 with it in dir; 0 when there is no pg_config or it failed (the next
 * place is looked at); -1 when it printed something else, said in err. */
static int
ask_pg_config(char *dir, size_t len, char *err, size_t errlen)
{
	char prog[PGBIN_PATH_LEN];
	const char *argv[] = { prog, "--bindir", NULL };
	struct child_spec s = { .argv = argv, .cwd = "/", .timeout_ns = PGBIN_CONFIG_TIMEOUT_NS,
		.out_max = PGBIN_PATH_LEN };
	struct child_result r;
	int found = 0;
	size_t n;

	if (!find_pg_config(prog, sizeof prog))
		return 0;
	if (child_run(&s, &r) == 0) {
		n = r.out_len;
		if (n > 0 && r.out[n - 1] == '\n')
			r.out[--n] = '\0';
		found = n > 1 && n < len && r.out[0] == '/' && strlen(r.out) == n &&
		    !has_control(r.out) ? 1 : -1;
		if (found == 1)
			snprintf(dir, len, "%s", r.out);
		else	/* escaped where it is printed (util/diag) */
			snprintf(err, errlen, "%s --bindir: printed '%.*s', not one absolute path "
			    "(give the server's programs with --pg-bin=DIR)", prog, 200, r.out);
	}
	child_result_free(&r);
	return found;
}

/* "15" or "9.6" as a comparable number; -1 when it is not a version. */
static double
version_of(const char *name)
{
	char *end;
	unsigned long major, minor = 0;

	if (name[0] < '0' || name[0] > '9')
		return -1.0;
	errno = 0;
	major = strtoul(name, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		minor = strtoul(end + 1, &end, 10);
	if (*end != '\0' || errno != 0 || major > 100000 || minor > 999)
		return -1.0;
	return (double)major * 1000.0 + (double)minor;
}

/* The newest PGBIN_ROOT/VERSION/bin; false when there is none. */
static bool
newest_versioned(char *dir, size_t len)
{
	DIR *d = opendir(PGBIN_ROOT);
	struct dirent *e;
	double best = -1.0;

	if (d == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		double v = version_of(e->d_name);

		if (v > best) {
			best = v;
			snprintf(dir, len, "%s/%s/bin", PGBIN_ROOT, e->d_name);
		}
	}
	closedir(d);
	return best >= 0.0;
}

static int
missing(const struct pgbin *b, enum pgbin_program p, const char *how, char *err,
    size_t errlen)
{
	snprintf(err, errlen, "%s: no executable %s there (found by %s; give the "
	    "server's programs with --pg-bin=DIR)", b->dir, program_names[p], how);
	return -1;
}

int
pgbin_find(const char *given, struct pgbin *b, char *err, size_t errlen)
{
	char dir[PGBIN_PATH_LEN];
	enum pgbin_program p = PGBIN_COUNT;
	int asked;

	memset(b, 0, sizeof *b);
	if (given != NULL) {
		b->found_by = "--pg-bin";
		if ((p = use_dir(b, given)) != PGBIN_COUNT)
			return missing(b, p, b->found_by, err, errlen);
		return 0;
	}
	if ((asked = ask_pg_config(dir, sizeof dir, err, errlen)) == -1)
		return -1;
	if (asked == 1) {
		b->found_by = "pg_config --bindir";
		if ((p = use_dir(b, dir)) == PGBIN_COUNT)
			return 0;
	}
	if (newest_versioned(dir, sizeof dir)) {
		struct pgbin alt = *b;

		alt.found_by = "the newest " PGBIN_ROOT "/VERSION/bin";
		if (use_dir(&alt, dir) == PGBIN_COUNT) {
			*b = alt;
			return 0;
		}
		if (p == PGBIN_COUNT) {
			*b = alt;
			return missing(b, use_dir(b, dir), b->found_by, err, errlen);
		}
	}
	if (p != PGBIN_COUNT)
		return missing(b, p, b->found_by, err, errlen);
	snprintf(err, errlen, "PostgreSQL's programs: not found (no pg_config on PATH, no "
	    PGBIN_ROOT "/VERSION/bin; give them with --pg-bin=DIR)");
	return -1;
}

int
pgbin_user_can_run(const struct pgbin *b, const struct child_user *user, char *err,
    size_t errlen)
{
	int p;

	for (p = 0; p < PGBIN_COUNT; p++)
		if (!child_user_can_run(user, b->path[p])) {
			snprintf(err, errlen, "%s: %s cannot run it (found by %s; every "
			    "directory above it must be searchable by that user)", b->path[p],
			    user->set ? user->name : "the server's user", b->found_by);
			return -1;
		}
	return 0;
}
