#!/bin/sh
# cli_node_exporter.sh: -F openmetrics read by its real consumer, the
# textfile collector of node_exporter (Debian: prometheus-node-exporter),
# which refuses a series it has seen before where promtool does not: the
# output of targets that share a path, or look alike ("d" twice and "d#2"),
# is put in a directory the collector reads, node_exporter is scraped once
# on 127.0.0.1, and every syncprobe series must be there with
# node_textfile_scrape_error 0. node_exporter is killed afterwards whatever
# happens; the test is skipped without it or without curl.
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

# A free port: one picked at random, tried until node_exporter listens on
# it (it exits when the port is taken).
started=
for try in 1 2 3 4 5 6 7 8; do
	port=$(awk -v s="$$$try" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
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

tap_done
