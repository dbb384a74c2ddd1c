#!/bin/sh
# cli_etcd.sh: -t etcd run for real with -n: its two rows and etcd's
# verdicts in the JSON report (jq), no test file made beside its segment
# (strace, the fault shim's count), the verdict's line in the text advice,
# the OpenMetrics gauge, its options refused out of range or without -t
# etcd, a segment renewed when full, and the verdict failing on a disk the
# fault shim slows to 12 ms per sync. No figure is compared with a time:
# the slowed disk's syncs last at least 12 ms whatever the machine does.
. "$top_srcdir/tests/lib.sh"

# A tmpfs (quick, and known not durable): our own when root, else
# /dev/shm, else the work directory on whatever disk it is.
dir=$WORK/tmpfs
on_tmpfs=yes
if ! mount_tmpfs "$dir" size=160m; then
	dir=$WORK/target
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		dir=$(mktemp -d /dev/shm/syncprobe-test.XXXXXX)
		trap 'rm -rf "$dir"; cleanup_work' EXIT
	else
		on_tmpfs=no
	fi
	mkdir -p "$dir"
fi
have_jq=no
command -v jq >/dev/null 2>&1 && have_jq=yes

# ---- the rows and the verdicts, in JSON ----
run -q -F json -n 120 -t etcd "$dir"
tap_is "$rc" 0 "-t etcd -n 120 exits 0"
tap_check "no test file or segment left" no_testfile "$dir"
cp "$WORK/out" "$WORK/etcd.json"
schema_valid "-F json -t etcd" report "$WORK/etcd.json"
if [ $have_jq = yes ]; then
	jq_checks "$WORK/etcd.json" <<'CHECKS'
two rows, both of group etcd | [.targets[0].tests[] | .group] == ["etcd", "etcd"]
named by sync, size and pace | [.targets[0].tests[].name] ==
	["fdatasync 2300B, back to back", "fdatasync 2300B, 150/s"]
each ran -n's 120 appends | all(.targets[0].tests[]; .status == "ok" and .ops == 120)
2300-byte appends, one a operation | all(.targets[0].tests[]; .write_bytes == 2300 and .writes_per_op == 1)
no wal_sync_method candidate, fdatasync called | all(.targets[0].tests[]; .method == null and .sync_call == "fdatasync")
a 64,000,000-byte segment | all(.targets[0].tests[]; .segment_bytes == 64000000)
back to back: no pace, no missed starts | .targets[0].tests[0] | .pace_per_sec == null and .missed_starts == null
paced at 150/s, missed starts counted | .targets[0].tests[1] | .pace_per_sec == 150 and (.missed_starts | type) == "number"
the sync timed apart from the write | all(.targets[0].tests[]; .sync_usecs.p99 > 0 and .write_usecs.p99 > 0)
the verdicts' codes, in order | [.targets[0].verdicts[].code] == ["etcd_sync_p99", "etcd_sync_p99_heavy",
	"etcd_write_sync_p99", "etcd_write_sync_p99_heavy", "etcd_sync_p999", "etcd_worst_stall",
	"etcd_durability"]
every latency result is one of the documented | all(.targets[0].verdicts[:6][]; .result | IN("pass", "fail",
	"too_few_ops", "measured", "not_run"))
the durability doubt is its own code | .targets[0].verdicts[6].result | IN("not_proven_durable", "no_doubt_found")
the verdicts read the paced row | all(.targets[0].verdicts[]; .row == "fdatasync 2300B, 150/s")
the limits: 10 ms and 2 ms | [.targets[0].verdicts[] | .limit_usecs] == [10000, 2000, 10000, 2000, null, 1000000, null]
the sync p99 is the paced row's | .targets[0] | .verdicts[0].value_usecs == .tests[1].sync_usecs.p99
the write + sync p99 is the paced row's | .targets[0] | .verdicts[2].value_usecs == .tests[1].usecs.p99
the worst stall is the paced row's max | .targets[0] | .verdicts[5].value_usecs == .tests[1].usecs.max
120 operations: enough for a p99 | .targets[0].verdicts[0] | .ops == 120 and .min_ops == 100 and .result != "too_few_ops"
120 operations: too few for a p99.9 | .targets[0].verdicts[4] | .result == "too_few_ops" and .min_ops == 1000
a caution only behind not_proven_durable | all(.targets[0].verdicts[]; (.caution != null) == (.result == "not_proven_durable"))
settings: no block, file, pattern, direct or methods (its rows use none) | .settings
	| .block_bytes == null and .file_bytes == null and .pattern == null and .direct == null
	and .methods == null and .tests == ["etcd"] and .rounds == 5
