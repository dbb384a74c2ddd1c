/* durable_record.c: encode and check the durability file's header and
 * records. Pure: no I/O, no clock, no state; tests/test_durable.c checks
 * that every damaged field and every torn record is caught. */
#include "config.h"

#include "durability/durable_record.h"

#include <string.h>

#include "util/crc32c.h"

#define MAGIC_BYTES 8

/* Offsets of the fields, shared by the header and the records where the
 * two agree (magic, version, block size, run id). */
enum {
	OFF_MAGIC = 0,
	OFF_VERSION = 8,
	OFF_BLOCK = 12,
	OFF_RUN = 16,
	OFF_SEQ = 24,		/* record */
	OFF_OFFSET = 32,	/* record */
	OFF_FILE_BYTES = 24,	/* header */
	OFF_PATTERN = 32,	/* header */
	OFF_DIRECT = 36,	/* header */
	OFF_METHOD = 40,	/* header */
	OFF_HEADER_CRC = 72	/* header */
};

static const char header_magic[] = "SYNCPDUR";	/* the NUL is not written */
static const char record_magic[] = "SYNCPREC";

/* Little-endian integers of n bytes, whatever this machine's order. */
static void
put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = (v << 8) | p[n];
	return v;
}

#define put_le32(p, v) put_le((p), (v), 4)
#define put_le64(p, v) put_le((p), (v), 8)
#define get_le32(p)    ((uint32_t)get_le((p), 4))
#define get_le64(p)    get_le((p), 8)

static bool
all_zero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != 0)
			return false;
	return true;
}

bool
durable_geometry_valid(const struct durable_geometry *g)
{
	uint32_t b = g->block_bytes;

	if (b < MIN_BLOCK_BYTES || b > MAX_BLOCK_BYTES || (b & (b - 1)) != 0)
		return false;
	if (g->pattern != PATTERN_OVERWRITE && g->pattern != PATTERN_APPEND)
		return false;
	return g->file_bytes >= 2 * (uint64_t)b && g->file_bytes <= MAX_FILE_BYTES;
}

uint64_t
durable_slots(const struct durable_geometry *g)
{
	if (g->pattern == PATTERN_OVERWRITE)
		return 1;
	return g->file_bytes / g->block_bytes - 1;
}

uint64_t
durable_slot_of(const struct durable_geometry *g, uint64_t seq)
{
	return 1 + (seq - 1) % durable_slots(g);
}

uint64_t
durable_offset_of(const struct durable_geometry *g, uint64_t seq)
{
	return durable_slot_of(g, seq) * g->block_bytes;
}

uint64_t
durable_expected(const struct durable_geometry *g, uint64_t last_acked, uint64_t slot)
{
	uint64_t n = durable_slots(g);

	if (slot < 1 || slot > n || last_acked < slot)
		return 0;
	/* Records slot, slot + n, slot + 2n, ... went there; the newest
	 * acknowledged one is last_acked less its distance past the last
	 * of them. */
	return last_acked - (last_acked - slot) % n;
}

void
durable_header_encode(unsigned char *block, const struct durable_header *h)
{
	memset(block, 0, h->geo.block_bytes);
	memcpy(block + OFF_MAGIC, header_magic, MAGIC_BYTES);
	put_le32(block + OFF_VERSION, DURABLE_FORMAT_VERSION);
	put_le32(block + OFF_BLOCK, h->geo.block_bytes);
	put_le64(block + OFF_RUN, h->run_id);
	put_le64(block + OFF_FILE_BYTES, h->geo.file_bytes);
	put_le32(block + OFF_PATTERN, (uint32_t)h->geo.pattern);
	put_le32(block + OFF_DIRECT, h->direct ? 1u : 0u);
	/* NUL-padded by the memset; the last byte always stays 0. */
	memcpy(block + OFF_METHOD, h->method, strnlen(h->method, DURABLE_METHOD_LEN - 1));
	put_le32(block + OFF_HEADER_CRC, crc32c(0, block, OFF_HEADER_CRC));
}

