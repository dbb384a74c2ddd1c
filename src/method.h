/* method.h: the sync methods a database can use for its log, as one table.
 * Code looks a method up by name instead of switching on it. */
#ifndef SYNCPROBE_METHOD_H
#define SYNCPROBE_METHOD_H

#include <stddef.h>

#include "platform.h"

struct method {
	const char *name;		/* PostgreSQL's wal_sync_method value */
	enum open_sync open_sync;	/* open_*: each write is synchronous */
	enum sync_call sync;		/* the others: one call after the writes */
};

extern const struct method method_table[];
extern const size_t method_count;

/* The method of that name, or NULL. */
const struct method *method_find(const char *name);

/* Its index in method_table. */
int method_index(const struct method *m);

/* NULL when the method can run on this system, else why not. */
const char *method_unavailable(const struct method *m);

#endif
