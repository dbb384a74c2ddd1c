/* test_crc32c.c: CRC-32C against published check values (the CRC
 * catalogue's "123456789", RFC 3720's iSCSI vectors) and against the
 * bit-by-bit definition, and chaining over split buffers. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "util/crc32c.h"
#include "tap.h"

#define POLY_REFLECTED 0x82F63B78u

/* The definition, one bit at a time: what the table must agree with. */
static uint32_t
crc32c_bitwise(const unsigned char *p, size_t len)
{
	uint32_t crc = 0xFFFFFFFFu;
	int k;

	while (len-- > 0) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc & 1) ? (crc >> 1) ^ POLY_REFLECTED : crc >> 1;
	}
	return ~crc;
}

static void
test_check_values(void)
{
	/* RFC 3720, B.4: a SCSI Read (10) command PDU. */
	static const unsigned char pdu[48] = {
		0x01, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x14, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0, 0x18,
		0x28, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0
	};
	unsigned char buf[32];
	size_t i;

	ok(crc32c(0, "123456789", 9) == 0xE3069283u, "check value: crc32c(\"123456789\") = 0xE3069283");
	ok(crc32c(0, "", 0) == 0, "the empty string: 0");
	ok(crc32c(0, "a", 1) == 0xC1D04330u, "\"a\": 0xC1D04330");
	ok(crc32c(0, "The quick brown fox jumps over the lazy dog", 43) == 0x22620404u,
	    "the quick brown fox: 0x22620404");
	memset(buf, 0, sizeof buf);
	ok(crc32c(0, buf, sizeof buf) == 0x8A9136AAu, "RFC 3720: 32 bytes of zeros");
	memset(buf, 0xff, sizeof buf);
	ok(crc32c(0, buf, sizeof buf) == 0x62A8AB43u, "RFC 3720: 32 bytes of 0xff");
	for (i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)i;
	ok(crc32c(0, buf, sizeof buf) == 0x46DD794Eu, "RFC 3720: 32 incrementing bytes");
	for (i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(31 - i);
	ok(crc32c(0, buf, sizeof buf) == 0x113FDB5Cu, "RFC 3720: 32 decrementing bytes");
	ok(crc32c(0, pdu, sizeof pdu) == 0xD9963A56u, "RFC 3720: an iSCSI read command PDU");
}

static void
test_chaining(void)
{
	const char *s = "123456789";
	size_t cut;
	int all = 1;

	for (cut = 0; cut <= 9; cut++)
		if (crc32c(crc32c(0, s, cut), s + cut, 9 - cut) != 0xE3069283u)
			all = 0;
	ok(all, "crc32c(crc32c(0, a), b) is the CRC of ab, at every split");
}

static void
test_against_definition(void)
{
	unsigned char buf[1031] = { 0 };
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	size_t len, i;
	int same = 1;

	for (len = 0; len <= sizeof buf; len += 7) {
		for (i = 0; i < len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
		if (crc32c(0, buf, len) != crc32c_bitwise(buf, len))
			same = 0;
	}
	ok(same, "the table agrees with the bit-by-bit definition, 0 to 1029 bytes");
}

int
main(void)
{
	test_check_values();
	test_chaining();
	test_against_definition();
	return tap_done();
}
