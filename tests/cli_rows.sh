#!/bin/sh
# cli_rows.sh: every row of every group is reported, with figures or a reason,
# and the run leaves nothing behind.
. "$top_srcdir/tests/lib.sh"

out=$WORK/out
dir=$WORK/target
mkdir "$dir"

# section_lines TITLE: the lines of the section titled TITLE in $out, from
# the title to the next blank line, minus the title, the two heading lines
# and the group's notes (in parentheses, continued with one space): rows,
# and under a row that cannot run, its reason indented four spaces.
section_lines() {
	awk -v t="$1" '$0 == t { s = 1; n = 0; next } s && /^$/ { s = 0 }
		s { n++; if (n > 2 && $0 !~ /^\(/ && $0 !~ /^ [^ ]/) print }' "$out"
}

# section_rows TITLE: the rows alone.
section_rows() {
	section_lines "$1" | awk '!/^    /'
}

count_rows() {
	section_rows "$1" | wc -l | tr -d ' '
}

rc=0
"$SYNCPROBE" $FAST "$dir" >"$out" 2>"$WORK/err" || rc=$?
tap_is "$rc" 0 "a default run with -n 20 exits 0"
tap_is "$(cat "$WORK/err")" "" "nothing on stderr with --quiet"
tap_check "no test file left in the target" no_testfile "$dir"
tap_is "$(ls -A "$dir")" "" "the target is as empty as before"

one="Compare file sync methods using one 8kB write"
two="Compare file sync methods using two 8kB writes"
tap_is "$(count_rows "$one")" 11 "group one has 11 rows (5 methods, buffered and direct, and one paced)"
tap_is "$(section_rows "$one" | grep -c '^fdatasync, 100/s paced ' || true)" 1 \
    "group one has the paced row, of the default method"
tap_is "$(count_rows "$two")" 10 "group two has 10 rows"
tap_is "$(count_rows "Compare open_sync with different write sizes")" 5 "sizes has 5 rows"
tap_is "$(count_rows "Test if fsync on non-write file descriptor is honored")" 2 "descriptor has 2 rows"
tap_is "$(count_rows "Non-sync'ed 8kB writes")" 1 "nosync has 1 row"

# check_row TITLE NAME: the row NAME in section TITLE either has five
# ordered figures or is n/a with its reason on the next line; a row that
# failed ("error") fails the test.
check_row() {
	name=$2
	# The row (NAME, spaces, a figure or n/a or error) and the line after it.
	lines=$(section_lines "$1" | awk -v n="$name" 'found { print; exit }
		index($0, n " ") == 1 && substr($0, length(n) + 1) ~ /^ +[0-9ne]/ { print; found = 1 }')
	row=${lines%%"$nl"*}
	reason=
	case $lines in
	*"$nl    "?*) reason=${lines#*"$nl    "} ;;
	esac
	case ${row#"$name"} in
	"") tap_fail "row '$name' in '$1'" "$(cat "$out")" ;;
	*" n/a")
		if [ -n "$reason" ]; then
			tap_ok "row '$name' unsupported (n/a): $reason"
		else
			tap_fail "row '$name' is n/a without a reason line" "$lines"
		fi
		;;
	*" error") tap_fail "row '$name' failed" "$lines" ;;
	*)
		# ops/sec, mean, the mean's +-% (a number, ">99" past 99.9, or
		# - with too few slices; adaptive, a * after it when the row's
		# time ran out first), p50, p99, max: six figures, the last
		# three ordered.
		set -- ${row#"$name"}
		if [ $# -eq 6 ] && awk -v p="${3%\*}" -v a="$4" -v b="$5" -v c="$6" \
		    'BEGIN { exit !((p == "-" || p == ">99" || p + 0 == p) && a <= b && b <= c) }'; then
			tap_ok "row '$name' has six figures with p50 <= p99 <= max"
		else
			tap_fail "row '$name' figures" "$row"
		fi
		;;
	esac
}

for m in open_datasync fdatasync fsync fsync_writethrough open_sync; do
	for suffix in "" " (direct)"; do
		check_row "$one" "$m$suffix"
	done
done

# Unsupported rows carry their reason on the next line.
if grep -A1 '^fsync_writethrough  *n/a$' "$out" | grep -q 'F_FULLFSYNC'; then
	tap_ok "fsync_writethrough n/a says why (F_FULLFSYNC)"
elif grep -q '^fsync_writethrough  *[0-9]' "$out"; then
	tap_skip "fsync_writethrough n/a reason" "this system has F_FULLFSYNC"
else
	tap_fail "fsync_writethrough n/a reason" "$(cat "$out")"
fi

# The non-synced write keeps sub-microsecond precision (two decimals).
line=$(section_rows "Non-sync'ed 8kB writes")
case $line in
*[0-9].[0-9][0-9]*) tap_ok "nosync latency printed with sub-microsecond precision" ;;
*) tap_fail "nosync precision" "$line" ;;
esac

# --direct and --tests and --methods choose the rows.
"$SYNCPROBE" $FAST --direct=off -t one "$dir" >"$out"
tap_is "$(count_rows "$one")" 6 "--direct=off: 5 buffered rows and the paced one"
tap_is "$(grep -c '(direct)' "$out" || true)" 0 "--direct=off: no direct row"
"$SYNCPROBE" $FAST --direct=on -t one,two "$dir" >"$out"
tap_is "$(section_rows "$one" | grep -vc '(direct)' || true)" 0 "--direct=on: only direct rows"
tap_is "$(count_rows "$two")" 5 "--direct=on: 5 rows in group two"
"$SYNCPROBE" $FAST -t nosync,one -m fdatasync --direct=off "$dir" >"$out"
tap_is "$(count_rows "$one")" 2 "-m fdatasync: one row in group one, and its paced row"
tap_is "$(count_rows "$two")" 0 "-t nosync,one: no group two"
tap_is "$(count_rows "Non-sync'ed 8kB writes")" 1 "-t nosync,one: the nosync row"

