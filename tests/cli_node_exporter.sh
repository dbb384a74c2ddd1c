#!/bin/sh
# cli_node_exporter.sh: -F openmetrics read by its real consumer, the
# textfile collector of node_exporter (Debian: prometheus-node-exporter),
# which refuses a series it has seen before where promtool does not: the
# output of targets that share a path, or look alike ("d" twice and "d#2"),
# is put in a directory the collector reads, node_exporter is scraped once
# on 127.0.0.1, and every syncprobe series must be there with
# node_textfile_scrape_error 0. Then watch --textfile keeps its file there
# and node_exporter is scraped while it runs. node_exporter is killed
# afterwards whatever happens; the test is skipped without it or without
# curl.
. "$top_srcdir/tests/lib.sh"

NE=$(command -v prometheus-node-exporter || command -v node_exporter || :)
if [ -z "$NE" ]; then
	echo "1..0 # SKIP node_exporter is not installed (Debian: prometheus-node-exporter)"
	exit 0
fi
tap_require curl

ne_pid=
stop_exporter() {
	if [ -n "$ne_pid" ]; then
		kill "$ne_pid" 2>/dev/null || :
		wait "$ne_pid" 2>/dev/null || :
		ne_pid=
	fi
}
trap 'stop_exporter; cleanup_work' EXIT
trap 'stop_exporter; cleanup_work; exit 1' INT TERM HUP

mkdir "$WORK/d" "$WORK/d#2" "$WORK/textfile"
rc=0
"$SYNCPROBE" -F openmetrics $ONE "$WORK/d" "$WORK/d" "$WORK/d#2" \
    >"$WORK/textfile/syncprobe.prom" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "-F openmetrics of d, d and d#2 exits 0"

scrape() {
	curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" >"$WORK/scrape" 2>"$WORK/curl.err"
}

# start_exporter: node_exporter on a free port of 127.0.0.1 ($port): one
# picked at random, tried until it listens there (it exits when the port is
# taken).
start_exporter() {
started=
for try in 1 2 3 4 5 6 7 8; do
	port=$(awk -v s="$(($$ * 100 + try + ${1:-0}))" \
	    'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
	"$NE" --collector.disable-defaults --collector.textfile \
	    --collector.textfile.directory="$WORK/textfile" \
	    --web.listen-address="127.0.0.1:$port" >"$WORK/ne.log" 2>&1 &
	ne_pid=$!
	if waiting "$ne_pid" scrape; then
		started=yes
		break
	fi
	stop_exporter
done
if [ -z "$started" ]; then
	tap_fail "node_exporter serves /metrics on 127.0.0.1" "$(tail -5 "$WORK/ne.log")"
	tap_done
	exit 1
fi
}
start_exporter
stop_exporter
tap_ok "node_exporter served /metrics on 127.0.0.1:$port"

tap_check "node_textfile_scrape_error 0" grep -q '^node_textfile_scrape_error 0$' "$WORK/scrape"
# families FILE: how many samples of each syncprobe family FILE has.
families() {
	grep '^syncprobe_' "$1" | sed 's/[{ ].*//' | sort | uniq -c
}
tap_is "$(families "$WORK/scrape")" "$(families "$WORK/textfile/syncprobe.prom")" \
    "every syncprobe sample was served: none dropped as seen before"
tap_is "$(grep -c '^syncprobe_ops_per_second{' "$WORK/scrape")" 6 \
    "a rate for each of the 3 targets, back to back and paced"
tap_is "$(grep 'collected before' "$WORK/ne.log" || :)" "" "node_exporter logged no repeated series"

# --- watch --textfile, read while it runs: node_exporter serves every
# series of the file it keeps there, with no scrape error, and the file
# is gone once watch is stopped.
"$SYNCPROBE" watch -m fdatasync --file-size 64k --rate 100 --interval 200ms --for 60 \
    --textfile="$WORK/textfile/watch.prom" "$WORK/d" >/dev/null 2>"$WORK/werr" &
wpid=$!
start_exporter 50
# A scrape after the first interval (the last interval's gauges are there).
watched() {
	scrape && grep -q '^syncprobe_watch_interval_p99_seconds{' "$WORK/scrape"
}
if waiting "$wpid" watched; then
	cp "$WORK/textfile/watch.prom" "$WORK/watch.prom"
	tap_ok "node_exporter served watch's series while it ran"
	tap_check "watch: node_textfile_scrape_error 0" \
	    grep -q '^node_textfile_scrape_error 0$' "$WORK/scrape"
	watch_families() {
		grep '^syncprobe_watch_' "$1" | sed 's/[{ ].*//' | sort | uniq -c
	}
	tap_is "$(watch_families "$WORK/scrape")" "$(watch_families "$WORK/watch.prom")" \
	    "watch: every series of its file was served"
	tap_check "watch: the histogram's +Inf bucket, labelled" grep -q \
	    "^syncprobe_watch_operation_seconds_bucket{method=\"fdatasync\",rate=\"100\",target=\"$WORK/d\",le=\"+Inf\"} [0-9]" \
	    "$WORK/scrape"
else
	tap_fail "node_exporter served watch's series while it ran" \
	    "$(cat "$WORK/werr" "$WORK/curl.err" 2>/dev/null)"
	for what in "scrape error" "every series" "the histogram"; do
		tap_fail "watch: $what" "no scrape"
	done
fi
kill -TERM "$wpid" 2>/dev/null || :
wait "$wpid" || :
stop_exporter
tap_is "$(ls -A "$WORK/textfile")" "syncprobe.prom" "watch: its file gone once stopped"

tap_done
