/* advice.c: wal_sync_method and commit_delay from the measured rows, and
 * why: codes and the figures behind them, which the report puts in words
 * (report/advice_words.c). Pure: no I/O, no clock; the unit tests feed it
 * made-up rows. */
#include "config.h"

#include "advice/advice.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe/plan.h"
#include "util/postgres.h"

long
advice_commit_delay(double mean_usecs)
{
	return postgres_commit_delay(mean_usecs / 2.0);
}

const struct row_result *
advice_find_row(const struct row_result *rows, size_t n, enum group g,
    const struct method *m, bool direct)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct row_result *r = &rows[i];

		if (r->spec.group == g && r->spec.direct == direct &&
		    r->spec.method == m && row_is_candidate(r))
			return r;
	}
	return NULL;
}

static bool
group_ran(const struct row_result *rows, size_t n, enum group g)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].spec.group == g)
			return true;
	return false;
}

/* The method's score: mean usecs of one write plus, when the two-write test
 * ran, of two writes, and the half-width of its 95% interval (the rows'
 * added in quadrature; 0 where a row's is unknown). Negative when the
 * method has no usable rows. */
static double
method_score(const struct row_result *rows, size_t n, const struct method *m,
    bool direct, bool with_two, double *ci)
{
	const struct row_result *one = advice_find_row(rows, n, GROUP_ONE, m, direct);
	const struct row_result *two;
	double c1, c2;

	*ci = 0.0;
	if (one == NULL)
		return -1.0;
	c1 = one->mean_ci95_usecs > 0.0 ? one->mean_ci95_usecs : 0.0;
	*ci = c1;
	if (!with_two)
		return one->mean_usecs;
	two = advice_find_row(rows, n, GROUP_TWO, m, direct);
	if (two == NULL)
		return -1.0;
	c2 = two->mean_ci95_usecs > 0.0 ? two->mean_ci95_usecs : 0.0;
	*ci = sqrt(c1 * c1 + c2 * c2);
	return one->mean_usecs + two->mean_usecs;
}

/* Whether the default stays: unless another method is faster by more
 * than the margin even where the figures' noise favours the default most
 * (its score at the low end of its interval, the fastest's at the high
 * end). A margin on the means alone would flip between runs whenever two
 * methods stand near it: the advice would change with the noise. */
static bool
keep_default(double def_score, double def_ci, double best_score, double best_ci,
    bool *within_margin)
{
	*within_margin = def_score <= best_score * DEFAULT_KEEP_RATIO;
	return def_score - def_ci <= (best_score + best_ci) * DEFAULT_KEEP_RATIO;
}

/* The parts of a method's score, so that a reader sees what was
 * compared: the mean of one write and, where the sums are compared, of
 * two (the report puts them in words). */
static void
score_parts(const struct row_result *rows, size_t n, const struct method *m,
    bool direct, bool with_two, double score, struct method_score *out)
{
	const struct row_result *one = advice_find_row(rows, n, GROUP_ONE, m, direct);
	const struct row_result *two = advice_find_row(rows, n, GROUP_TWO, m, direct);

	memset(out, 0, sizeof *out);
	out->one_usecs = one ? one->mean_usecs : 0.0;
	out->with_two = with_two && two != NULL;
	out->two_usecs = out->with_two ? two->mean_usecs : 0.0;
	out->score = score;
}

/* Which of the kept default's reasons holds. */
static enum method_choice
default_kept(const struct method *best, const struct method *def, size_t scored,
    bool within_margin)
{
	if (best == def && scored == 1)
		return CHOICE_DEFAULT_ONLY;
	if (best == def)
		return CHOICE_DEFAULT_FASTEST;
	return within_margin ? CHOICE_DEFAULT_WITHIN_MARGIN : CHOICE_DEFAULT_WITHIN_NOISE;
}

static void
choose_method(const struct row_result *rows, size_t n, const struct advice_input *in,
    struct advice *a)
{
	bool with_two = group_ran(rows, n, GROUP_TWO);
	const struct method *best = NULL, *def = in->platform_default;
	double best_score = 0.0, best_ci = 0.0, def_score, def_ci, ci;
	bool within_margin;
	double margin_pct = (DEFAULT_KEEP_RATIO - 1.0) * 100.0;
	struct method_facts *why = &a->method_why;
	size_t i, scored = 0;
	int pass;

