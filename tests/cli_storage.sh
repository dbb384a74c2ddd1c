#!/bin/sh
# cli_storage.sh: the filesystem and device syncprobe reports agree with
# what independent tools (findmnt, lsblk, sysfs) say; tmpfs is called out.
. "$top_srcdir/tests/lib.sh"
tap_require jq

json=$WORK/out.json
dir=$WORK/target
mkdir "$dir"

"$SYNCPROBE" -F json $FAST -t one "$dir" >"$json"
j() { jq -r "$1" "$json"; }
jqe() { jq -e "$@" >/dev/null; }

if command -v findmnt >/dev/null 2>&1; then
	tap_is "$(j '.targets[0].filesystem')" "$(findmnt -no FSTYPE --target "$dir")" \
		"filesystem is what findmnt says"
	src=$(findmnt -no SOURCE --target "$dir")
	type=$(lsblk -ndo TYPE "$src" 2>/dev/null || true)
	case $type in
	disk) want=$(basename "$src") ;;
	part) want=$(lsblk -ndo PKNAME "$src") ;;
	*) want= ;;
	esac
	if [ -n "$want" ]; then
		tap_is "$(j '.targets[0].device.name')" "$want" "device is the disk under $src"
		if [ -r "/sys/block/$want/queue/write_cache" ]; then
			tap_is "$(j '.targets[0].device.write_cache')" "$(cat "/sys/block/$want/queue/write_cache")" \
				"write_cache is what sysfs says"
			rot=$(cat "/sys/block/$want/queue/rotational")
			tap_is "$(j '.targets[0].device.rotational')" "$([ "$rot" = 1 ] && echo true || echo false)" \
				"rotational is what sysfs says"
		else
			tap_skip "write_cache from sysfs" "no /sys/block/$want/queue/write_cache"
		fi
	else
		tap_skip "device name" "the target is not on a plain disk or partition ($src, ${type:-no type})"
	fi
else
	tap_skip "filesystem and device" "findmnt is not installed"
fi

tap_check "device is the first of devices, each with the same keys" \
	jqe '.targets[0] | .devices as $d | ($d[0] == .device) and all($d[]; keys == ($d[0] | keys))' "$json"
tap_check "unresolved is a list of strings" jqe '.targets[0].unresolved | type == "array" and all(.[]; type == "string")' "$json"

delay=$(j '.targets[0].advice.commit_delay_usecs')
if [ "$delay" != null ] && [ "$delay" -gt 0 ]; then
	tap_is "$(j '.targets[0].advice.sleep.requested_usecs')" "$delay" "the measured sleep is of the advised commit_delay"
	tap_check "the sleep lasted at least what was asked, p50 <= p99" \
		jqe '.targets[0].advice.sleep | .samples > 0 and .usecs.mean >= .requested_usecs and .usecs.p50 <= .usecs.p99' "$json"
else
	tap_skip "measured sleep" "commit_delay is $delay"
fi
# The known codes, read from the one table of them (src/advice/warnings.c).
codes=$(warning_codes)
tap_check "the warning table has codes" test -n "$codes"
tap_check "every warning has a known code and a message" jqe --argjson known "$codes" \
    'all(.targets[0].advice.warnings[]; (.code as $c | $known | index($c)) != null and
	(.message | length) > 20)' "$json"
tap_check "few_samples: the advice rests on 20 operations" \
	jqe '[.targets[0].advice.warnings[].code] | index("few_samples") != null' "$json"

# tmpfs: nothing durable, no device.
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/syncprobe-test.XXXXXX)
	"$SYNCPROBE" -F json $FAST -t one "$shm" >"$json"
	"$SYNCPROBE" $FAST -t one "$shm" >"$WORK/out.txt"
	rmdir "$shm"
	tap_is "$(j '.targets[0].filesystem'):$(j '.targets[0].device')" "tmpfs:null" "/dev/shm: tmpfs, no device"
	tap_check "/dev/shm: nondurable_fs warning" \
		jqe '[.targets[0].advice.warnings[].code] | index("nondurable_fs") != null' "$json"
	tap_check "/dev/shm: the text header says tmpfs" grep -q '^  on tmpfs (no block device)' "$WORK/out.txt"
else
	tap_skip "/dev/shm checks" "/dev/shm is not a writable tmpfs"
fi

tap_done
