#!/bin/sh
# cli_durability_fuse.sh: proof that the durability check catches storage
# that lies. tests/fakedisk.py is a FUSE filesystem whose "cache" is its
# memory and whose "platter" is a directory; a power cut is SIGKILL of it
# and a lazy unmount, after which it is mounted again over what it really
# persisted. Lying, it acknowledges every sync without persisting: the
# verifier must report lost records (exit 3). Honest, it persists on each
# sync: nothing may be lost. Needs root, /dev/fuse, fuse3 and fusepy for
# /usr/bin/python3 (Debian: fuse3 python3-fusepy); skipped otherwise.
#
# A liar we did not write (issue 20, item 9): the honest disk, with the
# writer under eatmydata (Debian's eatmydata, libeatmydata 130), which
# makes fsync, fdatasync, sync, syncfs, msync and sync_file_range return 0
# at once and strips O_SYNC/O_DSYNC from open() and open64(), but does not
# wrap openat(). What the writer calls (util/safefile; strace -f agrees):
# openat to create its file and to reopen it with the method's flags, both
# relative to the held directory; pwrite; fsync of the file and of the
# directory after the prefill; and with -m fdatasync one fdatasync per
# record. So under
# eatmydata with fdatasync no sync reaches the disk: the create reached
# the platter (names are persisted at once) but no data did, and after the
# cut the verifier must find the header and every acknowledged record lost
# (exit 3); the same without eatmydata is kept. With -m open_datasync the
# O_DSYNC of the openat reopen is not stripped, the kernel turns every
# such write into a sync request to the FUSE disk, and nothing is lost:
# the combination exercises a liar at the sync calls, not at the device,
# and not the O_DSYNC methods. Skipped without eatmydata, and for a
# syncprobe linked with musl (libeatmydata is built for glibc).
. "$top_srcdir/tests/lib.sh"

FAKEDISK=$top_srcdir/tests/fakedisk.py
PYTHON=/usr/bin/python3		# the one Debian's python3-fusepy serves
platter=$WORK/platter
mnt=$WORK/mnt
disk_pid=

# MODE:PATTERN:METHOD:WRAPPER:WANT, WRAPPER - for none, WANT lost or kept.
CASES="lying:append:fdatasync:-:lost lying:overwrite:fdatasync:-:lost
honest:append:fdatasync:-:kept honest:overwrite:fdatasync:-:kept
honest:append:fdatasync:eatmydata:lost honest:overwrite:fdatasync:eatmydata:lost
honest:append:open_datasync:eatmydata:kept"

# case_desc CASE: its name in the test points.
case_desc() {
	echo "$1" | awk -F: '{ printf "%s disk, %s, -m %s%s", $1, $2, $3,
	    $4 == "-" ? "" : " under " $4 }'
}

skip_all() {
	for c in $CASES; do
		tap_skip "$(case_desc "$c"): power cut" "$1"
	done
	tap_done
	exit
}

# A disk still mounted when the test ends would keep $WORK busy.
stop_disk() {
	if [ -n "$disk_pid" ]; then
		kill -KILL "$disk_pid" 2>/dev/null || :
		wait "$disk_pid" 2>/dev/null || :
		disk_pid=
	fi
	umount -l "$mnt" 2>/dev/null || :
}
trap 'stop_disk; cleanup_work' EXIT

[ "$(id -u)" -eq 0 ] || skip_all "mounting FUSE here needs root"
[ -c /dev/fuse ] || skip_all "no /dev/fuse"
[ -x "$PYTHON" ] || skip_all "no $PYTHON"
"$PYTHON" -c 'import fusepy' 2>/dev/null || "$PYTHON" -c 'from fuse import FUSE' 2>/dev/null ||
    skip_all "no fusepy for $PYTHON (Debian: apt-get install fuse3 python3-fusepy)"

mounted() {
	grep -q " $mnt fuse" /proc/mounts
}

# start_disk MODE: mount the fake disk over $platter; false when it did
# not come up within ten seconds.
start_disk() {
	"$PYTHON" "$FAKEDISK" "$1" "$platter" "$mnt" 2>"$WORK/disk.err" &
	disk_pid=$!
	waiting "$disk_pid" mounted || { stop_disk; return 1; }
}

# A clean unmount: the disk writes its cache back and exits.
unmount_disk() {
	umount "$mnt"
	wait "$disk_pid" 2>/dev/null || :
	disk_pid=
}

