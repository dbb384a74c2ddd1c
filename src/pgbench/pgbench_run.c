/* pgbench_run.c: one run of pgbench and its figures. pgbench's output is
 * another program's: it is bounded (child.c), its lines are matched by
 * their whole prefix, and a number must be all there is after it. */
#include "config.h"

#include "pgbench/pgbench_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/escape.h"
#include "util/units.h"

#define RUN_SLACK_NS    (120ULL * NSEC_PER_SEC)	/* beyond -T: connections, a slow end */
#define TX_PREFIX  "number of transactions actually processed: "
#define TPS_PREFIX "tps = "
/* PostgreSQL 14 on; before it, "excluding connections establishing". */
#define TPS_SUFFIX     " (without initial connection time)"
#define TPS_SUFFIX_OLD " (excluding connections establishing)"
/* The server's WAL flushes. With an open_* method every WAL write is
 * durable and no sync call follows, so pg_stat_wal's wal_sync stays 0
 * (PostgreSQL documents it so): the writes (XLogWrite's, wal_write) are
 * the flushes there. */
#define WAL_SYNC_SQL   "SELECT wal_sync FROM pg_stat_wal"
#define WAL_WRITE_SQL  "SELECT wal_write FROM pg_stat_wal"
/* pgbench's backends still ending: each reports its WAL counts to
 * pg_stat_wal as it exits, so the count after a run waits for them. */
#define BACKENDS_SQL   "SELECT count(*) FROM pg_stat_activity WHERE " \
	"backend_type = 'client backend' AND pid <> pg_backend_pid()"
#define BACKENDS_WAIT_TRIES 50	/* of 0.1 s: then the count is read anyway */

