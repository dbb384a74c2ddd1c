/* judge.c: the options the advice reads, and the experiment's basis: the
 * one judgement made before everything is measured, since the experiment
 * needs a method and a flush to start from. */
#include "config.h"

#include "advice/judge.h"

#include "probe/method.h"
#include "probe/plan.h"

void
judge_input(const struct options *o, struct advice_input *in)
{
	in->forced_method = o->wal_method;
	in->platform_default = method_platform_default();
	in->writethrough = method_writethrough();
}

const struct method *
judge_flush_basis(const struct options *o, const struct row_result *rows, size_t n,
    double *rule_mean_usecs, bool *direct)
{
	struct advice_input in;
	const struct method *m;

	judge_input(o, &in);
	m = advice_flush_basis(rows, n, &in, rule_mean_usecs, direct);
	/* No chosen method's row ran (O_DIRECT refused, say): the platform
	 * default is one only when -m chose it; else the first chosen one
	 * this system has (plan_validate made sure of one). */
	if (!(o->methods & (1u << method_index(m))) && plan_first_available(o->methods) != NULL)
		m = plan_first_available(o->methods);
	return m;
}
