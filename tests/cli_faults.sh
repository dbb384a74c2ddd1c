#!/bin/sh
# cli_faults.sh: I/O faults. Each must give one clear line on stderr naming
# the failed operation and the path, exit 1 (2 where the target cannot be
# used: the test file could not be created, or found no room), and remove
# the test file. Faults come from tests/faultshim.so (LD_PRELOAD, failing the Nth
# call of a system call), a tiny tmpfs (as root), ulimit -f and /dev/full.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"

# check_fault DESC STATUS PREFIX TARGETDIR: the last run ($rc, $WORK/err)
# exited STATUS with exactly one line on stderr, "syncprobe: PREFIX...: WHY"
# (PREFIX: the operation and the path, e.g. "fdatasync DIR/.syncprobe.";
# a PREFIX ending in ": " is all of the message but WHY),
# and left no test file in TARGETDIR.
check_fault() {
	problems=
	err=$(cat "$WORK/err")
	[ "$rc" -eq "$2" ] || problem "exit status $rc, want $2"
	case $3 in
	*": ") pattern_ok=$(case $err in "syncprobe: $3"?*) echo y ;; esac) ;;
	*) pattern_ok=$(case $err in "syncprobe: $3"*": "?*) echo y ;; esac) ;;
	esac
	[ -n "$pattern_ok" ] || problem "want 'syncprobe: $3...: WHY'"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || problem "not exactly one line on stderr"
	no_testfile "$4" || problem "test file left: $(ls -A "$4")"
	if [ -z "$problems" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$problems${nl}stderr: $err"
	fi
}

# ---- injected with the shim ----
shim_detect

# shim_run SPEC ARGS...: run syncprobe ARGS on $dir with SYNCPROBE_FAULT=SPEC
# (OP:ERRNO:N), counting only calls on the target directory and the test
# file in it (not /sys, not the terminal); $rc, $WORK/out, $WORK/err and
# the shim's $WORK/log hold the result. False, with the test file
# removed, when the shim did not fail that call.
# Every sync on the target is slowed to at least 1 ms (the shim sleeps
# first): an operation as quick as 100 clock reads, on tmpfs or by chance,
# would have the row calibrated for batches, 16 operations more, so that
# the Nth call would not be the one a test means and a count would change
# from run to run.
shim_run() {
	spec=$1
	shift
	rm -f "$WORK/log"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=$spec SYNCPROBE_FAULT_PATH=$dir \
	    SYNCPROBE_FAULT_LOG=$WORK/log SYNCPROBE_FAULT_SYNC_DELAY_US=1000 \
	    "$SYNCPROBE" "$@" "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	# The shim logs "OP N ERRNO" for each call it failed.
	call=${spec%%:*} nth=${spec##*:} errname=${spec#*:}
	grep -q "^$call $nth ${errname%%:*}\$" "$WORK/log" && return
	rm -f "$dir"/.syncprobe.*
	return 1
}

# inject DESC SPEC STATUS PREFIX ARGS...: shim_run SPEC ARGS, check that
# the shim did fail that call, then check_fault.
inject() {
	desc=$1 spec=$2 status=$3 prefix=$4
	shift 4
	if [ -z "$preload" ]; then
		tap_skip "$desc" "LD_PRELOAD of tests/faultshim.so does not work here"
	elif shim_run "$spec" "$@"; then
		check_fault "$desc" "$status" "$prefix" "$dir"
	else
		tap_fail "$desc" "the shim never failed $spec (did the calls move?)${nl}$(cat "$WORK/err")"
	fi
}

# While preparing the file: no room is a target that cannot be used, exit
# 2; the device failing (EIO, a failed sync or close) is an I/O error, exit
# 1. Filling it is the first pwrite; then it is synced (the first fsync),
# and its directory, held open from the start, synced (the second) before
# the file is closed (the first close).
file=$dir/.syncprobe.
inject "EIO from the first pwrite (filling the file): an I/O error" pwrite:EIO:1 1 "write $file" $ONE
inject "ENOSPC while filling the file" pwrite:ENOSPC:1 2 "write $file" $ONE
case $(cat "$WORK/err") in
*--file-size*) tap_ok "ENOSPC while filling: suggests a smaller --file-size" ;;
*) tap_fail "ENOSPC while filling: suggests a smaller --file-size" "$(cat "$WORK/err")" ;;
esac
inject "EIO from fsync of the new file: an I/O error" fsync:EIO:1 1 "fsync $file" $ONE
inject "EIO from fsync of the directory: an I/O error" fsync:EIO:2 1 "fsync $dir: " $ONE
inject "EIO from closing the filled file: an I/O error" close:EIO:1 1 "close $file" $ONE

