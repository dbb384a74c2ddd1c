/* report_pgbench.h: what syncprobe pgbench measured, as its reports read
 * it (the command in src/pgbench fills it), and its text, JSON and conf
 * writers. Per client count and setting (commit_delay, commit_siblings),
 * one group_cell whose slices are the repeats: the noise rule of -t group
 * (group_compare) judges them against delay 0 in the same repeat. */
#ifndef SYNCPROBE_REPORT_PGBENCH_H
#define SYNCPROBE_REPORT_PGBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "advice/advice.h"
#include "advice/settings.h"
#include "group/group_result.h"
#include "probe/options.h"

#define PGB_MAX_SETTINGS (2 * UNITS_MAX_LIST * UNITS_MAX_LIST / 4 + 8)
/* -F json's schema (schema/pgbench.schema.json). Version 2: names as the
 * other commands' documents spell them: syncprobe_version, the directory's
 * path, and a cell's versus_zero_percent, noise_percent and versus_zero as
 * -t group's cells have them, every key present (null where the setting
 * did not run). */
#define PGB_SCHEMA_VERSION 2
#define PGB_MAX_CELL_RUNS 64	/* a cell's repeats and deciding runs */

enum pgb_role {
	PGB_ROLE_SWEPT,		/* one of the sweep's settings */
	PGB_ROLE_ZERO,		/* commit_delay 0 */
	PGB_ROLE_RULE,		/* the half rule: d/2, siblings 5 */
	PGB_ROLE_GROUP		/* -t group's advice */
};

struct pgb_setting {
	long delay_usecs;
	unsigned siblings;
	unsigned roles;		/* bits of 1u << enum pgb_role */
};

struct pgb_cell {
	struct group_cell cell;	/* slices: the repeats that ran */
	bool runs;		/* siblings < clients, or delay 0 */
	double median_tps, min_tps, max_tps;
	bool have_wal;
	double commits_per_flush;	/* < 0: not known */
};

enum pgb_workload { PGB_INSERT, PGB_TPCB, PGB_SCRIPT };

/* A client count where a delay led 0 without the repeats telling them
 * apart, and the runs of each added after the repeats to decide it. */
struct pgb_decided {
	size_t setting;		/* the leading delay's; nsettings: none */
	unsigned runs;		/* more runs of it and of 0, side by side */
};

struct pgb_result {
	const char *dir;
	char server_version[64];
	int version_num;
	const char *bin_dir;
	const char *bin_found_by;
	const char *user;		/* the server's user */
	const char *wal_sync_method;
	bool method_given;
	double d_usecs;			/* the probe's flush: one 8kB write + sync */
	bool group_ran;
	long group_delay_usecs;		/* -t group's advice */
	unsigned group_siblings;
	enum pgb_workload workload;
	const char *script;		/* --script's file */
	unsigned secs, repeats;
	unsigned decide;		/* --decide: most runs added to decide */
	unsigned clients[UNITS_MAX_LIST];
	size_t nclients;
	struct pgb_setting settings[PGB_MAX_SETTINGS];
	size_t nsettings;
	struct pgb_cell *cells;		/* nclients x nsettings */
	unsigned repeats_done;		/* whole repeats */
	struct pgb_decided decided[UNITS_MAX_LIST];	/* per client count */
	bool cut_short;
	int stopped_by;			/* the signal, or 0 */
	/* The advice from the sweep (advice_from_group on its cells at the
	 * advised siblings). */
	bool have_advice;
	struct advice advice;
	/* The probe's advice on DIR (the method and its warnings; basis
	 * NULL, its row being gone), which the sweep's starts from. */
	struct advice probe_advice;
	/* What to set: the settings the sweep measured (advice/settings.h). */
	struct settings to_set;
	double duration_secs;
};

struct pgb_cell *pgb_cell_at(const struct pgb_result *r, size_t ci, size_t si);

/* Fill each cell's median, range, ratio and verdict against delay 0. */
void pgb_finish(struct pgb_result *r);

/* The setting's index, or nsettings. */
size_t pgb_find_setting(const struct pgb_result *r, long delay, unsigned siblings);

void report_pgbench_text(FILE *out, const struct pgb_result *r);
void report_pgbench_json(FILE *out, const struct pgb_result *r);
void report_pgbench_conf(FILE *out, const struct pgb_result *r);

/* syncprobe pgbench's -F, one row a format, as the probe's
 * report_formats: its name and its writer (report_formats.c). */
struct pgbench_format {
	const char *name;
	void (*write)(FILE *out, const struct pgb_result *r);
};

extern const struct pgbench_format pgbench_formats[];	/* the first is the default */
extern const struct name_list pgbench_format_names;

#endif
