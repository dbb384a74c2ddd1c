#!/bin/sh
# cli_json.sh: -F json is one valid document holding every row, checked by
# parsing it with jq, and -F conf is settings plus comments only.
. "$top_srcdir/tests/lib.sh"
tap_require jq

dir=$WORK/target
mkdir "$dir"
json=$WORK/out.json

# one_document FILE: exactly one JSON document in FILE, nothing else.
one_document() {
	[ "$(jq -s length "$1" 2>/dev/null)" = 1 ]
}

rc=0
"$SYNCPROBE" -F json $FAST "$dir" >"$json" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "-F json exits 0"
tap_check "stdout is exactly one JSON document" one_document "$json"
tap_check "no test file left" no_testfile "$dir"
schema_valid "-F json of the default groups" report "$json"

jq_checks "$json" <<'CHECKS'
schema_version is 3 and numbers are numbers | .schema_version == 3
	and .settings.ops_per_test == 20 and .settings.block_bytes == 8192
29 rows: 11 one (one paced), 10 two, 5 sizes, 2 descriptor, 1 nosync | [.targets[0].tests[].group]
	| length == 29 and (group_by(.) | map({(.[0]): length}) | add)
	    == {"one": 11, "two": 10, "sizes": 5, "descriptor": 2, "nosync": 1}
the paced row: the default method, 100 a second, no candidate for the advice | [.targets[0].tests[]
	| select(.pace_per_sec != null)] | length == 1 and .[0].group == "one"
	and .[0].pace_per_sec == 100 and .[0].method == null and .[0].missed_starts >= 0
	and (.[0].name | startswith("fdatasync, 100/s paced"))
the paced row ran no faster than its rate: n operations take n periods | [.targets[0].tests[]
	| select(.pace_per_sec != null)] | .[0].ops_per_sec <= .[0].pace_per_sec
commit_delay is half the basis mean, rounded | .targets[0].advice
	| .commit_delay_usecs == ((.basis.mean_usecs / 2) | round)
the basis is the advised method's one-write row | .targets[0].advice
	| .basis.method == .wal_sync_method and .basis.group == "one"
the basis mean is that row's mean | .targets[0] as $t
	| [$t.tests[] | select(.group == "one" and .name == $t.advice.basis.name) | .usecs.mean]
	    == [$t.advice.basis.mean_usecs]
every ok row has seven ordered latency figures | all(.targets[0].tests[] | select(.status == "ok");
	.ops == 20 and (.usecs | .min <= .p50 and .p50 <= .p90 and .p90 <= .p99
	    and .p99 <= .p999 and .p999 <= .max and .mean >= .min and .mean <= .max))
write-then-sync rows split their time; open_* rows do not | all(.targets[0].tests[]
	| select(.status == "ok" and .group == "one" and .pace_per_sec == null);
	if .method == "fdatasync" or .method == "fsync"
	then (.write_usecs.mean + .sync_usecs.mean - .usecs.mean | fabs) < 0.01
	else .sync_usecs == null end)
unsupported rows keep their place with ops 0, null figures and a reason | all(.targets[0].tests[]
	| select(.status == "unsupported");
	.ops == 0 and .usecs == null and .ops_per_sec == null and (.reason | length) > 0)
the run is labelled host:path, with its host, kernel, start and length | .host != ""
	and .label == .host + ":" + .targets[0].path
	and .kernel == .system.os + " " + .system.release
	and (.started_at | test("^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$"))
	and .duration_secs > 0 and .interrupted == false
every row's histogram sums to its ops, in rising buckets up to its max | all(.targets[0].tests[];
	([.histogram[].count] | add // 0) == .ops
	and ([.histogram[].le_usecs] | . == sort)
	and (.ops == 0 or (.histogram[-1].le_usecs >= .usecs.max - 0.001
	    and .histogram[0].le_usecs >= .usecs.min)))
CHECKS

"$SYNCPROBE" -F json $ONE --label 'disk "A"' "$dir" >"$json"
jq_checks "$json" <<'CHECKS'
--label names the run | .label == "disk \"A\""
CHECKS