int
pgbench_read_count(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* The line's text after prefix, when the line starts with it. */
static const char *
after(const char *line, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && strncmp(line, prefix, p) == 0 ? line + p : NULL;
}

static int
parse_tps(const char *v, size_t n, double *tps)
{
	char num[64], *end;
	size_t k = 0;

	while (k < n && k < sizeof num - 1 && (v[k] == '.' || (v[k] >= '0' && v[k] <= '9')))
		k++;
	if (k == 0 || k >= sizeof num - 1)
		return -1;
	memcpy(num, v, k);
	num[k] = '\0';
	if (!((n - k == strlen(TPS_SUFFIX) && strncmp(v + k, TPS_SUFFIX, n - k) == 0) ||
	    (n - k == strlen(TPS_SUFFIX_OLD) && strncmp(v + k, TPS_SUFFIX_OLD, n - k) == 0)))
		return -1;
	errno = 0;
	*tps = strtod(num, &end);
	return errno == 0 && *end == '\0' && isfinite(*tps) ? 0 : -1;
}

int
pgbench_parse(const char *out, struct pgbench_figures *f, char *err, size_t errlen)
{
	const char *line = out, *v;
	unsigned ntx = 0, ntps = 0;

	memset(f, 0, sizeof *f);
	while (*line != '\0') {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char num[32];

		if ((v = after(line, n, TX_PREFIX)) != NULL) {
			size_t k = n - (size_t)(v - line);

			ntx++;
			if (k == 0 || k >= sizeof num)
				goto bad_tx;
			memcpy(num, v, k);
			num[k] = '\0';
			if (pgbench_read_count(num, &f->transactions) == -1)
				goto bad_tx;
		} else if ((v = after(line, n, TPS_PREFIX)) != NULL) {
			ntps++;
			if (parse_tps(v, n - (size_t)(v - line), &f->tps) == -1) {
				snprintf(err, errlen, "pgbench: a 'tps = ' line that is not "
				    "'tps = NUMBER (without initial connection time)'");
				return -1;
			}
		}
		line += n + (nl ? 1 : 0);
	}
	if (ntx != 1 || ntps != 1) {
		snprintf(err, errlen, "pgbench: printed %u '%.*s' and %u 'tps = ' lines "
		    "(one of each expected)", ntx, (int)strlen(TX_PREFIX) - 2, TX_PREFIX, ntps);
		return -1;
	}
	return 0;
bad_tx:
	snprintf(err, errlen, "pgbench: a '%.*s' line without a whole number",
	    (int)strlen(TX_PREFIX) - 2, TX_PREFIX);
	return -1;
}

/* Until no other client backend is left (bounded). */
static int
wait_for_backends(struct cluster *c, char *why, size_t len)
{
	char out[64];
	uint64_t n = 1;
	int i;

	for (i = 0; i < BACKENDS_WAIT_TRIES; i++) {
		if (cluster_sql(c, BACKENDS_SQL, out, sizeof out, why, len) == -1)
			return -1;
		if (pgbench_read_count(out, &n) == -1) {
			snprintf(why, len, "psql: pg_stat_activity's count is not a count");
			return -1;
		}
		if (n == 0)
			break;
		usleep(100000);
	}
	return 0;
}

static int
wal_flushes(struct cluster *c, bool by_write, uint64_t *n, char *why, size_t len)
{
	char out[64], shown[ESCAPE_LEN(64)];

	if (cluster_sql(c, by_write ? WAL_WRITE_SQL : WAL_SYNC_SQL, out, sizeof out,
	    why, len) == -1)
		return -1;
	if (pgbench_read_count(out, n) == -1) {
		escape_for_terminal(out, shown, sizeof shown);
		snprintf(why, len, "psql: pg_stat_wal's %s is not a count: '%s'",
		    by_write ? "wal_write" : "wal_sync", shown);
		return -1;
	}
	return 0;
}

int
pgbench_run(struct cluster *c, const struct pgbench_run_spec *s,
    struct pgbench_figures *f, char *why, size_t len)
{
	char nc[16], secs[16], opts[96];
	const char *argv[] = { c->bin->path[PGBIN_PGBENCH], "-n", "-c", nc, "-j", nc,
		"-T", secs, "-h", c->work, "-p", c->port, "-U", CLUSTER_SUPERUSER,
		s->builtin ? "-b" : "-f", s->builtin ? s->builtin : s->script, "postgres", NULL };
	/* Both are superuser-settable per session: no reload, no restart. */
	const char *env[] = { opts, NULL };
	struct child_spec cs = { .argv = argv, .env = env, .user = c->user, .cwd = c->work,
		.timeout_ns = (uint64_t)s->secs * NSEC_PER_SEC + RUN_SLACK_NS,
		.out_max = CLUSTER_OUT_MAX, .space = &c->floor };
	struct child_result r;
	uint64_t before = 0, after_n = 0;
	char err[256];
	int rc;

	snprintf(nc, sizeof nc, "%u", s->clients);
	snprintf(secs, sizeof secs, "%u", s->secs);
	snprintf(opts, sizeof opts, "PGOPTIONS=-c commit_delay=%ld -c commit_siblings=%u",
	    s->delay_usecs, s->siblings);
	/* Between runs: the next one stops before the disk is full, not in
	 * it (during it, child.c kills pgbench at the floor). */
	if (cluster_room_for_run(c, why, len) == -1 ||
	    cluster_sql(c, "CHECKPOINT", NULL, 0, why, len) == -1)
		return -1;
	if (s->have_wal && wal_flushes(c, s->flush_by_write, &before, why, len) == -1)
		return -1;
	rc = child_run(&cs, &r);
	if (rc == -1)
		snprintf(why, len, "pgbench: %s", r.why);
	else if ((rc = pgbench_parse(r.out, f, err, sizeof err)) == -1) {
		char tail[ESCAPE_LEN(CHILD_ERR_TAIL)];

		escape_for_terminal(r.err, tail, sizeof tail);
		snprintf(why, len, "%s%s%s", err, r.err[0] ? "; its stderr ends: " : "", tail);
	}
	child_result_free(&r);
	if (rc == -1)
		return -1;
	if (s->have_wal) {
		if (wait_for_backends(c, why, len) == -1 ||
		    wal_flushes(c, s->flush_by_write, &after_n, why, len) == -1)
			return -1;
		f->have_wal = true;
		f->wal_flushes = after_n >= before ? after_n - before : 0;
	}
	return 0;
}

int
pgbench_initialize(struct cluster *c, char *why, size_t len)
{
	const char *argv[] = { c->bin->path[PGBIN_PGBENCH], "-i", "-s", "1", "-q",
		"-h", c->work, "-p", c->port, "-U", CLUSTER_SUPERUSER, "postgres", NULL };
	struct child_spec cs = { .argv = argv, .user = c->user, .cwd = c->work,
		.timeout_ns = RUN_SLACK_NS * 5, .out_max = CLUSTER_OUT_MAX, .space = &c->floor };
	struct child_result r;
	int rc = child_run(&cs, &r);

	if (rc == -1)
		snprintf(why, len, "pgbench -i: %s", r.why);
	child_result_free(&r);
	return rc;
}