# Mid-run: exit 1, and the report on stdout says where it stopped.
inject "EIO from the 10th pwrite (mid-run)" pwrite:EIO:10 1 "pwrite $file" $ONE
# A short write is not an error the device reported: say what happened.
inject "a short write (the 12th pwrite)" pwrite:SHORT:12 1 "pwrite $file" $ONE
case $(cat "$WORK/err") in
*": short write (4096 of 8192 bytes)") tap_ok "a short write: says how short" ;;
*) tap_fail "a short write: says how short" "$(cat "$WORK/err")" ;;
esac
inject "EIO from the 5th fdatasync" fdatasync:EIO:5 1 "fdatasync $file" $ONE
tap_check "fdatasync EIO: the report names the failed call" grep -q 'fdatasync .*: ' "$WORK/out"
inject "EIO from the 1st fdatasync (a warm-up)" fdatasync:EIO:1 1 "fdatasync $file" $ONE
inject "EIO from the 6th fsync (-m fsync)" fsync:EIO:6 1 "fsync $file" \
    $FAST -t one -m fsync --direct=off
inject "EIO from open with O_DIRECT" open_direct:EIO:1 1 "open with O_DIRECT $file" \
    $FAST -t one -m fdatasync --direct=on
# EINVAL on the O_DIRECT open is a filesystem refusing direct I/O: not an
# error but a row that cannot run, a warning, and exit 0.
if [ -n "$preload" ]; then
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=open_direct:EINVAL:1 SYNCPROBE_FAULT_PATH=$dir \
	    "$SYNCPROBE" -F json $FAST -t one -m fdatasync "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$WORK/err" ] && no_testfile "$dir" &&
	    grep -q '"status": "unsupported"' "$WORK/out" &&
	    grep -q '"reason": "direct I/O refused by this filesystem (Invalid argument)"' "$WORK/out" &&
	    grep -q '"code": "direct_refused"' "$WORK/out"; then
		tap_ok "O_DIRECT refused (EINVAL): an unsupported row with its reason, direct_refused, exit 0"
	else
		tap_fail "O_DIRECT refused (EINVAL)" "rc=$rc $(cat "$WORK/err")"
	fi
	schema_valid "-F json with a row direct I/O refused" report "$WORK/out"
	# An I/O error mid-run: a whole report, its target's status error.
	if shim_run fdatasync:EIO:5 -F json $ONE && [ "$rc" -eq 1 ] &&
	    grep -q '"status": "error"' "$WORK/out"; then
		schema_valid "-F json of a run an I/O error stopped" report "$WORK/out"
	else
		tap_fail "-F json of a run an I/O error stopped" "rc=$rc $(cat "$WORK/err")"
	fi
else
	tap_skip "O_DIRECT refused (EINVAL)" "LD_PRELOAD of tests/faultshim.so does not work here"
fi
# Only a refused open or write means the filesystem does not do direct
# I/O; a sync that fails in a direct row, even with EINVAL at the first
# operation, is an I/O error.
inject "EINVAL from the 1st fdatasync of a direct row: an I/O error" fdatasync:EINVAL:1 1 \
    "fdatasync $file" $FAST -t one -m fdatasync --direct=on
# ...while EINVAL from the first direct write is the filesystem refusing
# it: an unsupported row, exit 0 (the 64kB file is filled in 8 writes).
if [ -n "$preload" ] && shim_run pwrite:EINVAL:9 -F json $FAST -t one -m fdatasync --direct=on &&
    [ "$rc" -eq 0 ] && [ ! -s "$WORK/err" ] &&
    grep -q '"reason": "direct I/O write refused by this filesystem (Invalid argument)"' "$WORK/out"; then
	tap_ok "EINVAL from the first direct pwrite: an unsupported row, exit 0"
elif [ -z "$preload" ]; then
	tap_skip "EINVAL from the first direct pwrite" "LD_PRELOAD of tests/faultshim.so does not work here"
else
	tap_fail "EINVAL from the first direct pwrite: an unsupported row, exit 0" "rc=$rc $(cat "$WORK/err")"
fi
# rows_all_ran DESC: the last run's JSON report lists its rows, and none
# of them failed (a row after a failure is not listed): the fault came
# after the rows, in the experiment, as DESC means. Without it a count
# that moved would put the fault in a row, and the point would pass
# without testing the experiment.
rows_all_ran() {
	if ! command -v jq >/dev/null 2>&1; then
		tap_skip "$1: in the experiment, every row ran" "jq is not installed"
	elif [ -z "$preload" ]; then
		tap_skip "$1: in the experiment, every row ran" "LD_PRELOAD of tests/faultshim.so does not work here"
	else
		tap_check "$1: in the experiment, every row ran" jq -e \
		    '.targets[0].tests | length > 0 and all(.status != "error")' "$WORK/out"
	fi
}

