#!/bin/sh
# cli_json.sh: -F json is one valid document holding every row, checked by
# parsing (jq, else python3), and -F conf is settings plus comments only.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
json=$WORK/out.json

# JSON_PARSER=python3 forces the fallback, to test it where jq exists.
if [ -n "${JSON_PARSER:-}" ]; then
	parser=$JSON_PARSER
elif command -v jq >/dev/null 2>&1; then
	parser=jq
elif command -v python3 >/dev/null 2>&1; then
	parser=python3
else
	tap_skip "JSON checks" "neither jq nor python3 is installed"
	tap_done
	exit 0
fi

# jcheck DESC JQ_FILTER PY_EXPR: the document in $json satisfies the check;
# PY_EXPR sees the parsed document as d.
jcheck() {
	if [ "$parser" = jq ]; then
		if jq -e "$2" "$json" >/dev/null 2>&1; then tap_ok "$1"; else tap_fail "$1" "jq: $2"; fi
	else
		if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($3) else 1)" "$json"; then
			tap_ok "$1"
		else
			tap_fail "$1" "python: $3"
		fi
	fi
}

# exactly one document on stdout, nothing else
one_document() {
	if [ "$parser" = jq ]; then
		[ "$(jq -s length "$1" 2>/dev/null)" = 1 ]
	else
		python3 -m json.tool "$1" >/dev/null 2>&1
	fi
}

rc=0
"$SYNCPROBE" -F json $FAST "$dir" >"$json" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "-F json exits 0"
tap_check "stdout is exactly one JSON document" one_document "$json"
tap_check "no test file left" no_testfile "$dir"

jcheck "schema_version is 1 and numbers are numbers" \
	'.schema_version == 1 and (.settings.ops_per_test == 20) and (.settings.block_bytes == 8192)' \
	'd["schema_version"] == 1 and d["settings"]["ops_per_test"] == 20 and d["settings"]["block_bytes"] == 8192'
jcheck "28 rows: 10 one, 10 two, 5 sizes, 2 descriptor, 1 nosync" \
	'[.targets[0].tests[].group] | (length == 28) and (map(select(. == "one")) | length == 10) and (map(select(. == "sizes")) | length == 5)' \
	'len(d["targets"][0]["tests"]) == 28 and sum(t["group"] == "one" for t in d["targets"][0]["tests"]) == 10'
jcheck "commit_delay is half the basis mean, rounded" \
	'.targets[0].advice.commit_delay == ((.targets[0].advice.basis.mean_usecs / 2) | round)' \
	'd["targets"][0]["advice"]["commit_delay"] == int(d["targets"][0]["advice"]["basis"]["mean_usecs"] / 2 + 0.5)'
jcheck "the basis is the advised method's one-write row" \
	'.targets[0].advice as $a | $a.basis.method == $a.wal_sync_method and $a.basis.group == "one"' \
	'd["targets"][0]["advice"]["basis"]["method"] == d["targets"][0]["advice"]["wal_sync_method"]'
jcheck "the basis mean is that row's mean" \
	'.targets[0] as $t | ($t.tests[] | select(.group == "one" and .name == $t.advice.basis.name) | .usecs.mean) == $t.advice.basis.mean_usecs' \
	'[t["usecs"]["mean"] for t in d["targets"][0]["tests"] if t["group"] == "one" and t["name"] == d["targets"][0]["advice"]["basis"]["name"]] == [d["targets"][0]["advice"]["basis"]["mean_usecs"]]'
jcheck "every ok row has seven ordered latency figures" \
	'all(.targets[0].tests[] | select(.status == "ok"); .ops == 20 and (.usecs | .min <= .p50 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p999 and .p999 <= .max and .mean >= .min and .mean <= .max))' \
	'all(t["ops"] == 20 and t["usecs"]["min"] <= t["usecs"]["p50"] <= t["usecs"]["p90"] <= t["usecs"]["p99"] <= t["usecs"]["p999"] <= t["usecs"]["max"] for t in d["targets"][0]["tests"] if t["status"] == "ok")'
jcheck "write-then-sync rows split their time; open_* rows do not" \
	'all(.targets[0].tests[] | select(.status == "ok" and .group == "one"); if (.method == "fdatasync" or .method == "fsync") then (.write_usecs.mean + .sync_usecs.mean - .usecs.mean | fabs) < 0.01 else .sync_usecs == null end)' \
	'all((abs(t["write_usecs"]["mean"] + t["sync_usecs"]["mean"] - t["usecs"]["mean"]) < 0.01) if t["method"] in ("fdatasync", "fsync") else t["sync_usecs"] is None for t in d["targets"][0]["tests"] if t["status"] == "ok" and t["group"] == "one")'
jcheck "unsupported rows keep their place with ops 0, null figures and a reason" \
	'all(.targets[0].tests[] | select(.status == "unsupported"); .ops == 0 and .usecs == null and .ops_per_sec == null and (.reason | length) > 0)' \
	'all(t["ops"] == 0 and t["usecs"] is None and t["reason"] for t in d["targets"][0]["tests"] if t["status"] == "unsupported")'

# A path with a quote, a backslash, a newline and a byte that is not UTF-8.
weird=$(printf '%s/q"b\\\\n\nl\377x' "$WORK")
mkdir "$weird"
rc=0
"$SYNCPROBE" -F json -q -n 5 --file-size 64k -t one -m fsync --direct=off "$weird" >"$json" || rc=$?
tap_is "$rc" 0 "-F json on a strange path exits 0"
tap_check "strange path: valid JSON" one_document "$json"
jcheck "strange path: quote, backslash and newline kept, 0xff as U+FFFD" \
	'.targets[0].path | endswith("/q\"b\\\\n\nl\ufffdx")' \
	'd["targets"][0]["path"].endswith("/q\"b\\\\n\nl\ufffdx")'
tap_check "strange path: nothing left" no_testfile "$weird"

# -F conf: only settings and comments; the delay is half the figure it quotes.
conf=$WORK/out.conf
"$SYNCPROBE" -F conf $FAST -t one "$weird" >"$conf"
settings=$(grep -v '^#' "$conf" | grep -v '^$' | sed 's/[ 	]*#.*//')
tap_is "$(printf '%s\n' "$settings" | sed 's/ = .*//' | tr '\n' ' ')" "wal_sync_method commit_delay " \
	"-F conf: exactly wal_sync_method and commit_delay are set (a newline in the path stays in a comment)"
half=$(sed -n 's/^commit_delay = [0-9]*.*flush interval (\([0-9.]*\) us)$/\1/p' "$conf")
delay=$(sed -n 's/^commit_delay = \([0-9]*\).*/\1/p' "$conf")
want=$(awk -v m="$half" 'BEGIN { h = m / 2; printf "%d", (h - int(h) >= 0.5) ? int(h) + 1 : int(h) }')
tap_is "$delay" "$want" "-F conf: commit_delay is half the quoted flush interval ($half us)"
tap_check "-F conf: commit_siblings mentioned, commented" grep -q '^#commit_siblings = 5' "$conf"

rc=0
"$SYNCPROBE" -F conf $FAST "$dir" "$weird" >"$WORK/out" 2>"$WORK/err" || rc=$?
tap_is "$rc:$(cat "$WORK/err")" "2:syncprobe: --format=conf: gives one server's settings (name one TARGET)" \
	"-F conf with two targets is refused"

tap_done
