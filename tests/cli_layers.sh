#!/bin/sh
# cli_layers.sh: storage under layers, on real mounts made here: an overlay
# (on this filesystem and on tmpfs), a loop device with ext4, a loop-backed
# btrfs, a loop device whose file was deleted, and an overlay whose upper
# directory another mount namespace hides. syncprobe must name the disk
# under them all, as findmnt, lsblk and sysfs do, or say what it could not
# follow. Needs root, jq and the tools each case uses; skips otherwise.
. "$top_srcdir/tests/lib.sh"

RUN="-q -n 20 --file-size 64k -t one -m fdatasync --direct=off"

if [ "$(id -u)" -ne 0 ]; then
	tap_skip "storage layers on real mounts" "needs root to mount and attach loop devices"
	tap_done
	exit 0
fi
for tool in jq findmnt lsblk losetup; do
	if ! command -v $tool >/dev/null 2>&1; then
		tap_skip "storage layers on real mounts" "$tool is not installed"
		tap_done
		exit 0
	fi
done

# What this test mounts and attaches, undone in reverse on every exit.
layer_mounts=
layer_loops=
cleanup_layers() {
	for m in $layer_mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || :
	done
	for l in $layer_loops; do
		losetup -d "$l" 2>/dev/null || :
	done
	cleanup_work
}
trap cleanup_layers EXIT
trap 'exit 1' INT TERM HUP

# mount_layer DIR ARGS...: mount ARGS on DIR (made first), undone on exit.
mount_layer() {
	dir=$1
	shift
	mkdir -p "$dir"
	mount "$@" "$dir" 2>"$WORK/mount.err" || return 1
	layer_mounts="$dir $layer_mounts"
}

# attach_loop FILE: attach a loop device to FILE, named in $loop; undone
# on exit (so not in a subshell).
attach_loop() {
	loop=$(losetup -f --show "$1" 2>"$WORK/losetup.err") || return 1
	layer_loops="$loop $layer_loops"
}

# disk_of DIR: the disk under DIR's filesystem as lsblk sees it, or nothing
# when that is no plain disk or partition.
disk_of() {
	src=$(findmnt -no SOURCE --target "$1") || return 0
	case $(lsblk -ndo TYPE "$src" 2>/dev/null || true) in
	disk) basename "$src" ;;
	part) lsblk -ndo PKNAME "$src" ;;
	esac
}

json=$WORK/out.json
text=$WORK/out.txt
# probe DIR: run syncprobe on DIR, JSON into $json, text into $text.
probe() {
	"$SYNCPROBE" $RUN -F json "$1" >"$json" && "$SYNCPROBE" $RUN "$1" >"$text"
}
j() { jq -r "$1" "$json"; }
has_warning() { jq -e --arg c "$1" '[.targets[0].advice.warnings[].code] | index($c) != null' "$json" >/dev/null; }
no_warning_names() {
	jq -e --arg d "$1 " 'all(.targets[0].advice.warnings[]; .message | contains($d) | not)' \
		"$json" >/dev/null
}
fits_80() { [ -z "$(awk 'length > 80' "$text")" ]; }

# The disk under the work directory, where the upper directories and
# image files live: what syncprobe must find under each layer.
disk=$(disk_of "$WORK")
fstype=$(findmnt -no FSTYPE --target "$WORK")
if [ -n "$disk" ]; then
	cache=$(cat "/sys/block/$disk/queue/write_cache" 2>/dev/null || echo unknown)
	rot=$(cat "/sys/block/$disk/queue/rotational" 2>/dev/null || echo unknown)
	[ "$rot" = 1 ] && rot=true || { [ "$rot" = 0 ] && rot=false; }
fi

# check_disk WHAT LAYERS: the device and its layers are the work disk's.
check_disk() {
	if [ -z "$disk" ]; then
		tap_skip "$1: the disk under it" "$WORK is not on a plain disk or partition ($fstype)"
		return 0
	fi
	tap_is "$(j '.targets[0].device.name')" "$disk" "$1: the device is $disk, the disk under $WORK"
	tap_is "$(j '.targets[0].device.layers')" "$2" "$1: its layers"
	tap_is "$(j '.targets[0].device.write_cache'):$(j '.targets[0].device.rotational')" \
		"$cache:$rot" "$1: the disk's cache and rotational, as sysfs says"
	if [ "$cache" = "write back" ]; then
		tap_check "$1: writeback_cache warning for $disk" has_warning writeback_cache
	else
		tap_skip "$1: writeback_cache warning" "$disk's cache is $cache"
	fi
	tap_check "$1: the text report fits 80 columns" fits_80
}

