#!/bin/sh
# cli_watch.sh: syncprobe watch through the real binary, without a timing
# assertion: the interval lines a --for and an --interval make, a summary
# whose counts are the sum of the intervals', JSON Lines that jq reads line
# by line, stalls made by the fault shim (a slow sync now and then) each
# reported once and never followed by a burst, SIGINT printing the
# summary and removing the file, --svg's picture written at the end (an
# interrupted run's too) and never over a file or through a link, and heap
# use that does not grow with the length of a run (valgrind's count of
# allocations).
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

# interval_lines: the interval lines of the text in $WORK/out, each
# starting with its time (HH:MM:SS), then the seconds and operations.
interval_lines() {
	awk '/^ *time  *secs  *ops/ { on = 1; next } on && /^$/ { on = 0 }
	    on && /^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] +[0-9.]+ +[0-9]+ /' "$WORK/out"
}

# --- Text: 4 interval lines of 250ms in 1s, the summary and the plot.
run watch $FIXED --rate 100 --for 1 --interval 250ms "$dir"
tap_is "$rc" 0 "watch --for 1 --interval 250ms: exit 0 ($(cat "$WORK/err"))"
lines=$(interval_lines)
tap_is "$(printf '%s\n' "$lines" | grep -c .)" 4 "four interval lines, each starting with its time"
tap_is "$(printf '%s\n' "$lines" | awk '{ print $2 }' | tr '\n' ' ')" "0.25 0.50 0.75 1.00 " \
    "each line at the end of its interval"
tap_check "the header says when it started, in UTC" \
    grep -Eq '^started [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z; times UTC$' \
    "$WORK/out"
sum=$(printf '%s\n' "$lines" | awk '{ s += $3 } END { print s }')
ops=$(sed -n 's/^summary: [0-9.]* s paced, \([0-9]*\) operations.*/\1/p' "$WORK/out")
tap_is "$ops" "$sum" "the summary's operations are the sum of the intervals' ($sum)"
tap_check "the summary has the paced and the back-to-back rows" \
    grep -q '^back to back  *[0-9]' "$WORK/out"
tap_check "the summary names the worst interval" grep -q '^worst interval: ' "$WORK/out"
tap_check "the plot is drawn, with its legend" grep -q '^ *\* p99  + max' "$WORK/out"
tap_is "$(awk 'length > 80' "$WORK/out")" "" "every line fits 80 columns"
leaves_nothing "text"

# --- JSON Lines: each line a document; counts that add up.
before=$(date -u +%s)
run watch $FIXED --rate 200 --for 1 --interval 200ms -F json "$dir"
after=$(date -u +%s)
tap_is "$rc" 0 "-F json: exit 0 ($(cat "$WORK/err"))"
schema_valid "-F json: every line" watch "$WORK/out" --lines
# Stamps, without knowing the time of day: each object's time is ISO 8601
# UTC to the millisecond, none earlier than the one before it, and all
# between the wall clock before the run and after it.
tap_check "every object has a time, ISO 8601 UTC to the millisecond" jq_true -s '
    all(.[]; .time | type == "string" and
    test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"))' "$WORK/out"
tap_check "the times never go back, line after line" jq_true -s '
    [.[].time] as $t | [range(1; $t | length) | $t[. - 1] <= $t[.]] | all' "$WORK/out"
tap_check "every time is between the wall clock before the run and after it" jq_true -s \
    --argjson before "$before" --argjson after "$after" '
    all(.[]; .time | sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601 |
    . >= $before and . <= $after)' "$WORK/out"
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

# --- On a terminal, something shows before the first interval's line: a
# status line on standard error while the interval fills (here an hour,
# cut short after a second), erased before anything else is printed.
if command -v script >/dev/null 2>&1 && script -qfec true /dev/null >/dev/null 2>&1; then
	script -qfec "'$SYNCPROBE' watch $FIXED --for 1 --interval 3600s '$dir'" "$WORK/ts" \
	    >/dev/null 2>&1 || :
	status=$(tr '\r' '\n' <"$WORK/ts" | sed -n 's/^\x1b\[K//p' |
	    grep -c '^[0-9:]* interval 1: [0-9]* operations*.*; its line at [0-9:]* UTC$' || :)
	if [ "$status" -gt 0 ]; then
		tap_ok "a terminal: a status line ($status draws) before the interval's line"
	else
		tap_fail "a terminal: a status line before the interval's line" "$(cat -v "$WORK/ts")"
	fi
	tap_is "$(tr -d '\r' <"$WORK/ts" | sed 's/.*\x1b\[K//' | grep ' interval 1: ' || :)" "" \
	    "a terminal: no status line left on the screen"
else
	tap_skip "a terminal: a status line before the interval's line" "no script(1) with -qfec"
	tap_skip "a terminal: no status line left on the screen" "no script(1) with -qfec"
fi
leaves_nothing "a terminal"

# --- The method holds still: with no -m, the server's default in every
# run (fdatasync on Linux), said to be that; -m's, said to be -m's.
methods=
for i in 1 2 3 4 5; do
	run watch --file-size 64k --for 100ms --interval 100ms -F json "$dir"
	methods="$methods$(jq -r 'select(.type == "start") | "\(.method)/\(.method_source)"' \
	    "$WORK/out") "
done
first=${methods%% *}
tap_is "$methods" "$first $first $first $first $first " "no -m: the same method in five runs"
if [ "$(uname -s)" = Linux ]; then
	tap_is "$first" fdatasync/server_default "no -m on Linux: fdatasync, PostgreSQL's default"
else
	tap_is "${first#*/}" server_default "no -m: the server's default"
fi
run watch -m fsync --file-size 64k --for 100ms --interval 100ms "$dir"
tap_check "-m: the header says the method is -m's" \
    grep -q '^commit: one 8kB write + fsync, overwrite (-m)$' "$WORK/out"
run watch --file-size 64k --rate 20 --for 100ms --interval 100ms "$dir"
header=$(sed '/^$/q' "$WORK/out" | tr '\n' ' ' | sed 's/  */ /g')
case $header in
*"commit: one 8kB write + "*", overwrite (PostgreSQL's default wal_sync_method here; -m for another)"*)
	tap_ok "no -m: the header says why the method" ;;
