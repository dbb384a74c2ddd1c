#!/bin/sh
# bench/etcd.sh DIR: syncprobe -t etcd beside the fio job etcd's operators
# run and beside a real etcd's own WAL fsync histogram, all on DIR's
# filesystem. Run by hand, never by make check (about 10 minutes).
#
# 1. fio's exact recipe and syncprobe -t etcd --rounds 1 in PAIRS
#    alternating pairs: the ratio syncprobe/fio of the back-to-back row's
#    sync p99 and of its operations a second, and the same ratios between
#    two runs of one tool in a row (fio/fio, syncprobe/syncprobe): the
#    machine's own run-to-run noise, which the first ratio should be within.
# 2. One etcd member (Debian etcd-server) on 127.0.0.1 only, data directory
#    in DIR, loaded with etcdctl check perf --load=s (60 s, 150 puts a
#    second from 50 clients); its etcd_disk_wal_fsync_duration_seconds read
#    from /metrics before and after: the exact mean (sum/count) and the
#    bucket holding the p99. Beside it, syncprobe -t etcd's rows run just
#    before and just after it. Then the same slowed by DELAY_US a sync:
#    first the fault shim (tests/faultshim.so) preloaded into etcd, to see
#    whether it reaches a Go program's syscalls at all; then strace's
#    syscall delay, which does, into etcd and into syncprobe alike.
#
# Knobs: PAIRS=5, DELAY_US=2000, PORT=23790 (client; PORT+1 peer),
# SYNCPROBE= (default ../src/syncprobe), FAULTSHIM= (../tests/faultshim.so),
# ETCD=, ETCDCTL=, FIO=, STRACE=, JQ=, CURL=. Figures go to stdout, progress
# to stderr. Everything it makes is under DIR/etcd-bench.XXXXXX, removed on
# exit (Ctrl-C too); an etcd it started is stopped first.
set -u
LC_ALL=C
export LC_ALL

ME=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=${PAIRS:-5}
DELAY_US=${DELAY_US:-2000}
PORT=${PORT:-23790}
SYNCPROBE=${SYNCPROBE:-$HERE/../src/syncprobe}
FAULTSHIM=${FAULTSHIM:-$HERE/../tests/faultshim.so}
ETCD=${ETCD:-etcd} ETCDCTL=${ETCDCTL:-etcdctl} FIO=${FIO:-fio}
STRACE=${STRACE:-strace} JQ=${JQ:-jq} CURL=${CURL:-curl}
START=$(date +%s)

die() {
	printf '%s: %s\n' "$ME" "$*" >&2
	exit 2
}

progress() {
	el=$(($(date +%s) - START))
	printf '%s %d:%02d %s\n' "$ME" $((el / 60)) $((el % 60)) "$*" >&2
}

[ $# -eq 1 ] || die "usage: sh bench/$ME DIR"
DIR=$1
[ -d "$DIR" ] && [ -w "$DIR" ] || die "$DIR: not a writable directory"
for knob in PAIRS DELAY_US PORT; do
	eval "v=\$$knob"
	case $v in
	'' | *[!0-9]*) die "$knob=$v: give a whole number" ;;
	esac
done
[ "$PAIRS" -ge 2 ] || die "PAIRS=$PAIRS: give at least 2 (the noise needs two runs of a tool)"
[ -x "$SYNCPROBE" ] || die "$SYNCPROBE: not built (./configure && make)"
for t in "$FIO" "$JQ" "$ETCD" "$ETCDCTL" "$CURL" "$STRACE"; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not installed"
done

W=$(mktemp -d "$DIR/etcd-bench.XXXXXX") || die "$DIR: cannot make a scratch directory"
ETCD_PID=
cleanup() {
	[ -z "$ETCD_PID" ] || etcd_stop
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---- 1. fio's recipe against syncprobe, alternating ----

# fio_run N [PREFIX...]: fio's exact recipe in a fresh directory, under
# PREFIX; its sync p99 in us, its writes a second and its sync mean in us,
# tab-separated, in $W/fio.N.
fio_run() {
	n=$1
	shift
	mkdir "$W/fio"
	"$@" "$FIO" --rw=write --ioengine=sync --fdatasync=1 --directory="$W/fio" --size=22m \
	    --bs=2300 --name=etcd --output-format=json >"$W/fio.json" 2>"$W/fio.err" ||
	    die "fio failed: $(cat "$W/fio.err")"
	rm -rf "$W/fio"
	"$JQ" -r '.jobs[0] | [.sync.lat_ns.percentile["99.000000"] / 1000, .write.iops,
	    .sync.lat_ns.mean / 1000] | @tsv' "$W/fio.json" >"$W/fio.$n"
}

