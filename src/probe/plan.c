/* plan.c: the rows of each test group, built from the options. A new group
 * is one row of group_table plus its rows function. */
#include "config.h"

#include "probe/plan.h"

#include <stdio.h>
#include <string.h>


static void one_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static void two_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static void sizes_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static void descriptor_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static void nosync_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static uint64_t one_block(const struct options *o);
static uint64_t two_blocks(const struct options *o);
static uint64_t sizes_bytes(const struct options *o);
static void no_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);
static void etcd_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max);

const struct group_entry group_table[GROUP_COUNT] = {
	[GROUP_ONE] = { "one", "Compare file sync methods using one {} write",
	    one_rows, one_block, true },
	[GROUP_TWO] = { "two", "Compare file sync methods using two {} writes",
	    two_rows, two_blocks, true },
	[GROUP_SIZES] = { "sizes", "Compare open_sync with different write sizes",
	    sizes_rows, sizes_bytes, true },
	[GROUP_DESCRIPTOR] = { "descriptor",
	    "Test if fsync on non-write file descriptor is honored",
	    descriptor_rows, one_block, true },
	[GROUP_NOSYNC] = { "nosync", "Non-sync'ed {} writes", nosync_rows, one_block, true },
	[GROUP_GROUP] = { "group", "Group commit with commit_delay, {} log pages",
	    no_rows, NULL, false, true },
	[GROUP_ETCD] = { "etcd", "etcd's WAL: appends to a preallocated segment, each synced",
	    etcd_rows, one_block, false },
};

/* The open_sync write sizes test: 16kB as n writes of 16kB/n. */
static const unsigned size_split[] = { 1, 2, 4, 8, 16 };

const struct name_list group_names = NAME_LIST(group_table, struct group_entry, name);

unsigned
plan_all_groups(void)
{
	return (1u << GROUP_COUNT) - 1;
}

unsigned
plan_default_groups(void)
{
	unsigned bits = 0, g;

	for (g = 0; g < GROUP_COUNT; g++)
		if (group_table[g].in_default)
			bits |= 1u << g;
	return bits;
}

const char *
plan_group_name(enum group g)
{
	return (unsigned)g < GROUP_COUNT ? group_table[g].name : "?";
}

void
plan_group_title(enum group g, size_t block_bytes, char *buf, size_t len)
{
	char size[16];

	units_format_size(block_bytes, size, sizeof size);
	names_expand((unsigned)g < GROUP_COUNT ? group_table[g].title : "?", size, buf, len);
}

static uint64_t
one_block(const struct options *o)
{
	return o->block_bytes;
}

static uint64_t
two_blocks(const struct options *o)
{
	return 2 * (uint64_t)o->block_bytes;
}

static uint64_t
sizes_bytes(const struct options *o)
{
	(void)o;
	return SIZES_TOTAL_BYTES;
}

static void
no_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	(void)o;
	(void)specs;
	(void)n;
	(void)max;
}

static bool
want_direct(enum direct_mode d, bool direct)
{
	return d == DIRECT_BOTH || (d == DIRECT_ON) == direct;
}

static struct row_spec *
add_row(struct row_spec *specs, size_t *n, size_t max)
{
	if (*n >= max)
		return NULL;
	return &specs[(*n)++];
}

/* Every chosen method, buffered and direct as --direct says. */
static void
add_method_rows(const struct options *o, enum group g, unsigned writes,
    struct row_spec *specs, size_t *n, size_t max)
{
	size_t i;
	int d;

	for (i = 0; i < METHOD_COUNT; i++) {
		if (!(o->methods & (1u << i)))
			continue;
		for (d = 0; d <= 1; d++) {
			struct row_spec *r;

			if (!want_direct(o->direct, d))
				continue;
			if ((r = add_row(specs, n, max)) == NULL)
				return;
			row_spec_method(r, g, &method_table[i], d, writes, o->block_bytes);
		}
	}
}

/* The method the paced row measures, chosen before anything is measured:
 * --wal-sync-method; else where plain fsync does not flush the drive's
 * cache, the method that does (the advice's choice there); else
 * PostgreSQL's default here, which the advice keeps unless another is
 * more than 10% faster; else the first chosen method this system has. */
static const struct method *
paced_method(const struct options *o)
{
	const struct method *want[3] = { o->wal_method, method_writethrough(),
		method_platform_default() };
	size_t i;

	for (i = 0; i < 3; i++)
		if (want[i] != NULL && (o->methods & (1u << method_index(want[i]))) &&
		    method_unavailable(want[i]) == NULL)
			return want[i];
	for (i = 0; i < METHOD_COUNT; i++)
		if ((o->methods & (1u << i)) && method_unavailable(&method_table[i]) == NULL)
			return &method_table[i];
	return NULL;
}