*) tap_fail "no -m: the header says why the method" "$header" ;;
esac
# What the load costs the disk, at its rate.
case $header in
*"adds 20 syncs and 160kB of writes a second to this disk"*)
	tap_ok "the header says the load added: 20 syncs and 160kB a second" ;;
*) tap_fail "the header says the load added: 20 syncs and 160kB a second" "$header" ;;
esac
leaves_nothing "the method"

# --- The last interval cut short by --for: labelled partial, with its
# real length; never the worst while a whole one ran operations.
run watch $FIXED --rate 100 --for 600ms --interval 250ms "$dir"
tap_is "$rc" 0 "--for 600ms --interval 250ms: exit 0 ($(cat "$WORK/err"))"
lines=$(interval_lines)
tap_is "$(printf '%s\n' "$lines" | awk '{ print $2 ($NF == "partial" ? "p" : "") }' | tr '\n' ' ')" \
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
    "grep -q '^syncprobe_watch_operations{target=\"$dir\",method=\"fdatasync\",rate=\"50\"} [0-9]' '$WORK/out' &&
     grep -q '^syncprobe_watch_latency_seconds_count{.*load=\"back_to_back\"} [0-9]' '$WORK/out'"
# promtool_check WHAT FILE: promtool check metrics passes FILE.
promtool_check() {
	if command -v promtool >/dev/null 2>&1; then
		tap_check "$1: promtool check metrics" sh -c \
		    "promtool check metrics <'$2' >'$WORK/lint' 2>&1"
	else
		tap_skip "$1: promtool check metrics" "promtool is not installed"
	fi
}
promtool_check "-F openmetrics" "$WORK/out"

# --- --textfile: live metrics for node_exporter's textfile collector. A
# FILE that is not NAME.prom, or a name already taken (a file, a link), is
# refused and left as it is.
tdir=$WORK/textfile
tf=$tdir/watch.prom
mkdir "$tdir"
hint="--textfile writes only a file of its own: remove it, or name another"
refused_exactly "syncprobe: --textfile 'watch.txt': must name a file NAME.prom (the only files node_exporter's textfile collector reads)" \
    "$dir" watch $FIXED --textfile=watch.txt "$dir"
refused_exactly "syncprobe: watch: --svg and --textfile name the same file (the live metrics, removed at the end, and the picture written then)" \
    "$dir" watch $FIXED --for 100ms --textfile="$tf" --svg="$tf" "$dir"
tap_check "--svg and --textfile the same file: nothing made there" test ! -e "$tf"
echo theirs >"$tf"
refused_exactly "syncprobe: $tf: already exists ($hint)" "$dir" \
    watch $FIXED --for 100ms --textfile="$tf" "$dir"
