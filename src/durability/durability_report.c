/* durability_report.c: the verifier's report, as text for people and as
 * one JSON document for scripts (keys documented in the man page,
 * DURABILITY). It prints the verdict it is given and judges nothing. */
#include "config.h"

#include "durability/durability_report.h"

#include "durability/durability_acks_on.h"

#include <limits.h>

#include "report/report.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/names.h"
#include "util/wrap.h"

/* -F json's schema (schema/durability-verify.schema.json). Version 2: the
 * command named as syncprobe pgbench's report names it ("command":
 * "durability verify", where version 1 had "mode": "durability_verify"). */
#define DURABILITY_SCHEMA_VERSION 2
#define LINE_WIDTH                80

/* s as a terminal may show it (util/escape): the paths, and the method
 * read from the acknowledgements, come from outside. */
static const char *
shown(const char *s, char buf[ESCAPE_LEN(PATH_MAX)])
{
	escape_for_terminal(s, buf, ESCAPE_LEN(PATH_MAX));
	return buf;
}

static const char *
header_name(enum durable_header_status h)
{
	switch (h) {
	case DURABLE_HEADER_OK:
		return "ok";
	case DURABLE_HEADER_EMPTY:
		return "missing";
	case DURABLE_HEADER_DAMAGED:
		return "damaged";
	case DURABLE_HEADER_FOREIGN:
	case DURABLE_HEADER_VERSION:
		break;
	}
	return "foreign";	/* refused before any report */
}

/* The writer's warning, repeated: acknowledgements kept on the disk
 * under test prove nothing. */
static void
text_acks_on(FILE *out, const struct durability_verdict *v)
{
	char line[1024];
	const char *why = durability_acks_on_warning(v->acks.acks_on);

	if (why == NULL)
		return;
	snprintf(line, sizeof line, "WARNING: %s (the writer's header line says acks=%s)",
	    why, durable_acks_on_name(v->acks.acks_on));
	wrap_print(out, 2, 4, LINE_WIDTH, line, false);
}

static void
text_run(FILE *out, const struct durability_verdict *v)
{
	const struct durable_header *h = &v->acks.header;
	char run[DURABLE_RUN_ID_LEN], block[32], file[32], method[ESCAPE_LEN(PATH_MAX)];

	durable_run_id_format(h->run_id, run);
	units_format_size(h->geo.block_bytes, block, sizeof block);
	units_format_size(h->geo.file_bytes, file, sizeof file);
	fprintf(out, "  run %s: %s, %s, %s, %s records, %s file (%llu slot%s)\n", run,
	    shown(h->method, method), h->direct ? "direct" : "buffered", options_pattern_name(h->geo.pattern),
	    block, file, (unsigned long long)v->slots, v->slots == 1 ? "" : "s");
	if (v->acks.end == DURABLE_END_NONE)
		fprintf(out, "  the writer was still writing where the acknowledgements end\n");
	else
		fprintf(out, "  the writer had stopped (%s) before the acknowledgements end: no\n"
		    "  power cut hit it mid-write\n", durable_end_name(v->acks.end));
	if (v->last_line_cut)
		fprintf(out, "  the last line of the acknowledgements was cut short (not counted)\n");
	if (v->file_gone)
		fprintf(out, "  the file is gone: the writer created it, and synced it with its\n"
		    "  directory, before the first acknowledgement\n");
	else if (v->header != DURABLE_HEADER_OK)
		fprintf(out, "  the file's header is %s: it was synced before the first\n"
		    "  acknowledgement\n", header_name(v->header));
	text_acks_on(out, v);
}

static void
text_counts(FILE *out, const struct durability_verdict *v)
{
	uint64_t lost = durability_verdict_lost_records(v);
	unsigned i;

	fprintf(out, "\n  %-34s %10llu\n", "acknowledged records",
	    (unsigned long long)v->acks.last_seq);
	fprintf(out, "  %-34s %10llu  (the newest in each slot)\n",
	    "the file can still hold", (unsigned long long)v->expected);
	fprintf(out, "  %-34s %10llu\n", "kept", (unsigned long long)v->kept);
	if (v->torn > 0)
		fprintf(out, "  %-34s %10llu  (being overwritten: not a loss)\n",
		    "torn by the write in flight", (unsigned long long)v->torn);
	fprintf(out, "  %-34s %10llu  (missing %llu, corrupt %llu)\n", "lost",
	    (unsigned long long)lost, (unsigned long long)v->missing,
	    (unsigned long long)v->corrupt);
	if (v->nlisted > 0) {
		fprintf(out, "    first lost:");
		for (i = 0; i < v->nlisted; i++)
			fprintf(out, " %llu", (unsigned long long)v->lost_first[i]);
		fprintf(out, "%s\n", lost > v->nlisted ? " ..." : "");
	}
	fprintf(out, "  %-34s %10llu", "intact records found", (unsigned long long)v->intact);
	if (v->newest)
		fprintf(out, "  (newest %llu)", (unsigned long long)v->newest);
	fprintf(out, "\n  %-34s %10llu\n", "unacknowledged records kept",
	    (unsigned long long)v->unacked);
}

