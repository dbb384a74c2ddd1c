/* test_pace.c: the slot arithmetic of pace.c exactly, on made-up clock
 * readings; and that a wait for a slot already past returns at once and a
 * raised stop flag ends a wait (no figure of time is asserted). */
#include "config.h"

#include <signal.h>
#include <stdint.h>

#include "probe/pace.h"
#include "util/platform.h"
#include "tap.h"

#define MS 1000000ULL

static void
test_period(void)
{
	ok(pace_period_ns(50) == 20 * MS, "50 a second: 20 ms apart");
	ok(pace_period_ns(1) == 1000 * MS, "1 a second: 1 s apart");
	ok(pace_period_ns(3) == 333333333ULL, "3 a second: the period rounds down");
	ok(pace_period_ns(0) == 0, "0: back to back");
	ok(pace_period_ns(2000000000ULL) == 1, "faster than 1 a ns: still 1 ns apart");
}

static void
test_on_time(void)
{
	struct pace p;

	pace_init(&p, 1000 * MS, 20 * MS);
	ok(p.next_ns == 1000 * MS, "the first slot is the start");
	ok(pace_after(&p, 1001 * MS) == 0, "an operation of 1 ms misses nothing");
	ok(p.next_ns == 1020 * MS, "the next slot is one period after the first");
	ok(pace_after(&p, 1040 * MS) == 0, "ending exactly on the next slot is on time");
	ok(p.next_ns == 1040 * MS, "... and that slot is the next start");
	ok(p.slots == 2 && p.missed == 0, "two slots, none missed");
}

static void
test_late(void)
{
	struct pace p;

	pace_init(&p, 0, 20 * MS);
	ok(pace_after(&p, 25 * MS) == 1, "25 ms in a 20 ms slot: one missed start");
	ok(p.next_ns == 40 * MS, "the next start is the next slot, not now");
	ok(pace_after(&p, 40 * MS + 1) == 0, "the next one is on time again");
	ok(p.next_ns == 60 * MS, "... and the grid has not moved");
	/* A stall of a second: the slots it covered are missed, never made up. */
	ok(pace_after(&p, 1060 * MS + 1) == 50, "a 1 s stall misses 50 starts");
	ok(p.next_ns == 1080 * MS, "the next start is the first slot after the stall");
	ok(p.missed == 51, "missed starts add up");
	ok(p.slots == 3 + 51, "every slot is either started or missed");
	ok(pace_after(&p, 1080 * MS) == 0 && p.next_ns == 1100 * MS,
	    "after the stall one operation per slot, no burst");
}

static void
test_back_to_back(void)
{
	struct pace p;

	pace_init(&p, 5, 0);
	ok(pace_after(&p, 1000 * MS) == 0, "back to back: nothing is ever missed");
	ok(p.next_ns == 1000 * MS, "the next operation starts when this one ends");
	ok(p.slots == 1 && p.missed == 0, "one operation, no missed start");
}

static void
test_wait(void)
{
	volatile sig_atomic_t stop = 0;
	struct pace p;

	pace_init(&p, platform_now_ns(), 20 * MS);
	ok(pace_wait(&p, &stop) == 0, "a slot already come: no wait");
	pace_init(&p, platform_now_ns() + 3600 * 1000 * MS, 20 * MS);
	stop = 1;
	ok(pace_wait(&p, &stop) == 1, "a stop flag ends a wait of an hour");
}

int
main(void)
{
	test_period();
	test_on_time();
	test_late();
	test_back_to_back();
	test_wait();
	return tap_done();
}
