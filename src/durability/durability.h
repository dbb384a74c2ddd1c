/* durability.h: does the storage keep what it acknowledged? Two halves of
 * a power-cut check (issue 14). The writer (syncprobe durability write) syncs
 * self-checking records into a file it creates and keeps, and prints an
 * acknowledgement line for each only after its sync returned; the lines
 * go to another machine. After the power cut and the reboot the verifier
 * (syncprobe durability verify --acks=FILE) checks that every acknowledged record
 * the file can still hold is there.
 *
 * durability.c has the two loops and the file handling, durability_report.c
 * the verifier's report; their options are in src/cli/cli_durability.c. */
#ifndef SYNCPROBE_DURABILITY_H
#define SYNCPROBE_DURABILITY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "durability/durable_acks.h"
#include "durability/durable_record.h"
#include "probe/options.h"

#define DURABILITY_FILE_NAME  "syncprobe-durability"	/* in TARGET, without -f */
#define DURABILITY_LISTED     10	/* lost records named in the report */

/* What the verifier found; the report prints it and computes nothing. */
struct durability_verdict {
	const char *file;		/* the durability file, as opened */
	const char *acks_path;
	struct durable_acks acks;	/* header, last acknowledged record, end */
	bool last_line_cut;		/* the acks' last line had no newline */
	enum durable_header_status header;	/* OK, or EMPTY/DAMAGED: lost */
	bool file_gone;			/* no file where the writer made it */
	uint64_t slots;			/* slots read */
	uint64_t expected;		/* acknowledged records the file must hold */
	uint64_t kept;			/* of those: there, or a newer record */
	uint64_t torn;			/* of those: torn by the write in flight */
	uint64_t missing;		/* an older record, zeros, or past the end */
	uint64_t corrupt;		/* damaged, torn or foreign bytes */
	uint64_t lost_first[DURABILITY_LISTED];	/* smallest lost numbers */
	unsigned nlisted;
	uint64_t intact;		/* slots holding an intact record of this run */
	uint64_t unacked;		/* intact records newer than the last ack */
	uint64_t newest;		/* newest intact record, 0: none */
	bool removed;			/* --remove removed the file */
};

/* Run the writer or the verifier, as o->durability says; prints its own
 * errors and returns the exit status (0, 1, 2, or STATUS_LOST). */
int durability_main(const struct options *o);

/* Whether the verdict is a loss: an acknowledged record or the header. */
bool durability_lost(const struct durability_verdict *v);

void durability_report_text(FILE *out, const struct durability_verdict *v);
void durability_report_json(FILE *out, const struct durability_verdict *v);

#endif
