/* random.h: incompressible bytes, so that no layer below (compression,
 * deduplication) can make a write cheaper than a real one. */
#ifndef SYNCPROBE_RANDOM_H
#define SYNCPROBE_RANDOM_H

#include <stddef.h>
#include <stdint.h>

/* A seed that differs between runs and processes (never 0). */
uint64_t random_seed(void);

/* Fill buf with len pseudo-random bytes (xorshift64*), advancing *state. */
void random_fill(unsigned char *buf, size_t len, uint64_t *state);

#endif
