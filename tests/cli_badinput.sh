#!/bin/sh
# cli_badinput.sh: the bad-input matrix. Every case must exit with the
# documented status (2: bad usage or a target that cannot be used), print
# nothing on stdout and exactly one line on stderr, "syncprobe: WHAT: WHY",
# naming the value or path as given, and leave nothing in the target.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"

# refused (tests/lib.sh) checks a case against the contract above.
# named DESC NEEDLE TARGETDIR ARGS...: as refused, for messages that hold
# the value or path within a longer WHAT ("create PATH", a path too long
# cut short, "--file-size" with the size as printed): one line
# "syncprobe: WHAT: WHY" that contains NEEDLE.
named() {
	desc=$1 needle=$2 tdir=$3
	shift 3
	run "$@"
	problems=
	err=$(cat "$WORK/err")
	case $err in
	"syncprobe: "*": "?*) ;;
	*) problem "not 'syncprobe: WHAT: WHY'" ;;
	esac
	case $err in
	*"$needle"*) ;;
	*) problem "does not name '$needle'" ;;
	esac
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || problem "not one line on stderr"
	usage_verdict "$desc" "$tdir"
}

# ---- the target ----
refused "target missing" "$WORK/missing" "$WORK" $ONE "$WORK/missing"
tap_check "a missing target is not created" test ! -e "$WORK/missing"

printf 'keep\n' >"$WORK/plain"
refused "target is a regular file" "$WORK/plain" "$WORK" $ONE "$WORK/plain"
tap_is "$(cat "$WORK/plain")" "keep" "a regular-file target is untouched"

# Root ignores permission bits: drop to nobody to see EACCES.
ro=$WORK/readonly
mkdir "$ro"
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$ro"
	refused "target not writable" "create $ro/.syncprobe.XXXXXX" "$ro" $ONE "$ro"
	chmod 755 "$ro"
elif command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups true 2>/dev/null; then
	AS="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
	refused "target not writable (as nobody)" "create $ro/.syncprobe.XXXXXX" "$ro" $ONE "$ro"
	AS=
else
	tap_skip "target not writable" "root, and no setpriv or nobody to drop to"
fi

# A read-only filesystem: a small tmpfs mounted read-only, when root.
mnt=$WORK/rofs
if mount_tmpfs "$mnt" ro,size=1m; then
	refused "target on a read-only filesystem" "create $mnt/.syncprobe.XXXXXX" "$mnt" $ONE "$mnt"
else
	tap_skip "target on a read-only filesystem" "needs root and tmpfs"
fi

