#!/bin/sh
# cli_signals.sh: any signal whose default action would end syncprobe,
# sent mid-test, removes the test file, and syncprobe then dies of that
# same signal (the shell sees 128+N); SIGXFSZ is ignored; a signal ignored
# when syncprobe starts (nohup) stays ignored; a reader that quits early
# (| head -1) leaves nothing behind.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
LONG="-q -s 5 --rounds 1 -t one -m fdatasync --direct=off --file-size 64k"
# The crash signals dump core by default: not here.
ulimit -c 0 2>/dev/null || :

DEFAULT=$DEFAULT_SIGNALS

# wait_for_testfile: true once the test file exists in $dir, false if
# syncprobe ($pid) ended first or it did not appear in time.
wait_for_testfile() {
	waiting "$pid" has_testfile "$dir"
}

# signalled NAME: start a long run, send SIGNAME once the test file
# exists, then check that syncprobe died of it and that the file is gone.
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
	kill -s "$1" "$pid"
	rc=0
	wait "$pid" || rc=$?
	died=
	[ "$rc" -le 128 ] || died=$(kill -l "$rc")
	tap_is "$died" "$1" "SIG$1 mid-test: dies of SIG$1 (exit $rc)"
	if no_testfile "$dir"; then
		tap_ok "SIG$1 mid-test: test file removed"
	else
		tap_fail "SIG$1 mid-test: test file removed" "$(ls -A "$dir")"
		rm -f "$dir"/.syncprobe.*
	fi
}

# Asked for (a terminal, kill, a timer, a CPU limit), then a crash's. The
# realtime signal is RTMAX: the C libraries keep the first few for
# themselves, and musl more of them than glibc.
ASKED="INT TERM HUP PIPE QUIT USR1 USR2 ALRM XCPU VTALRM PROF RTMAX"
CRASHES="ABRT ILL TRAP SYS SEGV BUS FPE"
# A sanitizer build keeps the sanitizer's own handler for these three, to
# report the crash: the file is left then, as under any crash handler.
SANITIZED="SEGV BUS FPE"
sanitized=
grep -q __asan_init "$SYNCPROBE" 2>/dev/null && sanitized=yes
for sig in $ASKED $CRASHES; do
	if [ -z "$DEFAULT" ]; then
		why="no env --default-signal or perl to undo the shell's SIG_IGN"
	elif [ -n "$sanitized" ] && case " $SANITIZED " in *" $sig "*) true ;; *) false ;; esac; then
		why="the sanitizer handles SIG$sig in this build"
	else
		signalled "$sig"
		continue
	fi
	tap_skip "SIG$sig mid-test" "$why"
	tap_skip "SIG$sig mid-test: test file removed" "as above"
done

# SIGXFSZ is ignored, so that a file size limit shows as EFBIG (see
# cli_faults.sh): sent by hand, it changes nothing.
$DEFAULT "$SYNCPROBE" -q -s 1 --rounds 1 -t one -m fdatasync --direct=off \
    --file-size 64k "$dir" >"$WORK/out" 2>"$WORK/err" &
pid=$!
if wait_for_testfile; then
	kill -s XFSZ "$pid"
	rc=0
	wait "$pid" || rc=$?
	tap_is "$rc" 0 "SIGXFSZ is ignored: the run completes"
	tap_check "SIGXFSZ is ignored: test file removed at the end" no_testfile "$dir"
else
	wait "$pid" || :
	tap_skip "SIGXFSZ is ignored: the run completes" "the run ended before the file was seen"
	tap_skip "SIGXFSZ is ignored: test file removed at the end" "as above"
fi

# The target renamed mid-run, then a signal: the handler removes the file
# through the directory it holds, not a path that no longer exists.
if [ -n "$DEFAULT" ]; then
	$DEFAULT "$SYNCPROBE" $LONG "$dir" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	if wait_for_testfile; then
		mv "$dir" "$dir.renamed"
		kill -TERM "$pid"
		rc=0
		wait "$pid" || rc=$?
		tap_is "$rc" 143 "target renamed, then SIGTERM: dies of SIGTERM"
		tap_check "target renamed, then SIGTERM: test file removed" no_testfile "$dir.renamed"
		rm -f "$dir.renamed"/.syncprobe.*
		mv "$dir.renamed" "$dir"
	else
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" || :
		tap_fail "target renamed, then SIGTERM" "the test file never appeared: $(cat "$WORK/err")"
	fi
