/* pgbench.c: syncprobe pgbench from start to end: the user and the
 * programs, the probe's flush figure and -t group on DIR (a target's run,
 * as the probe command runs one), the cluster, the sweep, the report; and on
 * every way out the server stopped and the cluster removed. */
#include "config.h"

#include "pgbench/pgbench.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgbench/child.h"
#include "pgbench/cluster.h"
#include "pgbench/pgbench_run.h"
#include "pgbench/pgbin.h"
#include "pgbench/sweep.h"
#include "probe/plan.h"
#include "report/report_pgbench.h"
#include "target/target.h"
#include "util/cleanup.h"
#include "util/diag.h"
#include "util/output.h"
#include "util/platform.h"
#include "util/status.h"
#include "util/units.h"
#include "util/wrap.h"

#define PGBENCH_SCRIPT_MAX (1u << 20)
#define STDERR_WIDTH 79		/* the text report's width */
#define PGBENCH_INSERT_SCRIPT "INSERT INTO t VALUES (1);\n"

void
pgbench_defaults(struct pgbench_options *o)
{
	static const unsigned clients[] = { 1, 8, 32 };

	memset(o, 0, sizeof *o);
	memcpy(o->clients, clients, sizeof clients);
	o->nclients = sizeof clients / sizeof clients[0];
	o->secs = PGBENCH_DEFAULT_SECS;
	o->repeats = PGBENCH_DEFAULT_REPEATS;
	o->decide = PGBENCH_DEFAULT_DECIDE;
	o->workload = PGB_INSERT;
	o->format = &pgbench_formats[0];
}

/* As root the server runs as --pg-user (default postgres): initdb refuses
 * root. Otherwise as the caller. */
static int
find_user(const struct pgbench_options *o, struct child_user *u, char *name, size_t len)
{
	struct passwd *pw;

	memset(u, 0, sizeof *u);
	if (geteuid() != 0) {
		pw = getpwuid(geteuid());
		snprintf(name, len, "%s", pw ? pw->pw_name : "the caller");
		if (o->pg_user != NULL && (pw == NULL || strcmp(o->pg_user, pw->pw_name) != 0)) {
			diag_error("--pg-user: only root can run the server as another user");
			return -1;
		}
		return 0;
	}
	pw = getpwnam(o->pg_user ? o->pg_user : CLUSTER_SUPERUSER);
	if (pw == NULL) {
		if (o->pg_user)
			diag_error("--pg-user: no user %s here", o->pg_user);
		else
			diag_error("--pg-user: as root, the server needs another user, and there "
			    "is no user postgres here (give --pg-user=NAME)");
		return -1;
	}
	if (pw->pw_uid == 0) {
		diag_error("--pg-user: %s is root, and the server refuses to run as root",
		    pw->pw_name);
		return -1;
	}
	snprintf(name, len, "%s", pw->pw_name);
	u->set = true;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->name = name;
	return 0;
}

