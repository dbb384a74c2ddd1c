/* run.h: measure one target: create the test file, run every planned row
 * group by group in interleaved rounds, remove the file, compute advice. */
#ifndef SYNCPROBE_RUN_H
#define SYNCPROBE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "advice.h"
#include "options.h"
#include "probe.h"
#include "progress.h"
#include "sleep.h"
#include "storage.h"

struct target_result {
	const char *path;		/* as the user gave it */
	struct row_result *rows;
	size_t nrows;
	bool measured;			/* the rows ran (possibly up to an error) */
	bool failed;			/* an I/O error stopped the run */
	char error[REASON_LEN];
	struct storage_info storage;	/* where the target lives */
	struct sleep_result sleep;	/* the real length of a commit_delay sleep */
	struct advice advice;
};

/* Exit-status classes. */
#define RUN_OK     0
#define RUN_IO     1	/* an I/O error mid-run: rows hold it */
#define RUN_SETUP  2	/* the target could not be used: message in err */

/* Measure dir (or o->filename). Returns RUN_OK, RUN_IO or RUN_SETUP. */
int run_target(const struct options *o, const char *dir, struct progress *p,
    struct target_result *tr, char *err, size_t errlen);

/* Release what run_target allocated. */
void run_free(struct target_result *tr);

#endif
