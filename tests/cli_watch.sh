#!/bin/sh
# cli_watch.sh: syncprobe watch through the real binary, without a timing
# assertion: the interval lines a --for and an --interval make, a summary
# whose counts are the sum of the intervals', JSON Lines that jq reads line
# by line, stalls made by the fault shim (a slow sync now and then) each
# reported once and never followed by a burst, SIGINT printing the
# summary and removing the file, and heap use that does not grow with the
# length of a run (valgrind's count of allocations).
. "$top_srcdir/tests/lib.sh"
tap_require jq

dir=$WORK/target
mkdir "$dir"
: "${FAULTSHIM:=}"
FIXED="-m fdatasync --file-size 64k"

# jq_true ARGS...: jq -e, quietly.
jq_true() { jq -e "$@" >/dev/null; }

# leaves_nothing DESC: nothing of syncprobe's is left in $dir.
leaves_nothing() {
	if [ -z "$(ls -A "$dir")" ]; then
		tap_ok "$1: nothing left behind"
	else
		tap_fail "$1: nothing left behind" "$(ls -A "$dir")"
		rm -f "$dir"/.syncprobe.*
	fi
}

# --- Text: 4 interval lines of 250ms in 1s, the summary and the plot.
run watch $FIXED --rate 100 --for 1 --interval 250ms "$dir"
tap_is "$rc" 0 "watch --for 1 --interval 250ms: exit 0 ($(cat "$WORK/err"))"
lines=$(awk '/^ *secs  *ops/ { on = 1; next } on && /^$/ { on = 0 } on && /^ *[0-9.]+ +[0-9]+ /' "$WORK/out")
tap_is "$(printf '%s\n' "$lines" | grep -c .)" 4 "four interval lines"
tap_is "$(printf '%s\n' "$lines" | awk '{ print $1 }' | tr '\n' ' ')" "0.25 0.50 0.75 1.00 " \
    "each line at the end of its interval"
sum=$(printf '%s\n' "$lines" | awk '{ s += $2 } END { print s }')
ops=$(sed -n 's/^summary: [0-9.]* s paced, \([0-9]*\) operations.*/\1/p' "$WORK/out")
tap_is "$ops" "$sum" "the summary's operations are the sum of the intervals' ($sum)"
tap_check "the summary has the paced and the back-to-back rows" \
    grep -q '^back to back  *[0-9]' "$WORK/out"
tap_check "the summary names the worst interval" grep -q '^worst interval: ' "$WORK/out"
tap_check "the plot is drawn, with its legend" grep -q '^ *\* p99  + max' "$WORK/out"
tap_is "$(awk 'length > 80' "$WORK/out")" "" "every line fits 80 columns"
leaves_nothing "text"

# --- JSON Lines: each line a document; counts that add up.
run watch $FIXED --rate 200 --for 1 --interval 200ms -F json "$dir"
tap_is "$rc" 0 "-F json: exit 0 ($(cat "$WORK/err"))"
bad=0
while IFS= read -r line; do
	printf '%s\n' "$line" | jq -e 'type == "object" and (.type | type == "string")' \
	    >/dev/null 2>&1 || bad=$((bad + 1))
done <"$WORK/out"
tap_is "$bad" 0 "every line is one JSON object with a type ($(wc -l <"$WORK/out") lines)"
tap_is "$(jq -r .type "$WORK/out" | tr '\n' ' ')" \
    "start interval interval interval interval interval summary " \
    "start, five intervals, summary"
tap_is "$(jq -s '[.[] | select(.type == "interval") | .ops] | add' "$WORK/out")" \
    "$(jq 'select(.type == "summary") | .paced.ops' "$WORK/out")" \
    "summary ops = the sum of the intervals'"
tap_is "$(jq -s '[.[] | select(.type == "interval") | .missed_starts] | add' "$WORK/out")" \
    "$(jq 'select(.type == "summary") | .missed_starts' "$WORK/out")" \
    "summary missed starts = the sum of the intervals'"