# ---- -f FILE ----
# A file syncprobe must not touch: its bytes and its mtime stay.
printf 'precious\n' >"$dir/existing"
touch -t 200001010000 "$dir/existing" "$WORK/stamp"
sum=$(cksum <"$dir/existing")
# untouched DESC: $dir/existing has the same bytes and mtime as before.
untouched() {
	if [ "$(cksum <"$dir/existing")" = "$sum" ] &&
	    [ -z "$(find "$dir/existing" -newer "$WORK/stamp")" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$(ls -l "$dir/existing")"
	fi
}
refused "-f naming an existing file" "$dir/existing" "$dir" $ONE -f "$dir/existing"
untouched "-f EXISTING: contents and mtime untouched"

ln -s "$dir/nowhere" "$dir/dangling"
refused "-f naming a dangling symlink" "$dir/dangling" "$dir" $ONE -f "$dir/dangling"
tap_check "-f DANGLING: the link's target is not created" test ! -e "$dir/nowhere"
tap_check "-f DANGLING: the link stays a link" test -L "$dir/dangling"

ln -s "$dir/existing" "$dir/link"
refused "-f naming a symlink to a file" "$dir/link" "$dir" $ONE -f "$dir/link"
untouched "-f LINK: the file it points to is untouched"
rm "$dir/dangling" "$dir/link" "$dir/existing"

refused "-f in a missing directory" "$dir/nodir" "$dir" $ONE -f "$dir/nodir/file"
tap_check "-f in a missing directory: nothing created" test ! -e "$dir/nodir"

# A name longer than any filesystem allows (255 bytes a component)...
long=$(printf '%0300d' 0)
named "-f with a file name too long" "$dir/$long" "$dir" $ONE -f "$dir/$long"
# ... and a path longer than PATH_MAX: named by its beginning.
deep=$dir
while [ ${#deep} -le 4200 ]; do
	deep=$deep/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
done
begin=$(printf '%s' "$deep" | cut -c1-40)
named "-f with a path too long" "$begin" "$dir" $ONE -f "$deep/file"
named "target path too long" "$begin" "$dir" $ONE "$deep"
# ... one that exists: still named too long, cut short, not "give an
# existing directory", and the message short.
(cd "$dir" && i=0 && while [ $i -lt 75 ]; do
	mkdir aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa && \
	    cd aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa || exit 1
	i=$((i + 1))
done)
for c in probe watch durability pgbench; do
	case $c in
	probe) named "$c: an existing path too long" "$begin" "$dir" $ONE "$deep" ;;
	watch) named "$c: an existing path too long" "$begin" "$dir" watch --for=1s "$deep" ;;
	durability) named "$c: an existing path too long" "$begin" "$dir" durability write \
	    -n 1 "$deep" ;;
	pgbench) named "$c: an existing path too long" "$begin" "$dir" pgbench "$deep" ;;
	esac
	problems=
	# ENAMETOOLONG as the C library words it: glibc's "File name too
	# long", musl's "Filename too long".
	grep -q -E "File ?name too long" "$WORK/err" || problem "not said to be too long"
	! grep -q "give an existing directory" "$WORK/err" || problem "said to be missing"
	[ "$(wc -c <"$WORK/err")" -lt 300 ] || problem "$(wc -c <"$WORK/err") bytes"
	if [ -z "$problems" ]; then tap_ok "$c: ... said to be too long, in a short line"
	else tap_fail "$c: ... said to be too long, in a short line" "$problems"; fi
done
rm -rf "$dir/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
# A long value refused: cut short inside its quotes, the quote kept.
run pgbench --clients "$(seq -s, 1 200)" "$dir"
tap_check "a long --clients list refused: its quote closed after the cut" \
    grep -q "^syncprobe: --clients '1,2,3,[0-9,]*\.\.\.': too many values" "$WORK/err"

# ---- option values ----
for v in 0 -1 abc 1x 1e999 nan inf; do
	refused "--secs-per-test '$v' refused" "--secs-per-test '$v'" "$dir" \
	    -q --file-size 64k -t one --secs-per-test "$v" "$dir"
done
refused "-s '' refused" "--secs-per-test ''" "$dir" -q -s '' "$dir"
for v in 0 -5 99999999999999999999 1.5 10k; do
	refused "--ops-per-test '$v' refused" "--ops-per-test '$v'" "$dir" \
	    -q --file-size 64k -t one --ops-per-test "$v" "$dir"
done
for v in 3k 1000 12k 512 512B 128k 1M 0 -8k 8q; do
	refused "--block-size '$v' refused" "--block-size '$v'" "$dir" \
	    -q -n 5 --file-size 1M --block-size "$v" "$dir"
done

# --file-size below what the chosen groups need: refused, saying the minimum.
too_small() {
	desc=$1 need=$2
	shift 2
	named "$desc" "--file-size" "$dir" -q -n 5 "$@" "$dir"
	case $(cat "$WORK/err") in
	*"$need"*) tap_ok "$desc: says the minimum, $need" ;;
	*) tap_fail "$desc: says the minimum, $need" "$(cat "$WORK/err")" ;;
	esac
}
too_small "--file-size 4k for one 8k block" 8kB -t one --file-size 4k
too_small "--file-size 8k for two 8k blocks" 16kB -t two --file-size 8k
too_small "--file-size 16k for one 32k block" 32kB -t one -b 32k --file-size 16k
too_small "--file-size 8k for the 16k sizes group" 16kB -t sizes --file-size 8k
refused "--file-size 'lots' refused" "--file-size 'lots'" "$dir" -q -n 5 --file-size lots "$dir"

