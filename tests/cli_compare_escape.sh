#!/bin/sh
# cli_compare_escape.sh: saved reports come from other hosts, and compare
# prints their strings: every one of them (label, host, version, time,
# path, error, filesystem, device, row group, name and reason, advice,
# warning code and message) and the report's own file name reach the
# terminal escaped as the text report escapes a path (ls -b style): no ESC,
# no OSC title, no C1 control, no newline that forges a line.
. "$top_srcdir/tests/lib.sh"
tap_require jq

COMPARE=compare
dir=$WORK/target
mkdir "$dir"
base=$WORK/base.json
"$SYNCPROBE" -F json $FAST -t one -m fdatasync,fsync_writethrough --direct=off "$dir" >"$base"

# The hostile string: an OSC window title ended by BEL, a CSI that clears
# the screen, a C1 CSI (U+009B), and a newline that starts a forged line.
HOSTILE='\u001b]0;OWNED\u0007X\u001b[2J\u009b31mY\nFORGED line'
ESC=$(printf '\033')
BEL=$(printf '\007')
C1=$(printf '\302\233')

# hostile_shown DESC FILE: compare FILE beside the base report printed no
# raw ESC, BEL or C1, no forged line, and the escaped text is there.
hostile_shown() {
	run $COMPARE "$base" "$2"
	problems=
	[ "$rc" -eq 0 ] || problem "exit $rc: $(cat "$WORK/err")"
	! grep -q "$ESC" "$WORK/out" || problem "a raw ESC"
	! grep -q "$BEL" "$WORK/out" || problem "a raw BEL"
	! grep -q "$C1" "$WORK/out" || problem "a raw C1 CSI"
	! grep -q '^FORGED' "$WORK/out" || problem "a forged line"
	# Short fields (a table's row name, a filesystem) are cut to fit:
	# the start of the escaped text is what must show.
	grep -q '\\033\]0;OWNED\\aX\\033\[2J' "$WORK/out" ||
	    problem "the escaped text is not shown"
	if [ -z "$problems" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$problems"
	fi
}

# field DESC JQ-ASSIGNMENT: the base report with one string made hostile.
field() {
	jq --argjson h "\"$HOSTILE\"" "$2" "$base" >"$WORK/h.json"
	hostile_shown "$1 is escaped" "$WORK/h.json"
}

field "label" '.label = $h'
field "host (of an unlabelled run)" 'del(.label) | .host = $h'
field "syncprobe_version" '.syncprobe_version = $h'
field "started_at" '.started_at = $h'
field "a target's path" '.targets[0].path = $h'
field "a target's error" '.targets[0].error = $h'
field "filesystem" '.targets[0].filesystem = $h'
field "device name" '.targets[0].device = {"name": $h, "model": null, "write_cache": null, "layers": null}'
field "device write_cache" '.targets[0].device = {"name": "vda", "model": null, "write_cache": $h, "layers": null}'
field "device model" '.targets[0].device = {"name": "vda", "model": $h, "write_cache": null, "layers": null}'
field "device layers" '.targets[0].device = {"name": "vda", "model": null, "write_cache": null, "layers": $h}'
field "a row's name" '.targets[0].tests[0].name = $h'
field "a row's group" '.targets[0].tests[0].group = $h'
field "an n/a row's reason" '(.targets[0].tests[] | select(.status != "ok")) |= (.reason = $h)'
field "wal_sync_method" '.targets[0].advice.wal_sync_method = $h'
field "a warning's code" '.targets[0].advice.warnings = [{"code": $h, "message": "m"}]'
field "a warning's message" '.targets[0].advice.warnings = [{"code": "c", "message": $h}]'

# The report's own file name, as typed (unlabelled: the run is named by it).
name="$WORK/x$(printf '\033]0;OWNED\007\302\233')y.json"
jq 'del(.label)' "$base" >"$name"
run $COMPARE "$name"
problems=
[ "$rc" -eq 0 ] || problem "exit $rc: $(cat "$WORK/err")"
! grep -q "$ESC" "$WORK/out" || problem "a raw ESC"
! grep -q "$C1" "$WORK/out" || problem "a raw C1 CSI"
grep -q 'x\\033\]0;OWNED\\a\\302\\233y\.json' "$WORK/out" || problem "the escaped name is not shown"
if [ -z "$problems" ]; then
	tap_ok "the report's file name is escaped"
else
	tap_fail "the report's file name is escaped" "$problems"
fi

tap_done
