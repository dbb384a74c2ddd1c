#!/bin/sh
# cli_pgbench.sh: syncprobe pgbench with fake PostgreSQL programs
# (tests/fakepg): the orchestration, the strict reading of pgbench's output,
# every failure a clear error with exit 1, refusals exit 2, and on every
# way out (errors, SIGINT, SIGTERM, a second signal) no cluster directory,
# socket or process left behind.
. "$top_srcdir/tests/lib.sh"

# The fake programs run as the server's user (postgres, as root): a copy in
# $WORK, which it can reach, wherever the build tree is (dpkg-buildpackage
# in CI builds inside a mktemp -d directory, mode 700).
FAKE=$WORK/fakepg
cp -R "$top_srcdir/tests/fakepg" "$FAKE"
chmod -R a+rX,u+w "$FAKE"
D=$WORK/dir
mkdir "$D"
chmod 755 "$D"
PIDS=$WORK/pids
: >"$PIDS"
: >"$WORK/log"
chmod 666 "$PIDS" "$WORK/log"
SYNCPROBE_FAKEPG_PIDS=$PIDS
export SYNCPROBE_FAKEPG_PIDS
pgbench_user
# Fast: the probe's rows with few operations, no -t group, 1 s runs.
PG="pgbench -q -n 5 --no-group --pg-bin=$FAKE $USER_OPT --clients 2,8 -T 1 --repeats 2"
# Smaller still, where the sweep's shape does not matter: four runs.
PGS="pgbench -q -n 5 --no-group --pg-bin=$FAKE $USER_OPT --clients 2 -T 1 --repeats 2 --commit-delays 0,10 --commit-siblings 1"

