#!/bin/sh
# cli_group.sh: -t group, the group-commit experiment, run for real on a
# tmpfs (quick: its flushes take microseconds): the text tables and the
# advice, the JSON "group" block checked with jq, -n counting exactly, and
# its options refused when out of range.
. "$top_srcdir/tests/lib.sh"

# A tmpfs: our own when root, else /dev/shm, else the work directory.
dir=$WORK/tmpfs
if ! mount_tmpfs "$dir" size=64m; then
	dir=$WORK/target
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		dir=$(mktemp -d /dev/shm/syncprobe-test.XXXXXX)
		trap 'rm -rf "$dir"; cleanup_work' EXIT
	fi
	mkdir -p "$dir"
fi
QUICK="-q -s 20ms --rounds 3 --file-size 256k"

run $QUICK -t group --clients 1,3 --commit-delays 0,40 "$dir"
out=$WORK/out
tap_is "$rc" 0 "-t group exits 0"
tap_check "no test file left" no_testfile "$dir"
tap_check "the experiment's heading" grep -q '^Group commit with commit_delay, 8kB log pages$' "$out"
tap_check "a table for 1 client" grep -q '^1 client  *commits/s' "$out"
tap_check "a table for 3 clients" grep -q '^3 clients  *commits/s' "$out"
tap_is "$(grep -c '^ *40 us ' "$out")" 2 "the 40 us delay has a line in each table"
tap_is "$(grep -c "^  CPU a commit at 0: [0-9.]* us (client and committer; 60us of it --txn-work)\$" "$out")" 2 \
	"under each table, what a commit cost in CPU at 0"
tap_check "the lines fit 80 columns" test -z "$(awk 'length > 79' "$out")"
tap_check "advice: commit_delay from the experiment" \
	grep -q '^    measured by the group-commit experiment ([a-z_]*, 1 to 3 clients)' "$out"
tap_check "advice: commit_siblings" grep -q '^  commit_siblings = [0-9][0-9]*$' "$out"
# -t group alone measures the buffered one- and two-write rows its advice
# rests on, and says so.
tap_check "-t group alone: the header says one and two are measured too" \
	grep -q "^-t group without one: the one and two tests' buffered rows are measured" "$out"
tap_check "-t group alone: a one-write table, buffered rows only" \
	sh -c "grep -q '^Compare file sync methods using one 8kB write\$' '$out' &&
	    grep -q '^fdatasync  *[0-9]' '$out' && ! grep -q '(direct)' '$out'"
tap_check "-t group alone: a two-write table" \
	grep -q '^Compare file sync methods using two 8kB writes$' "$out"
tap_check "-t group alone: wal_sync_method is advised" \
	grep -q "^  wal_sync_method = '[a-z_]*'$" "$out"
tap_check "-t group alone: the rule rests on the one-write row's mean" \
	grep -q "the one-write row's mean" "$out"
run $QUICK -t one,group -m fdatasync --clients 1 --commit-delays 0 "$dir"
tap_check "-t one,group: nothing added, no two-write table" \
	sh -c "! grep -q 'measured too\|using two 8kB' '$out'"

# -n counts exactly: -n 30 over 3 rounds is 10 commits a slice.
run -q -F json -n 30 --rounds 3 --file-size 256k -t group --clients 2 --commit-delays 0,10 "$dir"
tap_is "$rc" 0 "-t group -n 30 exits 0"
if command -v jq >/dev/null 2>&1; then
	cp "$out" "$WORK/n.json"
	jq_checks "$WORK/n.json" <<'CHECKS'
-n 30: every cell counted exactly 30 commits, 10 a round | [.targets[0].group.clients[].cells[]
	| .commits == 30 and ([.slices[].commits] == [10, 10, 10])] | all
-t group alone: the tests that ran, one and two added | .settings.tests == ["one", "two", "group"]
CHECKS
else
	tap_skip "-n 30: every cell counted exactly 30 commits" "jq is not installed"
