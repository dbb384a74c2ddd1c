/* test_durable.c: the durability file's records and header, and the
 * acknowledgement lines, exhaustively where that is cheap: every bit of a
 * record flipped, every tear of two records, every character of an
 * acknowledgement changed must be caught; records of another run, or in
 * another slot, must not count; a write torn at sectors is told apart,
 * and excused only when it was never acknowledged. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/crc32c.h"
#include "durability/durable_acks.h"
#include "durability/durable_record.h"
#include "tap.h"

#define RUN    0x0123456789abcdefULL
#define OTHER  0x0123456789abcdeeULL

static const struct durable_geometry append_8k = { 8192, 65536, PATTERN_APPEND };
static const struct durable_geometry overwrite_1k = { 1024, 16384, PATTERN_OVERWRITE };
static const struct durable_geometry append_1k = { 1024, 8192, PATTERN_APPEND };

/* Put a fresh checksum on a record whose fields a test changed: what a
 * bug or a forger would write, so that the field checks themselves are
 * what must catch it. */
static void
reseal(unsigned char *block, uint32_t block_bytes)
{
	uint32_t crc = crc32c(0, block, block_bytes - DURABLE_CRC_BYTES);
	int i;

	for (i = 0; i < 4; i++)
		block[block_bytes - DURABLE_CRC_BYTES + i] = (unsigned char)(crc >> (8 * i));
}

