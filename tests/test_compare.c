/* test_compare.c: compare's loader on a saved report (the fuzzer's seed,
 * a report as -F json writes it) and on the same report broken one way at
 * a time: what it keeps, and the one line it refuses with. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "tap.h"

#define ERR_LEN 512

static char err[ERR_LEN];
static char *seed;
static size_t seed_len;

static void
read_seed(void)
{
	const char *dir = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/tests/fuzz-seed-report.json", dir ? dir : ".");
	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (seed = malloc((size_t)n + 1)) == NULL ||
	    fread(seed, 1, (size_t)n, f) != (size_t)n) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	seed[n] = '\0';
	seed_len = (size_t)n;
	fclose(f);
}

/* Load text as compare does: 0, or -1 with the reason in err. */
static int
load(const char *text, struct compare_run *run)
{
	struct json_node *doc = json_read(text, strlen(text), err, sizeof err);

	memset(run, 0, sizeof *run);
	run->file = "a.json";
	if (doc == NULL)
		return -1;
	run->doc = doc;
	return compare_load(doc, run, err, sizeof err);
}

/* The seed with its first from replaced by to. */
static char *
edited(const char *from, const char *to)
{
	const char *at = strstr(seed, from);
	size_t head = at ? (size_t)(at - seed) : 0;
	char *s = malloc(seed_len + strlen(to) + 1);

	if (at == NULL || s == NULL) {
		printf("Bail out! '%s' is not in the seed report\n", from);
		exit(1);
	}
	memcpy(s, seed, head);
	strcpy(s + head, to);
	strcat(s, at + strlen(from));
	return s;
}

static void
test_seed(void)
{
	struct compare_run run;

	ok(load(seed, &run) == 0, "the seed report loads (%s)", err);
	ok(run.ntargets == 2 && run.targets[0].nrows == 4, "its 2 targets and 4 rows of the first");
	ok(strcmp(run.targets[0].rows[0].group, "one") == 0 &&
	    strcmp(run.targets[0].rows[0].name, "fsync (direct)") == 0 &&
	    run.targets[0].rows[0].have_figures && run.targets[0].rows[0].ops_per_sec == 10190.1,
	    "a row: its group, name and ops/sec");
	ok(run.targets[0].wal_sync_method != NULL &&
	    strcmp(run.targets[0].wal_sync_method, "fdatasync") == 0, "the advised method");
	ok(run.targets[0].nwarnings == 4, "the warnings");
	ok(run.label != NULL && strstr(run.label, "\t") == NULL && strstr(run.label, "\\t") != NULL,
	    "the label's tab is escaped for the terminal (%s)", run.label ? run.label : "NULL");
	compare_run_free(&run);
}

static void
refused(const char *from, const char *to, const char *want, const char *desc)
{
	struct compare_run run;
	char *text = edited(from, to);

	ok(load(text, &run) == -1 && strstr(err, want) != NULL && strchr(err, '\n') == NULL,
	    "%s: refused, one line naming it (%s)", desc, err);
	compare_run_free(&run);
	free(text);
}

/* The seed of schema 1 (every setting set), as version 2 writes a run
 * that writes no blocks (-t etcd alone), and as version 3 names the
 * advised commit_delay (commit_delay_usecs): each loads, with its delay. */
static void
test_versions(void)
{
	struct compare_run run;
	char *v2 = edited("\"schema_version\":1", "\"schema_version\":2");
	char *text = NULL, *v3 = NULL, *renamed = NULL;

	ok(load(seed, &run) == 0 && run.have_block && run.block_bytes == 8192 &&
	    run.targets[0].have_delay && run.targets[0].commit_delay == 47,
	    "schema 1: read, its block size and commit_delay known");
	compare_run_free(&run);
	free(seed);
	seed = v2;
	text = edited("\"block_bytes\":8192", "\"block_bytes\":null");
	ok(load(text, &run) == 0 && !run.have_block,
	    "schema 2, block_bytes null: read, no block size (%s)", err);
	compare_run_free(&run);
	free(text);
	ok(load(seed, &run) == 0 && run.targets[0].have_delay && run.targets[0].commit_delay == 47,
	    "schema 2: its commit_delay read (%s)", err);
	compare_run_free(&run);
	text = edited("\"schema_version\":2", "\"schema_version\":3");
	free(seed);
	seed = text;
	/* Both targets' keys renamed (the second's delay is null), the seed
	 * kept as it is for the refusal below. */
	renamed = edited("\"commit_delay\":null", "\"commit_delay_usecs\":null");
	v3 = seed;
	seed = renamed;
	text = edited("\"commit_delay\":47", "\"commit_delay_usecs\":47");
	free(renamed);
	seed = v3;
	ok(load(text, &run) == 0 && run.targets[0].have_delay && run.targets[0].commit_delay == 47 &&
	    !run.targets[1].have_delay, "schema 3: its commit_delay_usecs read (%s)", err);
	compare_run_free(&run);
	free(text);
	/* A version 3 report still naming it commit_delay is not one. */
	ok(load(seed, &run) == -1 &&
	    strstr(err, "targets[0].advice.commit_delay_usecs: missing") != NULL,
	    "schema 3 with schema 2's commit_delay: refused, naming the key (%s)", err);
	compare_run_free(&run);
}

int
main(void)
{
	read_seed();
	test_seed();
	refused("\"schema_version\":1", "\"schema_version\":4",
	    "schema_version 4, and this syncprobe reads versions 1 to 3", "a newer schema version");
	refused("\"schema_version\":1", "\"schema_version\":0",
	    "schema_version 0, and this syncprobe reads versions 1 to 3", "an older schema version");
	refused("\"schema_version\":1", "\"schema_version\":1.5",
	    "schema_version 1.5, and this syncprobe reads versions 1 to 3", "no whole version");
	refused("\"schema_version\":1,", "", "no schema_version", "no schema version");
	refused("\"ops_per_sec\":10190.1", "\"ops_per_sec\":\"fast\"",
	    "targets[0].tests[0].ops_per_sec: is a string, not a number", "a figure of another type");
	refused("\"ops_per_sec\":10190.1", "\"ops_per_sec\":-1", "ops_per_sec",
	    "a figure syncprobe cannot have written");
	test_versions();	/* last: it makes the seed version 2, then 3 */
	free(seed);
	return tap_done();
}