void
durability_report_text(FILE *out, const struct durability_verdict *v)
{
	uint64_t lost = durability_verdict_lost_records(v);
	char buf[ESCAPE_LEN(PATH_MAX)];

	fprintf(out, "syncprobe durability check\n");
	fprintf(out, "  file: %s\n", shown(v->file, buf));
	fprintf(out, "  acknowledgements: %s\n", shown(v->acks_path, buf));
	text_run(out, v);
	text_counts(out, v);
	if (!durability_verdict_lost(v))
		fprintf(out, "\nverdict: kept: every acknowledged record the file can still "
		    "hold is there\n");
	else if (lost > 0)
		fprintf(out, "\nverdict: LOST: %llu acknowledged record%s not in the file: the "
		    "storage\n  acknowledged writes it did not keep\n", (unsigned long long)lost,
		    lost == 1 ? " is" : "s are");
	else
		fprintf(out, "\nverdict: LOST: the file's header is %s: the storage acknowledged\n"
		    "  writes it did not keep\n", header_name(v->header));
	if (v->removed)
		fprintf(out, "(the durability file was removed, as --remove asked)\n");
}

void
durability_report_json(FILE *out, const struct durability_verdict *v)
{
	const struct durable_header *h = &v->acks.header;
	char run[DURABLE_RUN_ID_LEN];
	struct json j;
	unsigned i;

	durable_run_id_format(h->run_id, run);
	json_init(&j, out);
	json_begin_object(&j, NULL);
	json_uint(&j, "schema_version", DURABILITY_SCHEMA_VERSION);
	json_string(&j, "syncprobe_version", PACKAGE_VERSION);
	json_string(&j, "command", "durability verify");
	json_string(&j, "file", v->file);
	json_string(&j, "acks", v->acks_path);
	json_string(&j, "run_id", run);
	json_string(&j, "method", h->method);
	json_bool(&j, "direct", h->direct);
	json_string(&j, "pattern", options_pattern_name(h->geo.pattern));
	json_uint(&j, "block_bytes", h->geo.block_bytes);
	json_uint(&j, "file_bytes", h->geo.file_bytes);
	json_uint(&j, "slots", v->slots);
	json_string(&j, "writer_end", v->acks.end == DURABLE_END_NONE ? NULL :
	    durable_end_name(v->acks.end));
	json_bool(&j, "acks_last_line_cut", v->last_line_cut);
	json_string(&j, "acks_on_target", durable_acks_on_name(v->acks.acks_on));
	json_bool(&j, "file_exists", !v->file_gone);
	json_string(&j, "header", header_name(v->header));
	json_uint(&j, "acknowledged", v->acks.last_seq);
	json_uint(&j, "expected", v->expected);
	json_uint(&j, "kept", v->kept);
	json_uint(&j, "torn_in_flight", v->torn);
	json_uint(&j, "lost", durability_verdict_lost_records(v));
	json_uint(&j, "missing", v->missing);
	json_uint(&j, "corrupt", v->corrupt);
	json_begin_array(&j, "lost_first");
	for (i = 0; i < v->nlisted; i++)
		json_uint(&j, NULL, v->lost_first[i]);
	json_end_array(&j);
	json_uint(&j, "intact", v->intact);
	if (v->newest)
		json_uint(&j, "newest_intact", v->newest);
	else
		json_null(&j, "newest_intact");
	json_uint(&j, "unacknowledged_kept", v->unacked);
	json_string(&j, "verdict", durability_verdict_lost(v) ? "lost" : "kept");
	json_bool(&j, "removed", v->removed);
	json_end_object(&j);
}

const struct durability_format durability_formats[] = {
	{ REPORT_NAME_TEXT, durability_report_text },
	{ REPORT_NAME_JSON, durability_report_json },
};

const struct name_list durability_format_names =
    NAME_LIST(durability_formats, struct durability_format, name);
