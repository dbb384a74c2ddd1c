#!/bin/sh
# cli_errors.sh: documented exit statuses and one-line messages for the
# common mistakes (the full matrix is in cli_badinput.sh).
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"

# expect STATUS MESSAGE ARGS...: exit STATUS, stderr exactly MESSAGE, no
# output on stdout and no test file left.
expect() {
	want_rc=$1
	want_err=$2
	shift 2
	rc=0
	"$SYNCPROBE" "$@" >"$WORK/stdout" 2>"$WORK/stderr" || rc=$?
	got_err=$(cat "$WORK/stderr")
	if [ "$rc" -eq "$want_rc" ] && [ "$got_err" = "$want_err" ] &&
	    [ ! -s "$WORK/stdout" ] && no_testfile "$dir"; then
		tap_ok "$* -> exit $want_rc, '$want_err'"
	else
		tap_fail "$* -> exit $want_rc" "rc=$rc stderr='$got_err' stdout=$(wc -c <"$WORK/stdout")"
	fi
}

expect 2 "syncprobe: --secs-per-test '0': must be at least 1us" -s 0 "$dir"
expect 2 "syncprobe: --secs-per-test 'abc': not a duration (use e.g. 2, 1.5s or 500ms)" -s abc "$dir"
expect 2 "syncprobe: --ops-per-test '0': must be at least 1" -n 0 "$dir"
expect 2 "syncprobe: --block-size '3k': must be a power of two from 1k to 64k" -b 3k "$dir"
expect 2 "syncprobe: --direct 'yes': unknown value (choose both, on, off)" --direct=yes "$dir"
expect 2 "syncprobe: --bogus: unknown option (see syncprobe --help)" --bogus "$dir"
expect 2 "syncprobe: -Z: unknown option (see syncprobe --help)" -Z "$dir"
expect 2 "syncprobe: --secs-per-test: needs a value (see syncprobe --help)" "$dir" --secs-per-test
expect 2 "syncprobe: --secs-per-test: conflicts with --ops-per-test (choose one)" -s 1 -n 5 "$dir"
expect 2 "syncprobe: $dir/missing: No such file or directory (give an existing directory)" $FAST "$dir/missing"
: >"$WORK/plain"
expect 2 "syncprobe: $WORK/plain: not a directory (give a directory to test in)" $FAST "$WORK/plain"
echo keep >"$dir/existing"
expect 2 "syncprobe: $dir/existing: already exists (syncprobe never overwrites a file; name a new one)" $FAST -f "$dir/existing"
tap_is "$(cat "$dir/existing")" "keep" "-f EXISTING leaves the file untouched"
rm "$dir/existing"

rc=0
"$SYNCPROBE" --help >"$WORK/stdout" 2>"$WORK/stderr" || rc=$?
tap_is "$rc" 0 "--help exits 0"
tap_check "--help prints usage on stdout" grep -q '^Usage: syncprobe' "$WORK/stdout"
rc=0
"$SYNCPROBE" --version >"$WORK/stdout" || rc=$?
tap_is "$rc:$(cat "$WORK/stdout")" "0:syncprobe 0.1" "--version"

tap_done
