/* crc32c.h: CRC-32C (Castagnoli), the checksum of iSCSI, ext4 and btrfs
 * metadata, used here to make every durability record self-checking. */
#ifndef SYNCPROBE_CRC32C_H
#define SYNCPROBE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32C of len bytes at buf, continuing from crc (0 to start), so
 * that crc32c(crc32c(0, a, n), b, m) is the CRC of a followed by b.
 * crc32c(0, "123456789", 9) is 0xE3069283. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