else
	tap_skip "target renamed, then SIGTERM" "no env --default-signal or perl to undo the shell's SIG_IGN"
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

children_of() {
	ps -A -o pid= -o ppid= | awk -v p="$1" '$2 == p { print $1 }'
}
has_children() {
	[ -n "$(children_of "$1")" ]
}
# no_leftovers: no process has $dir on its command line (a committer is a
# fork of syncprobe, with its arguments).
no_leftovers() {
	[ -z "$(ps -A -o pid= -o args= | awk -v d="$dir" 'index($0, d) && !/awk/')" ]
}

# -t group stopped by SIGTERM at a chosen point: the shim sends it right
# before the Nth fdatasync of the test file. Counted calls, not time:
# nothing here depends on the machine's speed. The rows -t group measures
# first (one and two, -m fdatasync: two rows) make N + 3 fdatasyncs each
# for -n N (3 warm-ups). Then every flush takes at least 200 us, so each
# slice's 5 ms warm-up holds at most about 30 flushes: with one client a
# slice of -n 300 is 300 to 330 flushes, one a commit. So 1100 flushes
# into the experiment its d, the slice that warms its client count and its
# first cell are done (at most 3 x 330) and the second is running (at
# least 4 x 300 in all); 1700 flushes into a two-round sweep of three
# delays, round 0 (at most 5 x 330 with d and the warm slice) is done and
# round 1 (at least 8 x 300 in all) is not.
group_stopped() {
	at=$1
	shift
	rm -f "$WORK/shim.log"
	rc=0
	$DEFAULT env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT="fdatasync:SIGTERM:$at" \
	    SYNCPROBE_FAULT_PATH="$dir" SYNCPROBE_FAULT_SYNC_DELAY_US=200 \
	    SYNCPROBE_FAULT_LOG="$WORK/shim.log" \
	    "$SYNCPROBE" -q --file-size 256k -t group -m fdatasync --clients 1 \
	    "$@" "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
}
EIGHT=10,20,30,40,50,60,70,80
if [ -z "$DEFAULT" ] || ! preload_works; then
	tap_skip "-t group stopped by SIGTERM" "no preloadable fault shim, or no way to undo SIG_IGN"
elif ! command -v jq >/dev/null 2>&1; then
	tap_skip "-t group stopped by SIGTERM" "jq is not installed"
else
	group_stopped $((2 * 303 + 1100)) -F json -n 300 --rounds 1 --commit-delays "$EIGHT"
	tap_is "$rc" 143 "-t group, SIGTERM in round 1 of 1: dies of SIGTERM"
	tap_check "-t group, SIGTERM: the shim sent it" grep -q '^fdatasync 1706 SIGTERM$' "$WORK/shim.log"
	tap_check "-t group, SIGTERM: test file removed" no_testfile "$dir"
	tap_check "-t group, SIGTERM: no committer process left" no_leftovers
	cp "$WORK/out" "$WORK/g1.json"
	schema_valid "-t group, SIGTERM: the interrupted -F json" report "$WORK/g1.json"
	jq_checks "$WORK/g1.json" <<'CHECKS'
-t group, SIGTERM in round 1: fewer cells than the 9 planned, at least one | .interrupted
	and ([.targets[0].group.clients[].cells[]] | length >= 1 and length < 9)
-t group, SIGTERM: marked as cut short | .targets[0].group.cut_short == true
-t group, SIGTERM: every cell kept is a whole slice of -n 300 | [.targets[0].group.clients[].cells[]
	| .commits == 300 and (.slices | length) == 1] | all
-t group, SIGTERM: no sleep timed | .targets[0].advice.sleep == null
-t group, SIGTERM: no advice measured by a cut experiment | .targets[0].advice.commit_delay_source == "rule"
CHECKS
	group_stopped $((2 * 603 + 1700)) -F json -n 600 --rounds 2 --commit-delays 10,20
	tap_is "$rc" 143 "-t group, SIGTERM in round 2 of 2: dies of SIGTERM"
	cp "$WORK/out" "$WORK/g2.json"
	jq_checks "$WORK/g2.json" <<'CHECKS'