# alive PIDS...: those of PIDS still running, one a line (a zombie has
# ended: only its parent, which may be an init that reaps late, still has
# to collect it). One ps for them all: a run leaves some thirty pids.
alive() {
	[ $# -gt 0 ] || return 0
	ps -o pid= -o stat= -p "$(echo "$@" | tr ' ' ',')" 2>/dev/null |
	    awk '$2 !~ /^Z/ { print $1 }' || :
}

# left_problems: what a run left behind (a cluster directory, the probe's
# test file, a fake process still alive), into $problems. The processes
# get two seconds in all to end.
left_problems() {
	left=$(find "$D" -mindepth 1 -maxdepth 1 -print)
	[ -z "$left" ] || problem "left in DIR: $left"
	live=$(alive $(cat "$PIDS"))
	i=0
	while [ -n "$live" ] && [ $i -lt 40 ]; do
		sleep 0.05
		i=$((i + 1))
		live=$(alive $live)
	done
	for p in $live; do
		problem "process $p left running: $(ps -o args= -p "$p" 2>/dev/null || :)"
		kill -9 "$p" 2>/dev/null || :
	done
	: >"$PIDS"
}

# check_clean DESC: pass when nothing was left.
check_clean() {
	problems=
	left_problems
	if [ -z "$problems" ]; then tap_ok "$1"; else tap_fail "$1" "$problems"; fi
}

# said PATTERN: the text report in $WORK/out, its lines joined and its
# runs of spaces squeezed (prose is wrapped at 79 columns), matches the
# extended regular expression PATTERN.
said() {
	tr -s ' \n' '  ' <"$WORK/out" | grep -Eq -- "$1"
}

# ---- a whole run ----
run $PG "$D"
tap_is "$rc" 0 "a sweep with the fake server exits 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/err"
tap_check "the report has a section per client count" \
    grep -q "^8 clients" "$WORK/out"
tap_check "a setting whose siblings are >= clients is named as delay 0" \
    grep -q "same as 0: commit_siblings >= clients" "$WORK/out"
tap_check "commits per flush from pg_stat_wal" \
    grep -Eq "^ +0 +- +[0-9]+ \([0-9]+-[0-9]+\) +[0-9]+\.[0-9]+( +[a-z+]+)?$" "$WORK/out"
tap_check "the advice from the sweep" grep -q "^Advice$" "$WORK/out"
tap_check "... in pgbench's words: its repeats, not the experiment's rounds" \
    said " why: measured by pgbench on the server \(.*\): no delay beat 0 by more than the repeats' noise at any client count siblings: "
tap_check "the report says when no delay needed deciding" \
    said "no deciding runs: at no client count did a delay lead 0 within the repeats' noise 2 clients"
tap_is "$(awk 'length > 79' "$WORK/out" | head -n 3)" "" "the text report fits 80 columns"
tap_is "$(sed -n '/^What to set$/,$p' "$WORK/out" | sed -n 's/^  \([a-z_]*\) = .*/\1/p' | tr '\n' ' ')" \
    "wal_sync_method commit_delay " "the text report ends with \"What to set\": the method, and the delay measured"
tap_check "... commit_delay measured on the server" \
    said "What to set .* commit_delay = 0 measured on the server by syncprobe pgbench: "
check_clean "a finished sweep leaves nothing in DIR and no process"

rc=0
"$SYNCPROBE" pgbench -n 5 --no-group --pg-bin="$FAKE" $USER_OPT --clients 8 -T 1 \
    --repeats 2 "$D" >"$WORK/out" 2>"$WORK/err" || rc=$?
# The stderr's lines joined, as the wrapping broke them.
tr '\n' ' ' <"$WORK/err" | tr -s ' ' >"$WORK/err.joined"
tap_check "the length is printed up front on stderr" \
    grep -Eq "^syncprobe pgbench: about [0-9]+ s: 1 client count x [0-9]+ settings x 2 repeats x 1 s \+ setup" "$WORK/err.joined"
tap_check "... with the most that deciding may add" \
    grep -Eq "; up to [0-9]+ s more \(8 runs\) to decide a delay that leads 0 within noise( |$)" "$WORK/err.joined"
tap_is "$(awk 'length($0) > 79' "$WORK/err")" "" "... wrapped to 79 columns"
check_clean "nothing left after a run without -q"

if command -v jq >/dev/null 2>&1; then
	run $PG -F json --commit-delays 0,10,20 --commit-siblings 1,4 "$D"
	tap_is "$rc" 0 "-F json exits 0"
	schema_valid "-F json" pgbench "$WORK/out"
	jq_checks "$WORK/out" <<'CHECKS'
a JSON document of schema 2 | .schema_version == 2 and .command == "pgbench"
the settings are 0 and each delay at each siblings | [.settings[] | [.commit_delay_usecs, .commit_siblings]] == [[0,0],[10,1],[10,4],[20,1],[20,4]]
two client counts, a cell per setting | (.clients | length) == 2 and all(.clients[]; (.cells | length) == 5)
siblings 4 cannot delay at 2 clients | [.clients[0].cells[] | select(.commit_siblings == 4) | .runs] == [false, false]
each run's tps is kept | all(.clients[].cells[] | select(.runs); (.runs_tps | length) == 2)
the fake's tps falls with the delay | .clients[1].cells[0].tps_median > .clients[1].cells[1].tps_median
commits per flush from pg_stat_wal's counts | .clients[1].cells[0].commits_per_flush > 1.9
the advice is one of the settings | .advice.commit_delay_usecs as $d | [.settings[].commit_delay_usecs] | index($d) != null
the answer at each client count | [.advice.by_clients[].clients] == [2, 8]
	and all(.advice.by_clients[]; .commit_delay_usecs == 0 or .versus_zero_percent > 0)
what_to_set: the method from the probe, the delay from the server | [.what_to_set[] | [.name, .source]]
	| .[0] == ["wal_sync_method", "probe"] and .[1] == ["commit_delay", "server"]
what_to_set: its delay is the advice, nothing_to_set null | .advice.commit_delay_usecs as $d
	| ([.what_to_set[] | select(.name == "commit_delay") | .value] == [$d]) and .nothing_to_set == null
CHECKS
	check_clean "nothing left after -F json"
	# open_* methods sync with no call: the server's wal_sync stays 0 and
	# its WAL writes are the flushes.
	run $PGS -F json --wal-sync-method=open_datasync "$D"
	tap_is "$rc" 0 "--wal-sync-method=open_datasync exits 0"
	jq_checks "$WORK/out" <<'CHECKS'
the cluster ran open_datasync | .wal_sync_method == "open_datasync"
commits per flush from pg_stat_wal's wal_write | all(.clients[0].cells[]; .commits_per_flush > 1.9)
CHECKS
	check_clean "nothing left after open_datasync"
	# Deciding. The delay gains 50% (tps 3007 against 2007), and the two
	# repeats' runs swing by 42% and 5% so that, in either order, it leads
	# 0 within their noise; the deciding runs do not swing.
	DECIDE="--clients 2 --commit-delays 0,1000 --commit-siblings 1"
	SYNCPROBE_FAKEPG_GAIN=1 SYNCPROBE_FAKEPG_SWING="100 142 100 105" \
	    run ${PG%% --clients*} $DECIDE -T 1 --repeats 2 -F json "$D"
	tap_is "$rc" 0 "a delay that leads 0 within noise: exit 0"
	schema_valid "-F json with deciding runs" pgbench "$WORK/out"
	jq_checks "$WORK/out" <<'CHECKS'
the leader and 0 ran 4 more times each, the rest did not | [.clients[0].cells[] | (.runs_tps | length)] == [6, 6]
the deciding runs are named | .clients[0].decided == {"commit_delay_usecs": 1000, "commit_siblings": 1, "runs": 4}
decided, the delay beats 0 | .clients[0].cells[1].versus_zero == "better"
and it is the advice | .advice.commit_delay_usecs == 1000
and what to set, with its siblings | [.what_to_set[] | [.name, .value, .source]]
	| .[1:] == [["commit_delay", 1000, "server"], ["commit_siblings", 1, "server"]]
CHECKS
	check_clean "nothing left after deciding"
	SYNCPROBE_FAKEPG_GAIN=1 SYNCPROBE_FAKEPG_SWING="100 142 100 105" \
	    run ${PG%% --clients*} $DECIDE -T 1 --repeats 2 --decide 0 -F json "$D"
	jq_checks "$WORK/out" <<'CHECKS'
--decide 0: the repeats only | [.clients[0].cells[] | (.runs_tps | length)] == [2, 2] and .clients[0].decided == null
--decide 0: within noise, the delay is no gain over 0 | .clients[0].cells[1].versus_zero | IN("same", "unclear")
--decide 0: so the advice is 0 | .advice.commit_delay_usecs == 0
CHECKS
	check_clean "nothing left after --decide 0"
	SYNCPROBE_FAKEPG_GAIN=1 SYNCPROBE_FAKEPG_SWING="100 142 100 105" \
	    run ${PG%% --clients*} $DECIDE -T 1 --repeats 2 --decide 1 "$D"
	tap_check "the text report names the deciding runs" \
	    said " decided: 1000 us \(siblings 1\) led 0 within the repeats' noise, and ran 1 more time beside 0, side by side: 3 runs each above "
	tap_check "... and its header the rule" \
	    said "then, where a delay led 0 within the repeats' noise, 1 more run of it and of 0, side by side "
	check_clean "nothing left after --decide 1"
else
	tap_skip "-F json" "jq is not installed"
fi

run $PG -F conf --commit-delays 0,10 --commit-siblings 1 "$D"
tap_check "-F conf gives the measured commit_delay and commit_siblings" \
    grep -Eq "^commit_delay = [0-9]+" "$WORK/out"
check_clean "nothing left after -F conf"

# -F svg: one picture, a line per client count and commit_siblings swept,
# valid XML (tests/cli_svg.sh checks the pictures further).
run $PG -F svg --commit-delays 0,10,20 --commit-siblings 1,4 "$D"
tap_is "$rc $(head -c 5 "$WORK/out")" "0 <?xml" "-F svg exits 0 with an XML document"
tap_check "-F svg: a line for each client count and commit_siblings" \
    sh -c 'grep -q ">8 clients, siblings 1<" "$1" && grep -q ">8 clients, siblings 4<" "$1" &&
	grep -q ">2 clients, siblings 1<" "$1"' sh "$WORK/out"
if command -v xmllint >/dev/null 2>&1; then
	tap_check "-F svg: xmllint accepts it" xmllint --noout "$WORK/out"
else
	tap_skip "-F svg: xmllint accepts it" "xmllint is not installed"
fi
check_clean "nothing left after -F svg"

# ---- the ways a run fails: exit 1, a message, nothing left ----
for step in initdb start psql checkpoint pgbench; do
	SYNCPROBE_FAKEPG_FAIL=$step run $PGS "$D"
	tap_is "$rc" 1 "$step failing: exit 1"
	tap_check "$step failing: one line on stderr naming it" \
	    sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^syncprobe: " "$1"' sh "$WORK/err"
	check_clean "$step failing: nothing left"
	if [ "$step" = psql ]; then
		# psql's own error ends the wait for the server at once, in
		# psql's words; only a failed connection is waited out.
		tap_check "psql failing with its own error: psql's words, not a wait for the server" \
		    grep -q "^syncprobe: psql: exited with status 1: psql: error: the fake was told to fail" \
		    "$WORK/err"
	fi
done
tap_check "a failed start quotes the server's log" \
    sh -c 'SYNCPROBE_FAKEPG_FAIL=start "$@" 2>&1 >/dev/null | grep -q "server log: FATAL:  the fake server"' \
    sh "$SYNCPROBE" $PGS "$D"
check_clean "nothing left after the start that quoted the log"

SYNCPROBE_FAKEPG_GARBAGE=1 run $PGS "$D"
tap_is "$rc" 1 "pgbench printing no figures: exit 1"
tap_check "... saying what was missing" \
    grep -q "pgbench: a 'tps = ' line that is not" "$WORK/err"
check_clean "garbage from pgbench: nothing left"

SYNCPROBE_FAKEPG_CHILD=1 run $PGS "$D"
tap_is "$rc" 0 "pgbench leaving a process behind: the sweep still ends"
check_clean "the process pgbench left is killed with its group"

# ---- the server: syncprobe's own child, the only process it signals ----
# A victim: a process of the test's own, whose pid a server's user writes
# into postmaster.pid. Only the pid fork returned is ever signalled.
sleep 300 &
victim=$!
: >"$WORK/log"
SYNCPROBE_FAKEPG_VICTIM=$victim SYNCPROBE_FAKEPG_LOG=$WORK/log run $PGS "$D"
tap_is "$rc" 0 "postmaster.pid naming another process: the sweep ends, exit 0"
tap_check "... the server stopped with SIGQUIT (its immediate shutdown)" \
    grep -q "^postgres got QUIT$" "$WORK/log"
tap_check "... and the process postmaster.pid names is untouched" kill -0 "$victim"
check_clean "... nothing left"

# ---- signals ----
# signal_case DESC HANG SIGNALS...: start a run whose HANG step never ends,
# send the signals once it hangs there, and check how it ended.
signal_case() {
	desc=$1 hang=$2
	shift 2
	: >"$WORK/log"
	# The server ignoring the signal to stop: "stop" fails rather than
	# hangs (it is syncprobe that waits).
	if [ "$hang" = stop ]; then fail=stop; else fail=; fi
	SYNCPROBE_FAKEPG_HANG=$hang SYNCPROBE_FAKEPG_FAIL=$fail SYNCPROBE_FAKEPG_LOG=$WORK/log \
	    SYNCPROBE_FAKEPG_VICTIM=$victim \
	    $DEFAULT_SIGNALS "$SYNCPROBE" $PGS "$D" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	case $hang in
	stop) until_line="postgres got QUIT" ;;
	start) until_line="postgres " ;;
	*) until_line="pgbench .* -c" ;;
	esac
	if ! waiting $pid grep -q "^$until_line" "$WORK/log"; then
		tap_fail "$desc: the run reached $hang" "$(cat "$WORK/err")"
		kill -9 $pid 2>/dev/null || :
		return
	fi
	for s in "$@"; do
		kill -$s $pid
		sleep 0.3
	done
	rc=0
	wait $pid || rc=$?
	tap_ok "$desc: ended (status $rc)"
	check_clean "$desc: nothing left"
}
if [ -n "$DEFAULT_SIGNALS" ]; then
	signal_case "SIGTERM in a pgbench run" pgbench TERM
	tap_is "$rc" 143 "SIGTERM: syncprobe dies of it, after cleaning up"
	signal_case "SIGINT in a pgbench run" pgbench INT
	tap_is "$rc" 130 "SIGINT: syncprobe dies of it, after cleaning up"
	signal_case "SIGHUP while the server starts" start HUP
	tap_check "... the server, not yet ready, asked to stop with SIGINT" \
	    grep -q "^postgres got INT$" "$WORK/log"
	# A server that ignores SIGQUIT: a second signal is waited through, a
	# third kills the process syncprobe started (SIGKILL) and not the one
	# its postmaster.pid names; what may be left is said.
	signal_case "a server that ignores SIGQUIT, and three SIGTERMs" stop TERM TERM TERM
	tap_is "$rc" 143 "... syncprobe dies of SIGTERM"
	tap_check "... having said that it killed the server, and what may be left" \
	    grep -q "^syncprobe: .*: the server (postgres, process [0-9]*) did not stop on SIGQUIT before a third signal: killed (SIGKILL); .*shared memory may be left" "$WORK/err"
	tap_check "... and the process postmaster.pid names is untouched" kill -0 "$victim"
	tap_check "... and what the sweep measured is still reported" \
	    grep -q "^Advice$" "$WORK/out"
	# While deciding: the two repeats' four runs, the first deciding pair,
	# then the seventh run never ends.
	: >"$WORK/log"
	SYNCPROBE_FAKEPG_GAIN=1 SYNCPROBE_FAKEPG_SWING="100 142 100 105" \
	    SYNCPROBE_FAKEPG_HANG_RUN=7 SYNCPROBE_FAKEPG_LOG=$WORK/log \
	    $DEFAULT_SIGNALS "$SYNCPROBE" ${PG%% --clients*} --clients 2 \
	    --commit-delays 0,1000 --commit-siblings 1 -T 1 --repeats 2 "$D" \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	if waiting $pid sh -c '[ "$(grep -c "^pgbench .* -c" "$1")" -ge 7 ]' sh "$WORK/log"; then
		kill -TERM $pid
		rc=0
		wait $pid || rc=$?
		tap_is "$rc" 143 "SIGTERM while deciding: syncprobe dies of it"
		tap_check "... after a report that says where it stopped" \
		    grep -q "^stopped by a signal after 2 whole repeats (while deciding): " "$WORK/out"
		tap_check "... and nothing to set from a sweep cut short" \
		    said "What to set nothing: a signal ended the sweep early, so these figures are not advice"
		tap_check "... with the one deciding pair that was whole" \
		    said " decided: 1000 us \(siblings 1\) .* ran 1 more time beside 0, side by side: 3 runs each above "
	else
		tap_fail "SIGTERM while deciding: the run reached its seventh run" "$(cat "$WORK/err")"
		kill -9 $pid 2>/dev/null || :
		wait $pid 2>/dev/null || :
	fi
	check_clean "SIGTERM while deciding: nothing left"