# sp_run N [PREFIX...]: syncprobe -t etcd (one round: each row in one go,
# as fio writes) under PREFIX; the report in $W/sp.N.json and the
# back-to-back row's sync p99, ops/sec and sync mean in $W/sp.N.
sp_run() {
	n=$1
	shift
	"$@" "$SYNCPROBE" -q -F json -t etcd --rounds 1 "$W" >"$W/sp.$n.json" 2>"$W/sp.err" ||
	    die "syncprobe failed: $(cat "$W/sp.err")"
	"$JQ" -r '.targets[0].tests[0] | [.sync_usecs.p99, .ops_per_sec, .sync_usecs.mean] | @tsv' \
	    "$W/sp.$n.json" >"$W/sp.$n"
}

i=1
while [ "$i" -le "$PAIRS" ]; do
	# Alternate which tool goes first, so that neither always follows the
	# other's dirty pages.
	if [ $((i % 2)) -eq 1 ]; then order="fio sp"; else order="sp fio"; fi
	for t in $order; do
		progress "pair $i/$PAIRS: $t"
		case $t in
		fio) fio_run "$i" ;;
		sp) sp_run "$i" ;;
		esac
	done
	i=$((i + 1))
done

# ratios: median, min and max of syncprobe/fio within a pair, and of run
# i+1 / run i of one tool (the noise), for the p99 (column 1) and ops/s (2).
i=1
: >"$W/ratios"
while [ "$i" -le "$PAIRS" ]; do
	cut -f1,2 "$W/sp.$i" >"$W/cur"
	cut -f1,2 "$W/fio.$i" | paste "$W/cur" - | awk -F '\t' '{ printf "pair_p99\t%.4f\npair_ops\t%.4f\n", $1 / $3, $2 / $4 }' >>"$W/ratios"
	if [ "$i" -lt "$PAIRS" ]; then
		j=$((i + 1))
		for tool in sp fio; do
			cut -f1,2 "$W/$tool.$i" >"$W/prev"
			cut -f1,2 "$W/$tool.$j" | paste - "$W/prev" | awk -F '\t' -v t="$tool" \
			    '{ printf "%s_p99\t%.4f\n%s_ops\t%.4f\n", t, $1 / $3, t, $2 / $4 }' >>"$W/ratios"
		done
	fi
	i=$((i + 1))
done
summary() {	# summary KEY: "median min max" of the ratios under KEY
	awk -v k="$1" -f "$HERE/awk/etcd_spread.awk" "$W/ratios"
}
means() {	# means FILES...: the means of columns 1 (p99), 2 (ops/s), 3 (mean)
	cat "$@" | awk -F '\t' '{ a += $1; b += $2; c += $3 }
	    END { printf "p99 %.1f us, %.0f writes/s, sync mean %.1f us", a / NR, b / NR, c / NR }'
}

echo "etcd.sh: syncprobe -t etcd beside fio's recipe and a real etcd"
echo "DIR: $DIR ($(df -PT "$DIR" | awk 'NR == 2 { print $2 }')), $(uname -sr), $(nproc) CPUs,"
echo "  load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "syncprobe: $("$SYNCPROBE" --version | head -1); $("$FIO" --version); etcd $("$ETCD" --version | awk 'NR == 1 { print $3 }')"
echo
echo "1. fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 against"
echo "   syncprobe -t etcd --rounds 1 (its back-to-back row), $PAIRS alternating pairs"
echo "   (ratios: median  min  max)"
printf '   %-34s %s\n' "syncprobe/fio, sync p99" "$(summary pair_p99)"
printf '   %-34s %s\n' "syncprobe/fio, writes a second" "$(summary pair_ops)"
printf '   %-34s %s\n' "noise: fio run/previous, p99" "$(summary fio_p99)"
printf '   %-34s %s\n' "noise: fio run/previous, ops/s" "$(summary fio_ops)"
printf '   %-34s %s\n' "noise: syncprobe run/previous, p99" "$(summary sp_p99)"
printf '   %-34s %s\n' "noise: syncprobe run/previous, ops/s" "$(summary sp_ops)"
# shellcheck disable=SC2046 # the file list splits on purpose
fm=$(means $(i=1; while [ $i -le "$PAIRS" ]; do echo "$W/fio.$i"; i=$((i + 1)); done))
# shellcheck disable=SC2046
sm=$(means $(i=1; while [ $i -le "$PAIRS" ]; do echo "$W/sp.$i"; i=$((i + 1)); done))
echo "   (over the runs, absolute figures of a shared machine, for scale only:"
echo "    fio $fm;"
echo "    syncprobe $sm)"