fi

# A committer counts as a sibling from its record on, not during its
# work: the server's INSERT takes its transaction id after the parsing and
# planning. Two committers whose work (20 ms) dwarfs a flush on tmpfs: the
# leader almost never finds the other with a record waiting, so with
# commit_siblings 1 most of its flushes do not sleep. Counted from the
# start of the work, the other was in a transaction at nearly every flush.
# The two drift apart only when a flush is shorter than the gap between
# their wake-ups; under ThreadSanitizer (.ci/run sets TSAN_OPTIONS) the
# flush is slower and they can stay in step, every flush covering both, so
# there the check is left to the other builds.
run -q -F json -n 24 --rounds 2 --file-size 256k -t group --clients 2 \
	--commit-siblings 1 --commit-delays 0,200 --txn-work 20ms "$dir"
tap_is "$rc" 0 "-t group --txn-work 20ms exits 0"
if [ -n "${TSAN_OPTIONS:-}" ]; then
	tap_skip "siblings counted from the record" "under ThreadSanitizer the committers can stay in step"
elif command -v jq >/dev/null 2>&1; then
	cp "$out" "$WORK/sib.json"
	jq_checks "$WORK/sib.json" <<'CHECKS'
siblings counted from the record: most flushes of the 200 us cell did not sleep | .targets[0].group
	| .clients[0].cells[1] | .commit_delay_usecs == 200 and .flushes > 0
	  and .delayed_flushes * 2 < .flushes
CHECKS
else
	tap_skip "siblings counted from the record" "jq is not installed"
fi

# What a commit cost the experiment in CPU: its client's and committer's
# threads' CPU time over the slices, so at least the --txn-work they spin
# (each side's share counted: the committer's alone is two thirds of it).
run -q -F json -n 6 --rounds 1 --file-size 256k -t group --clients 2 \
	--commit-delays 0 --txn-work 20ms "$dir"
tap_is "$rc" 0 "-t group --txn-work 20ms -n 6 exits 0"
if command -v jq >/dev/null 2>&1; then
	cp "$out" "$WORK/cpu.json"
	jq_checks "$WORK/cpu.json" <<'CHECKS'
a commit's CPU: at least the 20 ms of work, client's and committer's | [.targets[0].group.clients[]
	.cells[].commit_cpu_usecs] | length > 0 and all(. >= 20000)
CHECKS
else
	tap_skip "a commit's CPU: at least the 20 ms of work" "jq is not installed"
fi

# The JSON block, with the default sweep (from the measured flush).
run $QUICK -F json -t one,group -m fdatasync --direct=off --clients 1,4 "$dir"
tap_is "$rc" 0 "-F json -t one,group exits 0"
schema_valid "-F json -t one,group" report "$out"
if command -v jq >/dev/null 2>&1; then
	cp "$out" "$WORK/g.json"
	jq_checks "$WORK/g.json" <<'CHECKS'
settings list the group test | .settings.tests == ["one", "group"]
the group block names the method, buffered | .targets[0].group
	| .method == "fdatasync" and .direct == false and .page_bytes == 8192
	  and .record_bytes == 112 and .commit_siblings == 5 and .rounds == 3
	  and .txn_work_usecs == 60
d is the one-write row's mean, as the advice's basis | .targets[0] as $t
	| $t.group.basis == "row" and $t.group.basis_usecs == $t.advice.basis.mean_usecs
the sweep: 0 first, ascending, no repeats | .targets[0].group
	| .commit_delays_usecs[0] == 0 and .commit_delays_usecs == (.commit_delays_usecs | unique)
	  and (.commit_delays_usecs | length) >= 2
the sweep: round values only, the grid's 1-2.5-5 | [.targets[0].group.commit_delays_usecs[1:][]
	| tostring | test("^(1|2|25|5)0*$")] | all