static void
put_le64_at(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static enum durable_record_status
check_slot(const unsigned char *block, const struct durable_geometry *g, uint64_t slot,
    uint64_t *seq)
{
	return durable_record_check(block, g->block_bytes, g, RUN, slot, seq);
}

static void
test_layout(void)
{
	struct durable_geometry g = append_1k;
	uint64_t n, slot, seq, best;
	int all = 1;

	ok(durable_slots(&append_8k) == 7, "append, 64kB of 8kB blocks: 7 slots (block 0 is the header)");
	ok(durable_slots(&overwrite_1k) == 1, "overwrite: 1 slot");
	ok(durable_offset_of(&append_8k, 1) == 8192 && durable_offset_of(&append_8k, 7) == 57344 &&
	    durable_offset_of(&append_8k, 8) == 8192, "append moves through the file and wraps");
	ok(durable_offset_of(&overwrite_1k, 1) == 1024 && durable_offset_of(&overwrite_1k, 99) == 1024,
	    "overwrite rewrites block 1");
	/* durable_expected against a search: the newest acknowledged record
	 * written to each slot. */
	for (n = 0; n <= 40; n++)
		for (slot = 0; slot <= durable_slots(&g) + 1; slot++) {
			best = 0;
			for (seq = 1; seq <= n; seq++)
				if (durable_slot_of(&g, seq) == slot)
					best = seq;
			if (durable_expected(&g, n, slot) != best)
				all = 0;
		}
	ok(all, "append: the expected record of each slot is the newest acknowledged one there");
	ok(durable_expected(&overwrite_1k, 0, 1) == 0 && durable_expected(&overwrite_1k, 5, 1) == 5 &&
	    durable_expected(&overwrite_1k, 5, 2) == 0, "overwrite: slot 1 must hold the last acknowledged");
	g.block_bytes = 3000;
	ok(!durable_geometry_valid(&g), "a block that is not a power of two is no geometry");
	g = append_1k;
	g.file_bytes = 1024;
	ok(!durable_geometry_valid(&g), "a file of one block has no room for a record");
	ok(durable_geometry_valid(&append_8k) && durable_geometry_valid(&overwrite_1k),
	    "the test geometries are valid");
}

static void
test_roundtrip(void)
{
	unsigned char a[8192], b[8192];
	uint64_t seq = 0, s;
	int all = 1;

	for (s = 1; s <= 30; s++) {
		durable_record_encode(a, &append_8k, RUN, s);
		if (check_slot(a, &append_8k, durable_slot_of(&append_8k, s), &seq) != DURABLE_RECORD_OK ||
		    seq != s)
			all = 0;
	}
	ok(all, "records 1..30 check out in their slots, with their numbers");
	durable_record_encode(a, &append_8k, RUN, 1);
	durable_record_encode(b, &append_8k, RUN, 8);
	ok(memcmp(a + DURABLE_RECORD_FIXED, b + DURABLE_RECORD_FIXED,
	    8192 - DURABLE_RECORD_FIXED - DURABLE_CRC_BYTES) != 0,
	    "two records of one slot have different payloads");
	durable_record_encode(b, &append_8k, OTHER, 1);
	ok(memcmp(a + DURABLE_RECORD_FIXED, b + DURABLE_RECORD_FIXED, 64) != 0,
	    "the same record number of two runs has different payloads");
	ok(check_slot(a, &append_8k, 2, &seq) == DURABLE_RECORD_MISPLACED,
	    "record 1 found in slot 2: misplaced");
	ok(durable_record_check(a, 8192, &append_8k, OTHER, 1, &seq) == DURABLE_RECORD_OTHER_RUN,
	    "a record checked against another run id: not this run");
	ok(durable_record_check(a, 8191, &append_8k, RUN, 1, &seq) == DURABLE_RECORD_SHORT,
	    "a block cut by the end of the file: short");
	memset(b, 0, sizeof b);
	ok(check_slot(b, &append_8k, 1, &seq) == DURABLE_RECORD_EMPTY, "zeros: empty");
	memset(b, 'x', sizeof b);
	ok(check_slot(b, &append_8k, 1, &seq) == DURABLE_RECORD_FOREIGN, "other bytes: foreign");
}

/* Every single bit of a 1kB record flipped; one bit in every byte of an
 * 8kB one. A flip in the magic makes it no record; anywhere else the
 * checksum must fail. */
static void
test_bit_flips(void)
{
	unsigned char rec[8192], copy[8192];
	uint64_t seq;
	size_t bit, i;
	int caught = 1, kinds = 1;

	durable_record_encode(rec, &append_1k, RUN, 3);
	for (bit = 0; bit < 1024 * 8; bit++) {
		enum durable_record_status st;

		memcpy(copy, rec, 1024);
		copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		st = check_slot(copy, &append_1k, 3, &seq);
		if (st == DURABLE_RECORD_OK)
			caught = 0;
		if (st != (bit / 8 < 8 ? DURABLE_RECORD_FOREIGN : DURABLE_RECORD_CORRUPT))
			kinds = 0;
	}
	ok(caught, "every one of the 8192 bits of a 1kB record flipped: caught");
	ok(kinds, "a flip in the magic is no record; anywhere else, corrupt");
	caught = 1;
	durable_record_encode(rec, &append_8k, RUN, 5);
	for (i = 0; i < 8192; i++) {
		memcpy(copy, rec, 8192);
		copy[i] ^= (unsigned char)(1u << (i % 8));
		if (check_slot(copy, &append_8k, 5, &seq) == DURABLE_RECORD_OK)
			caught = 0;
	}
	ok(caught, "a bit flipped in each of the 8192 bytes of an 8kB record: caught");
}

/* Each field changed, with the checksum made to match. */
static void
test_resealed_fields(void)
{
	unsigned char rec[8192], copy[8192];
	uint64_t seq;

	durable_record_encode(rec, &append_8k, RUN, 3);
#define RESEALED(off, value, want, desc) do { \
		memcpy(copy, rec, 8192); \
		put_le64_at(copy + (off), (value)); \
		reseal(copy, 8192); \
		ok(check_slot(copy, &append_8k, 3, &seq) == (want), desc); \
	} while (0)
	RESEALED(16, OTHER, DURABLE_RECORD_OTHER_RUN, "another run id: not this run");
	RESEALED(24, 4, DURABLE_RECORD_MISPLACED, "a record number of another slot: misplaced");
	RESEALED(24, 10, DURABLE_RECORD_CORRUPT, "a later number of the same slot: payload mismatch");
	RESEALED(24, 0, DURABLE_RECORD_CORRUPT, "record number 0: corrupt");
	RESEALED(32, 4 * 8192, DURABLE_RECORD_MISPLACED, "another offset: misplaced");
	RESEALED(8, (uint64_t)2 | ((uint64_t)8192 << 32), DURABLE_RECORD_CORRUPT,
	    "another format version: corrupt");
	RESEALED(8, (uint64_t)1 | ((uint64_t)4096 << 32), DURABLE_RECORD_CORRUPT,
	    "another block size: corrupt");
	RESEALED(100, 0, DURABLE_RECORD_CORRUPT, "payload changed: corrupt");
#undef RESEALED
}

/* A write torn at any byte: the start of one record (or zeros) and the
 * rest of another. Where the two agree up to the cut (their first fields
 * do) the tear leaves one of them whole, which is right to accept; any
 * other mix must not pass for a record. */
