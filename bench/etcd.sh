#!/bin/sh
# bench/etcd.sh DIR: syncprobe -t etcd beside the fio job etcd's operators
# run and beside a real etcd's own WAL fsync histogram, all on DIR's
# filesystem. Run by hand, never by make check: it runs a real etcd and fio
# for REPEATS rounds of each part.
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
#    bucket holding the p99. Beside it syncprobe -t etcd's rows and fio's
#    recipe, in REPEATS alternating repeats (syncprobe, fio, etcd; then
#    etcd, fio, syncprobe; ...): each tool's mean over etcd's in the same
#    repeat, and each one's mean over its own in the repeat before (the
#    run-to-run noise). (a) the disk as it is; (b) the fault shim
#    (tests/faultshim.so) preloaded into etcd, to see whether it reaches a
#    Go program's syscalls at all; (c) the repeats again with every
#    fdatasync delayed DELAY_US by strace, which does reach etcd, into
#    etcd, fio and syncprobe alike.
#
# Knobs: PAIRS=5 (0: no part 1), REPEATS=4, DELAY_US=2000 (0: no part c),
# SHIM=1 (0: no part b), SP_OPS= (part 2's syncprobe -n: 9000 paces its
# row for 60 s, as long as check perf; default the rows' own counts),
# PORT=23790 (client; PORT+1 peer),
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
REPEATS=${REPEATS:-4}
SHIM=${SHIM:-1}
SP_OPS=${SP_OPS:-}
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
for knob in PAIRS REPEATS DELAY_US SHIM PORT; do
	eval "v=\$$knob"
	case $v in
	'' | *[!0-9]*) die "$knob=$v: give a whole number" ;;
	esac
done
[ "$PAIRS" -eq 0 ] || [ "$PAIRS" -ge 2 ] ||
    die "PAIRS=$PAIRS: give 0 (no part 1) or at least 2 (the noise needs two runs of a tool)"
[ "$REPEATS" -ge 2 ] || die "REPEATS=$REPEATS: give at least 2 (the noise needs two runs of a tool)"
case $SP_OPS in
*[!0-9]*) die "SP_OPS=$SP_OPS: give a whole number, or nothing" ;;
esac
[ -x "$SYNCPROBE" ] || die "$SYNCPROBE: not built (./configure && make)"
for t in "$FIO" "$JQ" "$ETCD" "$ETCDCTL" "$CURL" "$STRACE"; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not installed"
done

SP_N=${SP_OPS:+-n $SP_OPS}
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
# as fio writes; -n SP_OPS when set) under PREFIX; the report in
# $W/sp.N.json and the back-to-back row's sync p99, ops/sec and sync mean
# in $W/sp.N.
sp_run() {
	n=$1
	shift
	# shellcheck disable=SC2086 # empty, or "-n N"
	"$@" "$SYNCPROBE" -q -F json -t etcd --rounds 1 $SP_N "$W" >"$W/sp.$n.json" 2>"$W/sp.err" ||
	    die "syncprobe failed: $(cat "$W/sp.err")"
	"$JQ" -r '.targets[0].tests[0] | [.sync_usecs.p99, .ops_per_sec, .sync_usecs.mean] | @tsv' \
	    "$W/sp.$n.json" >"$W/sp.$n"
}

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
	# Its verdict lines, wherever its progress bar left them: each from
	# its PASS or FAIL to the end of its line.
	tr '\r' '\n' <"$W/perf.$1" | grep -aoE '(PASS|FAIL).*' | tr '\n' ';' >"$W/perfline.$1"
}

# ---- 1. fio's recipe against syncprobe, alternating ----

part_fio() {
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
}

echo "etcd.sh: syncprobe -t etcd beside fio's recipe and a real etcd"
echo "DIR: $DIR ($(df -PT "$DIR" | awk 'NR == 2 { print $2 }')), $(uname -sr), $(nproc) CPUs,"
echo "  load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "syncprobe: $("$SYNCPROBE" --version | head -1); $("$FIO" --version); etcd $("$ETCD" --version | awk 'NR == 1 { print $3 }')"
echo
[ "$PAIRS" -eq 0 ] || part_fio

# ---- 2. a real etcd ----

# series NAME [PREFIX...]: REPEATS repeats under PREFIX of syncprobe -t
# etcd, fio's recipe and etcd under check perf, in the order syncprobe,
# fio, etcd in odd repeats and etcd, fio, syncprobe in even ones, so that
# none always follows another's dirty pages; one line a repeat in
# $W/NAME.tab: repeat, etcd's fsyncs, mean and p99 bucket (ms), syncprobe's
# paced sync mean, p99 and missed starts, its back-to-back sync mean and
# p99, fio's sync mean and p99 (us).
series() {
	name=$1
	shift
	r=1
	: >"$W/$name.tab"
	while [ "$r" -le "$REPEATS" ]; do
		if [ $((r % 2)) -eq 1 ]; then order="sp fio etcd"; else order="etcd fio sp"; fi
		for t in $order; do
			progress "$name: repeat $r/$REPEATS: $t"
			case $t in
			sp) sp_run "$name.$r" "$@" ;;
			fio) fio_run "$name.$r" "$@" ;;
			etcd)
				etcd_start "$@"
				etcd_load "$name.$r"
				etcd_stop
				;;
			esac
		done
		{
			printf '%s\t' "$r"
			tr '\n' '\t' <"$W/etcd.$name.$r"
			"$JQ" -r '.targets[0].tests | [.[1].sync_usecs.mean, .[1].sync_usecs.p99,
			    .[1].missed_starts, .[0].sync_usecs.mean, .[0].sync_usecs.p99] | @tsv' \
			    "$W/sp.$name.$r.json" | tr '\n' '\t'
			cut -f3,1 "$W/fio.$name.$r" | awk -F '\t' '{ print $2 "\t" $1 }'
		} >>"$W/$name.tab"
		r=$((r + 1))
	done
	awk -f "$HERE/awk/etcd_series.awk" "$W/$name.tab" >"$W/$name.ratios"
}

