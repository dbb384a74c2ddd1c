/* options.h: the probe's settings, what the user asked for, and the
 * parsing of the values that name the probe's own things (test groups,
 * methods, --direct, --pattern); sizes and durations are util/units.h. */
#ifndef SYNCPROBE_OPTIONS_H
#define SYNCPROBE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/method.h"
#include "util/postgres.h"
#include "util/units.h"

#define DEFAULT_BLOCK_BYTES   8192u
#define MIN_BLOCK_BYTES       1024u
#define MAX_BLOCK_BYTES       65536u
#define DEFAULT_FILE_BYTES    (16u * 1024u * 1024u)
#define MAX_FILE_BYTES        (64ULL * 1024 * 1024 * 1024)
#define MAX_OPS_PER_TEST      1000000000ULL
#define DEFAULT_ROUNDS        5u	/* slices per row (adaptive: at least), round-robin in a group */
#define MAX_ROUNDS            1000u
#define ERRBUF_LEN            256

/* The group-commit experiment (-t group). */
#define MAX_CLIENTS           1000u
#define DEFAULT_DECIDE        5u	/* -t group: paired rounds deciding a leading delay */
#define MAX_DECIDE            50u
#define DEFAULT_TXN_WORK_NS   60000ULL
#define MAX_TXN_WORK_NS       100000000ULL	/* 100ms */
#define DEFAULT_RECORD_BYTES  112u	/* a one-row INSERT and its commit, PostgreSQL 15 */
#define MAX_RECORD_BYTES      (1u << 20)

/* -t etcd: fio's recipe writes 2300 bytes (etcd's entries vary with the
 * objects stored); etcdctl check perf --load=s puts 150 a second. */
#define DEFAULT_ETCD_WRITE_BYTES 2300u
#define MAX_ETCD_WRITE_BYTES     (1u << 20)
#define DEFAULT_ETCD_RATE        150u
#define MAX_ETCD_RATE            100000u

enum direct_mode { DIRECT_BOTH, DIRECT_ON, DIRECT_OFF };
enum pattern { PATTERN_OVERWRITE, PATTERN_APPEND };
struct name_list;	/* util/names.h */

struct options {
	/* Neither -s nor -n: each row runs until its mean is known well
	 * enough (precision.h), between a floor and a cap of time. */
	bool adaptive;
	uint64_t test_ns;	/* -s: time per test; 0 when adaptive or -n */
	uint64_t ops_per_test;	/* -n: fixed count per test; 0 otherwise */
	const char *filename;	/* -f: exact test file, or NULL */
	size_t block_bytes;
	uint64_t file_bytes;
	unsigned groups;	/* bit (1u << enum group) per group */
	unsigned methods;	/* bit (1u << method index) per method */
	enum direct_mode direct;
	enum pattern pattern;
	const struct method *wal_method;	/* --wal-sync-method, or NULL */
	unsigned rounds;
	bool quiet;
	/* --histogram's list of rows ("all" without one), or NULL: none. */
	const char *histogram;
	const char *label;	/* --label, or NULL: host:path */
	/* -t group: client counts (ascending), commit_delays in us (ascending;
	 * none: from the measured flush), commit_siblings, work per
	 * transaction, log bytes per commit. */
	unsigned clients[UNITS_MAX_LIST];
	size_t nclients;
	long commit_delays[UNITS_MAX_LIST];
	size_t ndelays;
	unsigned commit_siblings;
	unsigned decide;	/* paired rounds of a delay that leads 0, and of 0 */
	uint64_t txn_work_ns;
	size_t record_bytes;
	/* -t etcd: bytes per WAL append, paced row's appends a second. */
	size_t etcd_write_bytes;
	unsigned etcd_rate;
	const char *const *targets;
	size_t ntargets;
};

/* Every default but the test groups (plan_default_groups), which the
 * command sets. */
void options_defaults(struct options *o);

/* Each parser returns 0, or -1 with a reason in err (no "syncprobe:"). */
/* A comma-separated list of the names of l, each setting its bit; "all"
 * sets all_bits. what names the list in messages ("methods"). */
int options_parse_names(const char *s, const struct name_list *l, unsigned all_bits,
    const char *what, unsigned *out, char *err, size_t errlen);
int options_parse_methods(const char *s, unsigned *out, char *err, size_t errlen);
int options_parse_direct(const char *s, enum direct_mode *out, char *err, size_t errlen);
int options_parse_pattern(const char *s, enum pattern *out, char *err, size_t errlen);
/* A method this system has (--wal-sync-method). */
int options_parse_method(const char *s, const struct method **out, char *err, size_t errlen);

/* The names of --direct's and --pattern's values, in the order of their
 * enums. */
extern const struct name_list options_direct_names;
extern const struct name_list options_pattern_names;

/* --file-size at most MAX_FILE_BYTES and at least need bytes (what
 * needs them, for the message: "the chosen tests"). */
int options_check_file_size(uint64_t file_bytes, uint64_t need, const char *what,
    char *err, size_t errlen);

const char *options_direct_name(enum direct_mode d);
const char *options_pattern_name(enum pattern p);

#endif
