/* durability_acks_on.h: where the writer's acknowledgements go, beside the
 * disk under test. A power cut takes the tail of acknowledgements kept on
 * that disk with the records they acknowledge, and the verifier then calls
 * the loss "kept": the check proves nothing. */
#ifndef SYNCPROBE_DURABILITY_ACKS_ON_H
#define SYNCPROBE_DURABILITY_ACKS_ON_H

#include "durability/durable_acks.h"

/* Whether the descriptor out (standard output) is a regular file on the
 * filesystem of the directory dirfd (named dir), or on a filesystem of the
 * same device (storage/storage: partitions of one disk, layers down to the
 * same disks). DURABLE_ACKS_ELSEWHERE for a pipe, a terminal or a socket:
 * where those end cannot be told. */
enum durable_acks_on durability_acks_on(int out, int dirfd, const char *dir);

/* The warning and the way out, one sentence, for the writer's stderr and
 * the verifier's report; NULL for DURABLE_ACKS_ELSEWHERE. */
const char *durability_acks_on_warning(enum durable_acks_on on);

#endif