CHECKS
	if [ $on_tmpfs = yes ]; then
		jq_check "$WORK/etcd.json" "on tmpfs the durability doubt is reported, and the warning says why" \
		    '[.targets[0].verdicts[] | select(.code == "etcd_durability")
		     | .result == "not_proven_durable" and (.caution | IN("implausible_flush", "nondurable_fs"))]
		     == [true]'
	else
		tap_skip "on tmpfs the durability doubt is reported, and the warning says why" "no tmpfs here"
	fi
else
	tap_skip "-t etcd JSON checked with jq" "jq is not installed"
fi

# ---- -t etcd alone makes no test file: its segment is the one file ----
# Its rows append to a segment of their own; the probe's 16MB test file,
# which no row of it would read, is never made. Beside -t nosync,etcd
# (which needs it), so that each count is seen to tell the two apart.
if command -v strace >/dev/null 2>&1 && strace -f -qq -o /dev/null true 2>/dev/null; then
	for t in etcd nosync,etcd; do
		rc=0
		# LeakSanitizer (--enable-sanitizers) refuses to run under ptrace.
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		    strace -f -qq -e trace=open,openat -o "$WORK/strace.$t" \
		    "$SYNCPROBE" -q -n 20 -t "$t" "$dir" >/dev/null 2>"$WORK/err" || rc=$?
		[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/err"
		tap_is "$rc" 0 "-t $t under strace: exits 0"
	done
	creates() {	# the files made in the target: exclusive creations of .syncprobe.*
		grep -c '"[^"]*\.syncprobe\.[^"]*", [^)]*O_CREAT' "$1" || :
	}
	tap_is "$(creates "$WORK/strace.etcd")" 1 "-t etcd: one file made, its segment"
	tap_is "$(creates "$WORK/strace.nosync,etcd")" 2 "-t nosync,etcd: the test file and the segment"
	tap_check "-t etcd under strace: nothing left" no_testfile "$dir"
else
	tap_skip "-t etcd: one file made, its segment (strace)" "strace does not work here"
fi
if preload_works; then
	for t in etcd nosync,etcd; do
		rm -f "$WORK/shim.$t"
		LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_PATH=$dir SYNCPROBE_FAULT_LOG=$WORK/shim.$t \
		    "$SYNCPROBE" -q -n 20 -t "$t" "$dir" >/dev/null 2>"$WORK/err" || :
	done
	pwrites() {	# the writes syncprobe made in the target
		awk '$1 == "calls" && $2 == "pwrite" { print $3 }' "$1"
	}
	# Filling the 16MB test file takes 2048 writes of 8kB; -t etcd -n 20
	# writes its two rows' appends and their warm-ups only.
	tap_check "-t etcd: fewer writes than filling the test file takes (fault shim's count)" \
	    test "$(pwrites "$WORK/shim.etcd")" -lt 2048
	tap_check "-t nosync,etcd: the test file filled (2048 writes or more)" \
	    test "$(pwrites "$WORK/shim.nosync,etcd")" -ge 2048
	tap_check "-t etcd under the shim: nothing left" no_testfile "$dir"
else
	tap_skip "-t etcd: fewer writes than filling the test file takes" \
	    "LD_PRELOAD of tests/faultshim.so does not work here"
fi

# Without -t etcd there are no verdicts, and the key is still there.
run -q -F json -n 5 -t nosync "$dir"
if [ $have_jq = yes ]; then
	jq_check "$WORK/out" "no -t etcd: an empty verdicts array" '.targets[0].verdicts == []'
	jq_check "$WORK/out" "-t nosync: its settings (block, file, pattern), not direct or methods" \
	    '.settings | .block_bytes == 8192 and .file_bytes == 16777216 and .pattern == "overwrite"
	     and .direct == null and .methods == null'
	run -q -F json -n 5 -t etcd,one -m fdatasync "$dir"
	jq_check "$WORK/out" "-t etcd,one: every setting, as one uses them" \
	    '.settings | .block_bytes == 8192 and .file_bytes == 16777216 and .pattern == "overwrite"
	     and .direct == "both" and .methods == ["fdatasync"]'
else
	tap_skip "no -t etcd: an empty verdicts array" "jq is not installed"
fi

# The options reach the rows.
run -q -F json -n 100 -t etcd --etcd-write-size 4k --etcd-rate 500 "$dir"
tap_is "$rc" 0 "--etcd-write-size 4k --etcd-rate 500 exits 0"
if [ $have_jq = yes ]; then
	jq_check "$WORK/out" "4kB appends paced at 500/s" \
	    '[.targets[0].tests[] | .write_bytes] == [4096, 4096] and
	     .targets[0].tests[1].name == "fdatasync 4kB, 500/s" and .targets[0].tests[1].pace_per_sec == 500'
else
	tap_skip "4kB appends paced at 500/s" "jq is not installed"
fi

# ---- the text advice ----
run -q -n 120 -t etcd "$dir"
tap_is "$rc" 0 "text: exits 0"
tap_check "text: the group's heading" \
	grep -q "^etcd's WAL: appends to a preallocated segment, each synced$" "$WORK/out"
tap_check "text: the paced row" grep -q '^fdatasync 2300B, 150/s  ' "$WORK/out"
tap_check "text: etcd's verdict in the advice" grep -q '^  etcd: p99 fdatasync [0-9.]* ms: ' "$WORK/out"
tap_check "text: its figures under it" grep -q '^    (120 appends paced at 150/s: p99 write + fdatasync ' "$WORK/out"
tap_check "text: the lines fit 80 columns" test -z "$(awk 'length > 79' "$WORK/out")"
tap_check "text: the header says no block, file, pattern or direct I/O (etcd's rows use none)" \
	grep -qx '120 ops per test, 5 rounds' "$WORK/out"
tap_check "text: the durability doubt on a line of its own, in the words of its JSON result" \
	grep -Eq '^  etcd durability: (not proven durable: warning \[[a-z_]+\]|no doubt found: no warning casts doubt)' "$WORK/out"
tap_is "$(grep -E 'wal_sync_method|commit_delay|commit_siblings|What to set|one-write' "$WORK/out")" "" \
	"text: -t etcd alone says nothing of PostgreSQL"
run -q -t etcd --rounds 1 "$dir"
tap_is "$(grep -c "advice's one-write rows" "$WORK/out")" 0 \
	"text: nor its adaptive header (the advice's rows' longer time)"

# Too few operations for a p99: it says so rather than pass.
run -q -n 20 -t etcd "$dir"
tap_check "-n 20: no verdict, and why" grep -q \
	'^  etcd: no verdict: the paced row ran 20 operations, and a p99 needs at least' "$WORK/out"
run -q -F json -n 20 -t etcd "$dir"
if [ $have_jq = yes ]; then
	jq_check "$WORK/out" "-n 20: every p99 verdict too_few_ops" \
	    '[.targets[0].verdicts[:4][] | .result] == ["too_few_ops", "too_few_ops", "too_few_ops", "too_few_ops"]'
else
	tap_skip "-n 20: every p99 verdict too_few_ops" "jq is not installed"
fi

# ---- OpenMetrics ----
run -q -F openmetrics -n 20 -t etcd "$dir"
tap_check "openmetrics: the verdict gauge, by code and result" grep -q \
	'^syncprobe_verdict{target="[^"]*",target_index="1",code="etcd_sync_p99",result="too_few_ops"} 0$' "$WORK/out"
tap_check "openmetrics: the figure judged" grep -q \
	'^syncprobe_verdict_value_seconds{target="[^"]*",target_index="1",code="etcd_worst_stall"} [0-9.e-]*$' "$WORK/out"
if command -v promtool >/dev/null 2>&1; then
	tap_check "openmetrics: promtool check metrics" sh -c "promtool check metrics <'$WORK/out' >/dev/null 2>&1"
else
	tap_skip "openmetrics: promtool check metrics" "promtool is not installed"
fi

# ---- a full segment is renewed ----
# 70 appends of 1MiB a row are more than one 64,000,000-byte segment holds.
run -q -F json -n 70 --rounds 1 -t etcd --etcd-write-size 1M "$dir"
tap_is "$rc" 0 "1MiB appends past the segment's end: exits 0"
tap_check "1MiB appends: nothing left" no_testfile "$dir"
if [ $have_jq = yes ]; then
	jq_check "$WORK/out" "1MiB appends: every one ran" 'all(.targets[0].tests[]; .ops == 70)'
else
	tap_skip "1MiB appends: every one ran" "jq is not installed"
fi

# ---- refused ----
refused "--etcd-rate without -t etcd" "--etcd-rate" "$dir" -n 5 --etcd-rate 100 "$dir"
refused "--etcd-write-size without -t etcd" "--etcd-write-size" "$dir" -n 5 --etcd-write-size 1k "$dir"
refused "--etcd-rate 0" "--etcd-rate '0'" "$dir" -t etcd --etcd-rate 0 "$dir"
refused "--etcd-rate over 100000" "--etcd-rate '100001'" "$dir" -t etcd --etcd-rate 100001 "$dir"
refused "--etcd-rate abc" "--etcd-rate 'abc'" "$dir" -t etcd --etcd-rate abc "$dir"
refused "--etcd-write-size 0" "--etcd-write-size '0'" "$dir" -t etcd --etcd-write-size 0 "$dir"
refused "--etcd-write-size 2M" "--etcd-write-size '2M'" "$dir" -t etcd --etcd-write-size 2M "$dir"

# ---- a disk slowed to 12 ms per sync fails ----
if preload_works; then
	slow=$WORK/slow
	mkdir -p "$slow"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_SYNC_DELAY_US=12000 SYNCPROBE_FAULT_PATH=$slow \
	    "$SYNCPROBE" -q -F json -n 100 -t etcd "$slow" >"$WORK/slow.json" 2>"$WORK/err" || rc=$?
	tap_is "$rc" 0 "slowed to 12 ms a sync: exits 0"
	if [ $have_jq = yes ]; then
		jq_checks "$WORK/slow.json" <<'CHECKS'
slowed: the p99 sync is at least the 12 ms delay | .targets[0].verdicts[0].value_usecs >= 12000
slowed: not fast enough for etcd | .targets[0].verdicts[0] | .code == "etcd_sync_p99" and .result == "fail"
slowed: nor for a heavily loaded cluster | .targets[0].verdicts[1] | .code == "etcd_sync_p99_heavy" and .result == "fail"
slowed: write + sync fails too | [.targets[0].verdicts[2,3] | .result] == ["fail", "fail"]
CHECKS
	else
		tap_skip "slowed: the verdict fails" "jq is not installed"
	fi
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_SYNC_DELAY_US=12000 SYNCPROBE_FAULT_PATH=$slow \
	    "$SYNCPROBE" -q -n 100 -t etcd "$slow" >"$WORK/slow.txt" 2>"$WORK/err" || :
	# The answer as one line: where it wraps depends on the figure's
	# width (a p99 of 100 ms or more, on a loaded machine, puts "ms" on
	# the next line), which is not what this checks.
	tr '\n' ' ' <"$WORK/slow.txt" | tr -s ' ' >"$WORK/slow.joined"
	tap_check "slowed: the text says too slow" grep -q \
	    ' etcd: p99 fdatasync [0-9.]* ms: too slow (etcd needs it under 10 ms; under 2 ms for heavy load: no) ' \
	    "$WORK/slow.joined"
	tap_check "slowed: nothing left" no_testfile "$slow"
else
	tap_skip "slowed to 12 ms a sync: the verdict fails" "LD_PRELOAD of tests/faultshim.so does not work here"
fi

# ---- syncprobe compare: the runs' verdicts side by side ----
# Two saved -t etcd runs (and the slowed one, when the shim works), and a
# run without -t etcd: a line a verdict code, each run's figure in ms and
# its result, as its own JSON has them.
run -q -F json -n 120 -t etcd --label second "$dir"
cp "$WORK/out" "$WORK/etcd2.json"
run -q -F json -n 5 -t nosync "$dir"
cp "$WORK/out" "$WORK/nosync.json"
reports="$WORK/etcd.json $WORK/etcd2.json"
[ -f "$WORK/slow.json" ] && reports="$reports $WORK/slow.json"
# shellcheck disable=SC2086 # the list splits on purpose
run compare $reports "$WORK/nosync.json"
tap_is "$rc" 0 "compare of -t etcd runs exits 0"
verdicts=$(awk '/^Verdicts / { s = 1 } s && /^Advice$/ { exit } s' "$WORK/out")
tap_check "compare: a Verdicts section" test -n "$verdicts"
tap_check "compare: the lines fit 80 columns" test -z "$(awk 'length > 79' "$WORK/out")"
# (A legend line may wrap: read it joined.)
tr '\n' ' ' <"$WORK/out" | tr -s ' ' >"$WORK/joined"
tap_check "compare: an etcd-only run's legend has no block size" \
    grep -q " $WORK/etcd.json: [^ ]* [^ ]* syncprobe [^,]*, 5 rounds " "$WORK/joined"
# cells NAME: the table's cells of column NAME ("run 2"), as "CODE VALUE
# RESULT" lines (VALUE by %g, "-" where none; RESULT empty where none),
# the column found by where its name stands in its block's head.
cells() {
	printf '%s\n' "$verdicts" | awk -v want="$1" '
	    /^ +run / { nb = 0; line = $0; pos = 0
		    while (match(line, /run [0-9.]+/)) {
			    nb++; at[nb] = pos + RSTART; name[nb] = substr(line, RSTART, RLENGTH)
			    pos += RSTART + RLENGTH - 1; line = substr(line, RSTART + RLENGTH)
		    }
		    next }
	    /^etcd_/ { for (k = 1; k <= nb; k++) if (name[k] == want) {
			    end = k < nb ? at[k + 1] : length($0) + 1
			    m = split(substr($0, at[k], end - at[k]), f, " ")
			    v = m >= 1 ? f[1] : "-"
			    if (v != "-") v = sprintf("%g", v + 0)
			    print $1, v, (m >= 2 ? f[2] : "")
		    } }'
}
if [ $have_jq = yes ]; then
	n=0
	for r in $reports; do
		n=$((n + 1))
		jq -r '.targets[0].verdicts[] | "\(.code) \(if .value_usecs == null then "-"
		    else .value_usecs / 1000 end) \(.result)"' "$r" >"$WORK/want.$n"
		cells "run $n" >"$WORK/got.$n"
		# The same codes and results in the same order, each figure the
		# JSON's to the table's two decimals.
		tap_check "compare: run $n's verdicts as its JSON has them (code, ms, result)" \
		    awk 'NR == FNR { w[FNR] = $0; n = FNR; next }
			{ split(w[FNR], a, " ")
			  if (a[1] != $1 || a[3] != $3) exit 1
			  if (($2 == "-") != (a[2] == "-")) exit 1
			  if ($2 != "-" && (a[2] - $2 > 0.0051 || $2 - a[2] > 0.0051)) exit 1
			  m = FNR }
			END { if (m != n || n == 0) exit 1 }' "$WORK/want.$n" "$WORK/got.$n"
	done
	if [ -f "$WORK/slow.json" ]; then
		tap_check "compare: the slowed run fails etcd_sync_p99" \
		    grep -qx 'etcd_sync_p99 [0-9.]* fail' "$WORK/got.3"
	else
		tap_skip "compare: the slowed run fails etcd_sync_p99" \
		    "LD_PRELOAD of tests/faultshim.so does not work here"
	fi
	tap_is "$(cells "run $((n + 1))" | awk '{ print $2 $3 }' | sort -u)" "-" \
	    "compare: a run without -t etcd shows - for each verdict"
	tap_is "$(cells "run $((n + 1))" | wc -l | tr -d ' ')" 7 "compare: the seven codes, once each"
else
	tap_skip "compare: each run's verdicts as its JSON has them" "jq is not installed"
fi

tap_done