static bool
passes_as_mix(const unsigned char *torn, const unsigned char *a, const unsigned char *b,
    const struct durable_geometry *g, uint64_t slot)
{
	uint64_t seq;

	if (memcmp(torn, a, g->block_bytes) == 0 || memcmp(torn, b, g->block_bytes) == 0)
		return false;
	return check_slot(torn, g, slot, &seq) == DURABLE_RECORD_OK;
}

static void
test_torn(const struct durable_geometry *g, uint64_t old_seq, uint64_t new_seq, const char *desc)
{
	unsigned char *oldr = malloc(g->block_bytes), *newr = malloc(g->block_bytes);
	unsigned char *torn = malloc(g->block_bytes), *zeros = calloc(1, g->block_bytes);
	uint64_t slot = durable_slot_of(g, new_seq);
	uint32_t cut;
	int caught = 1, zeros_caught = 1;

	durable_record_encode(oldr, g, RUN, old_seq);
	durable_record_encode(newr, g, RUN, new_seq);
	for (cut = 1; cut < g->block_bytes; cut++) {
		memcpy(torn, oldr, cut);
		memcpy(torn + cut, newr + cut, g->block_bytes - cut);
		if (passes_as_mix(torn, oldr, newr, g, slot))
			caught = 0;
		memcpy(torn, newr, cut);
		memcpy(torn + cut, oldr + cut, g->block_bytes - cut);
		if (passes_as_mix(torn, oldr, newr, g, slot))
			caught = 0;
		memcpy(torn + cut, newr + cut, g->block_bytes - cut);
		memset(torn, 0, cut);
		if (passes_as_mix(torn, zeros, newr, g, slot))
			zeros_caught = 0;
		memcpy(torn, newr, cut);
		memset(torn + cut, 0, g->block_bytes - cut);
		if (passes_as_mix(torn, zeros, newr, g, slot))
			zeros_caught = 0;
	}
	ok(caught, "%s: old and new records torn at every byte: caught", desc);
	ok(zeros_caught, "%s: a record torn against zeros at every byte: caught", desc);
	free(oldr);
	free(newr);
	free(torn);
	free(zeros);
}

/* The parts of a torn write still say which record they belong to. */
static void
test_sectors(void)
{
	const struct durable_geometry *g = &append_8k;
	unsigned char a[8192], b[8192], c[8192], mix[8192], scratch[8192];
	uint64_t older, newer;
	uint32_t cut;
	int all = 1;

	durable_record_encode(a, g, RUN, 3);
	durable_record_encode(b, g, RUN, 10);
	durable_record_encode(c, g, RUN, 17);
	for (cut = DURABLE_SECTOR_BYTES; cut < 8192; cut += DURABLE_SECTOR_BYTES) {
		memcpy(mix, b, cut);
		memcpy(mix + cut, a + cut, 8192 - cut);
		if (durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) != 0 ||
		    older != 3 || newer != 10)
			all = 0;
		memcpy(mix, a, cut);
		memcpy(mix + cut, b + cut, 8192 - cut);
		if (durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) != 0 ||
		    older != 3 || newer != 10)
			all = 0;
	}
	ok(all, "records 3 and 10 torn at every sector, either way round: 3 and 10");
	ok(durable_record_sectors(a, g, RUN, 3, scratch, &older, &newer) == 0 &&
	    older == 3 && newer == 3, "a whole record: one number");
	memcpy(mix, b, 700);
	memcpy(mix + 700, a + 700, 8192 - 700);
	ok(durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) == -1,
	    "torn inside a sector: no tear of whole sectors");
	memcpy(mix, b, 8192);
	memcpy(mix + 1024, a + 1024, 512);
	memcpy(mix + 4096, c + 4096, 512);
	ok(durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) == -1,
	    "sectors of three records: no single tear");
	memcpy(mix + 4096, a + 4096, 512);
	ok(durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) == 0,
	    "sectors of two records in any order: a tear");
	ok(durable_record_sectors(mix, g, OTHER, 3, scratch, &older, &newer) == -1,
	    "checked against another run: no tear");
	memset(mix + 512, 0, 512);
	ok(durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) == -1,
	    "a sector of zeros: no tear");
	durable_record_encode(c, g, RUN, 4);
	memcpy(mix, b, 4096);
	memcpy(mix + 4096, c + 4096, 4096);
	ok(durable_record_sectors(mix, g, RUN, 3, scratch, &older, &newer) == -1,
	    "a part of a record of another slot: no tear");

	ok(durable_judge_torn(3, 10, 3, 9) == DURABLE_TORN,
	    "the expected record torn by an unacknowledged one: torn in flight, not lost");
	ok(durable_judge_torn(10, 17, 3, 12) == DURABLE_TORN,
	    "a newer record torn by an unacknowledged one: torn in flight");
	ok(durable_judge_torn(3, 10, 10, 12) == DURABLE_CORRUPT,
	    "the tearing record was acknowledged: corrupt");
	ok(durable_judge_torn(3, 17, 10, 12) == DURABLE_CORRUPT,
	    "the older part is older than the expected record: corrupt");
	ok(durable_judge_torn(3, 3, 3, 9) == DURABLE_CORRUPT, "one record is no tear");
	ok(durable_judge_torn(3, 10, 0, 9) == DURABLE_NOTHING_EXPECTED, "nothing expected");
}