else
	tap_skip "signals" "neither env --default-signal nor perl"
fi

# ---- signals in the probe's phase, before any cluster exists ----
# probe_has_file: the probe's test file (.syncprobe.XXXXXX) is in DIR.
probe_has_file() {
	ls -A "$D" | grep -q '^\.syncprobe\.'
}
# group_runs PID: -t group's threads are up (the rows run on one thread).
group_runs() {
	[ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -gt 1 ]
}
# probe_signal_case DESC SIGNAL STATUS NAME PHASE UNTIL OPTIONS...: send
# SIGNAL once UNTIL holds (given the pid), then check that syncprobe died
# of it (STATUS), said so naming NAME and PHASE, made no cluster and left
# nothing.
probe_signal_case() {
	p_desc=$1 sig=$2 status=$3 name=$4 phase=$5 until=$6
	shift 6
	: >"$WORK/log"
	SYNCPROBE_FAKEPG_LOG=$WORK/log $DEFAULT_SIGNALS "$SYNCPROBE" pgbench --pg-bin="$FAKE" \
	    $USER_OPT -T 1 --repeats 2 "$@" "$D" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	if ! waiting $pid $until $pid; then
		tap_fail "$p_desc: the run reached the probe's phase" "$(cat "$WORK/err")"
		kill -9 $pid 2>/dev/null || :
		wait $pid 2>/dev/null || :
		return
	fi
	kill -$sig $pid
	rc=0
	wait $pid || rc=$?
	tap_is "$rc" "$status" "$p_desc: syncprobe dies of $name"
	tap_check "$p_desc: one line says it stopped before any cluster was made" \
	    sh -c '[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^syncprobe: .*: stopped by $2 while the probe measured the flush ($3), before any cluster was made" "$1"' \
	    sh "$WORK/err" "$name" "$phase"
	tap_check "$p_desc: no report on stdout" sh -c '[ ! -s "$1" ]' sh "$WORK/out"
	tap_check "$p_desc: no PostgreSQL program ran" sh -c '[ ! -s "$1" ]' sh "$WORK/log"
	check_clean "$p_desc: nothing left (test file, cluster, process)"
}
# "probe_has_file_pid PID": waiting hands the pid on; the file test ignores it.
probe_has_file_pid() {
	probe_has_file
}
if [ -z "$DEFAULT_SIGNALS" ]; then
	tap_skip "signals in the probe's phase" "neither env --default-signal nor perl"
