/* durability.h: does the storage keep what it acknowledged? Two halves of
 * a power-cut check (issue 14). The writer (syncprobe durability write) syncs
 * self-checking records into a file it creates and keeps, and prints an
 * acknowledgement line for each only after its sync returned; the lines
 * go to another machine. After the power cut and the reboot the verifier
 * (syncprobe durability verify --acks=FILE) checks that every acknowledged record
 * the file can still hold is there.
 *
 * durability.c has the two loops and the file handling,
 * durability_verdict.c the verifier's tally and verdict, pure,
 * durability_report.c its report; their options are in
 * src/cli/cli_durability.c. */
#ifndef SYNCPROBE_DURABILITY_H
#define SYNCPROBE_DURABILITY_H

#include <stddef.h>

#include "probe/options.h"

#define DURABILITY_FILE_NAME  "syncprobe-durability"	/* in TARGET, without -f */

/* Run the writer or the verifier, as o->durability says; prints its own
 * errors and returns the exit status (0, 1, 2, or STATUS_LOST). */
int durability_main(const struct options *o);

#endif