the sweep: the round value at or below d/8 to the one nearest 2d, none between skipped | .targets[0].group
	| .basis_usecs as $d | .commit_delays_usecs as $c
	| ($d / 8 < 1 or ($c[1] <= $d / 8 and $c[1] * 2.5 > $d / 8))
	  and $c[-1] <= ([2 * $d, 1] | max) * 1.6 and $c[-1] >= 2 * $d / 1.6
	  and ([range(2; $c | length) | $c[.] <= $c[. - 1] * 2.5] | all)
the rule is half of d, rounded | .targets[0].group
	| .rule_commit_delay_usecs == ((.basis_usecs / 2) | round)
a cell for every client count and delay | .targets[0].group as $g
	| [$g.clients[].clients] == [1, 4]
	  and all($g.clients[]; [.cells[].commit_delay_usecs] == $g.commit_delays_usecs)
every cell has its figures | [.targets[0].group.clients[].cells[]
	| .commits > 0 and .flushes > 0 and .flushes <= .commits
	  and .commits_per_flush >= 1 and .commits_per_sec > 0 and .commit_usecs.p50 <= .commit_usecs.p99
	  and (.versus_zero | IN("better", "worse", "same"))
	  and (.slices | length) >= 3 and .delayed_flushes <= .flushes] | all
deciding: each cell decided has --decide more rounds at a time, 0 all its count's | .targets[0].group
	| .decide == 5 and ([.clients[].cells[] | (.slices | length) == 3 + .decided_rounds] | all)
	  and ([.clients[].cells[1:][] | .decided_rounds | IN(0, 5, 10, 15, 20)] | all)
	  and ([.clients[] | .cells[0].decided_rounds == ([.cells[1:][].decided_rounds] | add)] | all)
deciding stops before 4 x --decide only on a clear verdict or no lead | [.targets[0].group.clients[].cells[1:][]
	| select(.decided_rounds > 0 and .decided_rounds < 20)
	| (.versus_zero | IN("better", "worse")) or .versus_zero_percent <= 0] | all
delay 0 never sleeps, and is compared with nothing | [.targets[0].group.clients[].cells[0]
	| .commit_delay_usecs == 0 and .delayed_flushes == 0 and .versus_zero == "same"] | all
one committer: one commit per flush | [.targets[0].group.clients[0].cells[].commits_per_flush] | all(. == 1)
best and pick are swept delays | .targets[0].group as $g | [$g.clients[]
	| (.best_commit_delay_usecs | IN($g.commit_delays_usecs[])) and (.pick_commit_delay_usecs | IN($g.commit_delays_usecs[]))
	  and .pick_commit_delay_usecs <= .best_commit_delay_usecs] | all
the advice comes from the experiment | .targets[0].advice
	| .commit_delay_source == "group" and (.commit_delay_usecs | type) == "number"
	  and (.commit_siblings | type) == "number" and (.rule_commit_delay_reason | length) > 0
the advised delay was swept | .targets[0] as $t | $t.advice.commit_delay_usecs | IN($t.group.commit_delays_usecs[])
rule_commit_delay_usecs is the rule's value whatever was advised | .targets[0]
	| .advice.rule_commit_delay_usecs == .group.rule_commit_delay_usecs
	  and .advice.rule_commit_delay_usecs == ((.advice.basis.mean_usecs / 2) | round)
CHECKS
else
	tap_skip "the JSON group block" "jq is not installed"
fi

# --decide 0: no deciding rounds; every cell has the sweep's rounds.
run $QUICK -F json -t group --clients 2,4 --commit-delays 0,20,40 --decide 0 "$dir"
if command -v jq >/dev/null 2>&1; then
	tap_is "$(jq -c '[.targets[0].group | .decide, ([.clients[].cells[].decided_rounds] | unique),
	    ([.clients[].cells[].slices | length] | unique)]' "$out")" '[0,[0],[3]]' \
	    "--decide 0: nothing decided, every cell its 3 rounds"
