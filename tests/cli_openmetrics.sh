#!/bin/sh
# cli_openmetrics.sh: -F openmetrics is Prometheus text exposition that
# node_exporter's textfile collector takes: promtool check metrics accepts
# it (skipped where promtool is missing), even for a path with a quote, a
# backslash, a newline and a byte that is not UTF-8; every family has its
# HELP and TYPE before its samples, no series repeats (not even for a
# target given twice: each carries its target_index), and no sample
# carries a timestamp. cli_node_exporter.sh feeds it to node_exporter.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
prom=$WORK/out.prom

rc=0
"$SYNCPROBE" -F openmetrics $FAST -t one,two -m fdatasync,fsync_writethrough "$dir" \
    >"$prom" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "-F openmetrics exits 0"
tap_check "no test file left" no_testfile "$dir"

# series FILE: each sample's name and labels (what must not repeat).
series() {
	grep -v '^#' "$1" | sed 's/ [^ ]*$//'
}

# layout_problems FILE: samples whose family has no TYPE before them, a
# family typed twice, samples with a timestamp, a "# EOF" line.
layout_problems() {
	awk '
		/^# TYPE / { if (typed[$3]++) print "typed twice: " $3; next }
		/^# EOF/ { print "an OpenMetrics # EOF line"; next }
		/^#/ { next }
		{
			name = $0
			sub(/[{ ].*/, "", name)
			base = name
			sub(/_(sum|count)$/, "", base)
			if (!typed[name] && !typed[base]) print "no TYPE before: " name
			rest = $0
			sub(/^[^{ ]*({[^}]*})? /, "", rest)
			if (rest ~ / /) print "a timestamp: " $0
		}' "$1"
}

tap_is "$(layout_problems "$prom")" "" "each family typed once, before its samples; no timestamps"
tap_is "$(series "$prom" | sort | uniq -d)" "" "no series repeats"
tap_check "ops/sec of each row that ran, with its labels" grep -q \
    '^syncprobe_ops_per_second{target=".*",target_index="1",group="one",test="fdatasync",method="fdatasync",direct="false"} [0-9.e+-]*$' "$prom"
tap_is "$(grep -c '^syncprobe_ops_per_second{' "$prom")" 5 \
    "a rate for the 5 rows that ran (fsync_writethrough has none here; one is paced)"
tap_check "latency quantiles as a summary in seconds" grep -q \
    '^syncprobe_latency_seconds{.*,quantile="0.99"} [0-9.e+-]*$' "$prom"
tap_check "the advised method" grep -q '^syncprobe_advice_wal_sync_method{target=".*",target_index="1",method="fdatasync"} 1$' "$prom"
tap_check "the advised commit_delay, in seconds" grep -q '^syncprobe_advice_commit_delay_seconds{target=".*",target_index="1"} [0-9.e+-]*$' "$prom"
tap_check "the few_samples warning, by its code" grep -q '^syncprobe_warning{target=".*",target_index="1",code="few_samples"} 1$' "$prom"
tap_check "the run's start as a metric" grep -q '^syncprobe_run_timestamp_seconds [0-9]*$' "$prom"

# A strange path, and the same target twice.
weird=$(printf '%s/q"b\\\\n\nl\377x' "$WORK")
mkdir "$weird"
"$SYNCPROBE" -F openmetrics $ONE "$weird" "$weird" >"$WORK/weird.prom"
tap_check "a strange path: quote, backslash and newline escaped, the bad byte U+FFFD" \
    grep -q "^syncprobe_ops_per_second{target=\"$WORK/q\\\\\"b\\\\\\\\\\\\\\\\n\\\\nl$(printf '\357\277\275')x\"," \
    "$WORK/weird.prom"
tap_check "the same path twice: the second has target_index 2" \
    grep -q '^syncprobe_ops_per_second{target=".*x",target_index="2",' "$WORK/weird.prom"
tap_is "$(series "$WORK/weird.prom" | sort | uniq -d)" "" "the same path twice: no series repeats"

if command -v promtool >/dev/null 2>&1; then
	for f in "$prom" "$WORK/weird.prom"; do
		out=$(promtool check metrics <"$f" 2>&1) && rc=0 || rc=$?
		tap_is "$rc:$out" "0:" "promtool check metrics accepts $(basename "$f")"
	done
else
	tap_skip "promtool check metrics accepts out.prom" "promtool is not installed (Debian: prometheus)"
	tap_skip "promtool check metrics accepts weird.prom" "as above"
fi

refused "--histogram with -F openmetrics is refused" "--histogram" "$dir" \
    -F openmetrics --histogram $ONE "$dir"

tap_done