# verify: the verifier on the mounted disk; $rc, $WORK/vout, $WORK/verr.
verify() {
	rc=0
	"$SYNCPROBE" durability verify --acks="$WORK/acks" -F json "$mnt" \
	    >"$WORK/vout" 2>"$WORK/verr" || rc=$?
}

# power_cut MODE PATTERN METHOD WRAPPER: a writer (-m METHOD, run under
# WRAPPER unless it is -) on the MODE disk until its 50th acknowledgement
# and half a second more (two of the lying disk's write-back periods);
# SIGKILL the writer, check the file there (nothing lost yet), cut the
# disk's power, mount it again and verify. Leaves $rc and $WORK/vout.
power_cut() {
	wrapper=
	[ "$4" = - ] || wrapper=$4
	rm -rf "$platter" "$WORK/acks"
	mkdir -p "$platter" "$mnt"
	if ! start_disk "$1"; then
		why="the FUSE mount did not come up: $(head -n 3 "$WORK/disk.err" | tr '\n' ' ')"
		return 1
	fi
	# Direct I/O through this FUSE filesystem is not what is tested.
	$wrapper "$SYNCPROBE" durability write -q --direct=off --pattern="$2" -m "$3" \
	    --file-size=256k "$mnt" >"$WORK/acks" 2>"$WORK/werr" &
	writer=$!
	if ! waiting "$writer" acks_at_least 50; then
		kill -KILL "$writer" 2>/dev/null || :
		wait "$writer" 2>/dev/null || :
		why="the writer gave no 50 acknowledgements: $(cat "$WORK/werr")"
		stop_disk
		return 1
	fi
	sleep 0.5
	kill -KILL "$writer"
	wait "$writer" 2>/dev/null || :
	verify
	before_cut="$rc $(json_field lost)"
	kill -KILL "$disk_pid"
	wait "$disk_pid" 2>/dev/null || :
	disk_pid=
	umount -l "$mnt"
	if ! start_disk honest; then
		why="the FUSE mount did not come back: $(head -n 3 "$WORK/disk.err" | tr '\n' ' ')"
		return 1
	fi
	verify
	unmount_disk
	acks=$(grep -c '^ack ' "$WORK/acks")
}

# run_case CASE: one power cut, and what must come of it.
run_case() {
	desc=$(case_desc "$1")
	set -- $(echo "$1" | tr ':' ' ')
	want=$5
	if [ "$4" != - ] && ! command -v "$4" >/dev/null 2>&1; then
		tap_skip "$desc: power cut" "no $4 (Debian: apt-get install $4)"
		return
	fi
	if [ "$4" != - ] && grep -q ld-musl "$SYNCPROBE" 2>/dev/null; then
		tap_skip "$desc: power cut" "$4 preloads a glibc library; this syncprobe is linked with musl"
		return
	fi
	if ! power_cut "$1" "$2" "$3" "$4"; then
		tap_fail "$desc: power cut" "$why"
		return
	fi
	if [ "$before_cut" = "0 0" ]; then
		tap_ok "$desc: writer killed, disk still up: nothing lost ($acks acks)"
	else
		tap_fail "$desc: writer killed, disk still up: nothing lost" \
		    "rc and lost: $before_cut"
	fi
	lost=$(json_field lost)
	if [ "$want" = lost ]; then
		if [ "$rc" -eq 3 ] && [ "$(json_field verdict)" = lost ] &&
		    { [ "${lost:-0}" -gt 0 ] || [ "$(json_field header)" != ok ]; }; then
			tap_ok "$desc: power cut: acknowledged records lost ($lost), exit 3"
		else
			tap_fail "$desc: power cut: acknowledged records lost, exit 3" \
			    "rc=$rc; $(cat "$WORK/vout" "$WORK/verr")"
		fi
	elif [ "$rc" -eq 0 ] && [ "$lost" = 0 ] && [ "$(json_field verdict)" = kept ]; then
		tap_ok "$desc: power cut: nothing lost ($(json_field kept) kept), exit 0"
	else
		tap_fail "$desc: power cut: nothing lost, exit 0" \
		    "rc=$rc; $(cat "$WORK/vout" "$WORK/verr")"
	fi
}

# libeatmydata is preloaded in front of a sanitizer's runtime.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
for c in $CASES; do
	run_case "$c"
done
tap_done