else
	# Rows that would take minutes: the signal lands in them.
	probe_signal_case "SIGINT in the probe's rows" INT 130 SIGINT \
	    "its one- and two-write rows" probe_has_file_pid -q -n 1000000 --no-group --clients 8
	probe_signal_case "SIGTERM in the probe's rows" TERM 143 SIGTERM \
	    "its one- and two-write rows" probe_has_file_pid -q -n 1000000 --clients 8
	if [ -d "/proc/$$/task" ]; then
		# Adaptive rows, then -t group's cells of half a second each.
		probe_signal_case "SIGINT in -t group" INT 130 SIGINT "-t group" group_runs \
		    -q --clients 8
		probe_signal_case "SIGTERM in -t group" TERM 143 SIGTERM "-t group" group_runs \
		    -q --clients 8
	else
		tap_skip "signals in -t group" "no /proc/PID/task to see its threads"
	fi
fi

# ---- refusals: exit 2, one line, nothing made ----
refused() {
	desc=$1 what=$2
	shift 2
	run "$@"
	problems=
	[ "$rc" -eq 2 ] || problem "exit $rc, not 2"
	one_line_problems "$what"
	left_problems
	if [ -z "$problems" ]; then tap_ok "$desc"; else tap_fail "$desc" "$problems$nl$(cat "$WORK/err")"; fi
}
refused "one repeat is refused" "--repeats '1'" pgbench -q -n 5 --no-group --pg-bin="$FAKE" \
    $USER_OPT --repeats 1 "$D"
