#!/bin/sh
# bench/syscalls.sh: table 3, the system calls each tool makes per measured
# operation, counted with strace -f in the same way for both; the syscalls
# target. See bench/README.
set -u
BENCH_ABOUT='Table 3: system calls per measured operation (strace -f): syncprobe one
test at a time with -n, and one pg_test_fsync -s 1 run, in a fresh
subdirectory of DIR. Target: syscalls.'
NEEDS="pg_test_fsync strace"
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init "$@"
bench_start 60
CALLS=$TMP/calls	# tool<TAB>test<TAB>operations<TAB>call<TAB>calls per operation

# trace_calls TOOL TEST WHICH PREFIX TRACE: the counts of one test of a
# trace, appended to CALLS (see awk/syscalls_trace.awk).
trace_calls() {
	awkf syscalls_trace -v tool="$1" -v test="$2" -v which="$3" -v prefix="$4" "$5" >>"$CALLS"
}

# syncprobe, one test per run, a fixed number of operations.
trace_syncprobe() {
	for test in fdatasync direct last; do
		case $test in
		fdatasync) set -- "one write + fdatasync" -n 2000 -t one -m fdatasync --direct=off ;;
		direct) set -- "one write, O_DSYNC|O_DIRECT" -n 2000 -t one -m open_datasync --direct=on ;;
		last) set -- "non-synced write" -n 20000 -t nosync ;;
		esac
		lab=$1
		shift
		progress "strace: syncprobe, $lab"
		if run "$TMP/sptrace.out" "$STRACE" -f -o "$TMP/sptrace" "$SYNCPROBE" -q -F json "$@" "$WORK"; then
			trace_calls syncprobe "$lab" "$test" "$WORK/.syncprobe." "$TMP/sptrace"
		else
			note "strace of syncprobe, $lab, failed: $(tail -n 1 "$TMP/sptrace.out.err")"
		fi
		rm -f "$TMP/sptrace"
	done
}

# pg_test_fsync cannot be limited to one test: a whole -s 1 run.
trace_pg_test_fsync() {
	progress "strace: pg_test_fsync -s 1"
	if run "$TMP/pgtrace.out" "$STRACE" -f -o "$TMP/pgtrace" "$PG_TEST_FSYNC" -s 1 -f "$PGFILE"; then
		trace_calls pg_test_fsync "one write + fdatasync" fdatasync "$PGFILE\"" "$TMP/pgtrace"
		trace_calls pg_test_fsync "one write, O_DSYNC|O_DIRECT" direct "$PGFILE\"" "$TMP/pgtrace"
		trace_calls pg_test_fsync "non-synced write" last "$PGFILE\"" "$TMP/pgtrace"
	else
		note "strace of pg_test_fsync failed: $(tail -n 1 "$TMP/pgtrace.out.err")"
	fi
	rm -f "$PGFILE" "$TMP/pgtrace"
}

# By test, syncprobe before pg_test_fsync, the measured calls first.
print_table() {
	printf '%-30s %-14s %7s  %-15s %9s\n' test tool ops call "per op"
	awkf syscalls_order "$CALLS" | sort -t "$TAB" -k1,1 -k2,2n -k3,3n -k7,7 | awkf syscalls_table
	[ -s "$CALLS" ] || echo "(nothing counted)"
	echo "(ops: the test's operations, syncprobe's warm-up ones included; a call"
	echo " made once per test, to open or time it, shows as about 1/ops)"
}

judge_target() {
	if ! grep -q '^syncprobe' "$CALLS"; then
		verdict syscalls - "no strace counts"
		return
	fi
	extra=$(awkf syscalls_extra "$CALLS")
	if [ -z "$extra" ]; then
		verdict syscalls 1 "syncprobe: 1 pwrite64 (+ 1 fdatasync) per op, no other call per op"
	else
		verdict syscalls 0 "syncprobe per op: $extra"
	fi
}

section 3 "system calls per measured operation (strace -f)"
: >"$CALLS"
if [ -z "$STRACE" ]; then
	not_measured
else
	trace_syncprobe
	[ -n "$PG_TEST_FSYNC" ] && trace_pg_test_fsync
	print_table
fi
judge_target
bench_end
