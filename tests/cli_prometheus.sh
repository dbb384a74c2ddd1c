#!/bin/sh
# cli_prometheus.sh: watch --textfile read end to end, as a fleet reads it:
# node_exporter's textfile collector serves the file while watch runs, the
# Prometheus server scrapes node_exporter every second, and its HTTP API
# answers histogram_quantile(0.99, rate(...[1m])) with a value inside the
# run's own p99 band: between the lowest and the highest p99 of its
# intervals (as its JSON says them), widened to the histogram buckets that
# hold them, which is as fine as a histogram can tell. The man page's
# example alerting rules pass promtool check rules. Everything listens on
# 127.0.0.1 only and is stopped by the test whatever happens; skipped
# without prometheus, node_exporter, promtool or curl.
. "$top_srcdir/tests/lib.sh"

NE=$(command -v prometheus-node-exporter || command -v node_exporter || :)
PROM=$(command -v prometheus || :)
if [ -z "$NE" ] || [ -z "$PROM" ]; then
	echo "1..0 # SKIP prometheus or node_exporter is not installed (Debian: prometheus, prometheus-node-exporter)"
	exit 0
fi
tap_require promtool
tap_require curl
tap_require jq

dir=$WORK/target
tdir=$WORK/textfile
mkdir "$dir" "$tdir" "$WORK/tsdb"
pids=
stop_all() {
	for p in $pids; do
		kill "$p" 2>/dev/null || :
		wait "$p" 2>/dev/null || :
	done
	pids=
}
trap 'stop_all; cleanup_work' EXIT
trap 'stop_all; cleanup_work; exit 1' INT TERM HUP

# --- The man page's example rules are rules Prometheus takes.
sed -n '/^An example of Prometheus alerting rules/,/^\.EE/p' "$top_srcdir/man/syncprobe.1" |
    sed -e '1,/^\.EX/d' -e '/^\.EE/d' -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$WORK/rules.yml"
tap_check "the man page's alerting rules: promtool check rules" sh -c \
    "grep -q 'alert:' '$WORK/rules.yml' && promtool check rules '$WORK/rules.yml' >'$WORK/rules.out' 2>&1"

# start_on NAME SEED PATH CMD...: run CMD on a free port of 127.0.0.1,
# tried until it answers on PATH (a page only it serves); $port is that
# port. Each is started with --web.listen-address.
start_on() {
	s_name=$1 s_seed=$2 s_path=$3
	shift 3
	for try in 1 2 3 4 5 6 7 8; do
		port=$(awk -v s="$(($$ * 100 + s_seed + try))" \
		    'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
		"$@" --web.listen-address="127.0.0.1:$port" >"$WORK/$s_name.log" 2>&1 &
		s_pid=$!
		answers() { curl -fsS --max-time 5 "http://127.0.0.1:$port$s_path" >/dev/null 2>&1; }
		if waiting "$s_pid" answers; then
			pids="$pids $s_pid"
			return 0
		fi
		kill "$s_pid" 2>/dev/null || :
		wait "$s_pid" 2>/dev/null || :
	done
	return 1
}

if ! start_on node_exporter 0 /metrics "$NE" --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$tdir"; then
	tap_fail "node_exporter serves /metrics on 127.0.0.1" "$(tail -5 "$WORK/node_exporter.log")"
	tap_done
	exit 1
fi
ne_port=$port
cat >"$WORK/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$ne_port']
EOC
if ! start_on prometheus 50 /-/ready "$PROM" --config.file="$WORK/prometheus.yml" \
    --storage.tsdb.path="$WORK/tsdb"; then
	tap_fail "prometheus serves on 127.0.0.1" "$(tail -5 "$WORK/prometheus.log")"
	tap_done
	exit 1
fi
prom_port=$port
tap_ok "node_exporter on 127.0.0.1:$ne_port, prometheus scraping it every second"

# --- watch, a line a second, until Prometheus has a p99 of it.
"$SYNCPROBE" watch -m fdatasync --file-size 64k --rate 200 --interval 1s --for 60 -F json \
    --textfile="$tdir/watch.prom" "$dir" >"$WORK/out" 2>"$WORK/err" &
wpid=$!
query='histogram_quantile(0.99, rate(syncprobe_watch_operation_seconds_bucket[1m]))'
p99() {
	curl -fsSG --max-time 5 "http://127.0.0.1:$prom_port/api/v1/query" \
	    --data-urlencode "query=$query" >"$WORK/answer" 2>/dev/null &&
	    value=$(jq -r '.data.result[0].value[1] // empty' "$WORK/answer" 2>/dev/null) &&
	    [ -n "$value" ] && [ "$value" != NaN ]
}
# It needs two scrapes after the first interval: a few seconds; at most
# 30.
value=
got=
deadline=$(($(date +%s) + 30))
while kill -0 "$wpid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
	if p99; then
		got=yes
		break
	fi
	sleep 0.2
done
kill -TERM "$wpid" 2>/dev/null || :
rc=0
wait "$wpid" || rc=$?
tap_is "$rc" 143 "watch ran until Prometheus had its p99, then SIGTERM ended it ($(cat "$WORK/err"))"
if [ -z "$got" ]; then
	tap_fail "prometheus: $query has a value" "$(cat "$WORK/answer" 2>/dev/null)"
else
	tap_ok "prometheus: $query = $value"
fi
# The band: the intervals' lowest and highest p99, in seconds, widened
# to the bounds of the buckets that hold them (the last bucket ends at
# +Inf).
band=$(jq -rs '[.[] | select(.type == "interval" and .ops > 0) | .usecs.p99 / 1e6] |
    [min, max] | map(tostring) | join(" ")' "$WORK/out")
bounds="0 0.00002 0.00005 0.0001 0.0002 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10 1e9"
inside=$(echo "$band" | awk -v v="$value" -v b="$bounds" '
    v !~ /^[0-9.e+-]+$/ { print "no value"; next } {
	n = split(b, le, " ")
	lo = 0; hi = le[n]
	for (i = 1; i < n; i++) {
		if (le[i] < $1 && $1 <= le[i + 1]) lo = le[i]
		if (le[i] < $2 && $2 <= le[i + 1]) hi = le[i + 1]
	}
	print (v + 0 >= lo && v + 0 <= hi) ? "yes" : "no (" lo " to " hi ")"
}')
tap_is "$inside" yes "the p99 Prometheus computed, $value s, is inside the run's band (interval p99s $band s)"
tap_is "$(ls -A "$tdir")" "" "the file is gone after SIGTERM"
stop_all
tap_done
