/* pace.c: the slot arithmetic of a paced load, and the wait for a slot. */
#include "config.h"

#include "probe/pace.h"

#include <errno.h>
#include <time.h>

#include "util/platform.h"

void
pace_init(struct pace *p, uint64_t start_ns, uint64_t period_ns)
{
	p->period_ns = period_ns;
	p->next_ns = start_ns;
	p->slots = 0;
	p->missed = 0;
}

uint64_t
pace_period_ns(uint64_t per_sec)
{
	uint64_t ns;

	if (per_sec == 0)
		return 0;
	ns = NSEC_PER_SEC / per_sec;
	return ns ? ns : 1;
}

uint64_t
pace_after(struct pace *p, uint64_t now_ns)
{
	uint64_t next, late, skip;

	p->slots++;
	if (p->period_ns == 0) {
		p->next_ns = now_ns;
		return 0;
	}
	next = p->next_ns + p->period_ns;
	if (now_ns <= next) {
		p->next_ns = next;
		return 0;
	}
	/* Every slot before now_ns passed while the operation ran. */
	late = now_ns - next;
	skip = late / p->period_ns + (late % p->period_ns ? 1 : 0);
	p->next_ns = next + skip * p->period_ns;
	p->slots += skip;
	p->missed += skip;
	return skip;
}

int
pace_wait(const struct pace *p, const volatile sig_atomic_t *stop)
{
	for (;;) {
		uint64_t now = platform_now_ns(), left;
		struct timespec ts;

		if (*stop)
			return 1;
		if (now >= p->next_ns)
			return 0;
		left = p->next_ns - now;
		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		/* A signal ends the sleep early: the flag says whether to go on. */
		if (nanosleep(&ts, NULL) == -1 && errno != EINTR)
			return -1;
	}
}