# Slices: one object per round a row ran. With 2 operations in 5 rounds,
# only the first two rounds run: two slices of one operation each.
rc=0
"$SYNCPROBE" -F json -q -n 2 --rounds 5 --file-size 64k -t one -m fdatasync,fsync \
    --direct=off "$dir" >"$json" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "-n 2 --rounds 5 exits 0"
jq_checks "$json" <<'CHECKS'
-n 2 --rounds 5: two slices a row, each of one operation | all(.targets[0].tests[];
	.slices | length == 2 and all(.ops == 1 and .ops_per_sec > 0))
CHECKS

# A path with a quote, a backslash, a newline and a byte that is not UTF-8.
weird=$(printf '%s/q"b\\\\n\nl\377x' "$WORK")
mkdir "$weird"
rc=0
"$SYNCPROBE" -F json -q -n 5 --file-size 64k -t one -m fsync --direct=off "$weird" >"$json" || rc=$?
tap_is "$rc" 0 "-F json on a strange path exits 0"
tap_check "strange path: valid JSON" one_document "$json"
jq_checks "$json" <<'CHECKS'
strange path: quote, backslash and newline kept, 0xff as U+FFFD | .targets[0].path
	| endswith("/q\"b\\\\n\nl\ufffdx")
CHECKS
# jq reads a raw invalid byte as U+FFFD too: look at the bytes themselves.
tap_check "strange path: 0xff written as the escape \\ufffd, not raw" \
	grep -qF 'l\ufffdx"' "$json"
tap_check "strange path: nothing left" no_testfile "$weird"

# -F conf: only settings and comments; the delay is half the figure it quotes.
conf=$WORK/out.conf
"$SYNCPROBE" -F conf $FAST -t one "$weird" >"$conf"
settings=$(grep -v '^#' "$conf" | grep -v '^$')
tap_is "$(printf '%s\n' "$settings" | sed 's/ = .*//' | tr '\n' ' ')" "wal_sync_method " \
	"-F conf: exactly wal_sync_method is set (a newline in the path stays in a comment)"
tap_check "-F conf: a setting line is a name and a value, its comment above it" \
	sh -c "grep -qx \"wal_sync_method = '[a-z_]*'\" '$conf' &&
	    grep -B1 -x \"wal_sync_method = '[a-z_]*'\" '$conf' | grep -q '^# wal_sync_method: measured here: '"
half=$(sed -n 's/^# commit_delay: the half rule, untested: half of the \([0-9.]*\) us .*/\1/p' "$conf")
delay=$(sed -n 's/^#commit_delay = \([0-9]*\)$/\1/p' "$conf")
want=$(awk -v m="$half" 'BEGIN { h = m / 2; printf "%d", (h - int(h) >= 0.5) ? int(h) + 1 : int(h) }')
tap_is "$delay" "$want" "-F conf: the rule's commit_delay, commented out, is half the quoted flush interval ($half us)"
tap_check "-F conf: commit_siblings mentioned, commented" grep -q '^#commit_siblings = 5' "$conf"

# -F conf is read on a terminal too: an escape sequence in the path is
# written as the text report writes it (\033), never as the byte.
esc=$(printf '%s/x\033[31mred\nline' "$WORK")
mkdir "$esc"
"$SYNCPROBE" -F conf $FAST -t one "$esc" >"$conf"
tap_check "-F conf: no raw escape byte from the path" \
	sh -c '! LC_ALL=C grep -q "$(printf "\033")" "$1"' sh "$conf"
tap_check "-F conf: the path escaped as the text report escapes it" \
	grep -qF '/x\033[31mred\nline' "$conf"
"$SYNCPROBE" -F openmetrics $FAST -t one "$esc" >"$WORK/out.prom"
tap_check "-F openmetrics: no raw escape byte from the path" \
	sh -c '! LC_ALL=C grep -q "$(printf "\033")" "$1"' sh "$WORK/out.prom"

rc=0
"$SYNCPROBE" -F conf $FAST "$dir" "$weird" >"$WORK/out" 2>"$WORK/err" || rc=$?
tap_is "$rc:$(cat "$WORK/err")" "2:syncprobe: --format=conf: gives one server's settings (name one TARGET)" \
	"-F conf with two targets is refused"

tap_done
