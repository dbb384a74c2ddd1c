/* method.c: the table of sync methods. A new method is one row here plus
 * the platform functions it names. */
#include "config.h"

#include "probe/method.h"

#include <stdio.h>
#include <string.h>

#include "util/platform.h"
#include "util/strbuf.h"

const struct method method_table[METHOD_COUNT] = {
	[METHOD_OPEN_DATASYNC] = {
		.name = "open_datasync",
		.open_flag = platform_dsync_flag,
		.unavailable = platform_dsync_unavailable,
	},
	[METHOD_FDATASYNC] = {
		.name = "fdatasync",
		.sync = platform_fdatasync,
		.unavailable = platform_fdatasync_unavailable,
		.preferred_call = true,
	},
	[METHOD_FSYNC] = {
		.name = "fsync",
		.sync = platform_fsync,
	},
	[METHOD_FSYNC_WRITETHROUGH] = {
		.name = "fsync_writethrough",
		.sync = platform_full_fsync,
		.sync_op = "fcntl(F_FULLFSYNC)",
		.unavailable = platform_full_fsync_unavailable,
		.writethrough = true,
	},
	[METHOD_OPEN_SYNC] = {
		.name = "open_sync",
		.open_flag = platform_sync_flag,
		.unavailable = platform_sync_unavailable,
	},
};

const struct name_list method_names = NAME_LIST(method_table, struct method, name);

const struct method *
method_find(const char *name)
{
	int i = names_find(&method_names, name);

	return i < 0 ? NULL : &method_table[i];
}

int
method_index(const struct method *m)
{
	return (int)(m - method_table);
}

const char *
method_unavailable(const struct method *m)
{
	return m->unavailable ? m->unavailable() : NULL;
}

void
method_available_names(const char *sep, char *buf, size_t len)
{
	struct strbuf b;
	size_t i;

	strbuf_init(&b, buf, len);
	for (i = 0; i < METHOD_COUNT; i++)
		if (method_unavailable(&method_table[i]) == NULL)
			strbuf_add(&b, "%s%s", b.used ? sep : "", method_table[i].name);
}

int
method_open_flags(const struct method *m)
{
	return m->open_flag ? m->open_flag() : 0;
}

int
method_sync(const struct method *m, int fd)
{
	return m->sync ? m->sync(fd) : 0;
}

const char *
method_sync_op(const struct method *m)
{
	return m->sync_op ? m->sync_op : m->name;
}

bool
method_syncs_apart(const struct method *m)
{
	return m->sync != NULL;
}

const struct method *
method_platform_default(void)
{
	size_t i;

	/* Where the system prefers a sync call, PostgreSQL's default is that
	 * call; elsewhere the first method of the table it has. */
	if (platform_prefers_sync_call())
		for (i = 0; i < METHOD_COUNT; i++)
			if (method_table[i].preferred_call &&
			    method_unavailable(&method_table[i]) == NULL)
				return &method_table[i];
	for (i = 0; i < METHOD_COUNT; i++)
		if (method_unavailable(&method_table[i]) == NULL)
			return &method_table[i];
	return &method_table[METHOD_FSYNC];
}

const struct method *
method_writethrough(void)
{
	size_t i;

	for (i = 0; i < METHOD_COUNT; i++)
		if (method_table[i].writethrough && method_unavailable(&method_table[i]) == NULL)
			return &method_table[i];
	return NULL;
}
