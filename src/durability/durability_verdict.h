/* durability_verdict.h: what the durability verifier found, slot by slot,
 * and whether that is a loss. Pure: the verifier (durability_verify.c) reads the
 * file and feeds each slot here; the report (durability_report.c) prints
 * the result and judges nothing. */
#ifndef SYNCPROBE_DURABILITY_VERDICT_H
#define SYNCPROBE_DURABILITY_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "durability/durable_acks.h"
#include "durability/durable_record.h"

#define DURABILITY_LISTED 10	/* lost records named in the report */

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

/* Count one slot: block is what was read there, st its status
 * (durable_record_check) and found the record's number when st is OK;
 * scratch holds block_bytes bytes. */
void durability_verdict_tally(struct durability_verdict *v, const unsigned char *block,
    unsigned char *scratch, uint64_t slot, enum durable_record_status st, uint64_t found);

/* Acknowledged records that are missing or corrupt. */
uint64_t durability_verdict_lost_records(const struct durability_verdict *v);

/* Whether the verdict is a loss: an acknowledged record or the header. */
bool durability_verdict_lost(const struct durability_verdict *v);

#endif