refused "--decide over 14 is refused" "--decide '15'" $PGS --decide 15 "$D"
refused "a negative --decide is refused" "--decide '-1'" $PGS --decide -1 "$D"
refused "no DIR is refused" "pgbench" $PGS
refused "two DIRs are refused" "pgbench" $PGS "$D" "$D"
refused "a --pg-bin without the programs is refused" "$WORK" \
    pgbench --pg-bin="$WORK" $USER_OPT "$D"
refused "a missing --script is refused" "--script" $PGS --script "$WORK/none.sql" "$D"
refused "--script with --builtin is refused" "--script" $PGS --script x --builtin tpcb-like "$D"
# One byte over the 1MB (1024kB) a script may hold: refused, the limit named as
# every other limit message names it.
dd if=/dev/zero bs=1024 count=1024 2>/dev/null | tr '\0' ';' >"$WORK/big.sql"
printf ';' >>"$WORK/big.sql"
refused "a --script over the limit is refused" "--script: $WORK/big.sql" \
    $PGS --script "$WORK/big.sql" "$D"
tap_check "... naming the limit" grep -q "too large (at most 1MB)" "$WORK/err"
refused "a missing DIR is refused" "$WORK/none" $PGS "$WORK/none"
if [ "$(id -u)" -eq 0 ]; then
	refused "an unknown --pg-user is refused" "--pg-user" \
	    pgbench --pg-bin="$FAKE" --pg-user no-such-user-here "$D"
	mkdir -m 700 "$WORK/closed"
	mkdir -m 755 "$WORK/closed/d"
	run $PGS "$WORK/closed/d"
	tap_is "$rc" 2 "a DIR the server's user cannot reach is refused"
	tap_check "... saying who cannot enter it" grep -q "postgres cannot enter it" "$WORK/err"
	tap_check "... and nothing is left there" \
	    sh -c '[ -z "$(ls -A "$1")" ]' sh "$WORK/closed/d"
	cp -R "$FAKE" "$WORK/closed/bin"
	refused "programs the server's user cannot reach are refused" \
	    "$WORK/closed/bin/initdb" pgbench -q --pg-bin="$WORK/closed/bin" $USER_OPT "$D"
	tap_check "... saying who cannot run them" grep -q "postgres cannot run it" "$WORK/err"