refused "unknown --tests name" "--tests 'bogus'" "$dir" -q -n 5 --tests bogus "$dir"
refused "unknown name in a --tests list" "--tests 'one,bogus'" "$dir" -q -n 5 -t one,bogus "$dir"
refused "empty name in a --tests list" "--tests 'one,'" "$dir" -q -n 5 -t one, "$dir"
refused "unknown --methods name" "--methods 'fastsync'" "$dir" -q -n 5 -m fastsync "$dir"
refused "unknown --direct value" "--direct 'maybe'" "$dir" -q -n 5 --direct=maybe "$dir"
refused "unknown --pattern value" "--pattern 'zigzag'" "$dir" -q -n 5 --pattern zigzag "$dir"
refused "unknown --wal-sync-method" "--wal-sync-method 'bogus'" "$dir" \
    -q -n 5 --wal-sync-method bogus "$dir"

# ---- options themselves ----
refused "unknown long option" "--bogus" "$dir" --bogus "$dir"
refused "unknown short option" "-Z" "$dir" -Z "$dir"
refused "unknown short option in a cluster" "-Z" "$dir" -qZ "$dir"
refused "a value given to --quiet" "--quiet=1" "$dir" --quiet=1 "$dir"
for opt in -s -n -f -b -t -m --secs-per-test --file-size --tests --direct \
    --pattern --wal-sync-method; do
	refused "$opt without its value" "$opt" "$dir" "$dir" "$opt"
done
refused "-s with -n" "--secs-per-test" "$dir" -q -s 1 -n 5 "$dir"
# An option given twice is refused, naming it, for every command (one
# rule in the parser): its first value would be silently dropped.
refused_exactly "syncprobe: -t/--tests: given more than once (give it once; a list takes its items in one value, joined by commas)" \
    "$dir" -q -n 5 -t one -t two "$dir"
refused "-m twice" "-m/--methods" "$dir" -q -n 5 -t one -m fsync -m fdatasync "$dir"
refused "-t and --tests" "-t/--tests" "$dir" -q -n 5 -t one --tests=two "$dir"
refused "-q twice" "-q/--quiet" "$dir" -q -q -n 5 -t one "$dir"
refused "watch: --for twice" "--for" "$dir" watch --for=1s --for=2s "$dir"
refused "durability write: -n twice" "-n/--ops-per-test" "$dir" durability write -n 1 -n 2 "$dir"
refused "pgbench: --clients twice" "--clients" "$dir" pgbench --clients 1 --clients 8 "$dir"

refused "-f with a TARGET" "--filename" "$dir" $ONE -f "$dir/new" "$dir"
tap_check "-f with a TARGET: the file is not created" test ! -e "$dir/new"

# ---- paths with spaces, quotes and newlines ----
odd="$WORK/a b 'c' \"d\"${nl}e \$f *"
mkdir "$odd"
run $ONE "$odd"
# The text report writes the newline as \n, as ls -b does.
case $(cat "$WORK/out") in
*"target: $WORK/a b 'c' \"d\"\\ne \$f *"*) reported=yes ;;
*) reported=no ;;
esac
if [ "$rc" -eq 0 ] && [ ! -s "$WORK/err" ] && [ "$reported" = yes ] && no_testfile "$odd"; then
	tap_ok "a target with spaces, quotes and a newline works and is reported, the newline escaped"
else
	tap_fail "a target with spaces, quotes and a newline works and is reported, the newline escaped" \
	    "rc=$rc reported=$reported stderr: $(cat "$WORK/err")"
fi
run $ONE -f "$odd/test file 'x'"
if [ "$rc" -eq 0 ] && [ ! -e "$odd/test file 'x'" ]; then
	tap_ok "-f with spaces and quotes works and the file is removed"