/* One commit at a time, PACED_ROW_PER_SEC a second, with the paced
 * method: buffered, or direct when only direct rows run. It is no
 * candidate for the advice (its method field is NULL, as -t etcd's rows'):
 * the warning paced_slower sets it beside that method's back-to-back row. */
static void
add_paced_row(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	const struct method *m = paced_method(o);
	struct row_spec *r;

	/* Only when the one-write test was asked for: the rows -t group adds
	 * for its advice do not need it. */
	if (!(o->groups & (1u << GROUP_ONE)) || m == NULL || (r = add_row(specs, n, max)) == NULL)
		return;
	row_spec_method(r, GROUP_ONE, m, o->direct == DIRECT_ON, 1, o->block_bytes);
	r->method = NULL;
	r->pace_per_sec = PACED_ROW_PER_SEC;
	r->default_ops = PACED_ROW_OPS;
	snprintf(r->name, sizeof r->name, "%s%s, %u/s paced", m->name,
	    o->direct == DIRECT_ON ? " (direct)" : "", PACED_ROW_PER_SEC);
}

static void
one_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	add_method_rows(o, GROUP_ONE, 1, specs, n, max);
	add_paced_row(o, specs, n, max);
}

static void
two_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	add_method_rows(o, GROUP_TWO, 2, specs, n, max);
}

static void
sizes_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	const struct method *m = &method_table[METHOD_OPEN_SYNC];
	/* pg_test_fsync writes these with direct I/O; buffered only when the
	 * user turned direct I/O off. */
	bool direct = o->direct != DIRECT_OFF;
	size_t i;

	for (i = 0; i < sizeof size_split / sizeof size_split[0]; i++) {
		struct row_spec *r;
		char size[16];
		unsigned count = size_split[i];

		if ((r = add_row(specs, n, max)) == NULL)
			return;
		row_spec_method(r, GROUP_SIZES, m, direct, count, SIZES_TOTAL_BYTES / count);
		units_format_size(SIZES_TOTAL_BYTES / count, size, sizeof size);
		snprintf(r->name, sizeof r->name, "%u * %s %s write%s%s",
		    count, size, m->name, count > 1 ? "s" : "", direct ? " (direct)" : "");
	}
}

/* Not method rows: they ask whether fsync on another descriptor flushes
 * what this one wrote, and are no wal_sync_method candidates. */
static void
descriptor_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	static const struct {
		const char *name;
		enum op_kind kind;
	} rows[] = {
		{ "write, fsync, close", OP_OPEN_WRITE_FSYNC_CLOSE },
		{ "write, close, fsync", OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC },
	};
	size_t i;

	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct row_spec *r = add_row(specs, n, max);

		if (r == NULL)
			return;
		memset(r, 0, sizeof *r);
		r->group = GROUP_DESCRIPTOR;
		snprintf(r->name, sizeof r->name, "%s", rows[i].name);
		r->io = &method_table[METHOD_FSYNC];
		r->kind = rows[i].kind;
		r->writes_per_op = 1;
		r->write_bytes = o->block_bytes;
	}
}

static void
nosync_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	struct row_spec *r = add_row(specs, n, max);

	if (r == NULL)
		return;
	memset(r, 0, sizeof *r);
	r->group = GROUP_NOSYNC;
	snprintf(r->name, sizeof r->name, "write");
	r->kind = OP_WRITE_SYNC;
	r->writes_per_op = 1;
	r->write_bytes = o->block_bytes;
}

unsigned
plan_added_groups(const struct options *o)
{
	unsigned rows_for_advice = (1u << GROUP_ONE) | (1u << GROUP_TWO);

	if (!(o->groups & (1u << GROUP_GROUP)) || (o->groups & (1u << GROUP_ONE)))
		return 0;
	return rows_for_advice & ~o->groups;
}

bool
plan_has_postgres_groups(unsigned groups)
{
	return (groups & ~PLAN_BIT(GROUP_ETCD)) != 0;
}

/* etcd's WAL sync: fdatasync on Linux, F_FULLFSYNC on macOS (its
 * fileutil.Fdatasync); where F_FULLFSYNC exists, that one. */
static const struct method *
etcd_method(void)
{
	const struct method *m = method_writethrough();

	return m != NULL ? m : &method_table[METHOD_FDATASYNC];
}

/* Two rows of etcd's WAL pattern: back to back as fio's recipe (22MiB of
 * appends by default), and paced at --etcd-rate, the row etcd's verdict
 * reads (advice/verdict.c). */