else
	refused "--pg-user as another user is refused" "--pg-user" \
	    pgbench --pg-bin="$FAKE" --pg-user root "$D"
fi

# ---- a DIR whose path another user can change ----
# The server's programs take their directories by path (PostgreSQL makes
# a relative one absolute, and reads postgresql.conf through it): whoever
# can rename an entry on the way could swap in a directory of theirs. So
# DIR and every directory above it must be changeable only by root, the
# caller or the server's user: refused up front (exit 2, no program run,
# nothing made), before the probe's minutes.
# untrusted DESC NEEDLE DIR [OPTIONS...]: refused, naming NEEDLE.
untrusted() {
	u_desc=$1 u_needle=$2 u_dir=$3
	shift 3
	: >"$WORK/log"
	SYNCPROBE_FAKEPG_LOG=$WORK/log run pgbench -q -n 5 --no-group --pg-bin="$FAKE" \
	    $USER_OPT --clients 2 -T 1 --repeats 2 "$@" "$u_dir"
	problems=
	[ "$rc" -eq 2 ] || problem "exit $rc, not 2"
	one_line_problems "$u_dir"
	grep -qF -- "$u_needle" "$WORK/err" || problem "does not say '$u_needle'"
	[ ! -s "$WORK/log" ] || problem "a PostgreSQL program ran: $(cat "$WORK/log")"
	[ -z "$(ls -A "$u_dir")" ] || problem "left in it: $(ls -A "$u_dir")"
	[ ! -s "$WORK/out" ] || problem "a report on stdout"
	if [ -z "$problems" ]; then tap_ok "$u_desc"; else tap_fail "$u_desc" "$problems$nl$(cat "$WORK/err")"; fi
}
mkdir -m 775 "$WORK/groupw"
untrusted "a DIR its group can write to (no sticky bit) is refused" \
    "its group can write to $WORK/groupw (mode 0775, no sticky bit)" "$WORK/groupw"