# ---- 2. a real etcd ----

CLIENT=http://127.0.0.1:$PORT
PEER=http://127.0.0.1:$((PORT + 1))

# metrics FILE: etcd's WAL fsync histogram now (bucket lines, sum, count).
metrics() {
	"$CURL" -fsS "$CLIENT/metrics" | grep '^etcd_disk_wal_fsync_duration_seconds' >"$1" ||
	    die "could not read $CLIENT/metrics"
}

# etcd_start [PREFIX...]: a fresh one-member etcd under PREFIX, on
# 127.0.0.1 only, its data directory in DIR; waits until it answers.
etcd_start() {
	rm -rf "$W/etcd"
	"$@" "$ETCD" --name bench --data-dir "$W/etcd" \
	    --listen-client-urls "$CLIENT" --advertise-client-urls "$CLIENT" \
	    --listen-peer-urls "$PEER" --initial-advertise-peer-urls "$PEER" \
	    --initial-cluster "bench=$PEER" --log-level error >"$W/etcd.log" 2>&1 &
	ETCD_PID=$!
	k=0
	until "$ETCDCTL" --endpoints="$CLIENT" endpoint health >/dev/null 2>&1; do
		k=$((k + 1))
		[ $k -lt 100 ] || die "etcd did not start: $(tail -3 "$W/etcd.log")"
		kill -0 "$ETCD_PID" 2>/dev/null || die "etcd exited: $(tail -3 "$W/etcd.log")"
		sleep 0.2
	done
}

# etcd_stop: under strace, etcd is strace's child: stopped first, by its id.
etcd_stop() {
	for c in $(pgrep -P "$ETCD_PID" 2>/dev/null); do
		kill "$c" 2>/dev/null
	done
	kill "$ETCD_PID" 2>/dev/null
	wait "$ETCD_PID" 2>/dev/null
	ETCD_PID=
}

# etcd_load NAME: check perf --load=s between two readings of the histogram;
# "count mean_us p99_bucket_le_ms" of what it added in $W/etcd.NAME.
etcd_load() {
	metrics "$W/before"
	"$ETCDCTL" --endpoints="$CLIENT" check perf --load=s >"$W/perf.$1" 2>&1 || :
	metrics "$W/after"
	awk -f "$HERE/awk/etcd_hist.awk" "$W/before" "$W/after" >"$W/etcd.$1"
	# Its verdict lines, wherever its progress bar left them.
	tr '\r' '\n' <"$W/perf.$1" | grep -aoE '(PASS|FAIL)(: [^;]*)?$' | tr '\n' ';' >"$W/perfline.$1"
}

# rows N: syncprobe report N's two rows, sync mean and p99 in us.
rows() {
	"$JQ" -r '.targets[0].tests[] | "\(.name)\t\(.sync_usecs.mean)\t\(.sync_usecs.p99)\t\(.missed_starts // "-")"' \
	    "$W/sp.$1.json"
}

fio_line() {	# fio_line N: fio's sync mean and p99 as one line
	awk -F '\t' '{ printf "   %-34s %8.1f us mean, p99 %.1f us\n", "fio (the recipe)", $3, $1 }' "$W/fio.$1"
}

# ratio_line WHAT ROW ETCD SP1 SP2: the sync mean of syncprobe's row ROW (1
# back to back, 2 paced) in reports SP1 and SP2 over etcd run ETCD's mean.
ratio_line() {
	e=$(cut -f2 "$W/etcd.$3")
	p=$(rows "$4" | awk -F '\t' -v r="$2" 'NR == r { print $2 }')
	q=$(rows "$5" | awk -F '\t' -v r="$2" 'NR == r { print $2 }')
	awk -v w="$1" -v e="$e" -v p="$p" -v q="$q" 'BEGIN { printf "   %-34s %5.2f and %5.2f\n", w, p / e, q / e }'
}

