/* pace.h: operations at a steady rate, one start every period on a fixed
 * grid of slots. A database's commits do not wait for the disk to be free
 * the way a benchmark's back-to-back loop does, and a flush that follows an
 * idle gap costs more than one that follows another: a paced load measures
 * that gap. An operation still running when its successor's slot comes
 * makes that slot a missed start: slots are never queued up and made up
 * later in a burst, so a stall shows as missed starts, not as a rush of
 * operations after it. */
#ifndef SYNCPROBE_PACE_H
#define SYNCPROBE_PACE_H

#include <signal.h>
#include <stdint.h>

struct pace {
	uint64_t period_ns;	/* between two slots; 0: back to back */
	uint64_t next_ns;	/* the slot the next operation starts in */
	uint64_t slots;		/* slots passed so far: started + missed */
	uint64_t missed;	/* slots passed while an operation still ran */
};

/* A pace whose first slot is at start_ns; period_ns 0: no pacing. */
void pace_init(struct pace *p, uint64_t start_ns, uint64_t period_ns);

/* The period of rate operations a second (at least 1 ns). */
uint64_t pace_period_ns(uint64_t per_sec);

/* An operation that started in slot p->next_ns ended at now_ns: move to
 * the first slot at or after now_ns. Returns how many slots passed while
 * it ran (its own not counted): the missed starts, added to p->missed.
 * Back to back (period 0), the next start is now_ns and none is missed. */
uint64_t pace_after(struct pace *p, uint64_t now_ns);

/* Sleep until p->next_ns (monotonic clock), in as many sleeps as signals
 * cut short, unless *stop becomes nonzero first. 0 on time, 1 when stop
 * ended the wait, -1 with errno when nanosleep failed otherwise. */
int pace_wait(const struct pace *p, const volatile sig_atomic_t *stop);

#endif