mkdir -m 1777 "$WORK/sticky"
run $PGS "$WORK/sticky"
tap_is "$rc" 0 "a DIR anyone can write to with the sticky bit (as /tmp) is taken"
tap_check "... and left empty" test -z "$(ls -A "$WORK/sticky")"
# A second user, made for the test (root, and useradd, only).
other=sp36t$$
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null 2>&1 &&
    useradd -M -s /bin/false "$other" >/dev/null 2>&1; then
	trap 'userdel "$other" >/dev/null 2>&1 || :; cleanup_work' EXIT
	mkdir -m 755 "$WORK/theirs"
	chown "$other" "$WORK/theirs"
	untrusted "a DIR another user owns is refused, naming them" \
	    "$other owns $WORK/theirs and can rename what is in it" "$WORK/theirs"
	tap_check "... and saying how to run the server as its owner" \
	    grep -q -- "--pg-user=$other)\$" "$WORK/err"
	mkdir -m 755 "$WORK/theirs/mine"
	untrusted "a DIR of root's in a directory another user owns is refused" \
	    "$other owns $WORK/theirs and can rename what is in it" "$WORK/theirs/mine"
	rmdir "$WORK/theirs/mine"
	# Run as the owner, the server is theirs: swapping its directory gains
	# them nothing.
	run pgbench -q -n 5 --no-group --pg-bin="$FAKE" --pg-user "$other" --clients 2 -T 1 \
	    --repeats 2 --commit-delays 0,10 --commit-siblings 1 "$WORK/theirs"
	tap_is "$rc" 0 "... taken with --pg-user=its owner"
	tap_check "... and left empty" test -z "$(ls -A "$WORK/theirs")"
	userdel "$other" >/dev/null 2>&1 || :
else
	for t in "a DIR another user owns is refused" "... saying how" \
	    "a DIR of root's in a directory another user owns is refused" \
	    "... taken with --pg-user=its owner" "... and left empty"; do
		tap_skip "$t" "needs root and useradd to make a second user"
	done
fi

# ---- a filesystem the cluster could fill ----
# The cluster may take initdb's some 40MB and, in a run, up to
# max_wal_size (1GB) of WAL; syncprobe keeps 5% of the filesystem (at most
# 64MB) free besides. Short of that it refuses before anything is made
# (exit 2); before each run, short of the run's 1GB, it stops (exit 1);
# within a run, at the 5%, it kills pgbench (exit 1). Loop-mounted ext4
# filesystems in sparse files; fallocate takes their space unwritten.
if mount_loop "$WORK/small" 256M; then
	chmod 755 "$WORK/small"
	rmdir "$WORK/small/lost+found" 2>/dev/null || :
	: >"$WORK/log"
	SYNCPROBE_FAKEPG_LOG=$WORK/log run $PGS "$WORK/small"
	problems=
	[ "$rc" -eq 2 ] || problem "exit $rc, not 2"
	one_line_problems "$WORK/small"
	grep -q ": not enough free space for the throwaway cluster: it may take 1.1GB " \
	    "$WORK/err" || problem "not the message"
	[ ! -s "$WORK/log" ] || problem "a PostgreSQL program ran"
	[ -z "$(ls -A "$WORK/small")" ] || problem "left: $(ls -A "$WORK/small")"
	if [ -z "$problems" ]; then
		tap_ok "a 256MB filesystem: refused before the probe and initdb, exit 2"
	else
		tap_fail "a 256MB filesystem: refused before the probe and initdb, exit 2" \
		    "$problems$nl$(cat "$WORK/err")"
	fi
else
	tap_skip "a 256MB filesystem: refused before initdb" "needs root, mkfs.ext4 and a loop device"
fi
if mount_loop "$WORK/mid" 1400M; then
	chmod 755 "$WORK/mid"
	rmdir "$WORK/mid/lost+found" 2>/dev/null || :
	SYNCPROBE_FAKEPG_GROW=300 run $PGS "$WORK/mid"
	tap_is "$rc" 1 "a run that leaves no room for the next: the sweep stops, exit 1"
	tap_check "... before the next run, saying why" \
	    grep -q "^syncprobe: .*: not enough free space left for another run: it may keep up to max_wal_size (1GB) of WAL, and .* available, and syncprobe keeps .* of this filesystem free" "$WORK/err"
	tap_check "... and the cluster, with what the run took, is removed" \
	    test -z "$(ls -A "$WORK/mid")"
	SYNCPROBE_FAKEPG_FILL=1 run $PGS "$WORK/mid"
	tap_is "$rc" 1 "a run that fills the filesystem: pgbench is killed, exit 1"
	tap_check "... saying it fell under the free space syncprobe keeps" \
	    grep -q "^syncprobe: pgbench: killed: the free space of its filesystem fell under .*, which syncprobe keeps free" "$WORK/err"
	tap_check "... and the cluster is removed" test -z "$(ls -A "$WORK/mid")"
	check_clean "... no process left"