static void
test_judge(void)
{
	ok(durable_judge(DURABLE_RECORD_EMPTY, 0, 0) == DURABLE_NOTHING_EXPECTED,
	    "no acknowledged record maps to the slot: nothing expected");
	ok(durable_judge(DURABLE_RECORD_OK, 8, 8) == DURABLE_KEPT, "the expected record: kept");
	ok(durable_judge(DURABLE_RECORD_OK, 15, 8) == DURABLE_KEPT,
	    "a newer record over it: kept (it was overwritten later)");
	ok(durable_judge(DURABLE_RECORD_OK, 1, 8) == DURABLE_MISSING, "an older record: missing");
	ok(durable_judge(DURABLE_RECORD_EMPTY, 0, 8) == DURABLE_MISSING, "zeros: missing");
	ok(durable_judge(DURABLE_RECORD_SHORT, 0, 8) == DURABLE_MISSING, "past the end: missing");
	ok(durable_judge(DURABLE_RECORD_CORRUPT, 0, 8) == DURABLE_CORRUPT &&
	    durable_judge(DURABLE_RECORD_FOREIGN, 0, 8) == DURABLE_CORRUPT &&
	    durable_judge(DURABLE_RECORD_OTHER_RUN, 0, 8) == DURABLE_CORRUPT &&
	    durable_judge(DURABLE_RECORD_MISPLACED, 0, 8) == DURABLE_CORRUPT,
	    "corrupt, foreign, another run's or misplaced: corrupt");
}

static void
make_header(struct durable_header *h, const struct durable_geometry *g)
{
	memset(h, 0, sizeof *h);
	h->run_id = RUN;
	h->geo = *g;
	h->direct = true;
	snprintf(h->method, sizeof h->method, "open_datasync");
}

