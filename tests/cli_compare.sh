#!/bin/sh
# cli_compare.sh: syncprobe compare reads saved JSON reports and prints them side by
# side: each run's ops/sec and mean, the ratio to the first run, flagged
# only where the rounds of the two runs do not overlap, and each run's
# advice and warnings; in 80 columns, touching no disk. A report of another
# schema version, or one that is not strict JSON or not a syncprobe
# report, is refused with one clear line and exit status 2.
. "$top_srcdir/tests/lib.sh"
tap_require jq

dir=$WORK/target
mkdir "$dir"
a=$WORK/a.json
b=$WORK/b.json

"$SYNCPROBE" -F json $FAST --rounds 2 -t one,two -m fdatasync,fsync,fsync_writethrough \
    --direct=off --label "before" "$dir" >"$a"
"$SYNCPROBE" -F json $FAST --rounds 2 -t one,two -m fdatasync,fsync,fsync_writethrough \
    --direct=off "$dir" >"$b"

run compare "$a" "$b"
tap_is "$rc" 0 "compare a.json b.json exits 0"
tap_is "$(cat "$WORK/err")" "" "compare: nothing on stderr"
tap_check "compare: run 1 is named by its label" grep -q "^run 1: before$" "$WORK/out"
tap_check "compare: run 2, unlabelled, by host:path" grep -q "^run 2: $(uname -n):$dir$" "$WORK/out"
tap_check "compare: its file, host and time" \
    grep -q "^  $b: $(uname -n), 20[0-9-]*T[0-9:]*Z, syncprobe " "$WORK/out"
tap_check "compare: each group's title" grep -q '^Compare file sync methods using two 8kB writes$' "$WORK/out"
tap_check "compare: ops/sec, mean and a ratio for the second run" \
    grep -q '^ *ops/sec *mean *ops/sec *mean *ratio$' "$WORK/out"
tap_check "compare: a row with both runs' figures and a ratio" \
    grep -Eq '^fdatasync +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x[ *]?$' "$WORK/out"
tap_check "compare: n/a with a footnote, the reason below" \
    grep -q '^fsync_writethrough  *n/a \[1\]  *n/a \[1\]$' "$WORK/out"
tap_check "compare: the advice of each run" grep -q "^  run 2: wal_sync_method = '" "$WORK/out"
tap_is "$(awk 'length > 79' "$WORK/out")" "" "compare: no line over 79 columns"

# The flag: rounds that do not overlap are a difference; rounds that do
# are noise, whatever the ratio.
jq '(.targets[0].tests[] | select(.group == "one" and .name == "fdatasync")) |=
	(.ops_per_sec = 110 | .usecs.mean = 9090.909
	 | .slices = [{"ops": 7, "ops_per_sec": 100}, {"ops": 7, "ops_per_sec": 120},
	     {"ops": 6, "ops_per_sec": 110}])
    | (.targets[0].tests[] | select(.group == "one" and .name == "fsync")) |=
	(.ops_per_sec = 110 | .usecs.mean = 9090.909
	 | .slices = [{"ops": 7, "ops_per_sec": 100}, {"ops": 7, "ops_per_sec": 120},
	     {"ops": 6, "ops_per_sec": 110}])
    | (.targets[0].tests[] | select(.group == "two" and .name == "fsync")) |=
	(.ops_per_sec = 110 | .usecs.mean = 9090.909
	 | .slices = [{"ops": 10, "ops_per_sec": 100}, {"ops": 10, "ops_per_sec": 120}])' \
    "$a" >"$WORK/a2.json"
jq '(.targets[0].tests[] | select(.group == "one" and .name == "fdatasync")) |=
	(.ops_per_sec = 220 | .usecs.mean = 4545.455
	 | .slices = [{"ops": 7, "ops_per_sec": 200}, {"ops": 7, "ops_per_sec": 240},
	     {"ops": 6, "ops_per_sec": 220}])
    | (.targets[0].tests[] | select(.group == "one" and .name == "fsync")) |=
	(.ops_per_sec = 165 | .usecs.mean = 6060.606
	 | .slices = [{"ops": 7, "ops_per_sec": 90}, {"ops": 7, "ops_per_sec": 240},
	     {"ops": 6, "ops_per_sec": 165}])
    | (.targets[0].tests[] | select(.group == "two" and .name == "fsync")) |=
	(.ops_per_sec = 220 | .usecs.mean = 4545.455
	 | .slices = [{"ops": 10, "ops_per_sec": 200}, {"ops": 10, "ops_per_sec": 240}])' \
    "$b" >"$WORK/b2.json"
