/* durability_file.h: what the writer and the verifier share of the
 * durability file: where it is, and how long their messages about it may
 * be. */
#ifndef SYNCPROBE_DURABILITY_FILE_H
#define SYNCPROBE_DURABILITY_FILE_H

#include <limits.h>
#include <stddef.h>

#include "util/safefile.h"

#define DURABILITY_WHY_LEN 512	/* why, without a path */
/* A path and why, with words around them. */
#define DURABILITY_ERR_LEN (PATH_MAX + DURABILITY_WHY_LEN + 128)

/* The file's place, not yet opened: -f FILE, or DIR (NULL: .) and
 * DURABILITY_FILE_NAME. 0, or -1 with a message in err. */
int durability_locate(struct safefile *sf, const char *dir, const char *filename, char *err,
    size_t errlen);

#endif