	/* Buffered rows first: that is how the server writes its log unless
	 * it was set up for direct I/O. Direct rows only when no buffered ran. */
	for (pass = 0; pass < 2 && best == NULL; pass++) {
		a->direct_basis = pass == 1;
		for (i = 0; i < METHOD_COUNT; i++) {
			double s = method_score(rows, n, &method_table[i],
			    a->direct_basis, with_two, &ci);

			if (s < 0.0)
				continue;
			scored++;
			if (best == NULL || s < best_score) {
				best = &method_table[i];
				best_score = s;
				best_ci = ci;
			}
		}
	}
	memset(why, 0, sizeof *why);
	why->with_two = with_two;
	why->margin_pct = margin_pct;
	why->platform_default = def;
	if (best == NULL) {
		a->direct_basis = false;
		why->choice = CHOICE_NONE_RAN;
		return;
	}
	if (in->writethrough != NULL && method_score(rows, n, in->writethrough,
	    a->direct_basis, with_two, &ci) >= 0.0) {
		a->wal_sync_method = in->writethrough;
		why->choice = CHOICE_WRITETHROUGH;
		return;
	}
	def_score = method_score(rows, n, def, a->direct_basis, with_two, &def_ci);
	why->fastest = best;
	score_parts(rows, n, best, a->direct_basis, with_two, best_score, &why->fastest_score);
	if (def_score >= 0.0)
		score_parts(rows, n, def, a->direct_basis, with_two, def_score,
		    &why->default_score);
	if (def_score >= 0.0 && keep_default(def_score, def_ci, best_score, best_ci,
	    &within_margin)) {
		a->wal_sync_method = def;
		why->choice = default_kept(best, def, scored, within_margin);
		return;
	}
	a->wal_sync_method = best;
	why->choice = def_score >= 0.0 ? CHOICE_FASTEST : CHOICE_FASTEST_UNCOMPARED;
}

static void
choose_delay(const struct row_result *rows, size_t n, const struct advice_input *in,
    struct advice *a)
{
	const struct method *method = in->forced_method ? in->forced_method : a->wal_sync_method;
	struct delay_facts *why = &a->delay_why;
	const struct row_result *row;

	memset(why, 0, sizeof *why);
	why->basis = DELAY_NO_METHOD;
	if (method == NULL)
		return;
	row = advice_find_row(rows, n, GROUP_ONE, method, a->direct_basis);
	if (row == NULL && in->forced_method != NULL)
		row = advice_find_row(rows, n, GROUP_ONE, method, !a->direct_basis);
	if (row == NULL) {
		why->basis = DELAY_METHOD_NOT_RUN;
		why->method = method;
		return;
	}
	a->basis = row;
	a->basis_mean_usecs = row->mean_usecs;
	a->commit_delay_usecs = advice_commit_delay(a->basis_mean_usecs);
	a->rule_delay_usecs = a->commit_delay_usecs;
	a->delay_method = method;
	a->have_delay = true;
	why->basis = DELAY_RULE_ROW;
	why->mean_usecs = a->basis_mean_usecs;
	snprintf(why->row, sizeof why->row, "%s", row->spec.name);
	why->forced = in->forced_method != NULL;
}

const struct method *
advice_flush_basis(const struct row_result *rows, size_t n, const struct advice_input *in,
    double *rule_mean_usecs, bool *direct)
{
	struct advice a;

	memset(&a, 0, sizeof a);
	choose_method(rows, n, in, &a);
	choose_delay(rows, n, in, &a);
	*rule_mean_usecs = a.have_delay ? a.basis_mean_usecs : 0.0;
	*direct = a.have_delay && a.basis->spec.direct;
	if (in->forced_method != NULL)
		return in->forced_method;
	return a.wal_sync_method != NULL ? a.wal_sync_method : in->platform_default;
}

void
advice_compute(const struct row_result *rows, size_t n,
    const struct advice_input *in, struct advice *out)
{
	memset(out, 0, sizeof *out);
	out->commit_siblings = DEFAULT_COMMIT_SIBLINGS;
	out->method_given = in->forced_method != NULL;
	choose_method(rows, n, in, out);
	choose_delay(rows, n, in, out);
	out->siblings_why.basis = SIBLINGS_DEFAULT;
	out->siblings_why.siblings = DEFAULT_COMMIT_SIBLINGS;
}
