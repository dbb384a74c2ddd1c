#!/bin/sh
# bench/cv.sh: table 4, default runs of syncprobe and pg_test_fsync taking
# turns: wall time, peak RSS, and how much the advised commit_delay and the
# fdatasync/fsync ratio vary from run to run (CV); the speed, fairness and
# memory targets. See bench/README.
set -u
BENCH_ABOUT='Table 4: CV_RUNS default runs each of syncprobe -F json and pg_test_fsync
(QUICK=1: pg_test_fsync -s 1), alternating, in a fresh subdirectory of DIR:
wall time, peak RSS, commit_delay and fdatasync/fsync, their CV and the
paired ratios. Targets: speed, fairness, memory.'
NEEDS="jq pg_test_fsync time"
# SLOW_US (set by bench/slowdisk.sh): every sync of both tools waits that
# many microseconds more, through tests/faultshim.so: a slow disk.
SLOW_US=${SLOW_US:-}
TABLE=${TABLE:-4}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init "$@"
[ "$CV_RUNS" -ge 2 ] || die "CV_RUNS=$CV_RUNS: a CV needs at least 2 runs"
if [ "$QUICK" = 1 ]; then
	bench_start $((CV_RUNS * 30))
	pg_default="-s 1"
	pg_label="pg_test_fsync -s 1 (QUICK: not a default run)"
else
	bench_start $((CV_RUNS * 95))
	pg_default=
	pg_label="pg_test_fsync (default: 5 s per test)"
fi
FIGURES=$TMP/cv	# TOOL|FIGURE<TAB>value<TAB>run, TOOL sp or pg

timed() {	# timed CMD...: run CMD, under GNU time if there is one
	if [ -n "$TIME" ]; then
		run "$TMP/cv.out" "$TIME" -f '%e %M' -o "$TMP/time" "$@"
	else
		run "$TMP/cv.out" "$@"
	fi
}

# default_run TOOL I: run I of TOOL (sp or pg), its figures to FIGURES.
default_run() {
	t=$1
	progress "default run $2/$CV_RUNS: $t"
	rm -f "$TMP/time"
	# shellcheck disable=SC2086 # pg_default is empty or "-s 1"
	if [ "$t" = sp ]; then
		timed $SLOW "$SYNCPROBE" -q -F json "$WORK"
	else
		timed $SLOW "$PG_TEST_FSYNC" $pg_default -f "$PGFILE"
	fi || { note "default run $2 of $t failed: $(tail -n 1 "$TMP/cv.out.err")"; return; }
	if [ -s "$TMP/time" ]; then
		# GNU time puts "Command exited..." first when it did not exit 0.
		tail -n 1 "$TMP/time" | awkf cv_time -v t="$t" -v i="$2" >>"$FIGURES"
	fi
	cd_sp=
	if [ "$t" = sp ] && [ -n "$JQ" ]; then
		cd_sp=$(json_num "$TMP/cv.out" '.targets[0].advice.commit_delay_usecs')
		printf 'sp|basis ops\t%s\t%s\n' \
		    "$(json_num "$TMP/cv.out" '.targets[0].advice.basis.ops')" "$2" >>"$FIGURES"
		basis=$(json_num "$TMP/cv.out" '.targets[0].advice.basis.name')
		[ "$basis" = fdatasync ] ||
		    note "default run $2: syncprobe based commit_delay on '$basis', pg_test_fsync's figure is fdatasync's"
		sp_rows "$TMP/cv.out" >"$TMP/cv.rows"
	elif [ "$t" = pg ]; then
		pg_rows "$TMP/cv.out" >"$TMP/cv.rows"
	else
		: >"$TMP/cv.rows"
	fi
	awkf cv_figures -v t="$t" -v i="$2" -v cd="$cd_sp" "$TMP/cv.rows" >>"$FIGURES"
}

