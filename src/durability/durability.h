/* durability.h: does the storage keep what it acknowledged? Two halves of
 * a power-cut check (issue 14). The writer (syncprobe durability write) syncs
 * self-checking records into a file it creates and keeps, and prints an
 * acknowledgement line for each only after its sync returned; the lines
 * go to another machine. After the power cut and the reboot the verifier
 * (syncprobe durability verify --acks=FILE) checks that every acknowledged record
 * the file can still hold is there.
 *
 * durability_write.c is the writer, durability_verify.c the verifier,
 * durability_file.c the file's place they share, durability_verdict.c the
 * verifier's tally and verdict, pure, durability_report.c its report;
 * their options are in src/cli/cli_durability.c. */
#ifndef SYNCPROBE_DURABILITY_H
#define SYNCPROBE_DURABILITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/options.h"

#define DURABILITY_FILE_NAME  "syncprobe-durability"	/* in TARGET, without -f */

struct durability_format;	/* durability_report.h */

/* syncprobe durability write's settings: the write settings it shares
 * with the probe, and its own. */
struct durability_write_options {
	const char *dir;	/* DIR, or NULL: . */
	const char *filename;	/* -f: the file instead, or NULL */
	uint64_t records;	/* -n: stop after this many; 0: no count */
	uint64_t for_ns;	/* --for: stop after this long; 0: until stopped */
	size_t block_bytes;
	uint64_t file_bytes;
	/* -m: the one method's bit (1u << its index), or 0: the platform's
	 * default wal_sync_method. */
	unsigned methods;
	bool direct;		/* --direct=on */
	enum pattern pattern;
	bool quiet;
};

/* syncprobe durability verify's: every setting of the writer is read from
 * the acknowledgements. */
struct durability_verify_options {
	const char *dir;	/* DIR, or NULL: . */
	const char *filename;	/* -f: the file instead, or NULL */
	const char *acks;	/* --acks: the writer's standard output ("-": stdin) */
	bool remove;		/* --remove: the file removed after the verdict */
	const struct durability_format *format;	/* -F: text or JSON */
};

/* The writer's defaults: 8k records in a 16M file, rewritten in place,
 * buffered, with the platform's method, until stopped. */
void durability_write_defaults(struct durability_write_options *o);

/* The verifier's defaults: the file in ., a text report. */
void durability_verify_defaults(struct durability_verify_options *o);

/* Run the writer, or the verifier; each prints its own errors and returns
 * the exit status (0, 1, 2, or the verifier's STATUS_LOST). */
int durability_write(const struct durability_write_options *o);
int durability_verify(const struct durability_verify_options *o);

#endif
