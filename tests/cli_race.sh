#!/bin/sh
# cli_race.sh: whatever someone else who can write to the target directory
# does while syncprobe runs, syncprobe writes only to the file it created
# (issue 10). First deterministically, with tests/faultshim.so swapping the
# test file right before a reopen; then for real, as root against a swap
# loop run as nobody.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
: "${RACE_SWAP:=}"
shim_detect

# A root-owned file someone would like syncprobe to overwrite.
decoy=$WORK/decoy
printf 'a file syncprobe must never write\n' >"$decoy"
decoy_sum=$(cksum <"$decoy")

REPLACED="the test file was replaced or removed by someone else (nothing was written to it)"

# swapped DESC KIND N ARGS...: run syncprobe ARGS on $dir with the shim
# doing SYNCPROBE_SWAP=KIND:N; check that the swap happened, then that the
# run stopped with exit 1 and the one message naming the reopened file.
swapped() {
	desc=$1 kind=$2 nth=$3
	shift 3
	if [ -z "$preload" ]; then
		tap_skip "$desc" "LD_PRELOAD of tests/faultshim.so does not work here"
		return 1
	fi
	rm -f "$WORK/log"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_SWAP=$kind:$nth SYNCPROBE_SWAP_DECOY=$decoy \
	    SYNCPROBE_FAULT_PATH=$dir SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	problems=
	grep -q "^swap $kind $nth\$" "$WORK/log" || problem "the shim did not swap (log: $(cat "$WORK/log"))"
	[ "$rc" -eq 1 ] || problem "exit status $rc, want 1"
	case $(cat "$WORK/err") in
	"syncprobe: open $dir/.syncprobe."*": $REPLACED") ;;
	*) problem "stderr is not 'syncprobe: open FILE: $REPLACED'" ;;
	esac
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || problem "not exactly one line on stderr"
	if [ -z "$problems" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$problems${nl}stderr: $(cat "$WORK/err")"
	fi
}

# in_place: what is in the test file's place after a swap (the name that
# is not NAME.moved), or nothing.
in_place() {
	ls -d "$dir"/.syncprobe.* 2>/dev/null | grep -v '\.moved$' || :
}

# decoy_intact DESC: the decoy is as it was.
decoy_intact() {
	tap_is "$(cksum <"$decoy")" "$decoy_sum" "$1: the decoy is untouched"
}

# The file swapped for a link to the decoy before the row's open.
if swapped "a symbolic link before the first reopen: stopped" symlink 1 $ONE "$dir"; then
	decoy_intact "a symbolic link before the first reopen"
	tap_check "a symbolic link before the first reopen: the link is left in place" \
	    test -L "$(in_place)"
fi
rm -f "$dir"/.syncprobe.*

# The descriptor rows reopen the file in every operation.
if swapped "a symbolic link before the 5th reopen (descriptor rows): stopped" symlink 5 \
    $FAST -t descriptor "$dir"; then
	decoy_intact "a symbolic link before the 5th reopen"
	tap_check "a symbolic link before the 5th reopen: the report says where it stopped" \
	    grep -q '^write, fsync, close  *error$' "$WORK/out"
fi
rm -f "$dir"/.syncprobe.*

# Another regular file in its place: not a link, but not the file created.
if swapped "another file before the first reopen: stopped" file 1 $ONE "$dir"; then
	other=$(in_place)
	tap_is "$(cat "$other" 2>/dev/null || :)" "someone else's file" \
	    "another file before the first reopen: that file is untouched, not removed"
fi
rm -f "$dir"/.syncprobe.*

# -f FILE: the same for a name the user gave.
if swapped "-f FILE, a symbolic link before the first reopen: stopped" symlink 1 \
    $ONE -f "$dir/.syncprobe.exact"; then
	decoy_intact "-f FILE, a symbolic link before the first reopen"
fi
rm -f "$dir"/.syncprobe.*

