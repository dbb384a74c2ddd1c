/* judge.c: measuring yields rows; this turns them into what to tell the
 * administrator. The sleep is timed here, after the test file is gone: it
 * touches no disk. */
#include "config.h"

#include "advice/judge.h"
#include "advice/verdict.h"

#include <string.h>

#include "probe/method.h"
#include "probe/plan.h"
#include "advice/warnings.h"

static void
advice_input_of(const struct options *o, struct advice_input *in)
{
	in->forced_method = o->wal_method;
	in->platform_default = method_platform_default();
	in->writethrough = method_writethrough();
}

const struct method *
judge_flush_basis(const struct options *o, const struct target_result *tr,
    double *rule_mean_usecs, bool *direct)
{
	struct advice_input in;
	const struct method *m;

	advice_input_of(o, &in);
	m = advice_flush_basis(tr->rows, tr->nrows, &in, rule_mean_usecs, direct);
	/* No chosen method's row ran (O_DIRECT refused, say): the platform
	 * default is one only when -m chose it; else the first chosen one
	 * this system has (plan_validate made sure of one). */
	if (!(o->methods & (1u << method_index(m))) && plan_first_available(o->methods) != NULL)
		m = plan_first_available(o->methods);
	return m;
}

void
judge_target(const struct options *o, struct target_result *tr)
{
	struct advice_input in;

	advice_input_of(o, &in);
	advice_compute(tr->rows, tr->nrows, &in, &tr->advice);
	if (tr->group != NULL)
		advice_from_group(tr->group, &tr->advice);
	/* After a stop signal nothing more is measured, the sleep neither. */
	if (!tr->advice.have_delay || tr->interrupted ||
	    sleep_measure(tr->advice.commit_delay_usecs, 0, &tr->sleep) == -1)
		memset(&tr->sleep, 0, sizeof tr->sleep);
	warnings_compute(tr->rows, tr->nrows, &tr->storage,
	    tr->sleep.samples > 0 ? &tr->sleep : NULL, &tr->advice);
	verdict_etcd(tr->rows, tr->nrows, &tr->advice);
}