else
	for t in "a run that leaves no room: the sweep stops" "... before the next run" \
	    "... the cluster removed" "a run that fills the filesystem: pgbench killed" \
	    "... saying why" "... the cluster removed" "... no process left"; do
		tap_skip "$t" "needs root, mkfs.ext4 and a loop device"
	done
fi

# ---- finding the programs ----
PATH="$FAKE:$PATH" run pgbench -q -n 5 --no-group $USER_OPT --clients 8 -T 1 --repeats 2 "$D"
if said "found by pg_config --bindir"; then
	tap_ok "the programs are found through pg_config --bindir"
else
	tap_fail "the programs are found through pg_config --bindir" \
	    "exit $rc$nl$(head -n 2 "$WORK/out")$nl$(cat "$WORK/err")"
fi
check_clean "nothing left after finding them through pg_config"

# ---- what the server's programs print, before a report or a terminal ----
# A server_version holding a newline would make an active conf line of
# what follows it; one holding an escape sequence would reach the
# terminal. Refused (exit 1), the message escaped, no report.
esc=$(printf '\033')
SYNCPROBE_FAKEPG_VERSION="15.99${nl}fsync = off" run $PGS -F conf "$D"
tap_is "$rc" 1 "a server_version with a newline: exit 1"
tap_check "... no report, no active fsync = off line" sh -c '! grep -q "^fsync" "$1" && [ ! -s "$1" ]' sh "$WORK/out"
tap_check "... said, escaped, on one line" \
    grep -qx "syncprobe: psql: server_version is not a version: '15.99\\\\nfsync = off'" "$WORK/err"
check_clean "... nothing left"
SYNCPROBE_FAKEPG_VERSION="15.99 ${esc}[2Jx" run $PGS "$D"
tap_check "a server_version with ESC [2J: exit 1, no raw ESC on stderr or stdout" \
    sh -c '[ "$1" -eq 1 ] && ! grep -q "$2" "$3" "$4" && grep -q "15.99 \\\\033\[2Jx" "$3"' \
    sh "$rc" "$esc" "$WORK/err" "$WORK/out"
check_clean "... nothing left"
# pg_config's bindir: one absolute path, no control character in it.
SYNCPROBE_FAKEPG_BINDIR="/opt/pg${esc}]0;x${nl}bin" PATH="$FAKE:$PATH" \
    run pgbench -q -n 5 --no-group $USER_OPT --clients 2 -T 1 --repeats 2 "$D"
tap_is "$rc" 2 "pg_config printing a bindir with control characters: refused, exit 2"
tap_check "... said, escaped, naming pg_config --bindir, no raw ESC" \
    sh -c 'grep -q "pg_config --bindir: printed .*/opt/pg\\\\033\]0;x\\\\nbin., not one absolute path" "$1" && ! grep -q "$2" "$1"' \
    sh "$WORK/err" "$esc"
check_clean "... nothing left"

# ---- workloads ----
printf 'SELECT 1;\n' >"$WORK/mine.sql"
chmod 600 "$WORK/mine.sql"
SYNCPROBE_FAKEPG_LOG=$WORK/log run $PGS --script "$WORK/mine.sql" "$D"
tap_is "$rc" 0 "--script: the admin's own transaction"
tap_check "... copied into the cluster's directory for pgbench" \
    grep -q "^pgbench .* -f .*/.syncprobe-pg\.[A-Za-z0-9]*/script.sql" "$WORK/log"
check_clean "nothing left after --script"
: >"$WORK/log"
SYNCPROBE_FAKEPG_LOG=$WORK/log run $PGS --builtin tpcb-like "$D"
tap_is "$rc" 0 "--builtin tpcb-like"
tap_check "... initializes the tables first" grep -q "^pgbench -i -s 1" "$WORK/log"
tap_check "... and runs the built-in" grep -q "^pgbench .* -b tpcb-like" "$WORK/log"
check_clean "nothing left after --builtin tpcb-like"

kill "$victim" 2>/dev/null || :
wait "$victim" 2>/dev/null || :
tap_done