run compare "$WORK/a2.json" "$WORK/b2.json"
one=$(awk '/^Compare file sync methods using one/ { s = 1 } s && /^$/ { exit } s' "$WORK/out")
tap_check "compare: twice as fast, rounds apart: 2.00x, flagged" \
    sh -c 'printf "%s\n" "$1" | grep -q "^fdatasync  *110.0  *9090.9  *220.0  *4545.5  *2.00x\*$"' - "$one"
tap_check "compare: 1.50x with overlapping rounds: not flagged" \
    sh -c 'printf "%s\n" "$1" | grep -q "^fsync  *110.0  *9090.9  *165.0  *6060.6  *1.50x$"' - "$one"
two=$(awk '/^Compare file sync methods using two/ { s = 1 } s && /^$/ { exit } s' "$WORK/out")
tap_check "compare: two rounds each say nothing, however apart: not flagged" \
    sh -c 'printf "%s\n" "$1" | grep -q "^fsync  *110.0  *9090.9  *220.0  *4545.5  *2.00x$"' - "$two"

# Three runs: the third in a block of its own, under the first two.
run compare "$a" "$b" "$a"
tap_is "$rc" 0 "compare with three runs exits 0"
tap_check "compare: the third run in a block under the first two" \
    grep -q '^  *run 3$' "$WORK/out"
tap_is "$(awk 'length > 79' "$WORK/out")" "" "compare with three runs: no line over 79 columns"

# as_version V FILE: FILE's report as schema V (1 or 2) had it: the
# advised delay was commit_delay before schema 3 named it commit_delay_usecs.
as_version() {
	jq --argjson v "$1" '.schema_version = $v | .targets[].advice
	    |= (.commit_delay = .commit_delay_usecs | del(.commit_delay_usecs))' "$2"
}

# A report without the keys added after schema 1 began still reads.
as_version 1 "$a" | jq 'del(.label, .host, .kernel, .started_at, .duration_secs, .interrupted)
    | del(.targets[].tests[].histogram)' >"$WORK/old.json"
run compare "$WORK/old.json" "$b"
tap_is "$rc" 0 "compare reads a schema 1 report from before labels and histograms"
tap_check "compare: such a run is named by its file" grep -q "^run 1: $WORK/old.json$" "$WORK/out"

# Reports of schema 1 (before settings could be null) and 2 (before the
# delay was commit_delay_usecs) read beside one of 3, each with its delay.
as_version 1 "$a" >"$WORK/v1.json"
as_version 2 "$a" >"$WORK/v2.json"
run compare "$WORK/v1.json" "$WORK/v2.json" "$b"
tap_is "$rc" 0 "compare reads schema 1 and 2 reports beside a schema 3 one"
# (The legend line may wrap: read it joined.)
tr '\n' ' ' <"$WORK/out" | tr -s ' ' >"$WORK/joined"
tap_check "compare: the schema 1 run's block size" \
    grep -q " $WORK/v1.json: [^ ]* [^ ]* syncprobe [^,]*, 8kB writes, 2 rounds " "$WORK/joined"
delay_a=$(jq '.targets[0].advice.commit_delay_usecs' "$a")
delay_b=$(jq '.targets[0].advice.commit_delay_usecs' "$b")
tap_is "$(grep -o '^  run [123]: .*commit_delay = [0-9]*' "$WORK/out" | sed 's/.*= //' | tr '\n' ' ')" \
    "$delay_a $delay_a $delay_b " \
    "compare: each run's commit_delay, read from schema 1's and 2's commit_delay and 3's commit_delay_usecs"

