#!/bin/sh
# cli_compare_bounds.sh: compare reads reports from anywhere, so what they
# hold is bounded: all the reports of one compare together take at most
# 32 MiB and 2^20 JSON values (more is refused, naming the file that went
# over); a figure syncprobe cannot have written (commit_delay above
# 100000, rounds outside 1..1000, ops_per_sec above 1e9, a verdict's
# figure above 2^64 ns, a number out of a double's range) or a verdict
# not as written is refused naming the file and the key, exit 2; and a
# figure that is allowed but wide never runs into the next column.
. "$top_srcdir/tests/lib.sh"
tap_require jq

dir=$WORK/target
mkdir "$dir"
base=$WORK/base.json
"$SYNCPROBE" -F json $FAST --rounds 3 -t one -m fdatasync,fsync --direct=off "$dir" >"$base"

# ---- figures syncprobe cannot have written ----
bad() {
	jq "$2" "$base" >"$WORK/bad.json"
	refused_exactly "syncprobe: $WORK/bad.json: $3" "$dir" compare "$base" "$WORK/bad.json"
}
bad "commit_delay_usecs=1e300" '.targets[0].advice.commit_delay_usecs = 1e300' \
    "targets[0].advice.commit_delay_usecs: 1e+300 is out of range (syncprobe writes 0 to 100000)"
bad "commit_delay_usecs=100001" '.targets[0].advice.commit_delay_usecs = 100001' \
    "targets[0].advice.commit_delay_usecs: 100001 is out of range (syncprobe writes 0 to 100000)"
bad "a verdict's value_usecs=1e300" \
    '.targets[0].verdicts = [{"code": "etcd_sync_p99", "result": "pass", "value_usecs": 1e300}]' \
    "targets[0].verdicts[0].value_usecs: 1e+300 is out of range (syncprobe writes 0 to 1.84467e+13)"
bad "a verdict without its result" '.targets[0].verdicts = [{"code": "etcd_sync_p99", "value_usecs": 1}]' \
    "targets[0].verdicts[0].result: missing"
bad "verdicts not an array" '.targets[0].verdicts = {}' \
    "targets[0].verdicts: is an object, not an array"
bad "rounds=1e300" '.settings.rounds = 1e300' \
    "settings.rounds: 1e+300 is out of range (syncprobe writes 1 to 1000)"
bad "rounds=1001" '.settings.rounds = 1001' \
    "settings.rounds: 1001 is out of range (syncprobe writes 1 to 1000)"
bad "rounds=0" '.settings.rounds = 0' \
    "settings.rounds: 0 is out of range (syncprobe writes 1 to 1000)"
bad "block_bytes=1e300" '.settings.block_bytes = 1e300' \
    "settings.block_bytes: 1e+300 is out of range (syncprobe writes 1024 to 65536)"
bad "ops_per_sec=1e308" '.targets[0].tests[0].ops_per_sec = 1e308' \
    "targets[0].tests[0].ops_per_sec: 1e+308 is out of range (syncprobe writes 0 to 1e+09)"
bad "a slice's ops_per_sec=1e308" '.targets[0].tests[0].slices[1].ops_per_sec = 1e308' \
    "targets[0].tests[0].slices[1].ops_per_sec: 1e+308 is out of range (syncprobe writes 0 to 1e+09)"
# jq cannot write a number past a double's range: sed does.
sed '0,/"rounds": [0-9]*/s//"rounds": 1e999/' "$base" >"$WORK/inf.json"
run compare "$WORK/inf.json"
case $rc:$(cat "$WORK/err") in
"2:syncprobe: $WORK/inf.json: line "*", column "*": number out of range")
	tap_ok "a number past a double's range (1e999): refused, exit 2" ;;
*) tap_fail "a number past a double's range (1e999): refused, exit 2" "rc=$rc $(cat "$WORK/err")" ;;
esac

# ---- wide figures stay in their columns ----
jq '(.targets[0].tests[0]) |= (.ops_per_sec = 999999999 | .usecs.mean = 1e200)
    | (.targets[0].tests[1]) |= (.ops_per_sec = 0.001 | .usecs.mean = 99999999)' \
    "$base" >"$WORK/wide.json"
run compare "$base" "$WORK/wide.json"
tap_is "$rc" 0 "compare with wide figures exits 0"
# Every row of a table with figures: a name, then ops/sec and mean for each
# run and a ratio, each apart from the next.
rows=$(awk '/^Compare file sync methods using one/ { s = 1; next } s && /^$/ { exit } s' "$WORK/out" |
    grep -E '^(fdatasync|fsync) ')
tap_is "$(printf '%s\n' "$rows" | awk 'NF != 6 { print "fields run together: " $0 }')" "" \
    "no figure runs into the next column (6 fields a row: name, 2 x ops/sec and mean, ratio)"
tap_is "$(awk 'length > 79' "$WORK/out")" "" "no line over 79 columns"

# ---- the memory bound: all the reports together ----
# A report of 510,000 values (170,000 slices of 3): two fit in 2^20, three do not.
jq '.targets[0].tests[0].slices = [range(170000) | {"ops": 1, "ops_per_sec": 1}]' "$base" \
    >"$WORK/half.json"
cp "$WORK/half.json" "$WORK/half2.json"
cp "$WORK/half.json" "$WORK/half3.json"
run compare "$WORK/half.json" "$WORK/half2.json"
tap_is "$rc" 0 "two reports of 510,000 values: within the bound"
refused_exactly "syncprobe: $WORK/half3.json: the reports given take more than compare reads at once (32 MiB and 1048576 values in all, escaped strings included): compare fewer at a time" \
    "$dir" compare "$WORK/half.json" "$WORK/half2.json" "$WORK/half3.json"

# ...and 32 MiB of text: two reports padded with 17 MiB of blanks each.
{ cat "$base"; head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' ' '; } >"$WORK/wide1.json"
cp "$WORK/wide1.json" "$WORK/wide2.json"
run compare "$WORK/wide1.json"
tap_is "$rc" 0 "a report of 17 MiB: within the bound"
refused_exactly "syncprobe: $WORK/wide2.json: the reports given take more than compare reads at once (32 MiB and 1048576 values in all, escaped strings included): compare fewer at a time" \
    "$dir" compare "$WORK/wide1.json" "$WORK/wide2.json"

tap_done