# series_report NAME: the repeats of series NAME, and their ratios.
series_report() {
	echo "   sync means and p99s in us; etcd's p99 is the bound of its bucket (p99<=), in ms;"
	echo "   paced: syncprobe's 150/s row, b2b its back-to-back row, fio the recipe"
	printf '   %-2s %7s %5s %5s  %7s %6s %6s  %7s %6s  %7s %6s\n' r etcd fsync 'p99<=' \
	    paced p99 missed b2b p99 fio p99
	awk -F '\t' '{ printf "   %-2s %7.1f %5d %5s  %7.1f %6.0f %6d  %7.1f %6.0f  %7.1f %6.0f\n",
	    $1, $3, $2, $4, $5, $6, $7, $8, $9, $10, $11 }' "$W/$1.tab"
	r=1
	while [ "$r" -le "$REPEATS" ]; do
		echo "   $r: check perf: $(cat "$W/perfline.$1.$r")"
		r=$((r + 1))
	done
	echo "   ratios of sync means (median  min  max over the repeats):"
	for k in "paced:syncprobe 150/s / etcd, same repeat" \
	    "b2b:syncprobe back to back / etcd" "fio:fio / etcd" \
	    "noise_etcd:noise: etcd repeat/previous" \
	    "noise_paced:noise: syncprobe 150/s repeat/previous" \
	    "noise_b2b:noise: back to back repeat/previous" \
	    "noise_fio:noise: fio repeat/previous"; do
		printf '   %-40s %s\n' "${k#*:}" "$(awk -v k="${k%%:*}" -f "$HERE/awk/etcd_spread.awk" "$W/$1.ratios")"
	done
	printf '   %-40s %s\n' "over all repeats (sum of means / etcd's)" \
	    "$(awk -F '\t' '$1 ~ /^all_/ { printf "%s%s %.2f", n++ ? ", " : "", substr($1, 5), $2 }' "$W/$1.ratios")"
}

echo
echo "2. a real etcd (one member, 127.0.0.1, data in DIR) under etcdctl check perf"
echo "   --load=s, its etcd_disk_wal_fsync_duration_seconds before and after,"
echo "   beside syncprobe -t etcd --rounds 1${SP_OPS:+ -n $SP_OPS} (paced and back-to-back rows) and"
echo "   fio's recipe, $REPEATS alternating repeats"
series plain
echo " a) the disk as it is"
series_report plain

# The fault shim into etcd: does it reach a Go program's fdatasync?
if [ "$SHIM" -eq 0 ]; then
	:
elif [ -f "$FAULTSHIM" ]; then
	progress "etcd with the fault shim preloaded (60 s)"
	rm -f "$W/shim.log"
	# No SYNCPROBE_FAULT_PATH: every fdatasync the shim sees is delayed.
	etcd_start env LD_PRELOAD="$FAULTSHIM" SYNCPROBE_FAULT_SYNC_DELAY_US="$DELAY_US" \
	    SYNCPROBE_FAULT_LOG="$W/shim.log"
	etcd_load shim
	etcd_stop
	echo " b) the fault shim (SYNCPROBE_FAULT_SYNC_DELAY_US=$DELAY_US) preloaded into etcd"
	echo "   shim log: $(grep -c '^loaded$' "$W/shim.log" 2>/dev/null || echo 0) 'loaded' line(s)"
	awk -F '\t' '{ printf "   etcd wal_fsync %.1f us mean over %d fsyncs, p99 in the bucket <= %s ms\n",
	    $2, $1, $3 }' "$W/etcd.shim"
	echo "   (a mean under $DELAY_US us: the delay never reached etcd's fdatasync)"
else
	echo " b) not measured: $FAULTSHIM is not built (make check builds it)"
fi

# strace's delay: the same for etcd, fio and syncprobe.
if [ "$DELAY_US" -gt 0 ]; then
	SLOW="$STRACE -f -qq --seccomp-bpf -e trace=fdatasync -e inject=fdatasync:delay_enter=$DELAY_US -o /dev/null"
	# shellcheck disable=SC2086 # the prefix splits on purpose
	series slow $SLOW
	echo " c) slowed: every fdatasync delayed $DELAY_US us by strace -e inject (etcd, fio"
	echo "    and syncprobe alike)"
	series_report slow
fi
el=$(($(date +%s) - START))
echo
echo "(took $((el / 60)) min $((el % 60)) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
