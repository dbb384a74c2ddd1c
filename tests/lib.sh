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

tmpfs_mounts=	# mount_tmpfs's and mount_loop's, unmounted on exit
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

# mount_loop DIR SIZE: a fresh ext4 filesystem of SIZE (truncate's: 1400M)
# in a sparse file in $WORK, loop-mounted at DIR, unmounted again on exit.
# Fails when not root, or when there is no mkfs.ext4 or loop device.
mount_loop() {
	[ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null 2>&1 || return 1
	mkdir -p "$1"
	truncate -s "$2" "$1.img" && mkfs.ext4 -q -F "$1.img" >/dev/null 2>&1 &&
	    mount -o loop "$1.img" "$1" 2>/dev/null || { rm -f "$1.img"; return 1; }
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

# tap_require TOOL: skip the whole file (a TAP "1..0 # SKIP" plan) when TOOL
# is not installed.
tap_require() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "1..0 # SKIP $1 is not installed"
		exit 0
	fi
}

# no_testfile DIR: true when syncprobe left no test file in DIR.
no_testfile() {
	[ -z "$(find "$1" -maxdepth 1 -name '.syncprobe.*' -print)" ]
}

has_testfile() {
	! no_testfile "$1"
}

# waiting PID CMD...: poll CMD every 0.05 s until it succeeds (true), or
# until process PID has ended or twenty seconds have passed (false).
waiting() {
	w_pid=$1 w_i=0
	shift
	until "$@"; do
		kill -0 "$w_pid" 2>/dev/null || return 1
		[ $w_i -lt 400 ] || return 1
		sleep 0.05
		w_i=$((w_i + 1))
	done
}

# $DEFAULT_SIGNALS: a command prefix that runs a program with every
# signal's default action, as from a terminal. A background job of a
# non-interactive shell starts with SIGINT and SIGQUIT ignored, and
# syncprobe keeps a signal ignored at its start (as under nohup). Empty
# when neither env --default-signal nor perl can do it.
if env --default-signal true 2>/dev/null; then
	DEFAULT_SIGNALS="env --default-signal"
elif command -v perl >/dev/null 2>&1; then
	DEFAULT_SIGNALS="perl -e \$SIG{\$_}='DEFAULT'for(keys%SIG);exec@ARGV;die --"
else
	DEFAULT_SIGNALS=
fi

# A fast run's options: few operations, a small file; ONE narrows it to a
# single row, the quickest run that still writes and syncs.
FAST="-q -n 20 --file-size 64k"
ONE="$FAST -t one -m fdatasync --direct=off"

nl='
'

# problem TEXT: add a line to $problems (a check empties it first and reports
# what it gathered).
problem() {
	problems="${problems:+$problems$nl}$1"
}

# preload_works: true when tests/faultshim.so can be preloaded here (see
# shim_detect, below).
preload_works() {
	shim_detect
	[ "$preload" = yes ]
}

# run ARGS...: run syncprobe (as $AS, a command prefix, when set); $rc,
# $WORK/out and $WORK/err hold the result.
AS=
run() {
	rc=0
	$AS "$SYNCPROBE" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
}

# jq_checks FILE: each check on stdin, "DESCRIPTION | JQ FILTER", passes
# when the filter yields true for the JSON document in FILE. A line that
# starts with a tab continues the filter above it; blank lines and #
# comments are skipped.
jq_checks() {
	jq_doc=$1 jq_desc= jq_filter=
	while IFS= read -r jq_line; do
		case $jq_line in
		'	'*)
			[ -n "$jq_desc" ] || tap_fail "a continued filter follows a check" "$jq_line"
			jq_filter="$jq_filter ${jq_line#"${jq_line%%[! 	]*}"}"
			continue
			;;
		'' | '#'*) continue ;;
		esac
		[ -z "$jq_desc" ] || jq_check "$jq_doc" "$jq_desc" "$jq_filter"
		case $jq_line in
		*" | "*) jq_desc=${jq_line%% | *} jq_filter=${jq_line#* | } ;;
		*) tap_fail "a check line is 'DESCRIPTION | JQ FILTER'" "$jq_line"; jq_desc= ;;
		esac
	done
	[ -z "$jq_desc" ] || jq_check "$jq_doc" "$jq_desc" "$jq_filter"
}

