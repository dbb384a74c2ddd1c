# shellcheck shell=sh
# bench/lib.sh: what every comparison script in bench/ shares -- its
# arguments and knobs, finding the tools, the scratch directories and their
# removal on any exit, running a tool so that a signal stops it, progress
# lines, the pairing and ratio arithmetic, and the report's end (targets,
# notes). Sourced, never run. Its awk programs are in bench/awk/.
#
# A comparison script sets BENCH_ABOUT (the middle of its --help) and NEEDS
# (the tools whose absence it reports), sources this file, then calls
#	bench_init "$@"; bench_start SECONDS; ...its table...; bench_end
# Alone, it prints the header, its table, its targets and notes. Run by
# compare.sh, which exports BENCH_SHARED (notes and verdicts), BENCH_WORK
# (the test files) and BENCH_START, it prints its table only: compare.sh
# prints the header once and every script's targets and notes at the end.

LC_ALL=C	# pg_test_fsync's output is translated; awk must read "1.5"
export LC_ALL

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ME=${0##*/}
# shellcheck disable=SC2034 # for the scripts
TAB=$(printf '\t')
START=${BENCH_START:-$(date +%s)}
IN_COMPARE=0
[ -n "${BENCH_SHARED:-}" ] && IN_COMPARE=1
CHILD=	# the process run() waits for: stopped first on a signal

usage() {
	printf 'Usage: sh bench/%s DIR\n       sh bench/%s --estimate\n\n' "$ME" "$ME"
	printf '%s\n\n' "$BENCH_ABOUT"
	cat <<'EOF'
--estimate prints the seconds a run would take with these knobs.

Knobs (environment):
  PAIRS=5      alternating pairs for the row-by-row and fio comparisons
  CV_RUNS=5    default runs of each tool for wall time, RSS and the CV
  SECS=2       seconds per test in the paired runs (an integer)
  ROUNDS1=1    also pair pg_test_fsync with syncprobe --rounds 1 (0: skip)
  QUICK=1      PAIRS=2 CV_RUNS=3 SECS=1 ROUNDS1=0, pg_test_fsync -s 1 runs
               instead of default ones: minutes, for trying the script out
  SYNCPROBE=path      default: ../src/syncprobe beside this script
  PG_TEST_FSYNC=path  default: on PATH or /usr/lib/postgresql/*/bin
  FIO=path STRACE=path JQ=path TIME=path (/usr/bin/time)
EOF
	exit "${1:-2}"
}

die() {
	printf '%s: %s\n' "$ME" "$*" >&2
	exit 2
}

# bench_init "$@": the arguments (DIR, --help or --estimate) and the knobs.
bench_init() {
	ESTIMATE=0
	case ${1:-} in
	-h | --help) usage 0 ;;
	esac
	[ $# -eq 1 ] || usage
	if [ "$1" = --estimate ]; then
		ESTIMATE=1
	else
		DIR=$1
		[ -d "$DIR" ] || die "$DIR: not a directory"
		[ -w "$DIR" ] || die "$DIR: not writable"
	fi
	QUICK=${QUICK:-0}
	if [ "$QUICK" = 1 ]; then
		PAIRS=${PAIRS:-2} CV_RUNS=${CV_RUNS:-3} SECS=${SECS:-1} ROUNDS1=${ROUNDS1:-0}
	else
		PAIRS=${PAIRS:-5} CV_RUNS=${CV_RUNS:-5} SECS=${SECS:-2} ROUNDS1=${ROUNDS1:-1}
	fi
	for knob in PAIRS CV_RUNS SECS; do
		eval "v=\$$knob"
		case $v in
		'' | *[!0-9]*) die "$knob=$v: give a whole number" ;;
		esac
		[ "$v" -ge 1 ] || die "$knob=$v: give at least 1"
	done
	export PAIRS CV_RUNS SECS ROUNDS1 QUICK
}

# bench_start SECONDS: with --estimate print SECONDS and exit; else find
# the tools, make the scratch directories and, alone, print the header.
bench_start() {
	if [ "$ESTIMATE" = 1 ]; then
		echo "$1"
		exit 0
	fi
	find_tools
	make_scratch
	[ "$IN_COMPARE" = 1 ] && return
	# shellcheck disable=SC2086 # NEEDS is a list of names
	note_missing $NEEDS
	print_header
	progress "about $(($1 / 60 + 1)) minutes; working in $WORK"
}

# bench_end: alone, the targets this script judged and the notes.
bench_end() {
	[ "$IN_COMPARE" = 1 ] && return
	if [ -s "$VERDICTS" ]; then
		echo
		echo "== targets (bench/README)"
		cat "$VERDICTS"
	fi
	echo
	if [ -s "$NOTES" ]; then
		echo "Not measured or failed:"
		cat "$NOTES"
	else
		echo "Everything was measured."
	fi
	progress "done"
}

# ---- the tools ----

find_tool() {	# find_tool NAME [PATH...]: the first executable one, or ""
	name=$1
	shift
	for cand in "$@"; do
		[ -n "$cand" ] && [ -x "$cand" ] && { printf '%s\n' "$cand"; return; }
	done
	command -v "$name" 2>/dev/null || :
}

# find_tools: every tool's path, or "" for a missing one (not an error: the
# tables it would fill say so). Exported: compare.sh's scripts take the
# ones it found, "" too, rather than look again.
find_tools() {
	[ "$IN_COMPARE" = 1 ] && return
	SYNCPROBE=${SYNCPROBE:-$BENCH_DIR/../src/syncprobe}
	[ -x "$SYNCPROBE" ] || die "$SYNCPROBE: no syncprobe there (build it, or set SYNCPROBE=)"
	if [ -z "${PG_TEST_FSYNC:-}" ]; then	# on PATH, else Debian's newest
		PG_TEST_FSYNC=$(command -v pg_test_fsync 2>/dev/null || :)
		bestv=0
		for cand in /usr/lib/postgresql/*/bin/pg_test_fsync; do
			[ -z "$PG_TEST_FSYNC" ] || [ "$bestv" != 0 ] || break
			[ -x "$cand" ] || continue
			v=${cand#/usr/lib/postgresql/}
			v=${v%%/*}
			case $v in '' | *[!0-9]*) continue ;; esac
			if [ "$v" -gt "$bestv" ]; then
				bestv=$v
				best=$cand
			fi
		done
		[ "$bestv" = 0 ] || PG_TEST_FSYNC=$best
	fi
	FIO=${FIO:-$(find_tool fio)}
	STRACE=${STRACE:-$(find_tool strace)}
	JQ=${JQ:-$(find_tool jq)}
	TIME=${TIME:-$(find_tool time /usr/bin/time)}
	# GNU time's -f and -o; the shell builtin does not have them.
	[ -n "$TIME" ] && ! "$TIME" -f '%e %M' -o /dev/null true 2>/dev/null && TIME=
	export SYNCPROBE PG_TEST_FSYNC FIO STRACE JQ TIME
}

# note_missing TOOL...: a note for each of these tools that was not found,
# in one fixed order whatever the order given.
note_missing() {
	for tool in jq pg_test_fsync fio strace time; do
		case " $* " in *" $tool "*) ;; *) continue ;; esac
		case $tool in
		jq) [ -n "$JQ" ] || note "jq not found: syncprobe's JSON cannot be read, so every syncprobe figure but wall time and RSS is missing (install jq)" ;;
		pg_test_fsync) [ -n "$PG_TEST_FSYNC" ] || note "pg_test_fsync not found (Debian: postgresql-15): no syncprobe/pg_test_fsync comparison" ;;
		fio) [ -n "$FIO" ] || note "fio not found: no syncprobe/fio comparison" ;;
		strace) [ -n "$STRACE" ] || note "strace not found: no system call counts" ;;
		time) [ -n "$TIME" ] || note "GNU time not found (/usr/bin/time): no wall time or peak RSS" ;;
		esac
	done
}

# ---- scratch space, cleanup, running a tool ----

# make_scratch: results in TMP, every test file in WORK, a fresh directory
# inside DIR so that all tools use the same filesystem (compare.sh's WORK
# when run by it). Both go on any exit; a child still running is stopped
# first (SIGTERM: each tool removes its own file then), children of a
# wrapper (time, strace, a script of compare.sh's) before the wrapper.
make_scratch() {
	if [ "$IN_COMPARE" = 1 ]; then
		TMP=$(mktemp -d "$BENCH_SHARED/$ME.XXXXXX") || die "mktemp failed"
		WORK=$BENCH_WORK
		OWN_WORK=
		SHARED=$BENCH_SHARED
	else
		TMP=$(mktemp -d "${TMPDIR:-/tmp}/syncprobe-compare.XXXXXX") || die "mktemp failed"
		WORK=$(mktemp -d "$DIR/syncprobe-compare.XXXXXX") || { rm -rf "$TMP"; die "$DIR: cannot make a directory"; }
		OWN_WORK=$WORK
		SHARED=$TMP
	fi
	NOTES=$SHARED/notes	# what could not be measured, printed at the end
	VERDICTS=$SHARED/verdicts	# the targets' lines, printed at the end
	# shellcheck disable=SC2034 # for the scripts that run pg_test_fsync
	PGFILE=$WORK/pg_test_fsync.out
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
	trap 'cleanup; exit 129' HUP
}

kill_tree() {	# kill_tree PID: SIGTERM to PID's descendants, then PID
	for kid in $(pgrep -P "$1" 2>/dev/null || ps -o pid= --ppid "$1" 2>/dev/null); do
		kill_tree "$kid"
	done
	kill -TERM "$1" 2>/dev/null
}

cleanup() {
	trap - EXIT INT TERM HUP
	if [ -n "$CHILD" ]; then
		kill_tree "$CHILD"
		wait "$CHILD" 2>/dev/null
	fi
	rm -rf "$OWN_WORK" "$TMP"
}

# bg_wait CMD...: CMD in the background, waited for, so that a signal to
# this script is handled at once; its status in rc too.
bg_wait() {
	"$@" </dev/null &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=
	return $rc
}

# run OUT CMD...: CMD's stdout to OUT, stderr to OUT.err. Before it, the
# filesystem is synced: the last tool's removed 16 MiB file (with
# -o discard, a discard of its blocks), fio's or dd's writes, are then not
# paid for in the first flushes of the next run, whichever tool it is.
run() {
	out=$1
	shift
	sync -f "$WORK" 2>/dev/null || sync
	bg_wait "$@" >"$out" 2>"$out.err"
}

progress() {
	now=$(date +%s)
	printf '[%3d:%02d] %s\n' $(((now - START) / 60)) $(((now - START) % 60)) "$*" >&2
}

note() {	# note TEXT: one line for the end of the report
	printf '%s\n' "- $*" >>"$NOTES"
}

# ---- the report ----

print_header() {	# the machine, the tools, the knobs
	fs=$(df -PT "$DIR" 2>/dev/null | awkf df_field -v f=2)
	[ -n "$fs" ] || fs=$(stat -f -c %T "$DIR" 2>/dev/null || echo unknown)
	dev=$(df -P "$DIR" 2>/dev/null | awkf df_field -v f=1)
	cache=unknown
	devname=$(basename "${dev:-unknown}")
	[ -r "/sys/block/$devname/queue/write_cache" ] && cache=$(cat "/sys/block/$devname/queue/write_cache")
	spver=$("$SYNCPROBE" --version 2>/dev/null | head -n 1)
	pgver=
	[ -n "$PG_TEST_FSYNC" ] && pgver=$("$PG_TEST_FSYNC" --version 2>/dev/null | head -n 1)
	fiover=
	[ -n "$FIO" ] && fiover=$("$FIO" --version 2>/dev/null | head -n 1)
	echo "syncprobe comparison: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "target: $DIR ($fs on $dev, write cache: $cache); $(nproc 2>/dev/null || echo '?') CPUs, $(uname -sr)"
	echo "tools: ${spver:-syncprobe ?} ($SYNCPROBE); ${pgver:-no pg_test_fsync}; ${fiover:-no fio}"
	echo "settings: PAIRS=$PAIRS CV_RUNS=$CV_RUNS SECS=$SECS ROUNDS1=$ROUNDS1 QUICK=$QUICK"
	echo "A ratio is syncprobe's figure over the other tool's from the same pair of"
	echo "alternating runs; each table gives the median of those ratios, min and max."
}

section() {	# section N TITLE: a table's heading
	echo
	echo "== $1. $2"
}

not_measured() {	# in place of a table
	echo "(not measured: see the end)"
}

verdict() {	# verdict NAME OK DETAIL: OK is 1 (met), 0 (missed) or - (not measured)
	if [ "$2" = 1 ]; then v=met; elif [ "$2" = 0 ]; then v=MISSED; else v="not measured"; fi
	printf '%-10s %-13s %s\n' "$1" "$v" "$3" >>"$VERDICTS"
}

# judge SUMMARY KEY COLUMN NAME MISSING FORMAT OP LIMIT [OP LIMIT]...: the
# verdict of target NAME on one figure of a summary: met where it holds
# every OP LIMIT (see holds), the detail FORMAT printf'd with the figure;
# not measured, with the detail MISSING, where the summary lacks it.
judge() {
	x=$(get "$1" "$2" "$3")
	name=$4 missing=$5 format=$6
	shift 6
	if [ -n "$x" ]; then
		# shellcheck disable=SC2059 # the format is the caller's
		verdict "$name" "$(holds "$x" "$@")" "$(printf "$format" "$x")"
	else
		verdict "$name" - "$missing"
	fi
}

# ---- pairing, arithmetic and parsing (all arithmetic in awk) ----

awkf() {	# awkf NAME ARG...: run bench/awk/NAME.awk
	prog=$1
	shift
	awk -f "$BENCH_DIR/awk/$prog.awk" "$@"
}

upto() {	# upto N: 1 2 ... N
	k=1
	while [ "$k" -le "$1" ]; do
		printf '%s\n' "$k"
		k=$((k + 1))
	done
}

# rotate N ITEM...: the order of pair (or run) N: the items rotated left
# N-1 times, so that none of the tools always goes first.
rotate() {
	k=$((($1 - 1) % ($# - 1)))
	shift
	while [ "$k" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k - 1))
	done
	echo "$*"
}

# Lines "key<TAB>value" in, one line per key out, in order of first sight:
# key n median min max mean cv (cv = sample stddev / mean; -1 for n < 2).
summarize() {
	awkf summarize "$@"
}

# pair_ratios SP OTHER: "key<TAB>sp/other" for every row both have, in
# OTHER's order.
pair_ratios() {
	awkf pair_ratios "$1" "$2"
}

# ratio_of SUMMARY KEY: KEY's "median  min  max", 2 decimals, or nothing.
ratio_of() {
	awkf fmt_ratio -v k="$2" "$1"
}

get() {	# get SUMMARY KEY COLUMN: one figure of a summary line (0: the line)
	awkf get -v k="$2" -v c="$3" "$1"
}

# holds X OP Y [OP Y]...: 1 if X OP Y holds for every pair, else 0.
holds() {
	awkf holds -- "$@"	# --: X may be negative (a CV of -1)
}

percent() {	# percent X: X * 100 with one decimal
	awkf percent -v x="$1"
}

# pg_rows FILE: pg_test_fsync's text report as "group|syncprobe row
# name<TAB>ops/sec". Its open_* rows and every sizes row use O_DIRECT:
# syncprobe's "(direct)" rows; fdatasync, fsync and the rest are buffered
# in both tools.
pg_rows() {
	awkf pg_rows "$1"
}

# sp_rows FILE: syncprobe's JSON rows the same way.
sp_rows() {
	"$JQ" -r '.targets[0].tests[] | select(.status == "ok" and .ops_per_sec != null)
	    | [.group + "|" + .name, .ops_per_sec] | @tsv' "$1"
}

json_num() {	# json_num FILE JQ-EXPR: a number, or nothing
	"$JQ" -r "$2 // empty" "$1" 2>/dev/null | head -n 1
}
