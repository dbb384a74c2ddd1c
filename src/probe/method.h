/* method.h: the sync methods a database can use for its log, one table row
 * each: its name, how it opens the file, the call that makes writes
 * durable, and whether this system has it. Everything else (option
 * parsing, usage text, the rows of a run, the advice) is built from it. */
#ifndef SYNCPROBE_METHOD_H
#define SYNCPROBE_METHOD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/names.h"

/* The rows of method_table, in pg_test_fsync's order (which is also
 * PostgreSQL's order of preference for its default). */
enum method_id {
	METHOD_OPEN_DATASYNC,
	METHOD_FDATASYNC,
	METHOD_FSYNC,
	METHOD_FSYNC_WRITETHROUGH,
	METHOD_OPEN_SYNC,
	METHOD_COUNT
};

struct method {
	const char *name;	/* PostgreSQL's wal_sync_method value */
	/* The open flag that makes every write durable (O_DSYNC, O_SYNC),
	 * or NULL for a method that syncs with a call after its writes. */
	int (*open_flag)(void);
	/* The call after the writes, or NULL for an open_* method; 0 or -1
	 * with errno. */
	int (*sync)(int fd);
	const char *sync_op;	/* that call, in error messages; NULL: name */
	/* NULL when this system has the method, else why not. */
	const char *(*unavailable)(void);
	/* PostgreSQL's default where the system prefers a sync call to an
	 * open flag (Linux, FreeBSD): see method_platform_default(). */
	bool preferred_call;
	/* Flushes the drive's own cache, which plain fsync does not do on
	 * systems that have such a call (F_FULLFSYNC). */
	bool writethrough;
};

extern const struct method method_table[METHOD_COUNT];
extern const struct name_list method_names;

/* The method of that name, or NULL. */
const struct method *method_find(const char *name);

/* Its index in method_table (an enum method_id). */
int method_index(const struct method *m);

/* NULL when the method can run on this system, else why not. */
const char *method_unavailable(const struct method *m);

/* The names of the methods this system has, joined with sep into buf (cut
 * short, never overrun). */
void method_available_names(const char *sep, char *buf, size_t len);

/* The open flags the method adds (0 for write-then-sync methods). */
int method_open_flags(const struct method *m);

/* Make what was written to fd durable, as the method does after its
 * writes (nothing for open_* methods). 0, or -1 with errno. */
int method_sync(const struct method *m, int fd);

/* The failing call's name for an error message (the method's name, or
 * the call it makes where that differs). */
const char *method_sync_op(const struct method *m);

/* Whether the method's durability comes from a call after the writes. */
bool method_syncs_apart(const struct method *m);

/* The wal_sync_method PostgreSQL uses by default on this system. */
const struct method *method_platform_default(void);

/* The method that flushes the drive's cache where plain fsync does not,
 * when this system has one; NULL elsewhere. */
const struct method *method_writethrough(void);

#endif
