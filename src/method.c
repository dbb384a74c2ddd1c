/* method.c: the table of sync methods, in pg_test_fsync's order. */
#include "config.h"

#include "method.h"

#include <string.h>

const struct method method_table[] = {
	{ "open_datasync",      OPEN_SYNC_DSYNC, SYNC_CALL_NONE },
	{ "fdatasync",          OPEN_SYNC_NONE,  SYNC_CALL_FDATASYNC },
	{ "fsync",              OPEN_SYNC_NONE,  SYNC_CALL_FSYNC },
	{ "fsync_writethrough", OPEN_SYNC_NONE,  SYNC_CALL_FULLFSYNC },
	{ "open_sync",          OPEN_SYNC_SYNC,  SYNC_CALL_NONE },
};

const size_t method_count = sizeof method_table / sizeof method_table[0];

const struct method *
method_find(const char *name)
{
	size_t i;

	for (i = 0; i < method_count; i++)
		if (strcmp(method_table[i].name, name) == 0)
			return &method_table[i];
	return NULL;
}

int
method_index(const struct method *m)
{
	return (int)(m - method_table);
}

const char *
method_unavailable(const struct method *m)
{
	const char *reason = NULL;

	if (platform_open_sync_flags(m->open_sync, &reason) == -1)
		return reason;
	return platform_sync_unavailable(m->sync);
}
