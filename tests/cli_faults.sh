#!/bin/sh
# cli_faults.sh: I/O faults. Each must give one clear line on stderr naming
# the failed operation and the path, exit 1 (2 where the test file could
# not be prepared: creating, filling or syncing it), and remove the test
# file. Faults come from tests/faultshim.so (LD_PRELOAD, failing the Nth
# call of a system call), a tiny tmpfs (as root), ulimit -f and /dev/full.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
: "${FAULTSHIM:=}"
# ASan wants to come first in the library list; the shim comes first here.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

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
# Can this platform preload at all? Ask the shim to say it was loaded.
preload=
if [ -n "$FAULTSHIM" ] && [ -f "$FAULTSHIM" ]; then
	rm -f "$WORK/log"
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" --version >/dev/null 2>&1 || :
	if grep -q '^loaded$' "$WORK/log" 2>/dev/null; then
		preload=yes
	fi
fi

# inject DESC SPEC STATUS PREFIX ARGS...: run with SYNCPROBE_FAULT=SPEC
# (OP:ERRNO:N), counting only calls on the target directory and the test
# file in it (not /sys, not the terminal), check that the shim did fail
# that call, then check_fault.
inject() {
	desc=$1 spec=$2 status=$3 prefix=$4
	shift 4
	if [ -z "$preload" ]; then
		tap_skip "$desc" "LD_PRELOAD of tests/faultshim.so does not work here"
		return
	fi
	rm -f "$WORK/log"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=$spec SYNCPROBE_FAULT_PATH=$dir \
	    SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" "$@" "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	# The shim logs "OP N ERRNO" for each call it failed.
	call=${spec%%:*} nth=${spec##*:} errname=${spec#*:}
	if ! grep -q "^$call $nth ${errname%%:*}\$" "$WORK/log"; then
		tap_fail "$desc" "the shim never failed $spec (did the calls move?)${nl}$(cat "$WORK/err")"
		rm -f "$dir"/.syncprobe.*
		return
	fi
	check_fault "$desc" "$status" "$prefix" "$dir"
}

# While preparing the file: exit 2. Filling it is the first pwrite; then
# it is synced (the first fsync), and its directory opened, synced (the
# second) and closed (the first close) before the file is closed.
file=$dir/.syncprobe.
inject "EIO from the first pwrite (filling the file)" pwrite:EIO:1 2 "write $file" $ONE
inject "ENOSPC while filling the file" pwrite:ENOSPC:1 2 "write $file" $ONE
case $(cat "$WORK/err") in
*--file-size*) tap_ok "ENOSPC while filling: suggests a smaller --file-size" ;;
*) tap_fail "ENOSPC while filling: suggests a smaller --file-size" "$(cat "$WORK/err")" ;;
esac
inject "EIO from fsync of the new file" fsync:EIO:1 2 "fsync $file" $ONE
inject "EIO from fsync of the directory" fsync:EIO:2 2 "fsync $dir: " $ONE
inject "EIO from closing the filled file" close:EIO:2 2 "close $file" $ONE

# Mid-run: exit 1, and the report on stdout says where it stopped.
inject "EIO from the 10th pwrite (mid-run)" pwrite:EIO:10 1 "pwrite $file" $ONE
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
else
	tap_skip "O_DIRECT refused (EINVAL)" "LD_PRELOAD of tests/faultshim.so does not work here"
fi
# In the group-commit experiment: its threads stop, the file is removed.
inject "EIO from an fdatasync of -t group" fdatasync:EIO:60 1 "fdatasync $file" \
    -q -n 20 --file-size 64k -t group --clients 1,4 --commit-delays 0,20 --rounds 2
inject "EIO from a pwrite of -t group" pwrite:EIO:40 1 "pwrite $file" \
    -q -n 20 --file-size 64k -t group --clients 4 --commit-delays 0,20 --rounds 2
inject "EIO from a reopen (descriptor rows)" open:EIO:5 1 "open $file" $FAST -t descriptor
# The 64kB file is filled in eight 8kB writes; the 11th is open_datasync's third.
inject "EIO from the 3rd open_datasync pwrite" pwrite:EIO:11 1 "pwrite $file" \
    $FAST -t one -m open_datasync --direct=off

# ---- a real full filesystem: a 1 MB tmpfs, when root ----
mnt=$WORK/small
if mount_tmpfs "$mnt" size=1m; then
	rc=0
	"$SYNCPROBE" -q -n 5 -t one --file-size 4M "$mnt" >"$WORK/out" 2>"$WORK/err" || rc=$?
	check_fault "ENOSPC on a full tmpfs while filling" 2 "write $mnt/.syncprobe." "$mnt"
	tap_check "ENOSPC on a full tmpfs: the filesystem is empty again" \
	    test -z "$(ls -A "$mnt")"
else
	tap_skip "ENOSPC on a full tmpfs while filling" "needs root and tmpfs"
	tap_skip "ENOSPC on a full tmpfs: the filesystem is empty again" "needs root and tmpfs"
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
