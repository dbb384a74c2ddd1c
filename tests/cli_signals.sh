#!/bin/sh
# cli_signals.sh: a signal mid-test removes the test file, and syncprobe
# then dies of that same signal (the shell sees 128+N); a signal ignored
# when syncprobe starts (nohup) stays ignored; a reader that quits early
# (| head -1) leaves nothing behind.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
LONG="-q -s 5 --rounds 1 -t one -m fdatasync --direct=off --file-size 64k"

DEFAULT=$DEFAULT_SIGNALS

# wait_for_testfile: true once the test file exists in $dir, false if
# syncprobe ($pid) ended first or it did not appear in time.
wait_for_testfile() {
	waiting "$pid" has_testfile "$dir"
}

# signalled NAME NUMBER: start a long run, send NAME once the test file
# exists, then check the exit status and that the file is gone.
signalled() {
	$DEFAULT "$SYNCPROBE" $LONG "$dir" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	if ! wait_for_testfile; then
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" || :
		rm -f "$dir"/.syncprobe.*
		tap_fail "SIG$1 mid-test" "the test file never appeared: $(cat "$WORK/err")"
		return
	fi
	kill -"$1" "$pid"
	rc=0
	wait "$pid" || rc=$?
	tap_is "$rc" $((128 + $2)) "SIG$1 mid-test: dies of SIG$1 (exit $((128 + $2)))"
	if no_testfile "$dir"; then
		tap_ok "SIG$1 mid-test: test file removed"
	else
		tap_fail "SIG$1 mid-test: test file removed" "$(ls -A "$dir")"
		rm -f "$dir"/.syncprobe.*
	fi
}

if [ -n "$DEFAULT" ]; then
	signalled INT 2
	signalled TERM 15
	signalled HUP 1
	signalled PIPE 13
else
	for sig in INT TERM HUP PIPE; do
		tap_skip "SIG$sig mid-test" "no env --default-signal or perl to undo the shell's SIG_IGN"
		tap_skip "SIG$sig mid-test: test file removed" "as above"
	done
fi

# nohup: SIGHUP ignored at the start stays ignored, and the run completes.
nohup "$SYNCPROBE" -q -s 1 --rounds 1 -t one -m fdatasync --direct=off \
    --file-size 64k "$dir" >"$WORK/out" 2>"$WORK/err" &
pid=$!
if wait_for_testfile; then
	kill -HUP "$pid"
	rc=0
	wait "$pid" || rc=$?
	tap_is "$rc" 0 "under nohup, SIGHUP does not stop the run"
	tap_check "under nohup: the report is complete" grep -q '^Advice' "$WORK/out"
	tap_check "under nohup: test file removed" no_testfile "$dir"
else
	wait "$pid" || :
	tap_skip "under nohup, SIGHUP does not stop the run" "the run ended before the file was seen"
	tap_skip "under nohup: the report is complete" "as above"
	tap_skip "under nohup: test file removed" "as above"
fi

# A reader that quits after one line: SIGPIPE (or EPIPE, where the caller
# ignores SIGPIPE) must not leave the test file, and is explained.
{
	rc=0
	$DEFAULT "$SYNCPROBE" -n 20 --file-size 64k "$dir" 2>"$WORK/err" || rc=$?
	echo "$rc" >"$WORK/rc"
} | head -1 >"$WORK/first"
rc=$(cat "$WORK/rc")
case $rc in
0 | 141) tap_ok "| head -1: exit 0 or SIGPIPE (got $rc)" ;;
1)
	if grep -q '^syncprobe: write standard output: ' "$WORK/err"; then
		tap_ok "| head -1 with SIGPIPE ignored: exit 1, explained"
	else
		tap_fail "| head -1: exit 1 is explained" "$(cat "$WORK/err")"
	fi
	;;
*) tap_fail "| head -1: exit 0 or SIGPIPE" "exit $rc: $(cat "$WORK/err")" ;;
esac
tap_check "| head -1: the first line came through" grep -q '^syncprobe ' "$WORK/first"
tap_check "| head -1: test file removed" no_testfile "$dir"

tap_done