# An overlay whose upper directory is on the work directory's filesystem.
ov=$WORK/ov
mkdir -p "$ov/lower" "$ov/upper" "$ov/work"
if mount_layer "$ov/merged" -t overlay overlay \
    -o "lowerdir=$ov/lower,upperdir=$ov/upper,workdir=$ov/work"; then
	probe "$ov/merged"
	tap_is "$(j '.targets[0].filesystem')" overlay "overlay: the target's filesystem"
	check_disk overlay "$fstype on $disk"
	tap_check "overlay: the text header names the layers" \
		grep -q "^  on overlay ($fstype on $disk" "$text"
	# Another mount namespace's view: a tmpfs hides the upper directory.
	if command -v unshare >/dev/null 2>&1 &&
	    unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs tmpfs '$ov/upper' &&
	    '$SYNCPROBE' $RUN -F json '$ov/merged'" >"$json" 2>"$WORK/unshare.err"; then
		tap_is "$(j '.targets[0].device'):$(j '.targets[0].unresolved[0]')" \
			"null:upper directory $ov/upper: not visible from this mount namespace" \
			"overlay, upper directory hidden: no device, and says why"
	else
		tap_skip "overlay, upper directory hidden" "unshare -m failed: $(head -n 1 "$WORK/unshare.err")"
	fi
else
	tap_skip "overlay on $fstype" "mount -t overlay failed: $(head -n 1 "$WORK/mount.err")"
fi

# An overlay on tmpfs: nothing durable under it, and nothing unresolved.
if mount_tmpfs "$WORK/tmp" size=4m; then
	mkdir -p "$WORK/tmp/lower" "$WORK/tmp/upper" "$WORK/tmp/work"
	if mount_layer "$WORK/ovt" -t overlay overlay \
	    -o "lowerdir=$WORK/tmp/lower,upperdir=$WORK/tmp/upper,workdir=$WORK/tmp/work"; then
		probe "$WORK/ovt"
		tap_is "$(j '.targets[0].device'):$(j '.targets[0].unresolved | length')" "null:0" \
			"overlay on tmpfs: no device, nothing unresolved"
		tap_check "overlay on tmpfs: the text header says so" \
			grep -q '^  on overlay (tmpfs, no block device)' "$text"
		tap_is "$(j '[.targets[0].advice.warnings[].code] | index("nondurable_fs") != null')" \
			true "overlay on tmpfs: the nondurable_fs warning"
	else
		tap_skip "overlay on tmpfs" "mount -t overlay failed: $(head -n 1 "$WORK/mount.err")"
		tap_skip "overlay on tmpfs: nondurable_fs" "mount -t overlay failed"
	fi
else
	tap_skip "overlay on tmpfs" "cannot mount a tmpfs"
fi

# A loop device with ext4, its file on the work directory's filesystem.
if command -v mkfs.ext4 >/dev/null 2>&1 && truncate -s 32M "$WORK/ext4.img" &&
    attach_loop "$WORK/ext4.img" && mkfs.ext4 -q "$loop" >/dev/null 2>&1 &&
    mount_layer "$WORK/ext4" "$loop"; then
	probe "$WORK/ext4"
	tap_is "$(j '.targets[0].filesystem')" ext4 "loop: the target's filesystem"
	check_disk "loop with ext4" "${loop#/dev/} -> $fstype on $disk"
	tap_check "loop with ext4: no warning names ${loop#/dev/}" no_warning_names "${loop#/dev/}"
	# The same loop device once its file is deleted.
	rm "$WORK/ext4.img"
	probe "$WORK/ext4"
	tap_is "$(j '.targets[0].device'):$(j '.targets[0].unresolved[0]')" \
		"null:${loop#/dev/} -> backing file $WORK/ext4.img: deleted" \
		"loop with a deleted file: no device, and says why"
else
	tap_skip "loop device with ext4" "cannot make one here (mkfs.ext4, losetup or mount failed)"
fi

# A loop-backed btrfs (btrfs-progs; 128 MB is about the smallest it takes).
if ! command -v mkfs.btrfs >/dev/null 2>&1; then
	tap_skip "loop-backed btrfs" "mkfs.btrfs is not installed (btrfs-progs)"
elif truncate -s 128M "$WORK/btrfs.img" && attach_loop "$WORK/btrfs.img" &&
    mkfs.btrfs -q "$loop" >/dev/null 2>&1 && mount_layer "$WORK/btrfs" "$loop"; then
	probe "$WORK/btrfs"
	tap_is "$(j '.targets[0].filesystem')" btrfs "btrfs: the target's filesystem"
	check_disk "loop-backed btrfs" "${loop#/dev/} -> $fstype on $disk"
	tap_check "loop-backed btrfs: the text header names the layers" \
		grep -q "^  on btrfs (${loop#/dev/} -> $fstype on $disk" "$text"
else
	tap_skip "loop-backed btrfs" "cannot make one here (losetup, mkfs.btrfs or mount failed)"
fi

tap_done