static void
etcd_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	char size[16];
	int paced;

	units_format_size(o->etcd_write_bytes, size, sizeof size);
	for (paced = 0; paced <= 1; paced++) {
		struct row_spec *r = add_row(specs, n, max);

		if (r == NULL)
			return;
		memset(r, 0, sizeof *r);
		r->group = GROUP_ETCD;
		r->io = etcd_method();
		r->kind = OP_WRITE_SYNC;
		r->writes_per_op = 1;
		r->write_bytes = o->etcd_write_bytes;
		r->segment_bytes = ETCD_SEGMENT_BYTES;
		if (paced) {
			r->pace_per_sec = o->etcd_rate;
			r->default_ops = ETCD_PACED_OPS;
			snprintf(r->name, sizeof r->name, "%s %s, %u/s", r->io->name, size,
			    o->etcd_rate);
		} else {
			r->default_ops = (ETCD_RECIPE_BYTES + o->etcd_write_bytes - 1) /
			    o->etcd_write_bytes;
			snprintf(r->name, sizeof r->name, "%s %s, back to back", r->io->name,
			    size);
		}
	}
}

size_t
plan_build(const struct options *o, struct row_spec *specs, size_t max)
{
	unsigned added = plan_added_groups(o), g;
	struct options buffered = *o;
	size_t n = 0;

	/* The added rows are the server's way of writing its log: buffered,
	 * unless the user asked for direct I/O only. */
	buffered.direct = o->direct == DIRECT_ON ? DIRECT_ON : DIRECT_OFF;
	for (g = 0; g < GROUP_COUNT; g++)
		if (o->groups & (1u << g))
			group_table[g].rows(o, specs, &n, max);
		else if (added & (1u << g))
			group_table[g].rows(&buffered, specs, &n, max);
	return n;
}

uint64_t
plan_min_file_bytes(const struct options *o)
{
	unsigned run = o->groups | plan_added_groups(o), g;
	uint64_t need = o->block_bytes;

	for (g = 0; g < GROUP_COUNT; g++)
		if ((run & (1u << g)) && group_table[g].file_bytes != NULL &&
		    group_table[g].file_bytes(o) > need)
			need = group_table[g].file_bytes(o);
	return need;
}

bool
plan_advice_reads(const struct row_spec *spec, bool direct_only)
{
	return spec->method != NULL && spec->direct == direct_only &&
	    (spec->group == GROUP_ONE || spec->group == GROUP_TWO);
}

int
plan_parse_groups(const char *s, unsigned *out, char *err, size_t errlen)
{
	return options_parse_names(s, &group_names, plan_all_groups(), "tests", out, err, errlen);
}

/* The first of the chosen methods this system has, or NULL. */
const struct method *
plan_first_available(unsigned methods)
{
	size_t i;

	for (i = 0; i < METHOD_COUNT; i++)
		if ((methods & (1u << i)) && method_unavailable(&method_table[i]) == NULL)
			return &method_table[i];
	return NULL;
}

/* The experiment flushes with one of the chosen methods: with none this
 * system has, it would have to take another one. */
static int
check_group_methods(const struct options *o, char *err, size_t errlen)
{
	char have[128];
	size_t i;

	if (!(o->groups & (1u << GROUP_GROUP)) || plan_first_available(o->methods) != NULL)
		return 0;
	for (i = 0; i < METHOD_COUNT && !(o->methods & (1u << i)); i++)
		continue;
	method_available_names(", ", have, sizeof have);
	snprintf(err, errlen, "--methods: the '%s' test needs a method this system has "
	    "(%s: %s; it has %s)", plan_group_name(GROUP_GROUP), method_table[i].name,
	    method_unavailable(&method_table[i]), have);
	return -1;
}

int
plan_validate(const struct options *o, char *err, size_t errlen)
{
	if (o->groups == 0) {
		snprintf(err, errlen, "--tests: no test chosen");
		return -1;
	}
	if (o->methods == 0) {
		snprintf(err, errlen, "--methods: no method chosen");
		return -1;
	}
	if (o->filename != NULL && o->ntargets > 0) {
		snprintf(err, errlen, "--filename: conflicts with a TARGET directory (the file's directory is the target)");
		return -1;
	}
	if (o->wal_method != NULL && !(o->methods & (1u << method_index(o->wal_method)))) {
		snprintf(err, errlen, "--wal-sync-method '%s': not among the --methods measured",
		    o->wal_method->name);
		return -1;
	}
	if (o->wal_method != NULL && !(o->groups & ((1u << GROUP_ONE) | (1u << GROUP_GROUP)))) {
		snprintf(err, errlen, "--wal-sync-method: needs the '%s' or '%s' test, which "
		    "--tests leaves out", plan_group_name(GROUP_ONE), plan_group_name(GROUP_GROUP));
		return -1;
	}
	if (o->wal_method != NULL && (o->groups & (1u << GROUP_GROUP)) &&
	    method_unavailable(o->wal_method) != NULL) {
		snprintf(err, errlen, "--wal-sync-method '%s': the '%s' test cannot use it: %s",
		    o->wal_method->name, plan_group_name(GROUP_GROUP),
		    method_unavailable(o->wal_method));
		return -1;
	}
	return check_group_methods(o, err, errlen);
}
