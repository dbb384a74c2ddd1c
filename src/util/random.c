/* random.c: xorshift64*, fast enough to fill a test file without showing
 * in the fill time, and incompressible to any storage layer. */
#include "config.h"

#include "util/random.h"

#include <string.h>
#include <unistd.h>

#include "util/platform.h"

uint64_t
random_seed(void)
{
	return (platform_now_ns() ^ ((uint64_t)getpid() << 32)) | 1;
}

void
random_fill(unsigned char *buf, size_t len, uint64_t *state)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t x = *state;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*state = x;
		x *= 0x2545F4914F6CDD1DULL;
		memcpy(buf + i, &x, 8);
	}
	for (; i < len; i++)
		buf[i] = (unsigned char)(*state >>= 1);
}