etcd_line() {	# etcd_line NAME: the histogram's figures as one line
	awk -F '\t' '{ printf "   %-34s %8.1f us mean over %d fsyncs, p99 in the bucket <= %s ms\n",
	    "etcd wal_fsync (sum/count)", $2, $1, $3 }' "$W/etcd.$1"
}

sp_lines() {	# sp_lines N: syncprobe's rows as lines
	rows "$1" | awk -F '\t' '{ printf "   %-34s %8.1f us mean, p99 %.1f us, missed starts %s\n",
	    "syncprobe " $1, $2, $3, $4 }'
}

# Disk as it is: syncprobe, fio, etcd, fio, syncprobe.
progress "syncprobe -t etcd before etcd"
sp_run e1
progress "fio before etcd"
fio_run e1
progress "etcd: check perf --load=s (60 s)"
etcd_start
etcd_load plain
etcd_stop
progress "fio after etcd"
fio_run e2
progress "syncprobe -t etcd after etcd"
sp_run e2
echo
echo "2. a real etcd (one member, 127.0.0.1, data in DIR) under etcdctl check perf"
echo "   --load=s, its etcd_disk_wal_fsync_duration_seconds before and after,"
echo "   beside syncprobe -t etcd's rows just before and just after it"
echo " a) the disk as it is"
sp_lines e1
fio_line e1
etcd_line plain
echo "   check perf: $(cat "$W/perfline.plain")"
fio_line e2
sp_lines e2
echo "   mean sync over etcd's, before and after:"
ratio_line "syncprobe paced row / etcd" 2 plain e1 e2
ratio_line "syncprobe back to back / etcd" 1 plain e1 e2
awk -v e="$(cut -f2 "$W/etcd.plain")" -v a="$(cut -f3 "$W/fio.e1")" -v b="$(cut -f3 "$W/fio.e2")" \
    'BEGIN { printf "   %-34s %5.2f and %5.2f\n", "fio / etcd", a / e, b / e }'

# The fault shim into etcd: does it reach a Go program's fdatasync?
progress "etcd with the fault shim preloaded (60 s)"
if [ -f "$FAULTSHIM" ]; then
	rm -f "$W/shim.log"
	# No SYNCPROBE_FAULT_PATH: every fdatasync the shim sees is delayed.
	etcd_start env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT_SYNC_DELAY_US="$DELAY_US" \
	    SYNCPROBE_FAULT_LOG="$W/shim.log"
	etcd_load shim
	etcd_stop
	echo " b) the fault shim (SYNCPROBE_FAULT_SYNC_DELAY_US=$DELAY_US) preloaded into etcd"
	echo "   shim log: $(grep -c '^loaded$' "$W/shim.log" 2>/dev/null || echo 0) 'loaded' line(s)"
	etcd_line shim
	echo "   (a mean under $DELAY_US us: the delay never reached etcd's fdatasync)"
else
	echo " b) not measured: $FAULTSHIM is not built (make check builds it)"
fi

# strace's delay: the same for etcd and for syncprobe.
SLOW="$STRACE -f -qq --seccomp-bpf -e trace=fdatasync -e inject=fdatasync:delay_enter=$DELAY_US -o /dev/null"
progress "syncprobe -t etcd under strace's delay"
# shellcheck disable=SC2086 # the prefix splits on purpose
sp_run s1 $SLOW
progress "fio under strace's delay"
# shellcheck disable=SC2086
fio_run s1 $SLOW
progress "etcd under strace's delay (60 s)"
# shellcheck disable=SC2086
etcd_start $SLOW
etcd_load slow
etcd_stop
progress "syncprobe -t etcd under strace's delay, after"
# shellcheck disable=SC2086
sp_run s2 $SLOW
echo " c) slowed: every fdatasync delayed $DELAY_US us by strace -e inject (etcd and"
echo "    syncprobe alike)"
sp_lines s1
fio_line s1
etcd_line slow
echo "   check perf: $(cat "$W/perfline.slow")"
sp_lines s2
echo "   mean sync over etcd's, before and after:"
ratio_line "syncprobe paced row / etcd" 2 slow s1 s2
ratio_line "syncprobe back to back / etcd" 1 slow s1 s2
awk -v e="$(cut -f2 "$W/etcd.slow")" -v a="$(cut -f3 "$W/fio.s1")" \
    'BEGIN { printf "   %-34s %5.2f\n", "fio / etcd", a / e }'
el=$(($(date +%s) - START))
echo
echo "(took $((el / 60)) min $((el % 60)) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