tap_is "$(cat "$tf")" theirs "--textfile: a file already there is left as it is"
rm "$tf"
echo "victim's" >"$WORK/victim"
ln -s "$WORK/victim" "$tf"
refused_exactly "syncprobe: $tf: already exists, a symbolic link ($hint)" "$dir" \
    watch $FIXED --for 100ms --textfile="$tf" "$dir"
tap_is "$(cat "$WORK/victim")" "victim's" "--textfile: a symbolic link is never followed"
rm "$tf"

# whole FILE: FILE is the whole text: it ends with a newline, has the last
# counter, and the histogram's +Inf bucket, its count and the operations
# counter agree.
whole() {
	[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] && awk '
	    /^syncprobe_watch_operation_seconds_bucket\{.*le="\+Inf"\}/ { inf = $NF }
	    /^syncprobe_watch_operation_seconds_count\{/ { count = $NF }
	    /^syncprobe_watch_operations_total\{/ { ops = $NF }
	    /^syncprobe_watch_stalls_total\{/ { stalls = 1 }
	    END { exit !(stalls && inf != "" && inf == count && count == ops) }' "$1"
}

# A run replacing the file 50 times a second, read 30 times in a loop
# meanwhile, then stopped: every read is whole, the counts only grow and
# each is the sum of the operations of the intervals so far (cumulative
# since the start), and nothing is left at the end.
"$SYNCPROBE" watch $FIXED --rate 500 --interval 20ms --for 604800 -F json \
    --textfile="$tf" "$dir" >"$WORK/out" 2>"$WORK/err" &
pid=$!
reads=0 torn=0 counts=
deadline=$(($(date +%s) + 30))
while [ "$reads" -lt 30 ] && [ "$(date +%s)" -lt "$deadline" ] && kill -0 "$pid" 2>/dev/null; do
	cp "$tf" "$WORK/snap" 2>/dev/null || continue
	reads=$((reads + 1))
	if whole "$WORK/snap"; then
		counts="$counts $(sed -n 's/^syncprobe_watch_operation_seconds_count{.*} //p' \
		    "$WORK/snap")"
		cp "$WORK/snap" "$WORK/whole"
	else
		torn=$((torn + 1))
		cp "$WORK/snap" "$WORK/torn"
	fi
done
kill -TERM "$pid" 2>/dev/null || :
rc=0
wait "$pid" || rc=$?
tap_is "$rc" 143 "--textfile: stopped by SIGTERM ($(cat "$WORK/err"))"
if [ "$torn" -eq 0 ] && [ "$reads" -eq 30 ]; then
	tap_ok "--textfile: every one of $reads reads while it ran was a whole file"
else
	tap_fail "--textfile: every read while it ran was a whole file" \
	    "$torn of $reads reads were not; one:$nl$(cat "$WORK/torn" 2>/dev/null)"
fi
sums=$(jq -s '[foreach (.[] | select(.type == "interval") | .ops) as $o (0; . + $o)] |
    [0] + . | map(tostring) | join(" ")' -r "$WORK/out")
bad=$(printf '%s\n' $counts | awk -v sums=" $sums " -v last=-1 '
    $1 < last || index(sums, " " $1 " ") == 0 { print } { last = $1 }')
tap_is "$bad" "" "--textfile: each count read is the operations of the intervals so far"
tap_check "--textfile: the JSON says where" jq_true -s --arg tf "$tf" \
    '.[0].type == "start" and .[0].textfile == $tf and .[-1].textfile == $tf' "$WORK/out"
tap_check "--textfile: the labels say the directory, method and rate" grep -q \
    "^syncprobe_watch_operations_total{target=\"$dir\",method=\"fdatasync\",rate=\"500\"} " \
    "$WORK/whole"
tap_check "--textfile: the last interval's p50, p99 and max" sh -c "
    grep -q '^syncprobe_watch_interval_p50_seconds{' '$WORK/whole' &&
    grep -q '^syncprobe_watch_interval_p99_seconds{' '$WORK/whole' &&
    grep -q '^syncprobe_watch_interval_max_seconds{' '$WORK/whole'"
promtool_check "--textfile" "$WORK/whole"
tap_is "$(ls -A "$tdir")" "" "--textfile: the file removed at the end, no copy left"
leaves_nothing "--textfile"

# Stopped by SIGTERM (the run's own way out) and by SIGUSR1 (the signal
# handler's: removed at once): the file goes either way.
for sig in TERM USR1; do
	"$SYNCPROBE" watch $FIXED --for 604800 --interval 50ms --textfile="$tf" "$dir" \
	    >/dev/null 2>"$WORK/err" &
	pid=$!
	textfile_there() { [ -e "$tf" ]; }
	if waiting "$pid" textfile_there; then
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		tap_is "$rc:$(ls -A "$tdir")" "$((128 + $(kill -l "$sig"))):" \
		    "--textfile: SIG$sig: dies of it, the file removed"
	else
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" || :
		tap_fail "--textfile: SIG$sig: the file never appeared" "$(cat "$WORK/err")"
	fi
	rm -f "$tdir"/* "$tdir"/.syncprobe.*
	leaves_nothing "--textfile, SIG$sig"
done

# Someone else's file put in its place while it runs: the run stops, exit
# 1, and their file is left as it is.
"$SYNCPROBE" watch $FIXED --for 604800 --interval 50ms --textfile="$tf" "$dir" \
    >/dev/null 2>"$WORK/err" &
pid=$!
if waiting "$pid" textfile_there; then
	echo theirs >"$WORK/theirs"
	mv -f "$WORK/theirs" "$tf"
	rc=0
	wait "$pid" || rc=$?
	tap_is "$rc:$(cat "$tf")" "1:theirs" "--textfile: replaced by someone: exit 1, theirs kept"
	tap_is "$(cat "$WORK/err")" "syncprobe: $tf: replaced by another file or a symbolic link while syncprobe ran (left as it is)" \
	    "--textfile: ... and it says so"
else
	kill -KILL "$pid" 2>/dev/null || :
	wait "$pid" || :
	tap_fail "--textfile: replaced: the file never appeared" "$(cat "$WORK/err")"
	tap_fail "--textfile: replaced: the message" "none"
fi
rm -f "$tf"
tap_is "$(ls -A "$tdir")" "" "--textfile: replaced: no copy left"
leaves_nothing "--textfile, replaced"

# An I/O error writing it (the third copy's fsync fails): the run stops
# with exit 1 and says why, the summary still printed, nothing left.
if preload_works; then
	rc=0
	env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT=fsync:EIO:3 SYNCPROBE_FAULT_PATH="$tdir" \
	    "$SYNCPROBE" watch $FIXED --for 604800 --interval 50ms -F json --textfile="$tf" \
	    "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	# (strerror's words are the C library's own.)
	tap_is "$rc:$(sed 's/\.syncprobe\.textfile\.[A-Za-z0-9]*/COPY/; s/: [^:]*$/: EIO/' \
	    "$WORK/err")" "1:syncprobe: fsync $tdir/COPY: EIO" \
	    "--textfile: an I/O error writing it: exit 1, and why"
	tap_check "--textfile: ... after the summary of what was measured" jq_true \
	    'select(.type == "summary") | .failed == true and .intervals >= 2' "$WORK/out"
	tap_is "$(ls -A "$tdir")" "" "--textfile: an I/O error: no file, no copy left"
	leaves_nothing "--textfile, an I/O error"
else
	for what in "exit 1" "the summary" "no file left" "nothing left"; do
		tap_skip "--textfile, an I/O error: $what" "the fault shim cannot be preloaded here"
	done
fi

# --- --svg: the picture of the run, written when it ends, the text going
# on as before. A name already taken (a file, a link, one leading nowhere)
# is refused before anything is measured and left as it is.
sdir=$WORK/svg
mkdir "$sdir"
run watch $FIXED --rate 100 --for 1 --interval 250ms --svg="$sdir/w.svg" "$dir"
tap_is "$rc $(cat "$WORK/err")" "0 " "--svg: exit 0, nothing on stderr"
picture_ok "--svg" "$sdir/w.svg"
drawn_in_colour "--svg" "$sdir/w.svg"
tap_is "$(interval_lines | grep -c .)" 4 "--svg: the text's four interval lines as before"
tap_check "--svg: the text's summary and plot as before" grep -q '^ *\* p99  + max' "$WORK/out"
tap_check "--svg: the caption names the target" grep -qF ">target: $dir<" "$sdir/w.svg"
tap_check "--svg: ... and the rate" grep -q '; 100 a second, a line every 250ms, ' "$sdir/w.svg"
leaves_nothing "--svg"
svg_hint="--svg writes only a file of its own: remove it, or name another"
echo theirs >"$sdir/t.svg"
refused_exactly "syncprobe: $sdir/t.svg: already exists ($svg_hint)" "$dir" \
    watch $FIXED --for 100ms --svg="$sdir/t.svg" "$dir"
tap_is "$(cat "$sdir/t.svg")" theirs "--svg: a file already there is left as it is"
echo "victim's" >"$WORK/victim"
ln -s "$WORK/victim" "$sdir/l.svg"
refused_exactly "syncprobe: $sdir/l.svg: already exists, a symbolic link ($svg_hint)" "$dir" \
    watch $FIXED --for 100ms --svg="$sdir/l.svg" "$dir"
tap_is "$(cat "$WORK/victim")" "victim's" "--svg: a symbolic link is never followed"
ln -s "$WORK/nowhere.svg" "$sdir/d.svg"
refused_exactly "syncprobe: $sdir/d.svg: already exists, a symbolic link ($svg_hint)" "$dir" \
    watch $FIXED --for 100ms --svg="$sdir/d.svg" "$dir"
tap_is "$(ls "$WORK/nowhere.svg" 2>&1 >/dev/null | grep -c .)" 1 \
    "--svg: nothing made where a dangling link leads"
refused "--svg in a directory that does not exist: exit 2, before measuring" --svg "$dir" \
    watch $FIXED --for 100ms --svg="$WORK/no/such/dir/w.svg" "$dir"
# A target whose path holds markup and quotes: text in the picture.
hostile="$WORK/<b>&\"'x"
mkdir "$hostile"
run watch $FIXED --for 200ms --interval 100ms --svg="$sdir/h.svg" "$hostile"
tap_is "$rc" 0 "--svg, a target named with markup and quotes: exit 0"
picture_ok "--svg, a target named with markup and quotes" "$sdir/h.svg"
tap_check "--svg: markup and quotes in the target escaped" \
    grep -qF ">target: $WORK/&lt;b&gt;&amp;&quot;&apos;x<" "$sdir/h.svg"
tap_is "$(grep -c '<b>' "$sdir/h.svg")" 0 "--svg: ... never markup"
rmdir "$hostile"
# An I/O error writing it (its fsync fails): exit 1 and why, after the
# summary; no half picture left.
if preload_works; then
	rc=0
	env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT=fsync:EIO:1 SYNCPROBE_FAULT_PATH="$sdir" \
	    "$SYNCPROBE" watch $FIXED --for 200ms --interval 100ms --svg="$sdir/e.svg" "$dir" \
	    >"$WORK/out" 2>"$WORK/err" || rc=$?
	tap_is "$rc:$(sed 's/: [^:]*$/: EIO/' "$WORK/err")" "1:syncprobe: fsync $sdir/e.svg: EIO" \
	    "--svg: an I/O error writing it: exit 1, and why"
	tap_check "--svg: ... after the summary" grep -q '^worst interval: ' "$WORK/out"
	tap_is "$(ls -A "$sdir" | tr '\n' ' ')" "d.svg h.svg l.svg t.svg w.svg " \
	    "--svg: an I/O error: no picture left"
	leaves_nothing "--svg, an I/O error"
else
	for what in "exit 1" "the summary" "no picture left" "nothing left"; do
		tap_skip "--svg, an I/O error: $what" "the fault shim cannot be preloaded here"
	done
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
	schema_valid "-F json with stalls: every line" watch "$WORK/out" --lines
	tap_is "$(jq 'select(.type == "summary") | .stalls' "$WORK/out")" "$delays" \
	    "the summary counts them"
	tap_is "$(jq -s '[.[] | select(.type == "interval") | .stalls] | add' "$WORK/out")" \
	    "$delays" "the intervals count them"
	tap_check "stalls and intervals: the times never go back" jq_true -s '
	    [.[].time] as $t | [range(1; $t | length) | $t[. - 1] <= $t[.]] | all' "$WORK/out"
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
	tap_is "$(grep -Ec '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] stall \[stall\]: a commit took 1\.[0-9]* s, from ' \
	    "$WORK/out" || :)" "$(grep -c '^delay ' "$log" || :)" "text: a stall line for each slowed sync"
	leaves_nothing "stalls, text"
else
	for what in "exit 0" "the shim slowed syncs" "one stall line each" "the summary" "times" \
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
	$DEFAULT_SIGNALS "$SYNCPROBE" watch $FIXED --for 604800 --interval 100ms -F json \
	    --svg="$WORK/int.svg" "$dir" >"$WORK/out" 2>"$WORK/err" &
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
		picture_ok "SIGINT: --svg's picture" "$WORK/int.svg"
		tap_check "SIGINT: --svg's picture says so" grep -q ', stopped by SIGINT<' \
		    "$WORK/int.svg"
		leaves_nothing "SIGINT"
	else
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" || :
		rm -f "$dir"/.syncprobe.* "$WORK/int.svg"
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