# jq_check FILE DESC FILTER: pass when FILTER yields true for FILE.
jq_check() {
	# jq 1.6 -e exits 0 on an empty file: no document is no pass.
	if [ ! -s "$1" ]; then
		tap_fail "$2" "no JSON document: $1 is empty"
	elif jq -e "$3" "$1" </dev/null >/dev/null 2>"$WORK/jq.err"; then
		tap_ok "$2"
	else
		jq_why="jq -e '$3' is not true"
		[ ! -s "$WORK/jq.err" ] || jq_why="$jq_why$nl$(cat "$WORK/jq.err")"
		tap_fail "$2" "$jq_why"
	fi
}

# schema_valid DESC KIND FILE [--lines]: the JSON document in FILE (with
# --lines, each line of it: JSON Lines) validates against
# schema/KIND.schema.json, with tests/json_schema.py; skipped without
# python3 or its jsonschema (python3-jsonschema).
schema_valid() {
	if ! command -v python3 >/dev/null 2>&1; then
		tap_skip "$1: valid against schema/$2.schema.json" "python3 is not installed"
		return
	fi
	sv_rc=0
	python3 "$top_srcdir/tests/json_schema.py" ${4:-} "$top_srcdir/schema/$2.schema.json" \
	    "$3" >"$WORK/schema.out" 2>&1 || sv_rc=$?
	case $sv_rc in
	0) tap_ok "$1: valid against schema/$2.schema.json" ;;
	77) tap_skip "$1: valid against schema/$2.schema.json" "$(cat "$WORK/schema.out")" ;;
	*) tap_fail "$1: valid against schema/$2.schema.json" "$(head -n 20 "$WORK/schema.out")" ;;
	esac
}

# stalled_reader NAME CMD...: CMD in the background, its standard output
# into a pipe whose reader takes nothing for a minute (sleep 60), its
# stderr in $WORK/NAME.err; its pid goes to $WORK/NAME.pid, and its exit
# status to $WORK/NAME.rc once it ends. $reader is the reader's pid.
stalled_reader() {
	sr=$1
	shift
	rm -f "$WORK/$sr.rc" "$WORK/$sr.pid"
	{
		"$@" 2>"$WORK/$sr.err" &
		echo $! >"$WORK/$sr.pid"
		st=0
		wait $! || st=$?
		echo $st >"$WORK/$sr.rc"
	} | sleep 60 &
	reader=$!
}

# ---- the pictures (-F svg, watch --svg) ----
# have PROGRAM: PROGRAM is on the PATH.
have() {
	command -v "$1" >/dev/null 2>&1
}

# picture_ok DESC FILE: FILE is one whole SVG document that xmllint
# accepts.
picture_ok() {
	problems=
	[ "$(head -c 5 "$2")" = "<?xml" ] || problem "it does not start with <?xml"
	[ "$(tail -n 1 "$2")" = "</svg>" ] || problem "it does not end with </svg>"
	grep -q '<title id="title">.' "$2" || problem "no <title>"
	grep -q '<desc id="desc">.' "$2" || problem "no <desc>"
	if [ -n "$problems" ]; then
		tap_fail "$1: an SVG document" "$problems"
	elif ! have xmllint; then
		tap_skip "$1: xmllint accepts it" "xmllint is not installed"
	elif xmllint --noout "$2" 2>"$WORK/xmllint.err"; then
		tap_ok "$1: xmllint accepts it"
	else
		tap_fail "$1: xmllint accepts it" "$(head -n 5 "$WORK/xmllint.err")"
	fi
}

# drawn_in_colour DESC FILE: rsvg-convert draws FILE as a PNG of more than
# two colours, some of them saturated (the palette's, not grey only).
drawn_in_colour() {
	if ! have rsvg-convert || ! have python3; then
		tap_skip "$1: drawn in colour" "rsvg-convert or python3 is not installed"
		return
	fi
	# Small: the PNG is decoded in Python.
	if ! rsvg-convert -w 240 -o "$WORK/p.png" "$2" 2>"$WORK/rsvg.err"; then
		tap_fail "$1: drawn in colour" "rsvg-convert: $(cat "$WORK/rsvg.err")"
		return
	fi
	set -- "$1" $(python3 "$top_srcdir/tests/png_colours.py" "$WORK/p.png")
	if [ "${2:-0}" -gt 2 ] && [ "${3:-0}" -gt 0 ]; then
		tap_ok "$1: drawn in colour ($2 colours)"
	else
		tap_fail "$1: drawn in colour" "${2:-no} colours, ${3:-no} saturated pixels"
	fi
}