tap_check "the summary says what it watched" jq_true 'select(.type == "summary") |
    .method == "fdatasync" and .rate_per_sec == 200 and .intervals == 5 and
    .stopped_by == null and .back_to_back.ops > 0' "$WORK/out"
leaves_nothing "json"

# --- The last interval cut short by --for: labelled partial, with its
# real length; never the worst while a whole one ran operations.
run watch $FIXED --rate 100 --for 600ms --interval 250ms "$dir"
tap_is "$rc" 0 "--for 600ms --interval 250ms: exit 0 ($(cat "$WORK/err"))"
lines=$(awk '/^ *secs  *ops/ { on = 1; next } on && /^$/ { on = 0 } on && /^ *[0-9.]+ +[0-9]+ /' "$WORK/out")
tap_is "$(printf '%s\n' "$lines" | awk '{ print $1 ($NF == "partial" ? "p" : "") }' | tr '\n' ' ')" \
    "0.25 0.50 0.600p " "text: two whole intervals, then the cut one, partial, ending at the cut"
run watch $FIXED --rate 100 --for 600ms --interval 250ms -F json "$dir"
tap_is "$(jq -r 'select(.type == "interval") | "\(.partial):\(.secs)"' "$WORK/out" | tr '\n' ' ')" \
    "false:0.25 false:0.25 true:0.1 " "json: partial and secs, the real length, of each interval"
tap_check "json: the worst interval is a whole one (or none of them ran)" jq_true -s '
    ([.[] | select(.type == "interval" and .partial == false and .ops > 0)] | length) as $whole |
    .[] | select(.type == "summary") | .worst_interval.partial == ($whole == 0)' "$WORK/out"
leaves_nothing "partial"

# --- openmetrics: the summary alone.
run watch $FIXED --for 200ms --interval 100ms -F openmetrics "$dir"
tap_is "$rc" 0 "-F openmetrics: exit 0"
tap_check "-F openmetrics: the operations and the latency summary" sh -c \
    "grep -q '^syncprobe_watch_operations{target=\"$dir\",method=\"fdatasync\"} [0-9]' '$WORK/out' &&
     grep -q '^syncprobe_watch_latency_seconds_count{.*load=\"back_to_back\"} [0-9]' '$WORK/out'"
if command -v promtool >/dev/null 2>&1; then
	tap_check "-F openmetrics: promtool check metrics" sh -c \
	    "promtool check metrics <'$WORK/out' >'$WORK/lint' 2>&1"
else
	tap_skip "-F openmetrics: promtool check metrics" "promtool is not installed"
fi