enum durable_header_status
durable_header_decode(const unsigned char *buf, size_t len, struct durable_header *h)
{
	uint32_t pattern, direct;

	if (all_zero(buf, len < DURABLE_HEADER_BYTES ? len : DURABLE_HEADER_BYTES))
		return DURABLE_HEADER_EMPTY;
	if (len < MAGIC_BYTES || memcmp(buf + OFF_MAGIC, header_magic, MAGIC_BYTES) != 0)
		return DURABLE_HEADER_FOREIGN;
	if (len < DURABLE_HEADER_BYTES ||
	    get_le32(buf + OFF_HEADER_CRC) != crc32c(0, buf, OFF_HEADER_CRC))
		return DURABLE_HEADER_DAMAGED;
	if (get_le32(buf + OFF_VERSION) != DURABLE_FORMAT_VERSION)
		return DURABLE_HEADER_VERSION;
	memset(h, 0, sizeof *h);
	h->run_id = get_le64(buf + OFF_RUN);
	h->geo.block_bytes = get_le32(buf + OFF_BLOCK);
	h->geo.file_bytes = get_le64(buf + OFF_FILE_BYTES);
	pattern = get_le32(buf + OFF_PATTERN);
	direct = get_le32(buf + OFF_DIRECT);
	h->geo.pattern = pattern == 1 ? PATTERN_APPEND : PATTERN_OVERWRITE;
	h->direct = direct == 1;
	memcpy(h->method, buf + OFF_METHOD, DURABLE_METHOD_LEN);
	/* A checksum that matches fields no writer produces: a bug or a
	 * forgery, either way nothing to believe. */
	if (pattern > 1 || direct > 1 || h->method[DURABLE_METHOD_LEN - 1] != '\0' ||
	    h->method[0] == '\0' || !durable_geometry_valid(&h->geo))
		return DURABLE_HEADER_DAMAGED;
	return DURABLE_HEADER_OK;
}

/* splitmix64: the payload's bytes, 8 at a time. */
static uint64_t
payload_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* The payload word at byte off of the record: pseudo-random from the run
 * id and the number, except that every sector after the first carries
 * the number where the first has its own (OFF_SEQ), so that each part of
 * a torn write still says which record it belongs to. */
static uint64_t
payload_word(uint64_t *state, uint64_t seq, size_t off)
{
	uint64_t w = payload_next(state);

	return off % DURABLE_SECTOR_BYTES == OFF_SEQ ? seq : w;
}

static uint64_t
payload_seed(uint64_t run_id, uint64_t seq)
{
	return run_id ^ (seq * 0xD1B54A32D192ED03ULL);
}

/* Write the payload of record seq into out, or, with out NULL, compare
 * it with in: true when every byte is as written. */
static bool
payload(unsigned char *out, const unsigned char *in, uint32_t block_bytes,
    uint64_t run_id, uint64_t seq)
{
	uint64_t state = payload_seed(run_id, seq);
	size_t off, end = block_bytes - DURABLE_CRC_BYTES;

	for (off = DURABLE_RECORD_FIXED; off < end; off += 8) {
		unsigned char word[8];
		size_t n = end - off < 8 ? end - off : 8;

		put_le64(word, payload_word(&state, seq, off));
		if (out != NULL)
			memcpy(out + off, word, n);
		else if (memcmp(in + off, word, n) != 0)
			return false;
	}
	return true;
}

void
durable_record_encode(unsigned char *block, const struct durable_geometry *g,
    uint64_t run_id, uint64_t seq)
{
	uint32_t b = g->block_bytes;

	memcpy(block + OFF_MAGIC, record_magic, MAGIC_BYTES);
	put_le32(block + OFF_VERSION, DURABLE_FORMAT_VERSION);
	put_le32(block + OFF_BLOCK, b);
	put_le64(block + OFF_RUN, run_id);
	put_le64(block + OFF_SEQ, seq);
	put_le64(block + OFF_OFFSET, durable_offset_of(g, seq));
	payload(block, NULL, b, run_id, seq);
	put_le32(block + b - DURABLE_CRC_BYTES, crc32c(0, block, b - DURABLE_CRC_BYTES));
}

