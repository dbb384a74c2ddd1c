/* durability_options.c: which options each mode takes. The writer takes
 * the probe's write settings (-m, --direct, -b, --file-size, --pattern)
 * and its own limits (-n, --for); the verifier reads every setting from
 * the acknowledgements, so it refuses them rather than silently ignore a
 * value that might disagree. An option counts as given when its field
 * differs from the default, which is all struct options can tell. */
#include "config.h"

#include "durability/durability.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "probe/method.h"
#include "report/report.h"

#define IN_PROBE   (1u << DURABILITY_OFF)
#define IN_WRITE   (1u << DURABILITY_WRITE)
#define IN_VERIFY  (1u << DURABILITY_VERIFY)

struct option_rule {
	const char *name;
	size_t offset, size;	/* the field of struct options it sets */
	unsigned modes;		/* IN_* where the option means something */
	const char *write_hint;	/* why the writer does without it, or "" */
};

#define FIELD(f) offsetof(struct options, f), sizeof(((struct options *)0)->f)

static const struct option_rule rules[] = {
	{ "--secs-per-test",   FIELD(test_ns),      IN_PROBE, " (its time is --for)" },
	{ "--ops-per-test",    FIELD(ops_per_test), IN_PROBE | IN_WRITE, "" },
	{ "--tests",           FIELD(groups),       IN_PROBE, "" },
	{ "--rounds",          FIELD(rounds),       IN_PROBE, "" },
	{ "--wal-sync-method", FIELD(wal_method),   IN_PROBE, "" },
	{ "--methods",         FIELD(methods),      IN_PROBE | IN_WRITE, "" },
	{ "--direct",          FIELD(direct),       IN_PROBE | IN_WRITE, "" },
	{ "--pattern",         FIELD(pattern),      IN_PROBE | IN_WRITE, "" },
	{ "--block-size",      FIELD(block_bytes),  IN_PROBE | IN_WRITE, "" },
	{ "--file-size",       FIELD(file_bytes),   IN_PROBE | IN_WRITE, "" },
	{ "--format",          FIELD(format),       IN_PROBE | IN_VERIFY,
	  " (its output is the acknowledgements)" },
	{ "--acks",            FIELD(acks),         IN_VERIFY, "" },
	{ "--remove",          FIELD(remove),       IN_VERIFY, "" },
	{ "--for",             FIELD(for_ns),       IN_WRITE, "" },
};

/* Whether the option of rule r was given: its field is not the default. */
static bool
given(const struct options *o, const struct options *defaults, const struct option_rule *r)
{
	return memcmp((const char *)o + r->offset, (const char *)defaults + r->offset,
	    r->size) != 0;
}

/* Why the option of rule r cannot be used in mode m. */
static void
refuse(const struct option_rule *r, enum durability_mode m, char *err, size_t errlen)
{
	if (m == DURABILITY_OFF)
		snprintf(err, errlen, "%s: needs --durability=%s", r->name,
		    r->modes & IN_WRITE ? "write" : "verify");
	else if (m == DURABILITY_WRITE)
		snprintf(err, errlen, "%s: not used by --durability=write%s", r->name,
		    r->write_hint);
	else
		snprintf(err, errlen, "%s: not used by --durability=verify (the verifier "
		    "reads the settings from the acknowledgements)", r->name);
}

static unsigned
bits_set(unsigned v)
{
	unsigned n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

/* The rules that need several options at once. */
static int
check_mode(const struct options *o, char *err, size_t errlen)
{
	if (o->ntargets > 1) {
		snprintf(err, errlen, "--durability=%s: takes one TARGET directory (or -f FILE)",
		    options_durability_name(o->durability));
		return -1;
	}
	if (o->durability == DURABILITY_WRITE) {
		if (bits_set(o->methods) != 1 && o->methods != (1u << METHOD_COUNT) - 1) {
			snprintf(err, errlen, "--methods: the writer uses one method (name one)");
			return -1;
		}
		if (o->file_bytes < 2 * (uint64_t)o->block_bytes) {
			snprintf(err, errlen, "--file-size: too small for the durability file "
			    "(at least two blocks: a header and a record)");
			return -1;
		}
		return 0;
	}
	if (o->acks == NULL) {
		snprintf(err, errlen, "--durability=verify: needs --acks=FILE (the writer's "
		    "standard output)");
		return -1;
	}
	if (o->format->kind == REPORT_CONF) {
		snprintf(err, errlen, "--format=%s: not used by --durability=verify "
		    "(text or json)", o->format->name);
		return -1;
	}
	return 0;
}

int
durability_check_options(const struct options *o, char *err, size_t errlen)
{
	struct options defaults;
	size_t i;

	options_defaults(&defaults);
	/* -n sets the time to 0: that is not a -s. */
	if (o->ops_per_test)
		defaults.test_ns = 0;
	for (i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (!(rules[i].modes & (1u << o->durability)) && given(o, &defaults, &rules[i])) {
			refuse(&rules[i], o->durability, err, errlen);
			return -1;
		}
	if (o->durability == DURABILITY_OFF)
		return 0;
	return check_mode(o, err, errlen);
}