# --- Stalls: every 5th sync of the watched descriptor (the second reopen
# of the test file, after the burst's) sleeps 1.2 s in the shim.
if preload_works; then
	log=$WORK/shim.log
	: >"$log"
	rc=0
	env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT_LOG="$log" \
	    SYNCPROBE_FAULT_SYNC_DELAY_US=1200000 SYNCPROBE_FAULT_SYNC_DELAY_EVERY=5 \
	    SYNCPROBE_FAULT_SYNC_DELAY_REOPEN=2 \
	    "$SYNCPROBE" watch $FIXED --rate 20 --for 3 --interval 500ms --stall 1s -F json \
	    "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	delays=$(grep -c '^delay ' "$log" || :)
	stalls=$(jq -s '[.[] | select(.type == "stall")] | length' "$WORK/out")
	tap_is "$rc" 0 "a slow sync now and then: exit 0 ($(cat "$WORK/err"))"
	if [ "$delays" -gt 0 ]; then
		tap_ok "the shim slowed $delays syncs"
	else
		tap_fail "the shim slowed some syncs" "$(cat "$log")"
	fi
	tap_is "$stalls" "$delays" "each slowed sync is one stall line"
	tap_is "$(jq 'select(.type == "summary") | .stalls' "$WORK/out")" "$delays" \
	    "the summary counts them"
	tap_is "$(jq -s '[.[] | select(.type == "interval") | .stalls] | add' "$WORK/out")" \
	    "$delays" "the intervals count them"
	tap_check "the stall warning" jq_true 'select(.type == "summary") |
	    [.warnings[].code] | index("stall") != null' "$WORK/out"
	# 20 a second: at most 10 starts in an interval of 0.5 s, however
	# many a stall made it miss.
	tap_check "no interval has more operations than slots (no catch-up burst)" \
	    jq_true -s '[.[] | select(.type == "interval") | .ops <= 10] | all' "$WORK/out"
	tap_check "intervals after a stall missed starts" \
	    jq_true -s '[.[] | select(.type == "interval") | .missed_starts] | add > 0' "$WORK/out"
	leaves_nothing "stalls"
	# The same in text: each stall once, on a line of its own.
	: >"$log"
	rc=0
	env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT_LOG="$log" \
	    SYNCPROBE_FAULT_SYNC_DELAY_US=1200000 SYNCPROBE_FAULT_SYNC_DELAY_EVERY=5 \
	    SYNCPROBE_FAULT_SYNC_DELAY_REOPEN=2 \
	    "$SYNCPROBE" watch $FIXED --rate 20 --for 2 --interval 1s --stall 1s \
	    "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	tap_is "$(grep -c '^stall \[stall\]: one 8kB write + fdatasync took 1\.[0-9]* s, from ' \
	    "$WORK/out" || :)" "$(grep -c '^delay ' "$log" || :)" "text: a stall line for each slowed sync"
	leaves_nothing "stalls, text"
else
	for what in "exit 0" "the shim slowed syncs" "one stall line each" "the summary" \
	    "the intervals" "the warning" "no burst" "missed starts" "nothing left" \
	    "text lines" "text, nothing left"; do
		tap_skip "stalls: $what" "the fault shim cannot be preloaded here"
	done
fi

# --- --for's limit, a week: --help says it, a nanosecond more is refused
# naming it, the week itself is taken (the SIGINT run below uses it).
week=$("$SYNCPROBE" help watch | sed -n 's/.*--for=DURATION .*at most \([0-9]*s\) .*/\1/p')
tap_is "$week" 604800s "--help: --for at most a week"
refused_exactly "syncprobe: --for '604800.000000001': too long (at most $week)" "$dir" \
    watch $FIXED --for 604800.000000001 "$dir"
refused_exactly "syncprobe: --for '604801s': too long (at most $week)" "$dir" \
    watch $FIXED --for 604801s "$dir"
refused_exactly "syncprobe: --interval '3601': too long (at most 3600s)" "$dir" \
    watch $FIXED --for 604800 --interval 3601 "$dir"

# --- SIGINT: the summary of what was measured, the file removed, then
# syncprobe dies of SIGINT; --for a week, the longest, is taken.
if [ -n "$DEFAULT_SIGNALS" ]; then
	$DEFAULT_SIGNALS "$SYNCPROBE" watch $FIXED --for 604800 --interval 100ms -F json "$dir" \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	two_intervals() { [ "$(grep -c '"type": "interval"' "$WORK/out")" -ge 2 ]; }
	if waiting "$pid" two_intervals; then
		kill -INT "$pid"
		rc=0
		wait "$pid" || rc=$?
		tap_is "$rc" 130 "SIGINT: dies of SIGINT after the summary (exit $rc)"
		tap_check "SIGINT: the summary, stopped by SIGINT, of a week's --for" jq_true \
		    'select(.type == "summary") | .stopped_by == "SIGINT" and
		    .for_secs == 604800' "$WORK/out"
		tap_is "$(jq -s '[.[] | select(.type == "interval") | .ops] | add' "$WORK/out")" \
		    "$(jq 'select(.type == "summary") | .paced.ops' "$WORK/out")" \
		    "SIGINT: the summary's operations are the sum of the intervals'"
		tap_check "SIGINT: only the last interval may be partial, and is when it is short" \
		    jq_true -s '[.[] | select(.type == "interval")] |
		    (.[:-1] | all(.partial == false and .secs == 0.1)) and
		    (.[-1] | .partial == (.secs < 0.1))' "$WORK/out"
		leaves_nothing "SIGINT"
	else
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" || :
		rm -f "$dir"/.syncprobe.*
		tap_fail "SIGINT: watch never printed two intervals" "$(cat "$WORK/err")"
	fi
