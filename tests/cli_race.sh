#!/bin/sh
# cli_race.sh: whatever someone else who can write to the target directory
# does while syncprobe runs, syncprobe writes only to the file it created
# (issue 10). First deterministically, with tests/faultshim.so swapping the
# test file (or the durability writer's file) right before a reopen; then
# for real, as root against a swap loop run as nobody, the probe and the
# durability writer alike.
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

# ---- the durability writer's file, swapped between its creation and its
# reopen with the method's flags (util/safefile, as the test file) ----
DREPLACED="replaced while syncprobe was creating it (nothing written to what is there now)"
DTAKEN="already exists (an earlier run's file? verify it with syncprobe durability verify, or remove it)"

# writer_swapped DESC KIND: the writer on $dir with the shim doing
# SYNCPROBE_SWAP=KIND:1 (its one reopen); exit 1, the one message, no
# header line, and whatever was put in the file's place untouched.
writer_swapped() {
	desc=$1 kind=$2
	if [ -z "$preload" ]; then
		tap_skip "$desc" "LD_PRELOAD of tests/faultshim.so does not work here"
		return
	fi
	rm -f "$WORK/log" "$dir"/syncprobe-durability*
	rc=0
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_SWAP=$kind:1 SYNCPROBE_SWAP_DECOY=$decoy \
	    SYNCPROBE_FAULT_PATH=$dir SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" durability write -q -n 5 --file-size=64k --direct=off "$dir" \
	    >"$WORK/out" 2>"$WORK/err" || rc=$?
	problems=
	grep -q "^swap $kind 1\$" "$WORK/log" || problem "the shim did not swap (log: $(cat "$WORK/log"))"
	[ "$rc" -eq 1 ] || problem "exit status $rc, want 1"
	[ "$(cat "$WORK/err")" = "syncprobe: $dir/syncprobe-durability: $DREPLACED" ] ||
	    problem "stderr is not 'syncprobe: $dir/syncprobe-durability: $DREPLACED'"
	[ ! -s "$WORK/out" ] || problem "something was acknowledged: $(head -n 2 "$WORK/out")"
	[ "$(cksum <"$decoy")" = "$decoy_sum" ] || problem "the decoy was written"
	case $kind in
	symlink) [ -L "$dir/syncprobe-durability" ] || problem "the link is not left in place" ;;
	file) [ "$(cat "$dir/syncprobe-durability" 2>/dev/null)" = "someone else's file" ] ||
	    problem "the file put in its place was changed or removed" ;;
	esac
	if [ -z "$problems" ]; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "$problems${nl}stderr: $(cat "$WORK/err")"
	fi
	rm -f "$dir"/syncprobe-durability*
}

writer_swapped "durability writer, a symbolic link before its reopen: stopped, replaced while syncprobe was creating it, the decoy and the link untouched" symlink
writer_swapped "durability writer, another file before its reopen: stopped, replaced while syncprobe was creating it, that file untouched" file

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
# race DESC REPLACED TAKEN ARGS...: RACE_RUNS runs of syncprobe ARGS as
# root in $race against the swap loop as nobody; every run must exit 0, or
# 1 with the one message ending in REPLACED, and the decoy stay untouched.
# TAKEN, when not empty: a name syncprobe always uses, which the loop can
# take first (its link at that name, made after the last run's file was
# removed); a run may then also exit 2 with the one message ending in
# TAKEN, as it refuses any file that is not its own.
race() {
	desc=$1 replaced=$2 taken=$3
	shift 3
	rm -f "$WORK/stop"
	$AS_NOBODY "$WORK/race_swap" "$race" "$decoy" "$WORK/stop" >"$WORK/swaps" 2>&1 &
	swapper=$!
	statuses= bad=
	i=0
	while [ $i -lt $RACE_RUNS ]; do
		run "$@" "$race"
		statuses="$statuses $rc"
		case $rc:$(cat "$WORK/err") in
		0:) ;;
		1:"syncprobe: "*"$race/"*": $replaced") ;;
		2:"syncprobe: $race/"*": $taken")
			[ -n "$taken" ] || bad="$bad${nl}run $i: exit 2: $(cat "$WORK/err")" ;;
		*) bad="$bad${nl}run $i: exit $rc: $(cat "$WORK/err")" ;;
		esac
		rm -f "$race"/.syncprobe.* "$race"/syncprobe-durability*
		i=$((i + 1))
	done
	: >"$WORK/stop"
	wait "$swapper" || :
	decoy_intact "$desc ($(cat "$WORK/swaps") swaps; exits:$statuses)"
	if [ -z "$bad" ]; then
		tap_ok "$desc: every run exits 0, or 1 saying the file was replaced"
	else
		tap_fail "$desc: every run exits 0, or 1 saying the file was replaced" "$bad"
	fi
}

writer_desc="$RACE_RUNS root durability writers against the swap loop"
if [ -n "$why" ]; then
	for d in "$race_desc" "$writer_desc"; do
		tap_skip "$d: the decoy is untouched" "$why"
		tap_skip "$d: every run exits 0, or 1 saying the file was replaced" "$why"
	done
else
	race=$WORK/race
	mkdir "$race"
	chown nobody "$race"
	race "$race_desc" "$REPLACED" "" \
	    -q -n 50 --file-size 64k -t one,descriptor -m fdatasync --direct=off
	# The durability writer creates its file, fills it, reopens it with
	# the method's flags and writes records.
	race "$writer_desc" "$DREPLACED" "$DTAKEN" \
	    durability write -q -n 20 --file-size 64k --pattern=append -m fdatasync --direct=off
fi

tap_done