enum durable_record_status
durable_record_check(const unsigned char *block, size_t len,
    const struct durable_geometry *g, uint64_t run_id, uint64_t slot, uint64_t *seq)
{
	uint32_t b = g->block_bytes;
	uint64_t s;

	if (len < b)
		return DURABLE_RECORD_SHORT;
	if (all_zero(block, b))
		return DURABLE_RECORD_EMPTY;
	if (memcmp(block + OFF_MAGIC, record_magic, MAGIC_BYTES) != 0)
		return DURABLE_RECORD_FOREIGN;
	if (get_le32(block + b - DURABLE_CRC_BYTES) != crc32c(0, block, b - DURABLE_CRC_BYTES) ||
	    get_le32(block + OFF_VERSION) != DURABLE_FORMAT_VERSION ||
	    get_le32(block + OFF_BLOCK) != b)
		return DURABLE_RECORD_CORRUPT;
	if (get_le64(block + OFF_RUN) != run_id)
		return DURABLE_RECORD_OTHER_RUN;
	s = get_le64(block + OFF_SEQ);
	if (s == 0)
		return DURABLE_RECORD_CORRUPT;
	/* Intact, but written for another place: a misdirected write. */
	if (durable_slot_of(g, s) != slot || get_le64(block + OFF_OFFSET) != slot * b)
		return DURABLE_RECORD_MISPLACED;
	if (!payload(NULL, block, b, run_id, s))
		return DURABLE_RECORD_CORRUPT;
	*seq = s;
	return DURABLE_RECORD_OK;
}

int
durable_record_sectors(const unsigned char *block, const struct durable_geometry *g,
    uint64_t run_id, uint64_t slot, unsigned char *scratch, uint64_t *older,
    uint64_t *newer)
{
	uint32_t b = g->block_bytes, k;
	uint64_t seqs[2] = { 0, 0 }, built = 0;
	unsigned n = 0, i;

	for (k = 0; k < b; k += DURABLE_SECTOR_BYTES) {
		uint64_t s = get_le64(block + k + OFF_SEQ);

		if (s == 0 || durable_slot_of(g, s) != slot)
			return -1;
		for (i = 0; i < n && seqs[i] != s; i++)
			continue;
		if (i == n) {
			if (n == 2)
				return -1;	/* three records: no single tear */
			seqs[n++] = s;
		}
		if (built != s) {
			durable_record_encode(scratch, g, run_id, s);
			built = s;
		}
		if (memcmp(block + k, scratch + k, DURABLE_SECTOR_BYTES) != 0)
			return -1;
	}
	*older = n == 2 && seqs[1] < seqs[0] ? seqs[1] : seqs[0];
	*newer = n == 2 && seqs[1] > seqs[0] ? seqs[1] : seqs[0];
	return 0;
}

enum durable_verdict
durable_judge_torn(uint64_t older, uint64_t newer, uint64_t expected, uint64_t last_acked)
{
	if (expected == 0)
		return DURABLE_NOTHING_EXPECTED;
	/* The expected record, or a newer one, was there, and a write that
	 * was never acknowledged was overwriting it when the power went. */
	if (older < newer && older >= expected && newer > last_acked)
		return DURABLE_TORN;
	return DURABLE_CORRUPT;
}

enum durable_verdict
durable_judge(enum durable_record_status st, uint64_t found, uint64_t expected)
{
	if (expected == 0)
		return DURABLE_NOTHING_EXPECTED;
	switch (st) {
	case DURABLE_RECORD_OK:
		return found >= expected ? DURABLE_KEPT : DURABLE_MISSING;
	case DURABLE_RECORD_SHORT:
	case DURABLE_RECORD_EMPTY:
		return DURABLE_MISSING;
	case DURABLE_RECORD_FOREIGN:
	case DURABLE_RECORD_CORRUPT:
	case DURABLE_RECORD_OTHER_RUN:
	case DURABLE_RECORD_MISPLACED:
		break;
	}
	return DURABLE_CORRUPT;
}

const char *
durable_record_status_name(enum durable_record_status st)
{
	static const char *const names[] = {
		"ok", "short", "empty", "foreign", "corrupt", "other_run", "misplaced"
	};

	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "?";
}