# An interrupted run says so.
jq '.interrupted = true' "$b" >"$WORK/int.json"
run compare "$a" "$WORK/int.json"
tap_check "compare: an interrupted run says so" grep -q "^run 2: .* (interrupted)$" "$WORK/out"

# What is refused: one line, exit 2, nothing on stdout.
jq '.schema_version = 4' "$b" >"$WORK/c.json"
refused_exactly "syncprobe: $WORK/c.json: schema_version 4, and this syncprobe reads versions 1 to 3 (compare such reports with the syncprobe that wrote them)" \
    "$dir" compare "$a" "$b" "$WORK/c.json"
printf '{"schema_version": 1,}' >"$WORK/comma.json"
refused_exactly "syncprobe: $WORK/comma.json: line 1, column 22: expected a key in double quotes, found '}'" \
    "$dir" compare "$a" "$WORK/comma.json"
printf 'syncprobe 0.1\n' >"$WORK/text.txt"
refused "compare: a text report is refused" "$WORK/text.txt" "$dir" compare "$a" "$WORK/text.txt"
printf '[1, 2]' >"$WORK/array.json"
refused_exactly "syncprobe: $WORK/array.json: not a syncprobe JSON report (no schema_version; write one with syncprobe -F json)" \
    "$dir" compare "$WORK/array.json"
jq 'del(.targets[0].tests[1].name)' "$a" >"$WORK/noname.json"
refused_exactly "syncprobe: $WORK/noname.json: targets[0].tests[1].name: missing" \
    "$dir" compare "$a" "$WORK/noname.json"
jq '.targets[0].tests[0].ops_per_sec = "fast"' "$a" >"$WORK/type.json"
refused_exactly "syncprobe: $WORK/type.json: targets[0].tests[0].ops_per_sec: is a string, not a number" \
    "$dir" compare "$WORK/type.json"
refused "compare: a file that does not exist" "$WORK/nope.json" "$dir" compare "$WORK/nope.json"
refused "compare: a directory" "$dir" "$dir" compare "$dir"
refused_exactly "syncprobe: compare: needs the saved reports to read (written by syncprobe -F json)" \
    "$dir" compare
refused_exactly "syncprobe: --secs-per-test: not an option of syncprobe compare (only of syncprobe)" \
    "$dir" compare -s 1 "$a" "$b"
refused_exactly "syncprobe: --format 'json': unknown value (choose text, svg)" \
    "$dir" compare -F json "$a"
refused_exactly "syncprobe: --quiet: not an option of syncprobe compare (only of syncprobe, syncprobe durability write, syncprobe pgbench)" \
    "$dir" compare -q "$a"
run compare "$a"
tap_is "$rc" 0 "compare takes one report"

# The old spelling names the command that replaced it.
refused_exactly "syncprobe: --compare: is now a command: syncprobe compare [OPTION]... REPORT.json..." \
    "$dir" --compare "$a" "$b"
refused_exactly "syncprobe: --compare: is now a command: syncprobe compare [OPTION]... REPORT.json..." \
    "$dir" -F json --compare "$a"
# A directory named like a command is probed as ./compare.
mkdir "$WORK/compare"
run $FAST -t one -m fdatasync --direct=off "$WORK/compare"
tap_is "$rc" 0 "a directory named compare is probed by its path"
(cd "$WORK" && "$SYNCPROBE" $FAST -t one -m fdatasync --direct=off ./compare \
    >"$WORK/out" 2>"$WORK/err") && rc=0 || rc=$?
tap_is "$rc" 0 "./compare is probed, not the command"

# No disk is touched: the reports are only read.
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	strace -f -e trace=open,openat,creat,mkdir,unlink,unlinkat,rename -o "$WORK/trace" \
	    "$SYNCPROBE" compare "$a" "$b" >/dev/null 2>&1 || :
	writes=$(grep -E 'O_WRONLY|O_RDWR|O_CREAT|creat\(|mkdir|unlink|rename' "$WORK/trace" || :)
	tap_is "$writes" "" "compare opens nothing for writing, creates and removes nothing"
else
	tap_skip "compare opens nothing for writing, creates and removes nothing" "strace does not work here"
fi

tap_done