# In the group-commit experiment: its threads stop, the file is removed.
# (--wal-sync-method: the experiment flushes with fdatasync whichever
# method its rows advise; they make 46 fdatasyncs first.)
inject "EIO from an fdatasync of -t group" fdatasync:EIO:60 1 "fdatasync $file" \
    -F json -q -n 20 --file-size 64k -t group --wal-sync-method=fdatasync --clients 1,4 \
    --commit-delays 0,20 --rounds 2
rows_all_ran "EIO from an fdatasync of -t group"
# A short write in the experiment is said as one, as in a row: -t group
# -m fdatasync first measures two rows (8 + 23 + 46 pwrites with the 64k
# file), so the 80th pwrite is the experiment's.
inject "a short write in -t group" pwrite:SHORT:80 1 "pwrite $file" \
    -F json -q -n 20 --file-size 64k -t group -m fdatasync --clients 1 --commit-delays 10 --rounds 1
case $(cat "$WORK/err") in
*": short write (4096 of 8192 bytes)") tap_ok "a short write in -t group: says how short" ;;
*) tap_fail "a short write in -t group: says how short" "$(cat "$WORK/err")" ;;
esac
rows_all_ran "a short write in -t group"
# With -t one and one method the rows come first, the method's and its
# paced row, 23 pwrites each (3 warm-up, 20 timed) after the fill's 8:
# the 68th is the experiment's 14th. (-t group alone would add every
# buffered row of one and two.)
inject "EIO from a pwrite of -t group" pwrite:EIO:68 1 "pwrite $file" \
    -F json -q -n 20 --file-size 64k -t one,group -m fdatasync --direct=off --clients 4 \
    --commit-delays 0,20 --rounds 2
rows_all_ran "EIO from a pwrite of -t group"
inject "EIO from a reopen (descriptor rows)" open:EIO:5 1 "open $file" $FAST -t descriptor
# The 64kB file is filled in eight 8kB writes; the 11th is open_datasync's third.
inject "EIO from the 3rd open_datasync pwrite" pwrite:EIO:11 1 "pwrite $file" \
    $FAST -t one -m open_datasync --direct=off

# EINTR in the timed loop (a signal caught mid-call) is retried: the run
# completes with the operations it was asked for, and the interrupted
# call is made once more, not the whole operation again. close is not
# retried (Linux has released the descriptor): it counts as done.
# calls_of OP: how many OP calls the last shim run made.
calls_of() {
	sed -n "s/^calls $1 //p" "$WORK/log"
}

# interrupted SPEC CALLS ARGS...: with SPEC (OP:EINTR:N) the run exits 0,
# says nothing, leaves no file, gives every row that ran its 20 operations,
# and makes CALLS more OP calls than without the fault.
interrupted() {
	eintr=$1 more=$2 op=${1%%:*}
	shift 2
	desc="EINTR from the ${eintr##*:}th $op ($*)"
	if [ -z "$preload" ]; then
		tap_skip "$desc" "LD_PRELOAD of tests/faultshim.so does not work here"
		return
	fi
	shim_run "" -F json "$@" || :
	before=$(calls_of "$op")
	problems=
	shim_run "$eintr" -F json "$@" || problem "the shim never failed $eintr"
	[ "$rc" -eq 0 ] || problem "exit status $rc, want 0"
	[ ! -s "$WORK/err" ] || problem "stderr: $(cat "$WORK/err")"
	no_testfile "$dir" || problem "test file left"
	[ "$(calls_of "$op")" = $((before + more)) ] ||
	    problem "$op called $(calls_of "$op") times, want $before + $more"
	! command -v jq >/dev/null 2>&1 ||
	    jq -e '[.targets[0].tests[] | select(.status == "ok") | .ops == 20] | all and length > 0' \
	    "$WORK/out" >/dev/null 2>&1 || problem "not every row has its 20 operations"
	if [ -z "$problems" ]; then
		tap_ok "$desc: completes, the call made once more, 20 operations a row"
	else
		tap_fail "$desc: completes, the call made once more, 20 operations a row" "$problems"
	fi
}

interrupted pwrite:EINTR:12 1 $ONE
interrupted fdatasync:EINTR:5 1 $ONE
interrupted fsync:EINTR:6 1 $FAST -t one -m fsync --direct=off
interrupted close:EINTR:5 0 $FAST -t descriptor
interrupted open:EINTR:5 1 $FAST -t descriptor