static void
test_header(void)
{
	unsigned char block[8192], copy[8192], rec[8192];
	struct durable_header h, got;
	uint64_t seq;
	size_t bit;
	int caught = 1;

	make_header(&h, &append_8k);
	durable_header_encode(block, &h);
	ok(durable_header_decode(block, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_OK &&
	    got.run_id == RUN && got.geo.block_bytes == 8192 && got.geo.file_bytes == 65536 &&
	    got.geo.pattern == PATTERN_APPEND && got.direct && strcmp(got.method, "open_datasync") == 0,
	    "a header reads back field for field");
	for (bit = 0; bit < DURABLE_HEADER_BYTES * 8; bit++) {
		memcpy(copy, block, DURABLE_HEADER_BYTES);
		copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		if (durable_header_decode(copy, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_OK)
			caught = 0;
	}
	ok(caught, "every bit of the header flipped: caught");
	ok(durable_header_decode(block, 40, &got) == DURABLE_HEADER_DAMAGED,
	    "a header cut short: damaged");
	memset(copy, 0, sizeof copy);
	ok(durable_header_decode(copy, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_EMPTY,
	    "zeros: no header");
	ok(durable_header_decode(copy, 0, &got) == DURABLE_HEADER_EMPTY, "an empty file: no header");
	memcpy(copy, "#!/bin/sh\nrm -rf /\n", 19);
	ok(durable_header_decode(copy, 19, &got) == DURABLE_HEADER_FOREIGN, "a script: foreign");
	durable_record_encode(rec, &append_8k, RUN, 1);
	ok(durable_header_decode(rec, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_FOREIGN,
	    "a record is not a header");
	ok(check_slot(block, &append_8k, 1, &seq) == DURABLE_RECORD_FOREIGN,
	    "a header is not a record");
	memcpy(copy, block, sizeof copy);
	copy[8] = 2;
	reseal(copy, DURABLE_HEADER_BYTES);
	ok(durable_header_decode(copy, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_VERSION,
	    "another format version, resealed: told apart");
	memcpy(copy, block, sizeof copy);
	copy[13] = 0x0b;	/* block size 0x0b00 */
	reseal(copy, DURABLE_HEADER_BYTES);
	ok(durable_header_decode(copy, DURABLE_HEADER_BYTES, &got) == DURABLE_HEADER_DAMAGED,
	    "a geometry no writer uses, resealed: damaged");
}

/* ---- acknowledgement lines ---- */

/* A reader fed the header line of h and acknowledgements 1..n. */
static int
feed_run(struct durable_acks *a, const struct durable_header *h, uint64_t n)
{
	char line[DURABLE_LINE_MAX], err[512];
	uint64_t s;

	durable_acks_init(a);
	durable_header_line(line, sizeof line, h, DURABLE_ACKS_ELSEWHERE,
	    "/var/lib/my data/syncprobe-durability");
	line[strcspn(line, "\n")] = '\0';
	if (durable_acks_feed(a, line, err, sizeof err) == -1)
		return -1;
	for (s = 1; s <= n; s++) {
		durable_ack_line(line, sizeof line, h->run_id, s, durable_offset_of(&h->geo, s));
		line[strcspn(line, "\n")] = '\0';
		if (durable_acks_feed(a, line, err, sizeof err) == -1)
			return -1;
	}
	return 0;
}

/* Whether the reader of feed_run(h, n) refuses line. */
static int
refused_after(const struct durable_header *h, uint64_t n, const char *line, char *err, size_t len)
{
	struct durable_acks a;

	if (feed_run(&a, h, n) == -1)
		return 0;
	return durable_acks_feed(&a, line, err, len) == -1;
}

/* Whether a fresh reader refuses line as its first. */
static int
first_line_refused(const char *line)
{
	struct durable_acks a;
	char err[512];

	durable_acks_init(&a);
	return durable_acks_feed(&a, line, err, sizeof err) == -1;
}

static void
test_ack_lines(void)
{
	struct durable_header h;
	struct durable_acks a;
	char line[DURABLE_LINE_MAX], err[512];

	make_header(&h, &append_8k);
	durable_header_line(line, sizeof line, &h, DURABLE_ACKS_ELSEWHERE, "/x");
	ok(strcmp(line, "syncprobe-durability 1 run=0123456789abcdef block=8192 size=65536 "
	    "pattern=append method=open_datasync direct=on file=/x\n") == 0,
	    "the header line, as documented");
	durable_header_line(line, sizeof line, &h, DURABLE_ACKS_SAME_FILESYSTEM, "/x y");
	ok(strcmp(line, "syncprobe-durability 1 run=0123456789abcdef block=8192 size=65536 "
	    "pattern=append method=open_datasync direct=on acks=same-filesystem file=/x y\n") == 0,
	    "the header line of acks kept on the filesystem under test says so before file=");
	line[strcspn(line, "\n")] = '\0';
	durable_acks_init(&a);
	ok(durable_acks_feed(&a, line, err, sizeof err) == 0 &&
	    a.acks_on == DURABLE_ACKS_SAME_FILESYSTEM && strcmp(a.file, "/x y") == 0,
	    "and reads back: acks=same-filesystem, file '/x y'");
	durable_header_line(line, sizeof line, &h, DURABLE_ACKS_SAME_DEVICE, "/x");
	line[strcspn(line, "\n")] = '\0';
	durable_acks_init(&a);
	ok(durable_acks_feed(&a, line, err, sizeof err) == 0 && a.acks_on == DURABLE_ACKS_SAME_DEVICE,
	    "acks=same-device reads back");
	ok(first_line_refused("syncprobe-durability 1 run=0123456789abcdef block=8192 size=65536 "
	    "pattern=append method=fsync direct=on acks=elsewhere file=/x"),
	    "an acks= value the writer never writes: refused");
	durable_ack_line(line, sizeof line, RUN, 9, 16384);
	ok(strcmp(line, "ack 0123456789abcdef 9 16384\n") == 0, "an ack line, as documented");
	durable_end_line(line, sizeof line, RUN, 9, DURABLE_END_SIGNAL);
	ok(strcmp(line, "end 0123456789abcdef 9 signal\n") == 0, "an end line, as documented");

	ok(feed_run(&a, &h, 20) == 0 && a.last_seq == 20 && a.have_header &&
	    a.header.run_id == RUN && a.header.geo.file_bytes == 65536 && a.header.direct &&
	    strcmp(a.header.method, "open_datasync") == 0 && a.end == DURABLE_END_NONE,
	    "header and 20 acknowledgements read back");
	ok(strcmp(a.file, "/var/lib/my data/syncprobe-durability") == 0,
	    "the file name keeps its spaces");
	ok(durable_acks_feed(&a, "end 0123456789abcdef 20 time", err, sizeof err) == 0 &&
	    a.end == DURABLE_END_TIME, "an end line says why the writer stopped");
	ok(durable_acks_feed(&a, "ack 0123456789abcdef 21 8192", err, sizeof err) == -1,
	    "nothing after the end line");

	ok(refused_after(&h, 3, "ack 0123456789abcdee 4 32768", err, sizeof err) &&
	    strstr(err, "not this run") != NULL, "an acknowledgement of another run: not this run");
	ok(refused_after(&h, 3, "ack 0123456789abcdef 5 40960", err, sizeof err),
	    "a gap in the numbers: refused");
	ok(refused_after(&h, 3, "ack 0123456789abcdef 3 24576", err, sizeof err),
	    "a number repeated: refused");
	ok(refused_after(&h, 3, "ack 0123456789abcdef 4 8192", err, sizeof err),
	    "an offset the header's geometry does not give: refused");
	ok(refused_after(&h, 3, "end 0123456789abcdef 2 signal", err, sizeof err),
	    "an end line with another last number: refused");
	ok(refused_after(&h, 3, "end 0123456789abcdef 3 tired", err, sizeof err),
	    "an end line with an unknown reason: refused");
	ok(refused_after(&h, 3, "end 0123456789abcdef 3 none", err, sizeof err),
	    "'none' is no reason an end line gives");
	ok(refused_after(&h, 0, "end 0123456789abcdef 0 signal", err, sizeof err) == 0,
	    "an end line after no record: accepted");

	ok(first_line_refused("ack 0123456789abcdef 1 8192"),
	    "an acknowledgement before any header: refused");
	ok(first_line_refused("syncprobe-durability 2 run=0123456789abcdef block=8192 "
	    "size=65536 pattern=append method=fsync direct=off file=/x"),
	    "another format version: refused");
	ok(first_line_refused("syncprobe-durability 1 run=0123456789abcdef block=3000 "
	    "size=65536 pattern=append method=fsync direct=off file=/x"),
	    "a block size no writer uses: refused");
	ok(first_line_refused("syncprobe-durability 1 run=0123456789abcdef block=8192 "
	    "size=65536 pattern=append method=fsync direct=off"),
	    "a header without file=: refused");
	ok(!first_line_refused("syncprobe-durability 1 run=0123456789abcdef block=8192 "
	    "size=65536 pattern=append method=fsync direct=off file=/x"),
	    "the same header with file=: accepted");
}

/* Each character of an acknowledgement replaced by another: the reader
 * must refuse every result, or it could count a record twice or one that
 * never was. */
static void
test_ack_every_char(void)
{
	static const char subs[] = "0159afAF x-+";
	struct durable_header h;
	char good[DURABLE_LINE_MAX], bad[DURABLE_LINE_MAX], err[512];
	size_t i, k, n;
	int all = 1, good_ok;

	make_header(&h, &append_8k);
	durable_ack_line(good, sizeof good, RUN, 12, durable_offset_of(&h.geo, 12));
	good[strcspn(good, "\n")] = '\0';
	good_ok = !refused_after(&h, 11, good, err, sizeof err);
	n = strlen(good);
	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof subs - 1; k++) {
			if (good[i] == subs[k])
				continue;
			memcpy(bad, good, n + 1);
			bad[i] = subs[k];
			if (!refused_after(&h, 11, bad, err, sizeof err))
				all = 0;
		}
	ok(good_ok, "the unchanged acknowledgement is accepted");
	ok(all, "every character of an acknowledgement changed: refused");
	memcpy(bad, good, n + 1);
	strcat(bad, " ");
	ok(refused_after(&h, 11, bad, err, sizeof err), "a trailing space: refused");
	bad[n - 1] = '\0';
	ok(refused_after(&h, 11, bad, err, sizeof err), "a line cut short: refused");
}

int
main(void)
{
	test_layout();
	test_roundtrip();
	test_bit_flips();
	test_resealed_fields();
	test_torn(&append_8k, 3, 10, "append, 8kB");
	test_torn(&overwrite_1k, 41, 42, "overwrite, 1kB");
	test_sectors();
	test_judge();
	test_header();
	test_ack_lines();
	test_ack_every_char();
	return tap_done();
}