else
	tap_skip "--decide 0" "jq is not installed"
fi

# --direct=on measures no buffered row: the experiment writes with direct
# I/O like the direct row its d comes from, so that d and the flushes swept
# around it are of one kind; where direct I/O is refused it writes buffered
# and d is its own flush. Both on the work directory (ext4, xfs...) and on
# the tmpfs (which refuses O_DIRECT before Linux 6.6).
for ddir in "$WORK" "$dir"; do
	run $QUICK -F json -t one,group -m fdatasync --direct=on --clients 1 \
	    --commit-delays 0,10 "$ddir"
	tap_is "$rc" 0 "-t one,group --direct=on exits 0 ($ddir)"
	if command -v jq >/dev/null 2>&1; then
		cp "$out" "$WORK/d.json"
		jq_checks "$WORK/d.json" <<'CHECKS'
--direct=on: the group writes as the row d comes from | .targets[0] as $t
	| [$t.tests[] | select(.group == "one" and .method == "fdatasync")][0] as $r
	| if $r.status == "ok" then
	    $t.group.direct == true and $t.group.basis == "row" and $r.direct == true
	    and $t.advice.basis.name == $r.name
	    and $t.group.basis_usecs == $t.advice.basis.mean_usecs
	  else
	    $t.group.direct == false and $t.group.basis == "flush"
	  end
CHECKS
	else
		tap_skip "--direct=on: the group writes as the row d comes from" "jq is not installed"
	fi
	run $QUICK -t one,group -m fdatasync --direct=on --clients 1 --commit-delays 0 "$ddir"
	if grep -q '^fdatasync (direct)  *[0-9]' "$out"; then
		tap_check "--direct=on: the text says the group writes with direct I/O" \
		    sh -c "tr '\\n' ' ' <'$out' | grep -q 'fdatasync, with direct I/O like its one-write row'"
	else
		tap_check "--direct=on, direct I/O refused: the text says buffered" \
		    grep -q '^fdatasync, buffered as a server writes its WAL' "$out"
	fi
done
# The default: buffered rows, a buffered experiment.
if command -v jq >/dev/null 2>&1; then
	jq_checks "$WORK/g.json" <<'CHECKS'
--direct=off: the group is buffered, as its row | .targets[0].group.direct == false
	and .targets[0].advice.basis.direct == false
CHECKS
fi

# Without -t group the group block is null and the advice is the rule.
run -q -F json -n 5 --file-size 64k -t one -m fdatasync --direct=off "$dir"
if command -v jq >/dev/null 2>&1; then
	cp "$out" "$WORK/r.json"
	jq_checks "$WORK/r.json" <<'CHECKS'
without -t group: no block, the rule, commit_siblings 5 | .targets[0]
	| .group == null and .advice.commit_delay_source == "rule"
	  and .advice.commit_delay_usecs == .advice.rule_commit_delay_usecs and .advice.commit_siblings == 5
	  and .advice.rule_commit_delay_reason == null
CHECKS
else
	tap_skip "without -t group: no block, the rule" "jq is not installed"
fi

# -F conf: the same answer as the text, as settings.
run -q -F conf -n 30 --rounds 3 --file-size 256k -t group --clients 1,3 --commit-delays 0,40 "$dir"
# Figures of memory (a tmpfs TMPDIR) leave every setting commented out:
# read those lines then.
if grep -q '^# the figures are not of durable storage' "$out"; then
	grep -vx '#commit_siblings = 5' "$out" >"$out.on" && mv "$out.on" "$out"
	sed -i 's/^#\(wal_sync_method\|commit_delay\|commit_siblings\) /\1 /' "$out"
fi
tap_check "-F conf -t group: commit_delay measured, and active" \
	sh -c "grep -qx 'commit_delay = [0-9]*' '$out' &&
	    grep -B1 -x 'commit_delay = [0-9]*' '$out' | grep -q '^# commit_delay: measured by -t group: '"