# -F conf after an error: the rows that ran still give advice, but from a
# run cut short; conf output goes into conf.d, so every setting line is
# commented out, and the first comment after the header says why.
inject "-F conf: EIO from the 12th fsync" fsync:EIO:12 1 "fsync $file" \
    -F conf $FAST -t one -m fdatasync,fsync --direct=off
problems=
grep -q "^#wal_sync_method = 'fdatasync'" "$WORK/out" || problem "no commented-out wal_sync_method line"
grep -q '^#commit_delay = [0-9]' "$WORK/out" || problem "no commented-out commit_delay line"
! grep -v '^#' "$WORK/out" | grep -q . || problem "active lines: $(grep -v '^#' "$WORK/out")"
[ "$(sed -n 3p "$WORK/out")" = "# the run stopped at an error, so these figures are not advice: every setting below is commented out" ] ||
    problem "line 3 is not why: $(sed -n 3p "$WORK/out")"
if [ -z "$problems" ]; then
	tap_ok "-F conf after an error: every setting is commented out, and says why"
else
	tap_fail "-F conf after an error: every setting is commented out, and says why" \
	    "$problems${nl}$(cat "$WORK/out")"
fi

# ---- out of memory ----
# Every allocation failure is one line, "syncprobe: WHAT: out of memory",
# exit 1, and no test file; or, where the C library (or the storage probe,
# which reports what it cannot find as unknown) goes on without the
# memory, a complete run. Never a crash. The first three callocs are
# main's results, the target's rows and the one row's slices, the first
# posix_memalign the write buffer.
# oom_run SPEC: run $ONE at -n 5 with the shim failing SPEC; $failed is
# "yes" when the shim did fail an allocation. The allocations do not depend
# on the count, and the loops below make some 50 runs: each complete one
# paces its last row at 100 a second, 0.2 s at -n 20.
oom_run() {
	rm -f "$WORK/log"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=$1 SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" $(echo "$ONE" | sed 's/-n 20/-n 5/') "$dir" >"$WORK/out" \
	    2>"$WORK/err" || rc=$?
	failed=
	if grep -q "ENOMEM\$" "$WORK/log"; then failed=yes; fi
}

# oom_problems: add to $problems what breaks the contract above.
oom_problems() {
	case $rc:$(cat "$WORK/err") in
	0:) grep -q '^Advice' "$WORK/out" || problem "exit 0 without a complete report" ;;
	1:"syncprobe: "*": out of memory")
		[ "$(wc -l <"$WORK/err")" -eq 1 ] || problem "not one line on stderr" ;;
	*) problem "exit $rc: $(cat "$WORK/err")" ;;
	esac
	no_testfile "$dir" || problem "test file left"
	rm -f "$dir"/.syncprobe.*
}

if [ -n "$preload" ]; then
	for spec in calloc:ENOMEM:1 calloc:ENOMEM:2 calloc:ENOMEM:3 posix_memalign:ENOMEM:1; do
		oom_run "$spec"
		problems=
		[ -n "$failed" ] || problem "the shim failed nothing"
		[ "$rc" -eq 1 ] || problem "exit status $rc, want 1"
		oom_problems
		if [ -z "$problems" ]; then
			tap_ok "$spec: out of memory, exit 1"
		else
			tap_fail "$spec: out of memory, exit 1" "$problems"
		fi
	done
	for op in calloc posix_memalign malloc; do
		problems= n=0 tried=
		while [ $n -lt 40 ]; do
			n=$((n + 1))
			oom_run "$op:ENOMEM:$n"
			[ -n "$failed" ] || break
			tried=$n
			oom_problems
		done
		if [ -z "$problems" ]; then
			tap_ok "each of the first ${tried:-0} ${op}s failing: out of memory or a complete run"
		else
			tap_fail "each $op failing: out of memory or a complete run" "$problems"
		fi
	done
else
	for what in calloc:ENOMEM:1 calloc:ENOMEM:2 calloc:ENOMEM:3 posix_memalign:ENOMEM:1 \
	    calloc posix_memalign malloc; do
		tap_skip "$what failing" "LD_PRELOAD of tests/faultshim.so does not work here"
	done
fi