-t group, SIGTERM in round 2: every cell kept, some with one round only | [.targets[0].group.clients[].cells[]
	| .slices | length] as $n | ($n | length) == 3 and ($n | all(. == 1 or . == 2)) and ($n | any(. == 1))
-t group, SIGTERM in round 2: the slices kept are whole | [.targets[0].group.clients[].cells[].slices[]
	| .commits == 300] | all
CHECKS
	group_stopped $((2 * 303 + 1100)) -n 300 --rounds 1 --commit-delays "$EIGHT"
	tap_check "-t group, SIGTERM, text: the experiment says it was cut short" \
	    grep -q '^Cut short by a signal' "$WORK/out"
	tap_check "-t group, SIGTERM, text: fewer delay lines than the 9 planned" \
	    test "$(grep -c '^ *[0-9][0-9]* us ' "$WORK/out")" -lt 9
	tap_check "-t group, SIGTERM, text: no sleep timed" \
	    test -z "$(grep 'sleep here really lasts' "$WORK/out")"
fi

# -t group's committers are processes (as the server's backends are): none
# may outlive syncprobe, whichever way it ends. The experiment's log is
# the test file's third reopen (after the one- and two-write rows); its
# syncs alone are slowed, to 0.3 s, so that the experiment is still
# running when the test acts and the rows are quick.
group_long() {
	$DEFAULT env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT_PATH="$dir" \
	    SYNCPROBE_FAULT_SYNC_DELAY_US=300000 SYNCPROBE_FAULT_SYNC_DELAY_REOPEN=3 \
	    "$SYNCPROBE" -q -n 20 --file-size 256k -t group -m fdatasync --direct=off \
	    --clients 2 --commit-delays 0 "$dir" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	waiting "$pid" has_children "$pid"
}
if [ -z "$DEFAULT" ] || ! preload_works; then
	tap_skip "-t group's committer processes" "no preloadable fault shim, or no way to undo SIG_IGN"
elif ! ps -A -o pid= -o ppid= >/dev/null 2>&1; then
	tap_skip "-t group's committer processes" "no ps -A -o"
else
	if group_long; then
		kill -KILL "$(children_of "$pid" | head -n 1)"
		rc=0
		wait "$pid" || rc=$?
		tap_is "$rc" 1 "-t group, a committer killed: an error, exit 1"
		tap_check "-t group, a committer killed: says so" \
		    grep -q 'a committer process was killed by signal 9' "$WORK/err"
		tap_check "-t group, a committer killed: test file removed" no_testfile "$dir"
		tap_check "-t group, a committer killed: no committer left" no_leftovers
	else
		tap_fail "-t group, a committer killed" "no committer appeared: $(cat "$WORK/err")"
	fi
	if group_long; then
		kill -TERM "$pid"
		kill -TERM "$pid" 2>/dev/null || :
		rc=0
		wait "$pid" || rc=$?
		tap_is "$rc" 143 "-t group, SIGTERM twice: dies of SIGTERM"
		tap_check "-t group, SIGTERM twice: test file removed" no_testfile "$dir"
		tap_check "-t group, SIGTERM twice: no committer left" no_leftovers
	else
		tap_fail "-t group, SIGTERM twice" "no committer appeared: $(cat "$WORK/err")"
	fi
	if [ "$(uname -s)" != Linux ]; then
		tap_skip "-t group, SIGKILL: no committer left" "PR_SET_PDEATHSIG is Linux's"
	elif group_long; then
		kill -KILL "$pid"
		wait "$pid" || :
		# The kernel kills them when syncprobe dies (PR_SET_PDEATHSIG):
		# polled as waiting() polls, on this shell, which lives on.
		tap_check "-t group, SIGKILL: no committer left" waiting $$ no_leftovers
		rm -f "$dir"/.syncprobe.*
	else
		tap_fail "-t group, SIGKILL" "no committer appeared: $(cat "$WORK/err")"
	fi
fi

tap_done
