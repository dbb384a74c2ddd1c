#!/bin/sh
# cli_errors.sh: documented exit statuses and one-line messages for the
# common mistakes (the full matrix is in cli_badinput.sh).
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"

# refused_exactly (tests/lib.sh): exit 2, stderr exactly the message, no
# output on stdout and no test file left in $dir.
refused_exactly "syncprobe: --secs-per-test '0': must be at least 1us" "$dir" -s 0 "$dir"
refused_exactly "syncprobe: --secs-per-test 'abc': not a duration (use e.g. 2, 1.5s or 500ms)" "$dir" -s abc "$dir"
refused_exactly "syncprobe: --secs-per-test '1.0000000001': finer than a nanosecond (at most 9 decimals in s, 6 in ms, 3 in us)" "$dir" -s 1.0000000001 "$dir"
refused_exactly "syncprobe: --secs-per-test '3600.0000000001': too long (at most 3600s)" "$dir" -s 3600.0000000001 "$dir"
refused_exactly "syncprobe: --ops-per-test '0': must be at least 1" "$dir" -n 0 "$dir"
refused_exactly "syncprobe: --block-size '3k': must be a power of two from 1k to 64k" "$dir" -b 3k "$dir"
refused_exactly "syncprobe: --direct 'yes': unknown value (choose both, on, off)" "$dir" --direct=yes "$dir"
# A method this system lacks cannot be the server's (Linux: no F_FULLFSYNC).
if [ "$(uname -s)" = Linux ]; then
	refused_exactly "syncprobe: --wal-sync-method 'fsync_writethrough': not available on this system (use open_datasync, fdatasync, fsync, open_sync)" \
	    "$dir" $FAST --wal-sync-method fsync_writethrough "$dir"
else
	tap_skip "--wal-sync-method fsync_writethrough refused" "only Linux is known to lack it"
fi
refused_exactly "syncprobe: --bogus: unknown option (see syncprobe --help)" "$dir" --bogus "$dir"
refused_exactly "syncprobe: -Z: unknown option (see syncprobe --help)" "$dir" -Z "$dir"
refused_exactly "syncprobe: --secs-per-test: needs a value (see syncprobe --help)" "$dir" "$dir" --secs-per-test
refused_exactly "syncprobe: --secs-per-test: conflicts with --ops-per-test (choose one)" "$dir" -s 1 -n 5 "$dir"
refused_exactly "syncprobe: $dir/missing: No such file or directory (give an existing directory)" "$dir" $FAST "$dir/missing"
: >"$WORK/plain"
refused_exactly "syncprobe: $WORK/plain: not a directory (give a directory to test in)" "$dir" $FAST "$WORK/plain"
echo keep >"$dir/existing"
refused_exactly "syncprobe: $dir/existing: already exists (syncprobe never overwrites a file; name a new one)" "$dir" $FAST -f "$dir/existing"
tap_is "$(cat "$dir/existing")" "keep" "-f EXISTING leaves the file untouched"
rm "$dir/existing"

run --help
tap_is "$rc" 0 "--help exits 0"
tap_check "--help prints usage on stdout" grep -q '^Usage: syncprobe' "$WORK/out"
run --version
tap_is "$rc:$(cat "$WORK/out")" "0:syncprobe 0.1" "--version"

# --help and --version whose output cannot be written: exit 1 and say so,
# as for a report (a full disk, a closed standard output).
for opt in --help --version; do
	if [ -w /dev/full ]; then
		rc=0
		"$SYNCPROBE" "$opt" >/dev/full 2>"$WORK/err" || rc=$?
		tap_is "$rc:$(cat "$WORK/err")" "1:syncprobe: write standard output: No space left on device" \
		    "$opt to /dev/full: exit 1, explained"
	else
		tap_skip "$opt to /dev/full" "no /dev/full"
	fi
	rc=0
	"$SYNCPROBE" "$opt" >&- 2>"$WORK/err" || rc=$?
	tap_is "$rc:$(cat "$WORK/err")" "1:syncprobe: write standard output: Bad file descriptor" \
	    "$opt with standard output closed: exit 1, explained"
done

tap_done
