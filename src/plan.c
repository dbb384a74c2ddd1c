/* plan.c: the rows of each test group, built from the options. */
#include "config.h"

#include "plan.h"

#include <stdio.h>
#include <string.h>

/* The open_sync write sizes test: 16kB as n writes of 16kB/n. */
static const unsigned size_split[] = { 1, 2, 4, 8, 16 };

static bool
want_direct(enum direct_mode d, bool direct)
{
	return d == DIRECT_BOTH || (d == DIRECT_ON) == direct;
}

static struct row_spec *
add_row(struct row_spec *specs, size_t *n, size_t max)
{
	struct row_spec *r;

	if (*n >= max)
		return NULL;
	r = &specs[(*n)++];
	memset(r, 0, sizeof *r);
	return r;
}

static void
add_method_rows(const struct options *o, enum group g, unsigned writes,
    struct row_spec *specs, size_t *n, size_t max)
{
	size_t i;
	int d;

	for (i = 0; i < method_count; i++) {
		const struct method *m = &method_table[i];

		if (!(o->methods & (1u << i)))
			continue;
		for (d = 0; d <= 1; d++) {
			struct row_spec *r;

			if (!want_direct(o->direct, d))
				continue;
			if ((r = add_row(specs, n, max)) == NULL)
				return;
			r->group = g;
			snprintf(r->name, sizeof r->name, "%s%s", m->name, d ? " (direct)" : "");
			r->method = m;
			r->open_sync = m->open_sync;
			r->sync = m->sync;
			r->kind = OP_WRITE_SYNC;
			r->direct = d;
			r->writes_per_op = writes;
			r->write_bytes = o->block_bytes;
		}
	}
}

static void
add_size_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	const struct method *m = method_find("open_sync");
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
		options_format_size(SIZES_TOTAL_BYTES / count, size, sizeof size);
		r->group = GROUP_SIZES;
		snprintf(r->name, sizeof r->name, "%u * %s open_sync write%s%s",
		    count, size, count > 1 ? "s" : "", direct ? " (direct)" : "");
		r->method = m;
		r->open_sync = m->open_sync;
		r->sync = m->sync;
		r->kind = OP_WRITE_SYNC;
		r->direct = direct;
		r->writes_per_op = count;
		r->write_bytes = SIZES_TOTAL_BYTES / count;
	}
}

static void
add_descriptor_rows(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	static const struct {
		const char *name;
		enum op_kind kind;
	} rows[] = {
		{ "write, fsync, close", OP_OPEN_WRITE_FSYNC_CLOSE },
		{ "write, close, fsync", OP_OPEN_WRITE_CLOSE_REOPEN_FSYNC },
	};
	size_t i;

	for (i = 0; i < 2; i++) {
		struct row_spec *r = add_row(specs, n, max);

		if (r == NULL)
			return;
		r->group = GROUP_DESCRIPTOR;
		snprintf(r->name, sizeof r->name, "%s", rows[i].name);
		r->method = method_find("fsync");
		r->open_sync = OPEN_SYNC_NONE;
		r->sync = SYNC_CALL_FSYNC;
		r->kind = rows[i].kind;
		r->writes_per_op = 1;
		r->write_bytes = o->block_bytes;
	}
}

static void
add_nosync_row(const struct options *o, struct row_spec *specs, size_t *n, size_t max)
{
	struct row_spec *r = add_row(specs, n, max);

	if (r == NULL)
		return;
	r->group = GROUP_NOSYNC;
	snprintf(r->name, sizeof r->name, "write");
	r->open_sync = OPEN_SYNC_NONE;
	r->sync = SYNC_CALL_NONE;
	r->kind = OP_WRITE_SYNC;
	r->writes_per_op = 1;
	r->write_bytes = o->block_bytes;
}

size_t
plan_build(const struct options *o, struct row_spec *specs, size_t max)
{
	size_t n = 0;

	if (o->groups & (1u << GROUP_ONE))
		add_method_rows(o, GROUP_ONE, 1, specs, &n, max);
	if (o->groups & (1u << GROUP_TWO))
		add_method_rows(o, GROUP_TWO, 2, specs, &n, max);
	if (o->groups & (1u << GROUP_SIZES))
		add_size_rows(o, specs, &n, max);
	if (o->groups & (1u << GROUP_DESCRIPTOR))
		add_descriptor_rows(o, specs, &n, max);
	if (o->groups & (1u << GROUP_NOSYNC))
		add_nosync_row(o, specs, &n, max);
	return n;
}

void
plan_group_title(enum group g, size_t block_bytes, char *buf, size_t len)
{
	char size[16];

	options_format_size(block_bytes, size, sizeof size);
	switch (g) {
	case GROUP_ONE:
		snprintf(buf, len, "Compare file sync methods using one %s write", size);
		break;
	case GROUP_TWO:
		snprintf(buf, len, "Compare file sync methods using two %s writes", size);
		break;
	case GROUP_SIZES:
		snprintf(buf, len, "Compare open_sync with different write sizes");
		break;
	case GROUP_DESCRIPTOR:
		snprintf(buf, len, "Test if fsync on non-write file descriptor is honored");
		break;
	case GROUP_NOSYNC:
		snprintf(buf, len, "Non-sync'ed %s writes", size);
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

bool
plan_row_splits(const struct row_spec *spec)
{
	return spec->sync != SYNC_CALL_NONE;
}