else
	tap_skip "SIGINT: the summary" "no way to run a program with SIGINT's default here"
fi

# --- A reader that takes nothing (a pipe left full) holds the load only
# until --for's end or the first SIGTERM: then watch ends while the reader
# still sleeps, says on stderr what was not written, and leaves nothing.
# stalled ARGS...: watch ARGS -F json into a pipe whose reader sleeps a
# minute (stalled_reader: $WORK/w.pid, w.rc, w.err).
stalled() {
	stalled_reader w "$SYNCPROBE" watch $FIXED --interval 1ms --rate max -F json "$@" "$dir"
}
# stalled_end DESC STATUS WHY: watch ended (before its reader), with
# STATUS, saying WHY; the reader is then let go.
stalled_end() {
	if waiting "$reader" test -s "$WORK/w.rc"; then
		tap_is "$(cat "$WORK/w.rc")" "$2" "$1: watch ends while its reader sleeps (exit $2)"
		tap_check "$1: ... saying the report was not all written" \
		    grep -q "^syncprobe: write standard output: its reader took nothing until $3 ([0-9]* bytes of the report not written; the test file is removed)$" "$WORK/w.err"
	else
		tap_fail "$1: watch ends while its reader sleeps" "still running: $(cat "$WORK/w.err")"
		tap_skip "$1: ... saying the report was not all written" "it did not end"
	fi
	kill "$reader" 2>/dev/null || :
	wait "$reader" 2>/dev/null || :
	waiting $$ test -s "$WORK/w.rc" || :
	leaves_nothing "$1"
}
stalled --for 2s
stalled_end "--for 2s, a stalled reader" 1 "--for ended"
stalled --for 604800
has_file() { [ -n "$(ls -A "$dir")" ]; }
if waiting "$reader" has_file; then
	# The burst, then the load fills the pipe's 64kB in well under 2 s
	# (a line every 1ms).
	sleep 3
	kill -TERM "$(cat "$WORK/w.pid")"
fi
stalled_end "SIGTERM, a stalled reader" 143 SIGTERM

# --- Heap use does not grow with the run: 80 intervals and some 400
# operations more make no more allocations, but for the few that reading
# the mount table takes more or less as other mounts come and go.
allocs() {
	valgrind --error-exitcode=99 --leak-check=full "$SYNCPROBE" watch $FIXED \
	    --rate 500 --for "$1" --interval 10ms -F json "$dir" >/dev/null 2>"$WORK/vg" &&
	    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$WORK/vg" | tr -d ,
}
if ! command -v valgrind >/dev/null 2>&1 || grep -q __asan_init "$SYNCPROBE" 2>/dev/null ||
    grep -q ld-musl "$SYNCPROBE" 2>/dev/null || ! valgrind -q true >/dev/null 2>&1; then
	tap_skip "valgrind: heap use does not grow with the run" "valgrind cannot check this build"
else
	short=$(allocs 200ms || echo failed)
	long=$(allocs 1s || echo failed)
	case $short$long in
	*[!0-9]* | '') more=failed ;;
	*) more=$((long - short)) ;;
	esac
	if [ "$more" != failed ] && [ "$more" -lt 16 ]; then
		tap_ok "valgrind: $short allocations for 20 intervals, $long for 100, no leak"
	else
		tap_fail "valgrind: heap use does not grow with the run" \
		    "20 intervals: $short allocations; 100: $long$nl$(tail -5 "$WORK/vg")"
	fi
	leaves_nothing "valgrind"
fi
tap_done