cvrow() {	# cvrow FIGURE FORMAT: one line of the table
	for t in sp pg; do
		line=$(get "$TMP/s_cv" "$t|$1" 0)
		if [ -n "$line" ]; then
			printf '%s\n' "$line" | awkf cv_row -v f="$2"
		else
			printf ' %36s |' "not measured"
		fi
	done
	r=$(ratio_of "$TMP/s_cvr" "$1")
	printf ' %s\n' "${r:-not paired}"
}

print_table() {
	printf '%-16s|%-36s|%-36s| %s\n' "" " syncprobe" " pg_test_fsync" "syncprobe/pg_test_fsync"
	printf '%-16s|%s|%s|%s\n' "" "      med      min      max     CV " "      med      min      max     CV " "    med    min    max"
	for fig in wall rss commit_delay fdatasync/fsync "basis ops"; do
		case $fig in
		"basis ops") label="basis row ops" f='%8.0f' ;;
		wall) label="wall seconds" f='%8.1f' ;;
		rss) label="peak RSS KiB" f='%8.0f' ;;
		commit_delay) label="commit_delay us" f='%8.0f' ;;
		fdatasync/fsync) label="fdatasync/fsync" f='%8.3f' ;;
		esac
		printf '%-16s|' "$label"
		cvrow "$fig" "$f"
	done
	echo "(wall time and RSS are the one place with absolute figures: the targets are"
	echo " absolute. CV = sample standard deviation / mean over the runs.)"
}

# judge_cv NAME FIGURE OP WHAT: syncprobe's CV of FIGURE against
# pg_test_fsync's.
judge_cv() {
	s=$(get "$TMP/s_cv" "sp|$2" 7)
	p=$(get "$TMP/s_cv" "pg|$2" 7)
	if [ -n "$s" ] && [ -n "$p" ]; then
		verdict "$1" "$(holds "$s" "$3" "$p")" "$4 CV $(percent "$s")% (pg_test_fsync $(percent "$p")%)"
	else
		verdict "$1" - "$4 CV"
	fi
}

judge_targets() {
	if [ -n "$SLOW_US" ]; then
		judge "$TMP/s_cv" "sp|wall" 5 speed "wall time, slow disk" \
		    'syncprobe default run %.1f s at most (<= 35 s: the 32 s cap, and setting up)' '<=' 35
		judge "$TMP/s_cv" "sp|basis ops" 4 samples "basis row ops, slow disk" \
		    'fewest operations on the basis row %d (>= 100: no few_samples)' '>=' 100
	else
		judge "$TMP/s_cv" "sp|wall" 3 speed "wall time" \
		    'syncprobe default run %.1f s median (< 10 s)' '<' 10
	fi
	judge_cv speed commit_delay '<=' commit_delay
	judge_cv fairness fdatasync/fsync '<' fdatasync/fsync
	judge "$TMP/s_cv" "sp|rss" 5 memory "peak RSS" \
	    'syncprobe peak RSS %d KiB, the largest run (<= 4096)' '<=' 4096
}

SLOW=
slow_label=
if [ -n "$SLOW_US" ]; then
	[ -n "${FAULTSHIM:-}" ] || FAULTSHIM=$BENCH_DIR/../tests/faultshim.so
	[ -f "$FAULTSHIM" ] || die "$FAULTSHIM: build it first (make tests/faultshim.so)"
	SLOW="env LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_SYNC_DELAY_US=$SLOW_US SYNCPROBE_FAULT_PATH=$WORK"
	slow_label=", every sync $SLOW_US us slower (tests/faultshim.so)"
fi
section "$TABLE" "$CV_RUNS default runs each, alternating: syncprobe -F json DIR; $pg_label$slow_label"
: >"$FIGURES"
for i in $(upto "$CV_RUNS"); do
	for t in $(rotate "$i" sp pg); do
		[ "$t" = pg ] && [ -z "$PG_TEST_FSYNC" ] && continue
		default_run "$t" "$i"
	done
done
rm -f "$PGFILE"
summarize "$FIGURES" >"$TMP/s_cv"
# Paired ratios syncprobe/pg_test_fsync of the same run number.
awkf cv_pairs "$FIGURES" | sort | summarize >"$TMP/s_cvr"
print_table
judge_targets
bench_end
