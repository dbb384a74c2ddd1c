/* durable_record.h: the blocks of a durability file, built and checked
 * without any I/O: block 0 holds the file's header, every other block a
 * slot for one self-checking record. The layout, byte for byte, is in the
 * man page (DURABILITY, "The durability file"); all integers are
 * little-endian, so a file can be verified on another machine. */
#ifndef SYNCPROBE_DURABLE_RECORD_H
#define SYNCPROBE_DURABLE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/options.h"

#define DURABLE_FORMAT_VERSION  1u
#define DURABLE_METHOD_LEN      32	/* the method's name, NUL-padded */
#define DURABLE_HEADER_BYTES    76	/* the used part of block 0 */
#define DURABLE_RECORD_FIXED    40	/* a record's fields before its payload */
#define DURABLE_CRC_BYTES       4	/* the checksum ending every record */
#define DURABLE_SECTOR_BYTES    512	/* the unit a torn write is made of */

/* Where records go: the same as the file's header says and the header
 * line of the acknowledgements repeats. */
struct durable_geometry {
	uint32_t block_bytes;
	uint64_t file_bytes;
	enum pattern pattern;	/* overwrite: slot 1 only; append: every slot */
};

struct durable_header {
	uint64_t run_id;
	struct durable_geometry geo;
	char method[DURABLE_METHOD_LEN];	/* NUL-terminated */
	bool direct;
};

enum durable_header_status {
	DURABLE_HEADER_OK,
	DURABLE_HEADER_EMPTY,	/* nothing, or zeros, where the header goes */
	DURABLE_HEADER_FOREIGN,	/* not a durability file */
	DURABLE_HEADER_DAMAGED,	/* the magic, then a bad checksum or field */
	DURABLE_HEADER_VERSION	/* intact, but another format version */
};

enum durable_record_status {
	DURABLE_RECORD_OK,
	DURABLE_RECORD_SHORT,	/* the file ends before the block does */
	DURABLE_RECORD_EMPTY,	/* zeros: never written, or written back as zeros */
	DURABLE_RECORD_FOREIGN,	/* bytes that are no record at all */
	DURABLE_RECORD_CORRUPT,	/* a record's magic, but the checksum fails */
	DURABLE_RECORD_OTHER_RUN,	/* an intact record of another run */
	DURABLE_RECORD_MISPLACED	/* an intact record of this run, written elsewhere */
};

/* What became of the acknowledged record a slot must hold. */
enum durable_verdict {
	DURABLE_NOTHING_EXPECTED,	/* no acknowledged record maps here */
	DURABLE_KEPT,		/* it, or a newer record, is there */
	DURABLE_MISSING,	/* an older record, zeros, or the end of the file */
	DURABLE_CORRUPT,	/* damaged, torn, or someone else's bytes */
	DURABLE_TORN		/* it, or a newer record, part overwritten by the
				 * unacknowledged write in flight: not a loss */
};

/* Whether the geometry is one a writer can produce: a power-of-two block
 * from MIN_BLOCK_BYTES to MAX_BLOCK_BYTES and room for the header and at
 * least one record. */
bool durable_geometry_valid(const struct durable_geometry *g);

/* Slots are numbered from 1 (block 0 is the header). The number the
 * writer uses: 1 when it overwrites, every whole block but the header
 * when it appends. */
uint64_t durable_slots(const struct durable_geometry *g);

/* The slot of record seq (seq >= 1), and its byte offset in the file. */
uint64_t durable_slot_of(const struct durable_geometry *g, uint64_t seq);
uint64_t durable_offset_of(const struct durable_geometry *g, uint64_t seq);

/* The acknowledged record slot must hold when records 1..last_acked were
 * acknowledged: the newest of them written there, or 0 when none was.
 * A newer record in the slot is as good: it overwrote that one later. */
uint64_t durable_expected(const struct durable_geometry *g, uint64_t last_acked,
    uint64_t slot);

/* Block 0: h as block_bytes bytes at block (zeros after the header). */
void durable_header_encode(unsigned char *block, const struct durable_header *h);

/* Read a header from the first len bytes of a file. */
enum durable_header_status durable_header_decode(const unsigned char *buf,
    size_t len, struct durable_header *h);

/* Record seq of run run_id as the block_bytes bytes at block, for its
 * slot (durable_offset_of). The payload is derived from run_id and seq,
 * so no two records are alike and a verifier can rebuild it. */
void durable_record_encode(unsigned char *block, const struct durable_geometry *g,
    uint64_t run_id, uint64_t seq);

/* Check the len bytes read from slot (len < block_bytes: the file ended
 * there). On DURABLE_RECORD_OK *seq is the record's number, one that
 * belongs in this slot. */
enum durable_record_status durable_record_check(const unsigned char *block,
    size_t len, const struct durable_geometry *g, uint64_t run_id,
    uint64_t slot, uint64_t *seq);

/* Whether a block that is no intact record is, sector by sector, parts
 * of records of run_id that belong in slot (each sector as that record's
 * sector, and the record's number in it): a write torn by the power cut.
 * Returns 0 with the two numbers in *older and *newer (the same number
 * when there is one), or -1. scratch holds block_bytes bytes. */
int durable_record_sectors(const unsigned char *block, const struct durable_geometry *g,
    uint64_t run_id, uint64_t slot, unsigned char *scratch, uint64_t *older,
    uint64_t *newer);

/* Judge a slot that holds a record of status st (numbered found when OK)
 * and must hold expected (0: nothing). */
enum durable_verdict durable_judge(enum durable_record_status st, uint64_t found,
    uint64_t expected);

/* Judge a slot whose block durable_record_sectors found to be records
 * older and newer torn apart, when records up to last_acked were
 * acknowledged: TORN (not a loss) only when older is the expected record
 * or newer, and newer was never acknowledged; else CORRUPT. */
enum durable_verdict durable_judge_torn(uint64_t older, uint64_t newer,
    uint64_t expected, uint64_t last_acked);

/* Names for reports: "ok", "short", "empty", ... */
const char *durable_record_status_name(enum durable_record_status st);

#endif