# ---- the target directory renamed during the run ----
# The file is still reached, and removed, through the directory held.
if [ -n "$preload" ]; then
	rm -f "$WORK/log"
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_SWAP=renamedir:1 SYNCPROBE_FAULT_PATH=$dir \
	    SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" $ONE "$dir" >"$WORK/out" 2>"$WORK/err" || rc=$?
	problems=
	grep -q '^swap renamedir 1$' "$WORK/log" || problem "the shim did not rename (log: $(cat "$WORK/log"))"
	[ "$rc" -eq 0 ] || problem "exit status $rc, want 0"
	[ ! -s "$WORK/err" ] || problem "stderr: $(cat "$WORK/err")"
	grep -q '^fdatasync  *[0-9]' "$WORK/out" || problem "no fdatasync figures"
	[ -d "$dir.renamed" ] && no_testfile "$dir.renamed" || problem "test file left: $(ls -A "$dir.renamed")"
	if [ -z "$problems" ]; then
		tap_ok "target renamed during the run: it completes and removes its file"
	else
		tap_fail "target renamed during the run: it completes and removes its file" "$problems"
	fi
	rm -f "$dir.renamed"/.syncprobe.*
	mv "$dir.renamed" "$dir"
else
	tap_skip "target renamed during the run" "LD_PRELOAD of tests/faultshim.so does not work here"
fi

# ---- the real race: a swap loop as nobody, syncprobe as root ----
RACE_RUNS=30
race_desc="$RACE_RUNS root runs against a swap loop run as nobody"
nobody_gid=$(id -g nobody 2>/dev/null || :)
if [ "$(id -u)" -ne 0 ]; then
	why="needs root, to run syncprobe as root and the swap loop as nobody"
elif [ -z "$nobody_gid" ]; then
	why="no user nobody"
elif ! command -v setpriv >/dev/null 2>&1; then
	why="no setpriv (util-linux) to switch to nobody"
elif [ -z "$RACE_SWAP" ] || [ ! -x "$RACE_SWAP" ]; then
	why="no tests/race_swap"
else
	why=
	# A copy nobody can run, whatever the build directory's permissions.
	cp "$RACE_SWAP" "$WORK/race_swap"
	chmod 755 "$WORK/race_swap"
	AS_NOBODY="setpriv --reuid=nobody --regid=$nobody_gid --clear-groups"
	$AS_NOBODY true 2>/dev/null || why="setpriv cannot switch to nobody here"
fi
if [ -n "$why" ]; then
	tap_skip "$race_desc: the decoy is untouched" "$why"
	tap_skip "$race_desc: every run exits 0, or 1 saying the file was replaced" "$why"
else
	race=$WORK/race
	mkdir "$race"
	chown nobody "$race"
	$AS_NOBODY "$WORK/race_swap" "$race" "$decoy" "$WORK/stop" >"$WORK/swaps" 2>&1 &
	swapper=$!
	statuses= bad=
	i=0
	while [ $i -lt $RACE_RUNS ]; do
		run -q -n 50 --file-size 64k -t one,descriptor -m fdatasync --direct=off "$race"
		statuses="$statuses $rc"
		case $rc:$(cat "$WORK/err") in
		0:) ;;
		1:*": $REPLACED") ;;
		*) bad="$bad${nl}run $i: exit $rc: $(cat "$WORK/err")" ;;
		esac
		rm -f "$race"/.syncprobe.*
		i=$((i + 1))
	done
	: >"$WORK/stop"
	wait "$swapper" || :
	decoy_intact "$race_desc ($(cat "$WORK/swaps") swaps; exits:$statuses)"
	if [ -z "$bad" ]; then
		tap_ok "$race_desc: every run exits 0, or 1 saying the file was replaced"
	else
		tap_fail "$race_desc: every run exits 0, or 1 saying the file was replaced" "$bad"
	fi
fi

tap_done