# Other block sizes and the append pattern run and clean up.
rc=0
"$SYNCPROBE" $FAST -b 4k --pattern=append -t one,two --direct=off "$dir" >"$out" || rc=$?
tap_is "$rc" 0 "-b 4k --pattern=append exits 0"
tap_check "-b 4k titles say 4kB" grep -q "using one 4kB write" "$out"
tap_check "append run leaves nothing" no_testfile "$dir"

# -f uses exactly the named file and removes it.
rc=0
"$SYNCPROBE" $FAST -t one -m fsync -f "$dir/my test file" >"$out" || rc=$?
tap_is "$rc" 0 "-f NEWFILE exits 0"
tap_check "-f file removed afterwards" test ! -e "$dir/my test file"
tap_check "-f names the file as the target" grep -q "target: $dir/my test file" "$out"

# Rounds split the operations: with -n 20 in 3 rounds every row still has
# 20, done as slices of 7, 7 and 6 (20 / 3, one more in the first 20 % 3).
rc=0
"$SYNCPROBE" -F json -q -n 20 --file-size 64k --rounds 3 -t one,two -m fdatasync \
    --direct=off "$dir" >"$out" || rc=$?
tap_is "$rc" 0 "--rounds 3 exits 0"
if command -v jq >/dev/null 2>&1; then
	jq_checks "$out" <<'CHECKS'
--rounds 3: every row still has 20 operations | [.targets[0].tests[].ops] == [20, 20, 20]
--rounds 3: each row in slices of 7, 7 and 6, summing to 20 | all(.targets[0].tests[];
	[.slices[].ops] == [7, 7, 6] and (.slices | map(.ops) | add) == .ops)
CHECKS
else
	tap_skip "--rounds 3: every row still has 20 operations" "jq is not installed"
	tap_skip "--rounds 3: each row in slices of 7, 7 and 6, summing to 20" "jq is not installed"
fi

# Several targets are reported side by side.
mkdir "$dir/b"
"$SYNCPROBE" $ONE "$dir" "$dir/b" >"$out"
tap_check "two targets: both named, numbered" sh -c "grep -q '^target 1: $dir\$' '$out' && grep -q '^target 2: $dir/b\$' '$out'"
tap_check "two targets: a column block each" grep -q '^  *target 1  *target 2$' "$out"
tap_check "two targets: an advice block each" test "$(grep -c '^Advice for ' "$out")" -eq 2
tap_check "two targets: nothing left" sh -c "[ -z \"\$(find '$dir' -name '.syncprobe.*')\" ]"
tap_check "two targets: ops/sec and mean for each" grep -q '^  *ops/sec  *mean  *ops/sec  *mean$' "$out"
tap_check "two targets: the second on the first one's filesystem" \
    grep -q '^  same filesystem as target 1$' "$out"

# More targets than fit: tables under the first, all in 80 columns.
mkdir "$dir/c"
"$SYNCPROBE" $FAST -t one -m fdatasync,fsync_writethrough "$dir" "$dir/b" "$dir/c" >"$out"
tap_check "three targets: the third in a table under the first two" grep -q '^  *target 3$' "$out"
tap_check "three targets: n/a with a footnote" grep -q '^fsync_writethrough  *n/a \[1\]  *n/a \[1\]$' "$out"
tap_check "three targets: the footnote" grep -q '^  \[1\] F_FULLFSYNC is not available' "$out"
tap_is "$(awk 'length > 79' "$out")" "" "three targets: no line over 79 columns"

# Histograms under the rows, in 80 columns.
"$SYNCPROBE" $FAST -t one,nosync -m fdatasync --histogram=fdatasync,write "$dir" >"$out"
ranges=$(grep -c '^    *\[' "$out" || :)
tap_is "$(grep -Ec '^    *\[[0-9.]+, [0-9.]+[])] \|#* *\| +[0-9]+ +<?[0-9.]+%( p50)?( p99)?$' "$out" || :)" \
    "$ranges" "--histogram: each of its $ranges lines has a range, a bar, a count and a share"
tap_check "--histogram: p50 and p99 marked" sh -c "grep -q ' p50' '$out' && grep -q ' p99' '$out'"
tap_is "$(awk 'length > 79' "$out")" "" "--histogram: no line over 79 columns"
tap_is "$(awk '/^fdatasync \(direct\)/ { getline; print }' "$out" | grep -c '^ *\[' || :)" 1 \
    "--histogram=fdatasync: the direct row too"
counts=$(awk '/^write  / { s = 1; next } s && /^ *\[/ { sub(/.*\| */, ""); sub(/ .*/, ""); n += $0; next } s { exit } END { print n }' "$out")
tap_is "$counts" 20 "--histogram: the counts under a row add up to its 20 operations"
refused "--histogram naming no row is refused" "--histogram 'fdatasnc'" "$dir" \
    --histogram=fdatasnc $ONE "$dir"
refused "--histogram with -F json is refused" "--histogram" "$dir" -F json --histogram $ONE "$dir"

tap_done