settings=$(grep -v '^#' "$out" | sed 's/ = .*//' | tr '\n' ' ')
case $settings in
"wal_sync_method commit_delay " | "wal_sync_method commit_delay commit_siblings ")
	tap_ok "-F conf -t group: only settings and comments ($settings)" ;;
*) tap_fail "-F conf -t group: only settings and comments" "$settings" ;;
esac

# --wal-sync-method needs the one-write test or the experiment.
run $QUICK -t group --clients 1 --commit-delays 0 --wal-sync-method=fsync "$dir"
tap_is "$rc" 0 "--wal-sync-method with -t group alone is accepted"
tap_check "and the experiment uses it" grep -q '^fsync, buffered' "$out"
tap_check "one client count: its span is one figure, not '1 to 1'" sh -c \
	"grep -q '(fsync, 1 client)' '$out' && ! grep -q ' 1 to 1 client' '$out'"

# Out-of-range values of its options, the usage-error contract.
refused "--clients=0 refused" "--clients '0'" "$dir" --clients=0 "$dir"
refused "--clients=1,x refused" "--clients '1,x'" "$dir" --clients=1,x "$dir"
refused "--clients=1001 refused" "--clients '1001'" "$dir" --clients=1001 "$dir"
refused "17 --clients values refused" "--clients '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17'" \
	"$dir" --clients=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 "$dir"
refused "--commit-delays=100001 refused" "--commit-delays '100001'" "$dir" \
	--commit-delays=100001 "$dir"
refused "--commit-siblings=1001 refused" "--commit-siblings '1001'" "$dir" \
	--commit-siblings=1001 "$dir"
refused "--commit-siblings=-1 refused" "--commit-siblings '-1'" "$dir" --commit-siblings=-1 "$dir"
refused "--txn-work=1s refused" "--txn-work '1s'" "$dir" --txn-work=1s "$dir"
refused "--record-size=0 refused" "--record-size '0'" "$dir" --record-size=0 "$dir"
refused "--record-size=2M refused" "--record-size '2M'" "$dir" --record-size=2M "$dir"
refused_exactly "syncprobe: --file-size '8kB': too small for the chosen tests (at least 176kB)" \
	"$dir" -t group --clients 1000 --file-size 8k "$dir"
# A -m naming only methods this system lacks: the experiment would have
# to flush with another one, so it is refused (where the system has the
# method, -t one measures it and the case does not arise).
run -q -F json -n 1 --rounds 1 --file-size 64k -t one --direct=off -m fsync_writethrough "$dir"
if grep -q '"unsupported"' "$WORK/out"; then
	refused "-t group -m fsync_writethrough without F_FULLFSYNC: refused" "--methods" \
		"$dir" -t group -m fsync_writethrough "$dir"
	tap_check "and the message says why and names the methods there are" grep -q \
		"^syncprobe: --methods: the 'group' test needs a method this system has (fsync_writethrough: .*; it has .*fdatasync" \
		"$WORK/err"
else
	tap_skip "-t group -m fsync_writethrough without F_FULLFSYNC" "this system has it"
	tap_skip "and the message" "this system has it"
fi
# The experiment's options without it would do nothing: refused.
refused_exactly "syncprobe: --clients: only -t group uses it (add group to --tests)" \
	"$dir" --clients 4 "$dir"
refused_exactly "syncprobe: --txn-work: only -t group uses it (add group to --tests)" \
	"$dir" -t one,two --txn-work 10us "$dir"
run $QUICK -t group --clients 1 --commit-delays 0 --txn-work 0 --commit-siblings 0 \
	--record-size 1 "$dir"
tap_is "$rc" 0 "the smallest values are accepted (--txn-work 0, --commit-siblings 0, --record-size 1)"

tap_done
