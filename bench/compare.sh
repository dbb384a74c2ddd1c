#!/bin/sh
# bench/compare.sh: syncprobe side by side with pg_test_fsync, fio and
# strace on one directory, the tools run alternately, printing medians of
# paired ratios with min and max, never absolute times. Run by hand, never
# by make check (QUICK=1 for a short run).
# It runs each comparison script of COMPARISONS in turn, each printing its
# table, and then prints their targets and notes together; each script
# also runs alone. See bench/README for the knobs, how to read the tables,
# the targets, and how to add a comparison.
set -u
COMPARISONS="rows fio syscalls cv slowdisk"	# bench/NAME.sh, in this order
BENCH_ABOUT='Runs syncprobe, pg_test_fsync, fio and strace in a fresh subdirectory of DIR
and prints ratios: the comparisons bench/rows.sh, fio.sh, syscalls.sh,
cv.sh and slowdisk.sh in turn (tables 1 to 5), then every target. Each
also runs alone: sh bench/rows.sh DIR.'
NEEDS="jq pg_test_fsync fio strace time"
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init "$@"

# The scripts' estimates; they check their own knobs, so that a bad one
# stops everything before anything runs.
est=0
for c in $COMPARISONS; do
	s=$(sh "$BENCH_DIR/$c.sh" --estimate) || exit 2
	est=$((est + s))
done
bench_start "$est"

BENCH_SHARED=$SHARED BENCH_WORK=$WORK BENCH_START=$START
export BENCH_SHARED BENCH_WORK BENCH_START
for c in $COMPARISONS; do
	bg_wait sh "$BENCH_DIR/$c.sh" "$DIR" || note "$c.sh stopped with status $rc"
done
bench_end
