#!/bin/sh
# cli_advice.sh: the advised commit_delay is half the mean of the advised
# method's one-write row, as printed, and --wal-sync-method moves it.
. "$top_srcdir/tests/lib.sh"

out=$WORK/out

# The printed mean of row $2 in the one-write section of $1.
row_mean() {
	awk -v n="$2" '/^Compare file sync methods using one/ { s = 1 } /^$/ { s = 0 }
		s && index($0, n " ") == 1 && substr($0, length(n) + 1) ~ /^ +[0-9]/ {
			split(substr($0, length(n) + 1), f, " "); print f[2]; exit }' "$1"
}

# The Advice section of the report (not "What to set", which repeats the
# settings).
advice_only() {
	sed -n '/^Advice$/,/^What to set$/p' "$out"
}

check_advice() {
	label=$1
	method=$(advice_only | sed -n "s/^  wal_sync_method = '\(.*\)'\$/\1/p")
	delay=$(advice_only | sed -n 's/^  commit_delay = \([0-9]*\)$/\1/p')
	basis=$(sed -n 's/^    half of \([0-9.]*\) us, the mean of one write + sync with \([a-z_]*\).*/\1 \2/p' "$out")
	case $method in
	open_datasync|fdatasync|fsync|fsync_writethrough|open_sync) tap_ok "$label: advises a real method ($method)" ;;
	*) tap_fail "$label: advised method" "$(cat "$out")" ;;
	esac
	set -- $basis
	if [ $# -ne 2 ] || [ -z "$delay" ]; then
		tap_fail "$label: commit_delay and its basis printed" "$(cat "$out")"
		return
	fi
	want=$(awk -v m="$1" 'BEGIN { h = m / 2; printf "%d", (h - int(h) >= 0.5) ? int(h) + 1 : int(h) }')
	tap_is "$delay" "$want" "$label: commit_delay $delay is half of the basis mean $1, rounded"
	printed=$(row_mean "$out" "$2")
	if awk -v a="$1" -v b="$printed" 'BEGIN { d = a - b; exit !(b != "" && d <= 0.051 && d >= -0.051) }'; then
		tap_ok "$label: basis mean $1 is the '$2' row's printed mean ($printed)"
	else
		tap_fail "$label: basis matches the row" "basis $1, row '$2' mean '$printed'"
	fi
	basis_method=$2
}

"$SYNCPROBE" $FAST -t one,two "$WORK" >"$out"
check_advice "default run"
tap_is "$basis_method" "$method" "default run: commit_delay rests on the advised method"

"$SYNCPROBE" $FAST -t one --wal-sync-method=open_sync "$WORK" >"$out"
check_advice "--wal-sync-method=open_sync"
tap_is "$basis_method" "open_sync" "--wal-sync-method=open_sync: the delay rests on open_sync"
tap_check "--wal-sync-method is named in the reason" grep -q -- '--wal-sync-method' "$out"

# The report ends with "What to set": the settings -F conf makes active
# and JSON's what_to_set lists (the unit tests compare the three reports'
# lines exactly; real runs may measure different values, so here the
# names). The half rule is derived, never set: its line is "not set".
"$SYNCPROBE" $FAST -t one,two "$WORK" >"$out"
last_block=$(awk '/^$/ { b = "" } { b = b $0 "\n" } END { printf "%s", b }' "$out" | sed -n 2p)
tap_is "$last_block" "What to set" "the text report ends with \"What to set\""
text_names=$(sed -n '/^What to set$/,$s/^  \([a-z_]*\) = .*/\1/p' "$out" | tr '\n' ' ')
"$SYNCPROBE" $FAST -t one,two -F conf "$WORK" >"$WORK/conf"
conf_names=$(grep -v '^#' "$WORK/conf" | sed 's/ = .*//' | tr '\n' ' ')
tap_is "$text_names" "$conf_names" "\"What to set\" names the settings -F conf makes active"
tap_is "$conf_names" "wal_sync_method " "-F conf: the measured method is active, the rule's delay is not"
tap_check "-F conf: the rule's delay is a comment, with what would make it a setting" \
	sh -c "grep -q '^#commit_delay = [0-9]*\$' '$WORK/conf' &&
	    grep -q '^# commit_delay: the half rule, untested: .*not set until measured' '$WORK/conf'"
tap_check "\"What to set\": the method says how sure it is; the rule's delay is not set" \
	sh -c "sed -n '/^What to set\$/,\$p' '$out' | grep -q '^    measured here: ' &&
	    sed -n '/^What to set\$/,\$p' '$out' | grep -q '^  not set: commit_delay = [0-9]* (the half rule, untested: '"
if command -v jq >/dev/null 2>&1; then
	"$SYNCPROBE" $FAST -t one,two -F json "$WORK" >"$WORK/json"
	json_names=$(jq -r '.targets[0].what_to_set[] | .name + " " + .source' "$WORK/json" | tr '\n' ' ')
	tap_is "$json_names" "wal_sync_method probe " "JSON: what_to_set lists the measured method, from the probe"
	tap_is "$(jq -c '.targets[0].nothing_to_set' "$WORK/json")" "null" \
		"JSON: nothing_to_set is null where something is set"
else
	tap_skip "JSON's what_to_set" "jq is not installed"
	tap_skip "JSON's nothing_to_set" "jq is not installed"
fi

# On tmpfs nothing may be set: the list is empty, with a reason code, and
# conf comments every setting out.
mem=$WORK/mem
if command -v jq >/dev/null 2>&1 && mount_tmpfs "$mem" size=32m; then
	"$SYNCPROBE" $FAST -t one,two -F json "$mem" >"$WORK/json"
	tap_is "$(jq -c '.targets[0] | [.what_to_set, .nothing_to_set.code]' "$WORK/json")" \
		'[[],"not_durable"]' "tmpfs: what_to_set is empty, nothing_to_set says not_durable"
	"$SYNCPROBE" $FAST -t one,two -F conf "$mem" >"$WORK/conf"
	tap_is "$(grep -vc '^#' "$WORK/conf")" 0 "tmpfs: -F conf sets nothing"
else
	tap_skip "tmpfs: what_to_set" "no tmpfs to mount here (not root), or no jq"
	tap_skip "tmpfs: -F conf" "no tmpfs to mount here (not root), or no jq"
fi

# Without the one-write test there is nothing to base advice on, and it says so.
"$SYNCPROBE" $FAST -t nosync "$WORK" >"$out"
tap_check "no advice without the one-write test" grep -q '^  commit_delay: no advice' "$out"

tap_done