/* --script's file, read as the caller (before anything is made). */
static char *
read_script(const char *path)
{
	char *buf;
	ssize_t n;
	size_t used = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		diag_error("--script: %s: %s", path, strerror(errno));
		return NULL;
	}
	if ((buf = malloc(PGBENCH_SCRIPT_MAX + 1)) == NULL) {
		close(fd);
		diag_error("--script: out of memory");
		return NULL;
	}
	while ((n = read(fd, buf + used, PGBENCH_SCRIPT_MAX + 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	if (n == -1 || used == 0) {
		diag_error("--script: %s: %s", path, n == -1 ? strerror(errno) : "empty");
		free(buf);
		return NULL;
	}
	if (used > PGBENCH_SCRIPT_MAX) {
		char most[32];

		units_format_size(PGBENCH_SCRIPT_MAX, most, sizeof most);
		diag_error("--script: %s: too large (at most %s)", path, most);
		free(buf);
		return NULL;
	}
	buf[used] = '\0';
	if (strlen(buf) != used) {
		diag_error("--script: %s: holds a NUL byte", path);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The probe on DIR: the one- and two-write rows of every method, buffered
 * (the method the server would be given and d, its flush), and -t group
 * at the sweep's client counts unless --no-group: a target's run as the
 * probe command's, judged once. */
static enum exit_status
probe_dir(const struct pgbench_options *o, struct pgb_result *r, const struct method **m)
{
	struct options po;
	struct target_result tr;
	struct target_run run;
	struct progress p;
	enum target_step step;
	bool in_group = false;

	options_defaults(&po);
	po.groups = (1u << GROUP_ONE) | (1u << GROUP_TWO) | (o->no_group ? 0 : 1u << GROUP_GROUP);
	po.direct = DIRECT_OFF;
	po.wal_method = o->wal_method;
	po.quiet = o->quiet;
	if (o->probe_ops > 0) {
		po.adaptive = false;
		po.ops_per_test = o->probe_ops;
	}
	memcpy(po.clients, o->clients, o->nclients * sizeof o->clients[0]);
	po.nclients = o->nclients;
	progress_init(&p, o->quiet);
	target_begin(&run, &po, o->dir, &p, 1, 1, &tr);
	/* Which phase a signal stopped, for its message. */
	while ((step = target_next(&run)) != TARGET_DONE)
		if (step == TARGET_EXPERIMENT)
			in_group = true;
	if (run.status != STATUS_OK) {
		diag_error("%s", tr.run.error);
		target_free(&tr);
		return run.status;
	}
	if (tr.run.interrupted) {
		diag_error("%s: stopped by %s while the probe measured the flush (%s), before "
		    "any cluster was made: nothing to report", o->dir,
		    cleanup_signal_name(cleanup_stop_signal()), in_group ? "-t group" :
		    "its one- and two-write rows");
		target_free(&tr);
		return STATUS_IO;
	}
	r->probe_advice = tr.advice;
	r->probe_advice.basis = NULL;
	*m = tr.advice.delay_method ? tr.advice.delay_method : tr.advice.wal_sync_method;
	r->d_usecs = tr.advice.basis_mean_usecs;
	r->method_given = o->wal_method != NULL;
	if (!o->no_group && tr.advice.delay_measured) {
		r->group_ran = true;
		r->group_delay_usecs = tr.advice.commit_delay_usecs;
		r->group_siblings = tr.advice.commit_siblings;
	}
	target_free(&tr);
	if (*m == NULL || !(r->d_usecs > 0.0)) {
		diag_error("%s: the probe measured no flush to base the sweep on", o->dir);
		return STATUS_IO;
	}
	return STATUS_OK;
}

/* "about 6 min", "about 90 s". */
static void
format_length(double secs, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f %s", secs < 120 ? secs : secs / 60.0, secs < 120 ? "s" : "min");
}

static void
say_length(const struct pgbench_options *o, const struct pgb_result *r)
{
	size_t runs = sweep_runs(r), most = sweep_decide_runs_most(r);
	double per_run = o->secs + SWEEP_RUN_OVERHEAD_SECS;
	char length[32], more[32], line[320];
	int n;

	if (o->quiet)
		return;
	format_length((double)runs * per_run + PGBENCH_SETUP_SECS, length, sizeof length);
	n = snprintf(line, sizeof line, "syncprobe pgbench: about %s: %zu client count%s x "
	    "%zu setting%s x %u repeats x %u s + setup (%zu runs)", length, r->nclients,
	    r->nclients == 1 ? "" : "s", r->nsettings, r->nsettings == 1 ? "" : "s",
	    r->repeats, o->secs, runs);
	if (most > 0 && n > 0 && (size_t)n < sizeof line) {
		format_length((double)most * per_run, more, sizeof more);
		snprintf(line + n, sizeof line - (size_t)n, "; up to %s more (%zu runs) to "
		    "decide a delay that leads 0 within noise", more, most);
	}
	/* Wrapped as the report is: one line of 150 columns broke mid-word
	 * on an 80-column terminal. */
	wrap_print(stderr, 0, 2, STDERR_WIDTH, line, false);
}

/* Whether s reads as a version string ("15.5 (Debian 15.5-1.pgdg120+1)"):
 * printable ASCII only. It is the server's to say, and goes into the text
 * report, a comment of -F conf and a terminal: a newline there would make
 * an active conf line of what follows it. */
static bool
printable_version(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* The server's version, and whether it has pg_stat_wal (14 on). */
static int
server_version(struct cluster *c, struct pgb_result *r, char *why, size_t len)
{
	char num[64];
	uint64_t v;

	if (cluster_sql(c, "SHOW server_version", r->server_version,
	    sizeof r->server_version, why, len) == -1 ||
	    cluster_sql(c, "SHOW server_version_num", num, sizeof num, why, len) == -1)
		return -1;
	if (!printable_version(r->server_version)) {
		/* why is escaped where it is printed (util/diag). */
		snprintf(why, len, "psql: server_version is not a version: '%s'",
		    r->server_version);
		return -1;
	}
	if (pgbench_read_count(num, &v) == -1 || v > 10000000) {
		snprintf(why, len, "psql: server_version_num is not a number");
		return -1;
	}
	r->version_num = (int)v;
	return 0;
}

/* The workload's tables and script file: --script gets pgbench's tables
 * and t, so that the admin's transaction has tables to work on. */
static int
prepare_workload(struct cluster *c, const struct pgbench_options *o, const char *script,
    char *path, size_t pathlen, char *why, size_t len)
{
	if (o->workload != PGB_INSERT && pgbench_initialize(c, why, len) == -1)
		return -1;
	if (o->workload == PGB_TPCB)
		return 0;
	if (cluster_sql(c, "CREATE TABLE t (x int)", NULL, 0, why, len) == -1)
		return -1;
	if (o->workload == PGB_SCRIPT)
		return cluster_write_file(c, "script.sql", script, path, pathlen, why, len);
	return cluster_write_file(c, "insert.sql", PGBENCH_INSERT_SCRIPT, path, pathlen,
	    why, len);
}

static int
run_cluster(struct cluster *c, const struct pgbench_options *o, struct pgb_result *r,
    const struct method *m, const char *script, char *why, size_t len)
{
	struct cluster_settings cs = { m->name, o->clients[o->nclients - 1] };
	char path[PGBIN_PATH_LEN + 32];
	size_t i;

	for (i = 0; i < o->nclients; i++)
		if (o->clients[i] > cs.max_clients)
			cs.max_clients = o->clients[i];
	path[0] = '\0';
	if (cluster_init(c, why, len) == -1 || cluster_start(c, &cs, why, len) == -1 ||
	    server_version(c, r, why, len) == -1 ||
	    prepare_workload(c, o, script, path, sizeof path, why, len) == -1)
		return -1;
	return sweep_run(c, r, path, o->workload == PGB_TPCB ? "tpcb-like" : NULL,
	    r->version_num >= 140000, o->quiet, why, len);
}

static enum exit_status
write_report(const struct pgbench_options *o, const struct pgb_result *r)
{
	o->format->write(stdout, r);
	return output_finish();
}

static void
free_result(struct pgb_result *r)
{
	size_t i;

	for (i = 0; r->cells != NULL && i < r->nclients * r->nsettings; i++)
		free(r->cells[i].cell.slices);
	free(r->cells);
}

/* The sweep, from the probe to the cluster removed. *left is set when the
 * server or its directory could not be stopped or removed (said on
 * stderr): what was measured is still reported, and the exit is 1. */
static enum exit_status
measure(const struct pgbench_options *o, struct pgb_result *r, const struct pgbin *bin,
    const struct child_user *user, const char *script, bool *left)
{
	const struct method *m = NULL;
	struct cluster c;
	char why[CLUSTER_WHY_LEN], rwhy[CLUSTER_WHY_LEN];
	enum exit_status rc;
	bool usage = false;
	int failed;

	/* DIR judged and held before the probe's minutes, and kept. */
	if (cluster_open(&c, o->dir, bin, user, why, sizeof why) == -1) {
		diag_error("%s", why);
		cluster_remove(&c, rwhy, sizeof rwhy);
		return STATUS_USAGE;
	}
	if ((rc = probe_dir(o, r, &m)) != STATUS_OK) {
		cluster_remove(&c, rwhy, sizeof rwhy);
		return rc;
	}
	r->wal_sync_method = m->name;
	if (sweep_plan(o->delays, o->ndelays, o->siblings, o->nsiblings, r) == -1) {
		diag_error("sweep: out of memory");
		cluster_remove(&c, rwhy, sizeof rwhy);
		return STATUS_IO;
	}
	say_length(o, r);
	if (cluster_make(&c, why, sizeof why, &usage) == -1) {
		diag_error("%s", why);
		cluster_remove(&c, rwhy, sizeof rwhy);
		return usage ? STATUS_USAGE : STATUS_IO;
	}
	failed = run_cluster(&c, o, r, m, script, why, sizeof why);
	if (failed && cleanup_stop_signal() != 0)
		failed = 0, r->cut_short = true;
	if (failed)
		diag_error("%s", why);
	if (cluster_remove(&c, rwhy, sizeof rwhy) == -1) {
		diag_error("%s", rwhy);
		*left = true;
	}
	return failed ? STATUS_IO : STATUS_OK;
}

int
pgbench_main(const struct pgbench_options *o)
{
	struct pgb_result *r;
	struct child_user user;
	struct pgbin bin;
	char name[256], err[PGBIN_PATH_LEN + 256], *script = NULL;
	enum exit_status rc;
	uint64_t start = platform_now_ns();
	size_t i;
	bool left = false;

	cleanup_install();
	cleanup_hold();
	if (find_user(o, &user, name, sizeof name) == -1)
		return STATUS_USAGE;
	if (pgbin_find(o->pg_bin, &bin, err, sizeof err) == -1 ||
	    pgbin_user_can_run(&bin, &user, err, sizeof err) == -1) {
		diag_error("%s", err);
		return STATUS_USAGE;
	}
	if (o->workload == PGB_SCRIPT && (script = read_script(o->script)) == NULL)
		return STATUS_USAGE;
	if ((r = calloc(1, sizeof *r)) == NULL) {
		free(script);
		diag_error("pgbench: out of memory");
		return STATUS_IO;
	}
	r->dir = o->dir;
	r->bin_dir = bin.dir;
	r->bin_found_by = bin.found_by;
	r->user = name;
	r->workload = o->workload;
	r->script = o->script;
	r->secs = o->secs;
	r->repeats = o->repeats;
	r->decide = o->decide;
	for (i = 0; i < o->nclients; i++)
		r->clients[i] = o->clients[i];
	r->nclients = o->nclients;
	rc = measure(o, r, &bin, &user, script, &left);
	r->duration_secs = (double)(platform_now_ns() - start) / (double)NSEC_PER_SEC;
	r->stopped_by = cleanup_stop_signal();
	if (rc == STATUS_OK && r->cells != NULL) {
		pgb_finish(r);
		sweep_advise(r, method_find(r->wal_sync_method));
		sweep_settings(r);
		if (write_report(o, r) != STATUS_OK)
			rc = STATUS_IO;
	}
	if (left)
		rc = STATUS_IO;
	free_result(r);
	free(r);
	free(script);
	cleanup_die();
	return rc;
}
