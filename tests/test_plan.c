/* test_plan.c: the test groups' table and the rows a run plans from it, in
 * pg_test_fsync's order; the file each needs; -t's parsing; the checks
 * that need every option; which rows the advice reads. */
#include "config.h"

#include <string.h>

#include "probe/method.h"
#include "probe/options.h"
#include "probe/plan.h"
#include "tap.h"

static struct row_spec specs[PLAN_MAX_ROWS];
static char err[ERRBUF_LEN];

static void
defaults(struct options *o)
{
	options_defaults(o);
	o->groups = plan_default_groups();
}

/* The rows o plans, as "group name" lines joined with "; ". */
static const char *
planned(const struct options *o)
{
	static char buf[2048];
	size_t i, n = plan_build(o, specs, PLAN_MAX_ROWS), used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %s",
		    i ? "; " : "", plan_group_name(specs[i].group), specs[i].name);
	return buf;
}

static void
test_table(void)
{
	struct options o;
	unsigned g;

	defaults(&o);
	ok(plan_default_groups() == ((1u << GROUP_ONE) | (1u << GROUP_TWO) | (1u << GROUP_SIZES) |
	    (1u << GROUP_DESCRIPTOR) | (1u << GROUP_NOSYNC)), "pg_test_fsync's five groups by default");
	ok(plan_all_groups() == (1u << GROUP_COUNT) - 1, "all: every group");
	for (g = 0; g < GROUP_COUNT; g++)
		ok(group_table[g].experiment == (group_table[g].file_bytes == NULL),
		    "group %s: an experiment exactly when it sizes its own file",
		    plan_group_name((enum group)g));
	ok(group_table[GROUP_GROUP].experiment, "-t group is the experiment, run between the steps");
	ok(strcmp(plan_group_name(GROUP_COUNT), "?") == 0, "no group past the table");
}

static void
test_rows(void)
{
	struct options o;

	defaults(&o);
	o.groups = 1u << GROUP_ONE;
	o.methods = 1u << METHOD_FDATASYNC;
	ok(strcmp(planned(&o), "one fdatasync; one fdatasync (direct); "
	    "one fdatasync, 100/s paced") == 0,
	    "one method, --direct=both: buffered then direct, then paced (%s)", planned(&o));
	o.methods = (1u << METHOD_FSYNC) | (1u << METHOD_OPEN_SYNC);
	o.direct = DIRECT_ON;
	ok(strcmp(planned(&o), "one fsync (direct); one open_sync (direct); "
	    "one fsync (direct), 100/s paced") == 0,
	    "without the default method: the first chosen, direct with --direct=on (%s)",
	    planned(&o));
	o.wal_method = method_find("open_sync");
	ok(strstr(planned(&o), "one open_sync (direct), 100/s paced") != NULL,
	    "--wal-sync-method's method is the paced one (%s)", planned(&o));
	o.wal_method = NULL;
	o.methods = 1u << METHOD_FDATASYNC;
	o.direct = DIRECT_BOTH;
	o.direct = DIRECT_OFF;
	o.groups = (1u << GROUP_SIZES) | (1u << GROUP_DESCRIPTOR) | (1u << GROUP_NOSYNC);
	ok(strcmp(planned(&o), "sizes 1 * 16kB open_sync write; sizes 2 * 8kB open_sync writes; "
	    "sizes 4 * 4kB open_sync writes; sizes 8 * 2kB open_sync writes; "
	    "sizes 16 * 1kB open_sync writes; descriptor write, fsync, close; "
	    "descriptor write, close, fsync; nosync write") == 0,
	    "sizes, descriptor, nosync: pg_test_fsync's rows in its order (%s)", planned(&o));
	o.groups = 1u << GROUP_GROUP;
	o.methods = (1u << METHOD_COUNT) - 1;
	ok(strstr(planned(&o), "one ") == planned(&o) && strstr(planned(&o), "two ") != NULL,
	    "-t group alone adds the one- and two-write rows its advice rests on");
}

static void
test_file_bytes(void)
{
	struct options o;

	defaults(&o);
	ok(plan_min_file_bytes(&o) == SIZES_TOTAL_BYTES, "the sizes group needs 16kB");
	o.groups = 1u << GROUP_ONE;
	ok(plan_min_file_bytes(&o) == 8192, "one: a block");
	o.groups = 1u << GROUP_TWO;
	o.block_bytes = 65536;
	ok(plan_min_file_bytes(&o) == 131072, "two 64kB blocks: 128kB");
}

static void
test_parse_groups(void)
{
	unsigned bits = 0;

	ok(plan_parse_groups("two,one", &bits, err, sizeof err) == 0 &&
	    bits == ((1u << GROUP_ONE) | (1u << GROUP_TWO)), "a list of names, any order");
	ok(plan_parse_groups("all", &bits, err, sizeof err) == 0 && bits == plan_all_groups(),
	    "all");
	ok(plan_parse_groups("one,xyz", &bits, err, sizeof err) == -1 &&
	    strstr(err, "'xyz'") != NULL && strstr(err, "group") != NULL,
	    "an unknown name is refused, with the names there are (%s)", err);
}

static void
test_validate(void)
{
	struct options o;

	defaults(&o);
	ok(plan_validate(&o, err, sizeof err) == 0, "the defaults are valid");
	o.wal_method = method_find("fdatasync");
	o.groups = 1u << GROUP_SIZES;
	ok(plan_validate(&o, err, sizeof err) == -1 && strcmp(err, "--wal-sync-method: needs "
	    "the 'one' or 'group' test, which --tests leaves out") == 0,
	    "--wal-sync-method without a test that reads it (%s)", err);
	defaults(&o);
	o.groups = 0;
	ok(plan_validate(&o, err, sizeof err) == -1 && strcmp(err, "--tests: no test chosen") == 0,
	    "no group");
}

static void
test_advice_reads(void)
{
	struct row_spec s;

	row_spec_method(&s, GROUP_ONE, method_find("fsync"), false, 1, 8192);
	ok(plan_advice_reads(&s, false), "a buffered one-write method row");
	ok(!plan_advice_reads(&s, true), "not when only direct rows ran");
	row_spec_method(&s, GROUP_SIZES, method_find("open_sync"), false, 1, 8192);
	ok(!plan_advice_reads(&s, false), "not a sizes row");
}

int
main(void)
{
	test_table();
	test_rows();
	test_file_bytes();
	test_parse_groups();
	test_validate();
	test_advice_reads();
	return tap_done();
}