else
	tap_fail "-f with spaces and quotes works and the file is removed" "rc=$rc $(cat "$WORK/err")"
fi
# Errors on stderr name it as the report does: the newline as \n.
odd_shown="$WORK/a b 'c' \"d\"\\ne \$f *"
refused "a missing odd target is named as the report names it" "$odd_shown/missing" "$odd" \
    $ONE "$odd/missing"
printf 'x' >"$odd/plain"
refused "an odd regular-file target is named as the report names it" "$odd_shown/plain" "$odd" \
    $ONE "$odd/plain"
refused "-f naming an existing odd file" "$odd_shown/plain" "$odd" $ONE -f "$odd/plain"

# ---- control characters in a path ----
# A path can carry escape sequences: the text report and the progress line
# show them escaped (\033, \t, octal), and never pass them to the terminal.
esc=$(printf '\033')
ctl=$(printf '%s/x\033[2Jy\tz\233w' "$WORK")
mkdir "$ctl"
run $ONE "$ctl"
problems=
[ "$rc" -eq 0 ] || problem "exit status $rc: $(cat "$WORK/err")"
grep -qF "target: $WORK/x\033[2Jy\tz\233w" "$WORK/out" || problem "the path is not shown escaped"
! grep -q "$esc" "$WORK/out" || problem "an ESC byte reached stdout"
if [ -z "$problems" ]; then
	tap_ok "control characters in a path: escaped in the text report"
else
	tap_fail "control characters in a path: escaped in the text report" "$problems${nl}$(head -3 "$WORK/out")"
fi
# ...and in error messages on stderr: a path, and an option's value.
refused "control characters in a missing target: escaped on stderr" \
    "$WORK/x\\033[2Jy\\tz\\233w/missing" "$ctl" $ONE "$ctl/missing"
tap_check "a target's control characters: no ESC byte on stderr" \
    sh -c '! grep -q "$1" "$2"' - "$esc" "$WORK/err"
refused "control characters in an option's value: escaped on stderr" \
    "--block-size '1\\033[2J'" "$ctl" $ONE -b "$(printf '1\033[2J')"
tap_check "an option value's control characters: no ESC byte on stderr" \
    sh -c '! grep -q "$1" "$2"' - "$esc" "$WORK/err"
refused "a C1 control in --wal-sync-method: escaped on stderr" \
    "--wal-sync-method 'x\\302\\233y'" "$ctl" $ONE --wal-sync-method "$(printf 'x\302\233y')"

# /proc is a view of the kernel, with no blocks: not a disk filesystem.
if [ -d /proc ] && [ "$(stat -f -c %b /proc 2>/dev/null)" = 0 ]; then
	refused_exactly "syncprobe: /proc: not a disk filesystem: it has no blocks to hold a test file (give a directory on the disk to test)" \
	    "$WORK" $ONE /proc
else
	tap_skip "/proc: not a disk filesystem" "no /proc with no blocks here"
fi

# The progress line is drawn only on a terminal: script(1) gives one. It
# cuts a long path in the middle: give it relative, from $WORK.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
	CTL=${ctl#"$WORK/"}
	export CTL SYNCPROBE
	(cd "$WORK" && script -qec \
	    '"$SYNCPROBE" -n 20 --file-size 64k -t one -m fdatasync --direct=off "$CTL" >/dev/null' \
	    "$WORK/tty" >/dev/null 2>&1) || :
	problems=
	grep -qF "x\033[2Jy\tz\233w: group " "$WORK/tty" || problem "no progress line with the path escaped"
	! grep -qF "$esc[2J" "$WORK/tty" || problem "the path's ESC [2J reached the terminal"
	if [ -z "$problems" ]; then
		tap_ok "control characters in a path: escaped in the progress line"
	else
		tap_fail "control characters in a path: escaped in the progress line" \
		    "$problems${nl}$(od -c "$WORK/tty" | head -20)"
	fi
else
	tap_skip "control characters in a path: escaped in the progress line" "no script(1) to give a terminal"
fi

tap_done
