#!/bin/sh
# cli_stream.sh: rows as they come, Ctrl-C, and the progress line. On a
# terminal (script(1) gives syncprobe a pty) the header and the first group
# are out while the run still goes, and SIGINT after the first group prints
# that group, says the run was interrupted, exits 130 and leaves no test
# file; the progress line never takes more than the terminal's width and is
# erased before the report goes on. Under plain pipes, -F json stopped by
# SIGINT is still one valid document, with "interrupted": true; a second
# signal ends syncprobe at once.
. "$top_srcdir/tests/lib.sh"
tap_require jq

dir=$WORK/target
mkdir "$dir"
pidfile=$WORK/pid
ts=$WORK/typescript
one="Compare file sync methods using one 8kB write"

has_line() {
	grep -q "$2" "$1" 2>/dev/null
}

# on_pty COLUMNS ARGS...: run syncprobe ARGS on a pty of that width, in
# the background, its pid in $pidfile, the terminal's bytes in $ts; $spid is
# script's pid.
on_pty() {
	cols=$1
	shift
	rm -f "$pidfile" "$ts"
	{
		echo "stty cols $cols 2>/dev/null"
		echo "COLUMNS=$cols; export COLUMNS"
		echo "echo \$\$ >'$pidfile'"
		printf 'exec'
		for a in "$SYNCPROBE" "$@"; do
			printf " '%s'" "$a"
		done
		echo
	} >"$WORK/run.sh"
	$DEFAULT_SIGNALS script -qfec "sh '$WORK/run.sh'" "$ts" >/dev/null 2>&1 &
	spid=$!
	waiting "$spid" test -s "$pidfile" || :
	pid=$(cat "$pidfile" 2>/dev/null || echo "$spid")
}

# progress_segments FILE: what each progress draw left on the terminal, one
# a line: the text after "\r\033[K" up to the next carriage return.
progress_segments() {
	tr '\r' '\n' <"$1" | sed -n 's/^\x1b\[K//p' | sed '/^$/d'
}

# stale_progress FILE: the lines that end with a progress line still
# showing (it was not erased before the newline).
stale_progress() {
	tr -d '\r' <"$1" | sed 's/.*\x1b\[K//' | grep ', row [0-9]*/[0-9]*' || :
}

if ! command -v script >/dev/null 2>&1 || [ -z "$DEFAULT_SIGNALS" ] ||
    ! script -qfec true /dev/null >/dev/null 2>&1; then
	for d in "the header and the first group appear before the run ends" \
	    "SIGINT after the first group: exit 130" "SIGINT: that group, and no more" \
	    "SIGINT: the report says it was interrupted" "SIGINT: test file removed" \
	    "progress lines fit 40 columns" "progress lines fit 80 columns, the path cut" \
	    "no progress line is left on the screen"; do
		tap_skip "$d" "no script(1) with -qfec, or no way to undo an ignored SIGINT"
	done
else
	on_pty 80 -s 0.3 --rounds 1 -t one,two,nosync -m fdatasync,fsync --direct=off \
	    --file-size 64k "$dir"
	if waiting "$pid" has_line "$ts" '^fsync  ' && kill -0 "$pid" 2>/dev/null &&
	    has_line "$ts" '^syncprobe .* UTC' && has_line "$ts" "^$one"; then
		tap_ok "the header and the first group appear before the run ends"
	else
		tap_fail "the header and the first group appear before the run ends" "$(cat -v "$ts")"
	fi
	kill -INT "$pid" 2>/dev/null || :
	rc=0
	wait "$spid" || rc=$?
	tap_is "$rc" 130 "SIGINT after the first group: exit 130"
	if has_line "$ts" '^fdatasync  ' && ! has_line "$ts" "^Non-sync'ed"; then
		tap_ok "SIGINT: that group, and no more"
	else
		tap_fail "SIGINT: that group, and no more" "$(cat -v "$ts")"
	fi
	tap_check "SIGINT: the report says it was interrupted" has_line "$ts" '^Interrupted by SIGINT'
	tap_check "SIGINT: test file removed" no_testfile "$dir"

	# A long path: the progress line cuts it, and wraps nowhere.
	long=$dir/a-directory-with-a-rather-long-name-to-make-the-progress-line-too-wide/and-another-one-below-it
	mkdir -p "$long"
	for cols in 40 80; do
		on_pty "$cols" -s 0.3 --rounds 3 -t one -m fdatasync,fsync --direct=off \
		    --file-size 64k "$long"
		wait "$spid" || :
		progress_segments "$ts" >"$WORK/segments"
		wide=$(awk -v max=$((cols - 1)) 'length > max' "$WORK/segments")
		if [ -s "$WORK/segments" ] && [ -z "$wide" ]; then
			if [ "$cols" = 40 ] || grep -q '\.\.\..*: group 1/1 one' "$WORK/segments"; then
				tap_ok "progress lines fit $cols columns$([ "$cols" = 80 ] && echo ', the path cut')"
			else
				tap_fail "progress lines fit 80 columns, the path cut" "$(cat "$WORK/segments")"
			fi
		else
			tap_fail "progress lines fit $cols columns" \
			    "$(wc -l <"$WORK/segments") lines; too wide: $wide"
		fi
		stale_progress "$ts" >>"$WORK/stale"
	done
	tap_is "$(cat "$WORK/stale")" "" "no progress line is left on the screen"
