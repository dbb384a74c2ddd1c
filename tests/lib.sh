# tests/lib.sh: sourced by every shell test. Strict mode, a private work
# directory removed on exit, and TAP helpers.
set -eu
LC_ALL=C
export LC_ALL

: "${SYNCPROBE:?SYNCPROBE must name the syncprobe binary}"
: "${top_srcdir:=.}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/syncprobe-test.XXXXXX")
chmod 755 "$WORK"
tap_n=0
tap_failed=0

tmpfs_mounts=
cleanup_work() {
	for m in $tmpfs_mounts; do
		umount "$m" 2>/dev/null || :
	done
	rm -rf "$WORK"
}

# mount_tmpfs DIR OPTIONS: mount a tmpfs with OPTIONS (e.g. size=1m) at DIR,
# unmounted again on exit. Fails when not root or when mounting fails.
mount_tmpfs() {
	[ "$(id -u)" -eq 0 ] || return 1
	mkdir -p "$1"
	mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null || return 1
	tmpfs_mounts="$tmpfs_mounts $1"
}
trap cleanup_work EXIT

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

tap_fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	if [ $# -gt 1 ]; then
		printf '%s\n' "$2" | sed 's/^/# /'
	fi
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# tap_check DESC CMD...: pass when CMD succeeds.
tap_check() {
	desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc" "failed: $*"; fi
}

tap_is() {
	if [ "$1" = "$2" ]; then
		tap_ok "$3"
	else
		tap_fail "$3" "got:  $1
want: $2"
	fi
}

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# no_testfile DIR: true when syncprobe left no test file in DIR.
no_testfile() {
	[ -z "$(find "$1" -maxdepth 1 -name '.syncprobe.*' -print)" ]
}

# A fast run's options: few operations, a small file.
FAST="-q -n 20 --file-size 64k"

# wait_for PID CMD...: poll until CMD succeeds, every 50ms for at most ten
# seconds; false when it never did, or when process PID ended first.
wait_for() {
	wait_pid=$1
	shift
	wait_i=0
	until "$@"; do
		kill -0 "$wait_pid" 2>/dev/null || return 1
		[ $wait_i -lt 200 ] || return 1
		sleep 0.05
		wait_i=$((wait_i + 1))
	done
}

# For the durability tests. acks_at_least N: $WORK/acks holds N of a
# writer's acknowledgements (none while a background job has not made it).
acks_at_least() {
	[ "$(cat "$WORK/acks" 2>/dev/null | grep -c '^ack ')" -ge "$1" ]
}

# json_field KEY: a top-level number, string or bool of the JSON report in
# $WORK/vout (syncprobe indents it by two spaces), without jq.
json_field() {
	sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$WORK/vout"
}