# ---- the usage-error contract ----
# Bad usage and an unusable target exit 2, print nothing on stdout and
# exactly one line on stderr, "syncprobe: WHAT: WHY", and leave no test file.

# one_line_problems WHAT: add to $problems what is wrong with $WORK/err as
# the single message "syncprobe: WHAT: WHY\n" (WHAT literal, and may itself
# hold a newline when a path does; WHY non-empty and on the same line).
one_line_problems() {
	err=$(cat "$WORK/err")
	case $err in
	"syncprobe: $1: "?*) ;;
	*) problem "stderr does not start 'syncprobe: $1: WHY'"; return ;;
	esac
	case ${err#"syncprobe: $1: "} in
	*"$nl"*) problem "more than one line on stderr"; return ;;
	esac
	one_message_only
}

# one_message_only: $WORK/err is $err and one newline, nothing before or
# after (the command substitution that read it dropped trailing newlines).
one_message_only() {
	[ "$(wc -c <"$WORK/err")" -eq $((${#err} + 1)) ] ||
	    problem "stderr has more than the one line"
}

# usage_verdict DESC TARGETDIR: add the rest of the contract to $problems
# (exit status 2, nothing on stdout, no test file left) and report.
usage_verdict() {
	[ "$rc" -eq 2 ] || problem "exit status $rc, want 2"
	[ ! -s "$WORK/out" ] || problem "wrote $(wc -c <"$WORK/out") bytes to stdout"
	no_testfile "$2" || problem "left a test file in $2"
	if [ -z "$problems" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$problems${nl}stderr: $(cat "$WORK/err")"
	fi
}

# usage_error MODE DESC WANT TARGETDIR ARGS...: syncprobe ARGS keeps the
# contract. MODE what: the message's WHAT is WANT (bad input where WHY is
# free to change); MODE exact: the whole line is WANT, to the byte.
usage_error() {
	usage_mode=$1 usage_desc=$2 usage_want=$3 usage_dir=$4
	shift 4
	run "$@"
	problems=
	case $usage_mode in
	what) one_line_problems "$usage_want" ;;
	exact)
		err=$(cat "$WORK/err")
		[ "$err" = "$usage_want" ] || problem "stderr is not '$usage_want'"
		one_message_only
		;;
	*) problem "usage_error: no mode '$usage_mode'" ;;
	esac
	usage_verdict "$usage_desc" "$usage_dir"
}

# refused DESC WHAT TARGETDIR ARGS...: usage error naming WHAT.
refused() {
	usage_error what "$@"
}

# refused_exactly MESSAGE TARGETDIR ARGS...: usage error with exactly MESSAGE.
refused_exactly() {
	usage_want=$1 usage_dir=$2
	shift 2
	usage_error exact "$* -> exit 2, '$usage_want'" "$usage_want" "$usage_dir" "$@"
}

# ---- the fault shim ----
# shim_detect: $preload is "yes" when LD_PRELOAD of tests/faultshim.so
# ($FAULTSHIM) works here: the shim says it was loaded. ASan wants to come
# first in the library list; the shim comes first here.
shim_detect() {
	: "${FAULTSHIM:=}"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS
	preload=
	if [ -n "$FAULTSHIM" ] && [ -f "$FAULTSHIM" ]; then
		rm -f "$WORK/shim.log"
		LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT_LOG=$WORK/shim.log \
		    "$SYNCPROBE" --version >/dev/null 2>&1 || :
		if grep -q '^loaded$' "$WORK/shim.log" 2>/dev/null; then
			preload=yes
		fi
	fi
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

# warning_codes: the warning codes as a JSON array, from their one table
# (warning_codes[] in src/advice/warnings.c), for tests that check codes.
warning_codes() {
	sed -n 's/^\t\[WARNING_[A-Z0-9_]*\] = "\([a-z0-9_]*\)",$/"\1"/p' \
	    "$top_srcdir/src/advice/warnings.c" | paste -sd, - | sed 's/^/[/; s/$/]/'
}

# pgbench_user: as root, syncprobe pgbench runs the server as postgres:
# $USER_OPT is "--pg-user postgres" then; the whole file is skipped when
# there is no such user. Empty when not root.
pgbench_user() {
	USER_OPT=
	[ "$(id -u)" -eq 0 ] || return 0
	if ! id postgres >/dev/null 2>&1; then
		echo "1..0 # SKIP as root, needs a user postgres to run the server as"
		exit 0
	fi
	USER_OPT="--pg-user postgres"
}