# ---- a small filesystem: a 1 MB tmpfs, when root ----
# A test file larger than the free space, or leaving less than the margin
# (5% of the filesystem, at most 64MB) for the database there, is refused
# before anything is written: exit 2, and the filesystem stays empty. (A
# real ENOSPC while filling is the shim's pwrite:ENOSPC above.)
mnt=$WORK/small
if mount_tmpfs "$mnt" size=1m; then
	for size in 4M 1000k; do
		rc=0
		"$SYNCPROBE" -q -n 5 -t one --file-size "$size" "$mnt" >"$WORK/out" 2>"$WORK/err" || rc=$?
		check_fault "--file-size $size on a 1MB tmpfs: refused up front" 2 \
		    "$mnt: not enough free space: " "$mnt"
		tap_check "--file-size $size on a 1MB tmpfs: nothing written" test -z "$(ls -A "$mnt")"
		tap_check "--file-size $size on a 1MB tmpfs: nothing on stdout" test ! -s "$WORK/out"
	done
	case $(cat "$WORK/err") in
	*"(use a smaller --file-size)") tap_ok "not enough free space: suggests a smaller --file-size" ;;
	*) tap_fail "not enough free space: suggests a smaller --file-size" "$(cat "$WORK/err")" ;;
	esac
	rc=0
	"$SYNCPROBE" $ONE "$mnt" >"$WORK/out" 2>"$WORK/err" || rc=$?
	tap_is "$rc" 0 "--file-size 64k on a 1MB tmpfs: leaves the margin, runs"
else
	for size in 4M 1000k; do
		tap_skip "--file-size $size on a 1MB tmpfs: refused up front" "needs root and tmpfs"
		tap_skip "--file-size $size on a 1MB tmpfs: nothing written" "needs root and tmpfs"
		tap_skip "--file-size $size on a 1MB tmpfs: nothing on stdout" "needs root and tmpfs"
	done
	tap_skip "not enough free space: suggests a smaller --file-size" "needs root and tmpfs"
	tap_skip "--file-size 64k on a 1MB tmpfs: leaves the margin, runs" "needs root and tmpfs"
fi
# -t etcd's segment is a fixed 64,000,000 bytes, and it refuses
# --file-size: short of space, it says to free some, not to use that.
if mount_tmpfs "$WORK/small64" size=64m; then
	rc=0
	"$SYNCPROBE" -q -n 5 -t etcd "$WORK/small64" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check_fault "-t etcd on a 64MB tmpfs: refused up front" 2 \
	    "$WORK/small64: not enough free space: " "$WORK/small64"
	tap_check "... saying to free some space, not to use --file-size" \
	    sh -c '! grep -q -- "--file-size" "$1" && grep -q "(free some space: the log segment.s size is fixed)$" "$1"' \
	    sh "$WORK/err"
else
	tap_skip "-t etcd on a 64MB tmpfs: refused up front" "needs root and tmpfs"
	tap_skip "... saying to free some space, not to use --file-size" "needs root and tmpfs"
fi

# ---- EFBIG under a file size limit (SIGXFSZ must not kill it) ----
rc=0
(
	ulimit -f 32 2>/dev/null || exit 77
	exec "$SYNCPROBE" -q -n 5 -t one --file-size 1M "$dir"
) >"$WORK/out" 2>"$WORK/err" || rc=$?
if [ "$rc" -eq 77 ]; then
	tap_skip "EFBIG under ulimit -f" "ulimit -f refused"
else
	check_fault "EFBIG under ulimit -f while filling" 2 "write $file" "$dir"
fi

# ---- a report that cannot be written ----
if [ -w /dev/full ]; then
	rc=0
	"$SYNCPROBE" $ONE "$dir" >/dev/full 2>"$WORK/err" || rc=$?
	check_fault "stdout is /dev/full" 1 "write standard output: " "$dir"
else
	tap_skip "stdout is /dev/full" "no /dev/full"
fi

# ---- two runs in one directory at once ----
rc1=0 rc2=0
"$SYNCPROBE" -q -s 200ms --rounds 1 -t one -m fdatasync --direct=off \
    --file-size 64k "$dir" >"$WORK/out1" 2>"$WORK/err1" &
pid1=$!
"$SYNCPROBE" -q -s 200ms --rounds 1 -t one -m fdatasync --direct=off \
    --file-size 64k "$dir" >"$WORK/out2" 2>"$WORK/err2" &
pid2=$!
wait "$pid1" || rc1=$?
wait "$pid2" || rc2=$?
tap_is "$rc1 $rc2" "0 0" "two runs in one directory at once: both succeed"
if [ ! -s "$WORK/err1" ] && [ ! -s "$WORK/err2" ] &&
    grep -q '^fdatasync ' "$WORK/out1" && grep -q '^fdatasync ' "$WORK/out2"; then
	tap_ok "two runs at once: both report, neither complains"
else
	tap_fail "two runs at once: both report, neither complains" \
	    "$(cat "$WORK/err1" "$WORK/err2")"
fi
tap_check "two runs at once: no test file left" no_testfile "$dir"

tap_done
