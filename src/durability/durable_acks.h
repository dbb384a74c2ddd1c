/* durable_acks.h: the durability writer's standard output, formatted and
 * read back, without I/O. It is one header line, then one line per record
 * the writer synced, printed only after the sync returned, and an end line
 * when the writer stopped on its own:
 *
 *   syncprobe-durability 1 run=RUNID block=8192 size=16777216 pattern=append method=fdatasync direct=off [acks=same-filesystem] file=PATH
 *   ack RUNID SEQ OFFSET
 *   end RUNID LAST_SEQ count|time|signal|error
 *
 * RUNID is 16 lowercase hex digits; the man page (DURABILITY) is the
 * reference. Reading checks every line against the header, so the
 * acknowledgements of two runs cannot be mixed up. */
#ifndef SYNCPROBE_DURABLE_ACKS_H
#define SYNCPROBE_DURABLE_ACKS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "durability/durable_record.h"

#define DURABLE_RUN_ID_LEN  17	/* 16 hex digits and a NUL */
#define DURABLE_LINE_MAX    (PATH_MAX + 256)

/* Why the writer stopped, as its end line says; NONE: no end line, the
 * writer was still writing when its output ended (the power cut). */
enum durable_end {
	DURABLE_END_NONE,
	DURABLE_END_COUNT,	/* -n records written */
	DURABLE_END_TIME,	/* --for elapsed */
	DURABLE_END_SIGNAL,	/* SIGINT, SIGTERM or SIGHUP */
	DURABLE_END_ERROR	/* a write or sync failed */
};

/* Where the writer saw its acknowledgements go: a regular file on the
 * filesystem (or the device) under test is lost with the data at a power
 * cut, and the check then proves nothing. Said in the header line
 * (acks=same-filesystem, acks=same-device), absent when not so. */
enum durable_acks_on {
	DURABLE_ACKS_ELSEWHERE,		/* a pipe, a terminal, another disk */
	DURABLE_ACKS_SAME_FILESYSTEM,
	DURABLE_ACKS_SAME_DEVICE
};

/* What a reader has learnt from the lines so far. */
struct durable_acks {
	bool have_header;
	struct durable_header header;
	enum durable_acks_on acks_on;
	char file[PATH_MAX];	/* the durability file, as the writer named it */
	uint64_t last_seq;	/* newest acknowledged record; 0: none yet */
	enum durable_end end;
	uint64_t lines;		/* lines read */
};

void durable_run_id_format(uint64_t run_id, char buf[DURABLE_RUN_ID_LEN]);

/* Each formats one line, newline included; -1 when it does not fit. */
int durable_header_line(char *buf, size_t len, const struct durable_header *h,
    enum durable_acks_on acks_on, const char *file);
int durable_ack_line(char *buf, size_t len, uint64_t run_id, uint64_t seq,
    uint64_t offset);
int durable_end_line(char *buf, size_t len, uint64_t run_id, uint64_t last_seq,
    enum durable_end why);

void durable_acks_init(struct durable_acks *a);

/* Read one whole line (without its newline). Returns 0, or -1 with the
 * reason in err when the line is malformed or does not follow from the
 * ones before it (another run, a gap, anything after the end line). */
int durable_acks_feed(struct durable_acks *a, const char *line, char *err,
    size_t errlen);

const char *durable_end_name(enum durable_end e);

/* "same-filesystem", "same-device"; NULL for DURABLE_ACKS_ELSEWHERE. */
const char *durable_acks_on_name(enum durable_acks_on on);

#endif