fi

# Plain pipes: -F json stopped by SIGINT.
if [ -n "$DEFAULT_SIGNALS" ]; then
	# In the first row's first round: the second row, which never had a
	# turn, must not be listed.
	$DEFAULT_SIGNALS "$SYNCPROBE" -F json -s 4 --rounds 2 -t one,two -m fdatasync,fsync \
	    --direct=off --file-size 64k "$dir" >"$WORK/out.json" 2>"$WORK/err" &
	pid=$!
	waiting "$pid" has_testfile "$dir" || :
	sleep 0.5
	kill -INT "$pid" 2>/dev/null || :
	rc=0
	{ wait "$pid"; } 2>/dev/null || rc=$?
	tap_is "$rc" 130 "-F json, SIGINT: exit 130"
	tap_is "$(jq -s length "$WORK/out.json" 2>&1)" 1 "-F json, SIGINT: one valid document"
	jq_checks "$WORK/out.json" <<'CHECKS'
-F json, SIGINT: "interrupted": true | .interrupted == true
-F json, SIGINT: every row listed ran | all(.targets[0].tests[]; .ops > 0
	and (.slices | length) >= 1 and all(.slices[]; .ops > 0))
-F json, SIGINT: histograms sum to each row's ops | all(.targets[0].tests[];
	([.histogram[].count] | add) == .ops)
CHECKS
	tap_check "-F json, SIGINT: test file removed" no_testfile "$dir"

	# Two signals: the second ends it at once, with no report. Both wait
	# while syncprobe is stopped, so that they arrive one after the other.
	$DEFAULT_SIGNALS "$SYNCPROBE" -F json -s 5 --rounds 1 -t one -m fdatasync \
	    --direct=off --file-size 64k "$dir" >"$WORK/out.json" 2>"$WORK/err" &
	pid=$!
	waiting "$pid" has_testfile "$dir" || :
	kill -STOP "$pid"
	kill -INT "$pid"
	kill -TERM "$pid"
	kill -CONT "$pid"
	rc=0
	{ wait "$pid"; } 2>/dev/null || rc=$?
	case $rc in
	130 | 143) tap_ok "a second signal: dies at once of a signal (exit $rc)" ;;
	*) tap_fail "a second signal: dies at once of a signal" "exit $rc: $(cat "$WORK/err")" ;;
	esac
	tap_is "$(wc -c <"$WORK/out.json" | tr -d ' ')" 0 "a second signal: no report"
	tap_check "a second signal: test file removed" no_testfile "$dir"
else
	for d in "-F json, SIGINT" "a second signal"; do
		tap_skip "$d" "no env --default-signal or perl to undo the shell's SIG_IGN"
	done
fi

# Text through a pipe streams too: the first group is out before the end.
"$SYNCPROBE" -q -s 0.5 --rounds 1 -t one,nosync -m fdatasync,fsync --direct=off \
    --file-size 64k "$dir" >"$WORK/out" 2>"$WORK/err" &
pid=$!
if waiting "$pid" has_line "$WORK/out" '^fsync  ' && kill -0 "$pid" 2>/dev/null; then
	tap_ok "through a pipe, each group is written as soon as it is done"
else
	tap_fail "through a pipe, each group is written as soon as it is done" "$(cat "$WORK/out")"
fi
wait "$pid" || :
tap_check "the streamed run completes" has_line "$WORK/out" '^Advice'

tap_done
