/* durability_verdict.c: the verifier's tally of slots, and the verdict
 * (durability_verdict.h). No I/O. */
#include "config.h"

#include "durability/durability_verdict.h"

/* Keep the DURABILITY_LISTED smallest lost numbers, in order. */
static void
list_lost(struct durability_verdict *v, uint64_t seq)
{
	unsigned i;

	if (v->nlisted == DURABILITY_LISTED && seq >= v->lost_first[DURABILITY_LISTED - 1])
		return;
	i = v->nlisted < DURABILITY_LISTED ? v->nlisted++ : DURABILITY_LISTED - 1;
	for (; i > 0 && v->lost_first[i - 1] > seq; i--)
		v->lost_first[i] = v->lost_first[i - 1];
	v->lost_first[i] = seq;
}

/* A block that is no intact record may be the write in flight, torn. */
void
durability_verdict_tally(struct durability_verdict *v, const unsigned char *block,
    unsigned char *scratch, uint64_t slot, enum durable_record_status st, uint64_t found)
{
	const struct durable_geometry *g = &v->acks.header.geo;
	uint64_t expected = durable_expected(g, v->acks.last_seq, slot), older, newer;
	enum durable_verdict verdict = durable_judge(st, found, expected);

	if (st == DURABLE_RECORD_OK) {
		v->intact++;
		if (found > v->acks.last_seq)
			v->unacked++;
		if (found > v->newest)
			v->newest = found;
	}
	if (verdict == DURABLE_CORRUPT && st == DURABLE_RECORD_CORRUPT &&
	    durable_record_sectors(block, g, v->acks.header.run_id, slot, scratch,
	    &older, &newer) == 0)
		verdict = durable_judge_torn(older, newer, expected, v->acks.last_seq);
	if (expected != 0)
		v->expected++;
	switch (verdict) {
	case DURABLE_NOTHING_EXPECTED:
		break;
	case DURABLE_KEPT:
		v->kept++;
		break;
	case DURABLE_TORN:
		v->torn++;
		break;
	case DURABLE_MISSING:
		v->missing++;
		list_lost(v, expected);
		break;
	case DURABLE_CORRUPT:
		v->corrupt++;
		list_lost(v, expected);
		break;
	}
}

uint64_t
durability_verdict_lost_records(const struct durability_verdict *v)
{
	return v->missing + v->corrupt;
}

bool
durability_verdict_lost(const struct durability_verdict *v)
{
	return v->header != DURABLE_HEADER_OK || durability_verdict_lost_records(v) > 0;
}
