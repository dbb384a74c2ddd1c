#!/bin/sh
# bench/compare.sh: syncprobe side by side with pg_test_fsync, fio and
# strace on one directory, the tools run alternately, printing medians of
# paired ratios with min and max, never absolute times. Run by hand, never
# by make check: it takes about 20 minutes with the defaults (QUICK=1: 3).
# See bench/README for the knobs, how to read the tables and the targets.
set -u
LC_ALL=C	# pg_test_fsync's output is translated; awk must read "1.5"
export LC_ALL

usage() {
	cat <<'EOF'
Usage: sh bench/compare.sh DIR

Runs syncprobe, pg_test_fsync, fio and strace in a fresh subdirectory of DIR
and prints ratios. Knobs (environment):
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
	printf 'compare.sh: %s\n' "$*" >&2
	exit 2
}

case ${1:-} in
-h | --help) usage 0 ;;
esac
[ $# -eq 1 ] || usage
DIR=$1
[ -d "$DIR" ] || die "$DIR: not a directory"
[ -w "$DIR" ] || die "$DIR: not writable"

here=$(cd "$(dirname "$0")" && pwd)
SYNCPROBE=${SYNCPROBE:-$here/../src/syncprobe}
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
[ "$CV_RUNS" -ge 2 ] || die "CV_RUNS=$CV_RUNS: a CV needs at least 2 runs"
[ -x "$SYNCPROBE" ] || die "$SYNCPROBE: no syncprobe there (build it, or set SYNCPROBE=)"

# The tools. A missing one is not an error: its tables say so.
find_tool() {	# find_tool NAME [PATH...]: the first executable one, or ""
	name=$1
	shift
	for cand in "$@"; do
		[ -n "$cand" ] && [ -x "$cand" ] && { printf '%s\n' "$cand"; return; }
	done
	command -v "$name" 2>/dev/null || :
}
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

NOTES=	# what could not be measured, printed at the end
note() {
	NOTES="$NOTES- $*
"
}
[ -n "$JQ" ] || note "jq not found: syncprobe's JSON cannot be read, so every syncprobe figure but wall time and RSS is missing (install jq)"
[ -n "$PG_TEST_FSYNC" ] || note "pg_test_fsync not found (Debian: postgresql-15): no syncprobe/pg_test_fsync comparison"
[ -n "$FIO" ] || note "fio not found: no syncprobe/fio comparison"
[ -n "$STRACE" ] || note "strace not found: no system call counts"
[ -n "$TIME" ] || note "GNU time not found (/usr/bin/time): no wall time or peak RSS"

# Scratch space: results in TMP, every test file in WORK, a fresh directory
# inside DIR so that all tools use the same filesystem. Both go on any exit;
# a child still running is stopped first (SIGTERM: each tool removes its own
# file then), children of a wrapper (time, strace) before the wrapper.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/syncprobe-compare.XXXXXX") || die "mktemp failed"
WORK=$(mktemp -d "$DIR/syncprobe-compare.XXXXXX") || { rm -rf "$TMP"; die "$DIR: cannot make a directory"; }
CHILD=

kill_tree() {
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
	rm -rf "$WORK" "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

# run OUT CMD...: CMD's stdout to OUT, stderr to OUT.err. In the background
# and waited for, so that a signal to this script is handled at once.
# Before it, the filesystem is synced: the last tool's removed 16 MiB file
# (with -o discard, a discard of its blocks), fio's or dd's writes, are then
# not paid for in the first flushes of the next run, whichever tool it is.
run() {
	out=$1
	shift
	sync -f "$WORK" 2>/dev/null || sync
	"$@" >"$out" 2>"$out.err" </dev/null &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=
	return $rc
}

START=$(date +%s)
progress() {
	now=$(date +%s)
	printf '[%3d:%02d] %s\n' $(((now - START) / 60)) $(((now - START) % 60)) "$*" >&2
}

# ---- arithmetic and parsing helpers (all arithmetic in awk) ----

# Lines "key<TAB>value" in, one line per key out, in order of first sight:
# key n median min max mean cv (cv = sample stddev / mean; -1 for n < 2).
summarize() {
	awk 'BEGIN { FS = OFS = "\t" }
	$2 != "" {
		if (!($1 in n)) { order[++nk] = $1; n[$1] = 0 }
		v[$1, ++n[$1]] = $2 + 0
	}
	END {
		for (k = 1; k <= nk; k++) {
			key = order[k]; m = n[key]
			for (i = 1; i <= m; i++) a[i] = v[key, i]
			for (i = 2; i <= m; i++) {
				x = a[i]
				for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
				a[j + 1] = x
			}
			med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
			s = 0; for (i = 1; i <= m; i++) s += a[i]
			mean = s / m
			ss = 0; for (i = 1; i <= m; i++) ss += (a[i] - mean) ^ 2
			cv = m > 1 && mean != 0 ? sqrt(ss / (m - 1)) / mean : -1
			print key, m, med, a[1], a[m], mean, cv
		}
	}' "$@"
}

# pg_test_fsync's text report as "group|syncprobe row name<TAB>ops/sec".
# Its open_* rows and every sizes row use O_DIRECT: syncprobe's "(direct)"
# rows; fdatasync, fsync and the rest are buffered in both tools.
pg_rows() {
	awk 'BEGIN { OFS = "\t" }
	/^Compare file sync methods using one/ { g = "one" }
	/^Compare file sync methods using two/ { g = "two" }
	/^Compare open_sync with different write sizes/ { g = "sizes" }
	/^Test if fsync on non-write file descriptor/ { g = "descriptor" }
	/^Non-sync/ { g = "nosync" }
	g != "" && / ops\/sec / {
		for (i = 2; i < NF && $(i + 1) != "ops/sec"; i++) ;
		name = $1
		for (j = 2; j < i; j++) name = name " " $j
		if (((g == "one" || g == "two") && name ~ /^open_/) || g == "sizes")
			name = name " (direct)"
		print g "|" name, $i
	}' "$1"
}

# syncprobe's JSON rows the same way: "group|name<TAB>ops/sec".
sp_rows() {
	"$JQ" -r '.targets[0].tests[] | select(.status == "ok" and .ops_per_sec != null)
	    | [.group + "|" + .name, .ops_per_sec] | @tsv' "$1"
}

# pair_ratios SP PG: "key<TAB>sp/pg" for every row both have, in PG's order.
pair_ratios() {
	awk 'BEGIN { FS = OFS = "\t" }
	NR == FNR { sp[$1] = $2; next }
	($1 in sp) && $2 > 0 { print $1, sp[$1] / $2 }' "$1" "$2"
}

fmt_ratio() {	# summary line -> "median  min  max" with 2 decimals
	awk 'BEGIN { FS = "\t" } { printf "%6.2f %6.2f %6.2f", $3, $4, $5 }'
}

json_num() {	# json_num FILE JQ-EXPR: a number, or nothing
	"$JQ" -r "$2 // empty" "$1" 2>/dev/null | head -n 1
}

# ---- the machine ----
fs=$(df -PT "$DIR" 2>/dev/null | awk 'NR == 2 { print $2 }')
[ -n "$fs" ] || fs=$(stat -f -c %T "$DIR" 2>/dev/null || echo unknown)
dev=$(df -P "$DIR" 2>/dev/null | awk 'NR == 2 { print $1 }')
cache=unknown
devname=$(basename "${dev:-unknown}")
[ -r "/sys/block/$devname/queue/write_cache" ] && cache=$(cat "/sys/block/$devname/queue/write_cache")
SPVER=$("$SYNCPROBE" --version 2>/dev/null | head -n 1)
PGVER=
[ -n "$PG_TEST_FSYNC" ] && PGVER=$("$PG_TEST_FSYNC" --version 2>/dev/null | head -n 1)
FIOVER=
[ -n "$FIO" ] && FIOVER=$("$FIO" --version 2>/dev/null | head -n 1)

# A rough duration: the paired runs, the fio runs, the default runs.
est=$((PAIRS * SECS * (16 + 27 * (1 + ROUNDS1)) + PAIRS * 6 * SECS + PAIRS * 10))
if [ "$QUICK" = 1 ]; then est=$((est + CV_RUNS * 30)); else est=$((est + CV_RUNS * 95)); fi
est=$((est + 60))

echo "syncprobe comparison: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "target: $DIR ($fs on $dev, write cache: $cache); $(nproc 2>/dev/null || echo '?') CPUs, $(uname -sr)"
echo "tools: ${SPVER:-syncprobe ?} ($SYNCPROBE); ${PGVER:-no pg_test_fsync}; ${FIOVER:-no fio}"
echo "settings: PAIRS=$PAIRS CV_RUNS=$CV_RUNS SECS=$SECS ROUNDS1=$ROUNDS1 QUICK=$QUICK"
echo "A ratio is syncprobe's figure over the other tool's from the same pair of"
echo "alternating runs; each table gives the median of those ratios, min and max."
progress "about $((est / 60 + 1)) minutes; working in $WORK"

PGFILE=$WORK/pg_test_fsync.out

# ---- 1. row by row against pg_test_fsync ----
echo
echo "== 1. ops/sec, syncprobe / pg_test_fsync, row by row"
if [ -z "$PG_TEST_FSYNC" ] || [ -z "$JQ" ]; then
	echo "(not measured: see the end)"
else
	echo "pg_test_fsync -s $SECS -f FILE; syncprobe -s $SECS -F json (default rounds)"
	[ "$ROUNDS1" = 1 ] && echo "and syncprobe -s $SECS -F json --rounds 1; the three in rotating order"
	: >"$TMP/r_def"
	: >"$TMP/r_one"
	: >"$TMP/r_pg"
	rm -f "$TMP/pg.prev"
	sp_rounds=
	i=1
	while [ "$i" -le "$PAIRS" ]; do
		# Rotate the order so that none of the tools always goes first.
		if [ "$ROUNDS1" = 1 ]; then
			case $((i % 3)) in
			1) order="pg def one" ;;
			2) order="def one pg" ;;
			0) order="one pg def" ;;
			esac
		elif [ $((i % 2)) = 1 ]; then
			order="pg def"
		else
			order="def pg"
		fi
		ok=1
		for t in $order; do
			progress "pair $i/$PAIRS: $t"
			case $t in
			pg) run "$TMP/pg.txt" "$PG_TEST_FSYNC" -s "$SECS" -f "$PGFILE" || ok=0 ;;
			def) run "$TMP/def.json" "$SYNCPROBE" -q -s "$SECS" -F json "$WORK" || ok=0 ;;
			one) run "$TMP/one.json" "$SYNCPROBE" -q -s "$SECS" --rounds 1 -F json "$WORK" || ok=0 ;;
			esac
			[ "$ok" = 1 ] || { note "pair $i: $t failed: $(tail -n 1 "$TMP/$t".*err 2>/dev/null)"; break; }
		done
		if [ "$ok" = 1 ]; then
			pg_rows "$TMP/pg.txt" >"$TMP/pg.rows"
			sp_rows "$TMP/def.json" >"$TMP/def.rows"
			pair_ratios "$TMP/def.rows" "$TMP/pg.rows" >>"$TMP/r_def"
			# The noise: pg_test_fsync against its own run of the pair before.
			[ -f "$TMP/pg.prev" ] && pair_ratios "$TMP/pg.rows" "$TMP/pg.prev" >>"$TMP/r_pg"
			cp "$TMP/pg.rows" "$TMP/pg.prev"
			[ -n "$sp_rounds" ] || sp_rounds=$(json_num "$TMP/def.json" .settings.rounds)
			if [ "$ROUNDS1" = 1 ]; then
				sp_rows "$TMP/one.json" >"$TMP/one.rows"
				pair_ratios "$TMP/one.rows" "$TMP/pg.rows" >>"$TMP/r_one"
			fi
		fi
		i=$((i + 1))
	done
	summarize "$TMP/r_def" >"$TMP/s_def"
	summarize "$TMP/r_one" >"$TMP/s_one"
	summarize "$TMP/r_pg" >"$TMP/s_pg"
	printf '%-52s %-21s' "" " syncprobe, ${sp_rounds:-?} rounds"
	[ "$ROUNDS1" = 1 ] && printf ' %-20s' " syncprobe --rounds 1"
	printf ' %s\n' " (noise: pg_test_fsync"
	printf '%-52s %-21s' "" ""
	[ "$ROUNDS1" = 1 ] && printf ' %-20s' ""
	printf ' %s\n' "  / its previous run)"
	printf '%-10s %-35s %5s %s' group "row" pairs "    med    min    max"
	[ "$ROUNDS1" = 1 ] && printf ' %s' "    med    min    max"
	printf ' %s\n' "    med    min    max"
	# shellcheck disable=SC2094 # s_def is only read, twice
	while IFS="$(printf '\t')" read -r key n rest; do
		g=${key%%|*}
		name=${key#*|}
		printf '%-10s %-35s %5s  %-20s' "$g" "$name" "$n" "$(grep -F "$key	" "$TMP/s_def" | fmt_ratio)"
		if [ "$ROUNDS1" = 1 ]; then
			printf ' %-20s' "$(grep -F "$key	" "$TMP/s_one" | fmt_ratio)"
		fi
		printf ' %s\n' "$(grep -F "$key	" "$TMP/s_pg" | fmt_ratio)"
	done <"$TMP/s_def"
	[ -s "$TMP/s_def" ] || echo "(no pair completed)"
	rm -f "$PGFILE"
fi

# ---- 2. against fio, one method at a time ----
echo
echo "== 2. syncprobe / fio, 8kB writes overwriting one block of a 16 MiB file"
if [ -z "$FIO" ] || [ -z "$JQ" ]; then
	echo "(not measured: see the end)"
else
	# fio's own layout is an fallocate()d file written in sequence: each
	# write turns an unwritten extent into a written one, a metadata change
	# every flush has to commit. pg_test_fsync and syncprobe rewrite block 0
	# of a file filled beforehand; so does fio here: a 16 MiB file of random
	# bytes, synced, then fio with --size=8k rewrites its first block.
	FIOFILE=$WORK/fio.dat
	if ! dd if=/dev/urandom of="$FIOFILE" bs=65536 count=256 conv=fsync 2>/dev/null; then
		dd if=/dev/urandom of="$FIOFILE" bs=65536 count=256 2>/dev/null && sync
	fi
	echo "fio --ioengine=psync --rw=write --bs=8k --size=8k --time_based --runtime=$SECS, then"
	echo "syncprobe -s $SECS -t one -m METHOD --direct=...; p99: fio's sync.lat_ns for"
	echo "fdatasync (the sync call alone, so syncprobe's sync_usecs), write.clat_ns else"
	: >"$TMP/fio_r"
	for mode in fdatasync dsync direct_dsync; do
		case $mode in
		fdatasync)
			fio_opts="--fdatasync=1"
			sp_opts="-m fdatasync --direct=off"
			fio_p99='.jobs[0].sync.lat_ns.percentile["99.000000"]'
			sp_p99='.targets[0].tests[0].sync_usecs.p99'
			label="fdatasync" ;;
		dsync)
			fio_opts="--sync=dsync"
			sp_opts="-m open_datasync --direct=off"
			fio_p99='.jobs[0].write.clat_ns.percentile["99.000000"]'
			sp_p99='.targets[0].tests[0].usecs.p99'
			label="O_DSYNC" ;;
		direct_dsync)
			fio_opts="--direct=1 --sync=dsync"
			sp_opts="-m open_datasync --direct=on"
			fio_p99='.jobs[0].write.clat_ns.percentile["99.000000"]'
			sp_p99='.targets[0].tests[0].usecs.p99'
			label="O_DIRECT+O_DSYNC" ;;
		esac
		i=1
		while [ "$i" -le "$PAIRS" ]; do
			if [ $((i % 2)) = 1 ]; then order="fio sp"; else order="sp fio"; fi
			ok=1
			for t in $order; do
				progress "fio $label, pair $i/$PAIRS: $t"
				# shellcheck disable=SC2086 # the option lists split on purpose
				case $t in
				fio) run "$TMP/fio.json" "$FIO" --name=compare --filename="$FIOFILE" \
					--ioengine=psync --rw=write --bs=8k --size=8k $fio_opts \
					--time_based --runtime="$SECS" --output-format=json || ok=0 ;;
				sp) run "$TMP/sp.json" "$SYNCPROBE" -q -s "$SECS" -t one $sp_opts \
					-F json "$WORK" || ok=0 ;;
				esac
				[ "$ok" = 1 ] || { note "fio $label pair $i: $t failed: $(tail -n 1 "$TMP/$t.json.err")"; break; }
			done
			if [ "$ok" = 1 ]; then
				# fio may print notes before its JSON document.
				sed -n '/^{/,$p' "$TMP/fio.json" >"$TMP/fio.doc"
				f_ops=$(json_num "$TMP/fio.doc" '.jobs[0].write.iops')
				f_p99=$(json_num "$TMP/fio.doc" "$fio_p99")
				s_ops=$(json_num "$TMP/sp.json" '.targets[0].tests[0].ops_per_sec')
				s_p99=$(json_num "$TMP/sp.json" "$sp_p99")
				awk -v l="$label" -v so="${s_ops:-0}" -v fo="${f_ops:-0}" \
				    -v sp="${s_p99:-0}" -v fp="${f_p99:-0}" 'BEGIN {
					if (so > 0 && fo > 0) printf "%s|ops/sec\t%s\n", l, so / fo
					if (sp > 0 && fp > 0) printf "%s|p99\t%s\n", l, sp * 1000 / fp
				}' >>"$TMP/fio_r"
			fi
			i=$((i + 1))
		done
	done
	summarize "$TMP/fio_r" >"$TMP/s_fio"
	printf '%-18s %-8s %5s  %s\n' method figure pairs "   med    min    max"
	while IFS="$(printf '\t')" read -r key n rest; do
		printf '%-18s %-8s %5s  %s\n' "${key%%|*}" "${key#*|}" "$n" "$(printf '%s\t%s\t%s\n' "$key" "$n" "$rest" | fmt_ratio)"
	done <"$TMP/s_fio"
	[ -s "$TMP/s_fio" ] || echo "(no pair completed)"
	rm -f "$FIOFILE"
fi

# ---- 3. system calls per operation ----
echo
echo "== 3. system calls per measured operation (strace -f)"
: >"$TMP/calls"	# tool<TAB>test<TAB>operations<TAB>call<TAB>calls per operation
# trace_calls TOOL TEST WHICH PREFIX TRACE: from an `strace -f` trace, the
# calls made between an open of a file whose path starts with PREFIX and
# the close of that descriptor, in the segment WHICH picks: "fdatasync" the
# first one that calls fdatasync, "direct" the first opened with O_DIRECT,
# "last" the last one. Per operation: the segment's fdatasync calls where
# it has some, else its pwrite calls. Whole-run counts (strace -c) would mix
# in the file's setup and what a tool does after measuring (syncprobe times
# real sleeps for its commit_delay advice: clock_nanosleep, a number of
# them that depends on the figures).
trace_calls() {
	awk -v tool="$1" -v test="$2" -v which="$3" -v prefix="$4" 'BEGIN { OFS = "\t" }
	function put(cnt,   k, ops) {
		ops = ("fdatasync" in cnt) ? cnt["fdatasync"] : cnt["pwrite64"]
		if (ops > 0) for (k in cnt) print tool, test, ops, k, cnt[k] / ops
		done = 1
	}
	function finish(   k) {
		inseg = 0
		if (done) return
		if ((which == "fdatasync" && ("fdatasync" in c)) || (which == "direct" && direct)) put(c)
		split("", last)
		for (k in c) last[k] = c[k]
	}
	{
		line = $0
		sub(/^[0-9]+ +/, "", line)
		if (line ~ /^(---|[+][+][+])/) next
		name = line
		sub(/[(].*/, "", name)
		if (name == "openat" && index(line, "\"" prefix) && line ~ /= [0-9]+$/) {
			split("", c)
			inseg = 1
			fd = line
			sub(/.*= /, "", fd)
			direct = line ~ /O_DIRECT/
		}
		if (inseg) c[name]++
		if (inseg && name == "close" && line ~ ("^close[(]" fd "[)]")) finish()
	}
	END { if (which == "last" && !done) put(last) }' "$5" >>"$TMP/calls"
}
if [ -z "$STRACE" ]; then
	echo "(not measured: see the end)"
else
	# syncprobe, one test per run, a fixed number of operations.
	for test in fdatasync direct last; do
		case $test in
		fdatasync) set -- "one write + fdatasync" -n 2000 -t one -m fdatasync --direct=off ;;
		direct) set -- "one write, O_DSYNC|O_DIRECT" -n 2000 -t one -m open_datasync --direct=on ;;
		last) set -- "non-synced write" -n 20000 -t nosync ;;
		esac
		lab=$1
		shift
		progress "strace: syncprobe, $lab"
		if run "$TMP/sptrace.out" "$STRACE" -f -o "$TMP/sptrace" "$SYNCPROBE" -q -F json "$@" "$WORK"; then
			trace_calls syncprobe "$lab" "$test" "$WORK/.syncprobe." "$TMP/sptrace"
		else
			note "strace of syncprobe, $lab, failed: $(tail -n 1 "$TMP/sptrace.out.err")"
		fi
		rm -f "$TMP/sptrace"
	done
	# pg_test_fsync cannot be limited to one test: a whole -s 1 run.
	if [ -n "$PG_TEST_FSYNC" ]; then
		progress "strace: pg_test_fsync -s 1"
		if run "$TMP/pgtrace.out" "$STRACE" -f -o "$TMP/pgtrace" "$PG_TEST_FSYNC" -s 1 -f "$PGFILE"; then
			trace_calls pg_test_fsync "one write + fdatasync" fdatasync "$PGFILE\"" "$TMP/pgtrace"
			trace_calls pg_test_fsync "one write, O_DSYNC|O_DIRECT" direct "$PGFILE\"" "$TMP/pgtrace"
			trace_calls pg_test_fsync "non-synced write" last "$PGFILE\"" "$TMP/pgtrace"
		else
			note "strace of pg_test_fsync failed: $(tail -n 1 "$TMP/pgtrace.out.err")"
		fi
		rm -f "$PGFILE" "$TMP/pgtrace"
	fi
	# By test, syncprobe before pg_test_fsync, the measured calls first.
	printf '%-30s %-14s %7s  %-15s %9s\n' test tool ops call "per op"
	awk 'BEGIN { FS = OFS = "\t" }
	{ print $2, $1 == "syncprobe" ? 0 : 1, $4 ~ /^(pwrite64|fdatasync)$/ ? 0 : 1, $0 }' "$TMP/calls" |
	    sort -t "$(printf '\t')" -k1,1 -k2,2n -k3,3n -k7,7 |
	    awk 'BEGIN { FS = "\t" } {
		test = $5 == prev ? "" : $5
		prev = $5
		printf "%-30s %-14s %7s  %-15s %9.4f\n", test, $4, $6, $7, $8 }'
	[ -s "$TMP/calls" ] || echo "(nothing counted)"
	echo "(ops: the test's operations, syncprobe's warm-up ones included; a call"
	echo " made once per test, to open or time it, shows as about 1/ops)"
fi

# ---- 4 and 5. default runs: wall time, peak RSS, run-to-run variation ----
echo
if [ "$QUICK" = 1 ]; then pg_default="-s 1"; pg_label="pg_test_fsync -s 1 (QUICK: not a default run)"; else pg_default=; pg_label="pg_test_fsync (default: 5 s per test)"; fi
echo "== 4. $CV_RUNS default runs each, alternating: syncprobe -F json DIR; $pg_label"
: >"$TMP/cv"
i=1
while [ "$i" -le "$CV_RUNS" ]; do
	if [ $((i % 2)) = 1 ]; then order="sp pg"; else order="pg sp"; fi
	for t in $order; do
		[ "$t" = pg ] && [ -z "$PG_TEST_FSYNC" ] && continue
		progress "default run $i/$CV_RUNS: $t"
		rm -f "$TMP/time"
		if [ "$t" = sp ]; then
			if [ -n "$TIME" ]; then
				run "$TMP/cv.out" "$TIME" -f '%e %M' -o "$TMP/time" "$SYNCPROBE" -q -F json "$WORK"
			else
				run "$TMP/cv.out" "$SYNCPROBE" -q -F json "$WORK"
			fi
		else
			# shellcheck disable=SC2086 # pg_default is empty or "-s 1"
			if [ -n "$TIME" ]; then
				run "$TMP/cv.out" "$TIME" -f '%e %M' -o "$TMP/time" "$PG_TEST_FSYNC" $pg_default -f "$PGFILE"
			else
				run "$TMP/cv.out" "$PG_TEST_FSYNC" $pg_default -f "$PGFILE"
			fi
		fi || { note "default run $i of $t failed: $(tail -n 1 "$TMP/cv.out.err")"; continue; }
		if [ -s "$TMP/time" ]; then
			# GNU time puts "Command exited..." first when it did not exit 0.
			tail -n 1 "$TMP/time" | awk -v t="$t" -v i="$i" '{ print t "|wall\t" $1 "\t" i; print t "|rss\t" $2 "\t" i }' >>"$TMP/cv"
		fi
		if [ "$t" = sp ] && [ -n "$JQ" ]; then
			cd_sp=$(json_num "$TMP/cv.out" '.targets[0].advice.commit_delay')
			basis=$(json_num "$TMP/cv.out" '.targets[0].advice.basis.name')
			[ "$basis" = fdatasync ] ||
			    note "default run $i: syncprobe based commit_delay on '$basis', pg_test_fsync's figure is fdatasync's"
			sp_rows "$TMP/cv.out" >"$TMP/cv.rows"
		elif [ "$t" = pg ]; then
			cd_sp=
			pg_rows "$TMP/cv.out" >"$TMP/cv.rows"
		else
			cd_sp=
			: >"$TMP/cv.rows"
		fi
		# commit_delay: syncprobe's advice; for pg_test_fsync half its
		# fdatasync time per op (1e6 / ops/sec, unrounded), rounded as
		# syncprobe rounds. The fdatasync/fsync ratio from one write.
		awk -v t="$t" -v i="$i" -v cd="$cd_sp" 'BEGIN { FS = "\t" }
		{ ops[$1] = $2 }
		END {
			fd = ops["one|fdatasync"]; fs = ops["one|fsync"]
			if (t == "pg" && fd > 0) cd = int(1e6 / fd / 2 + 0.5)
			if (cd != "") print t "|commit_delay\t" cd "\t" i
			if (fd > 0 && fs > 0) print t "|fdatasync/fsync\t" fd / fs "\t" i
		}' "$TMP/cv.rows" >>"$TMP/cv"
	done
	i=$((i + 1))
done
rm -f "$PGFILE"
summarize "$TMP/cv" >"$TMP/s_cv"
# Paired ratios syncprobe/pg_test_fsync of the same run number.
awk 'BEGIN { FS = OFS = "\t" }
{ split($1, p, "|"); v[p[1], p[2], $3] = $2; k[p[2]] = 1; r[$3] = 1 }
END { for (f in k) for (i in r) if ((("sp", f, i) in v) && (("pg", f, i) in v) && v["pg", f, i] > 0) print f, v["sp", f, i] / v["pg", f, i] }' \
    "$TMP/cv" | sort | summarize >"$TMP/s_cvr"

get() {	# get SUMMARY KEY COLUMN: one figure of a summary line
	awk -v k="$2" -v c="$3" 'BEGIN { FS = "\t" } $1 == k { print $c }' "$1"
}
cvrow() {	# cvrow FIGURE FORMAT: one line of the table below
	fig=$1
	fmtv=$2
	for t in sp pg; do
		line=$(grep -F "$t|$fig	" "$TMP/s_cv")
		if [ -n "$line" ]; then
			printf '%s\n' "$line" | awk -v f="$fmtv" 'BEGIN { FS = "\t" } {
				cv = $7 < 0 ? "-" : sprintf("%.1f%%", $7 * 100)
				printf " " f " " f " " f " %6s |", $3, $4, $5, cv }'
		else
			printf ' %36s |' "not measured"
		fi
	done
	r=$(grep -F "$fig	" "$TMP/s_cvr" | fmt_ratio)
	printf ' %s\n' "${r:-not paired}"
}
printf '%-16s|%-36s|%-36s| %s\n' "" " syncprobe" " pg_test_fsync" "syncprobe/pg_test_fsync"
printf '%-16s|%s|%s|%s\n' "" "      med      min      max     CV " "      med      min      max     CV " "    med    min    max"
for fig in wall rss commit_delay fdatasync/fsync; do
	case $fig in
	wall) label="wall seconds" f='%8.1f' ;;
	rss) label="peak RSS KiB" f='%8.0f' ;;
	commit_delay) label="commit_delay us" f='%8.0f' ;;
	fdatasync/fsync) label="fdatasync/fsync" f='%8.3f' ;;
	esac
	printf '%-16s|' "$label"
	cvrow "$fig" "$f"
done
echo "(wall time and RSS are the one place with absolute figures: the targets are"
echo " absolute. CV = sample standard deviation / mean over the runs.)"

# ---- targets ----
echo
echo "== targets (bench/README)"
verdict() {	# verdict NAME OK DETAIL
	if [ "$2" = 1 ]; then v=met; elif [ "$2" = 0 ]; then v=MISSED; else v="not measured"; fi
	printf '%-10s %-13s %s\n' "$1" "$v" "$3"
}
test_awk() {	# test_awk EXPR VARS...: 1 if the awk expression holds, 0 if not, - if a figure is missing
	e=$1
	shift
	awk "$@" "BEGIN { print ($e) ? 1 : 0 }"
}
if [ -s "${TMP}/s_def" ]; then
	for row in "one|fdatasync" "one|fsync" "one|open_datasync (direct)" "one|open_sync (direct)"; do
		m=$(get "$TMP/s_def" "$row" 3)
		noise=$(grep -F "$row	" "$TMP/s_pg" | awk 'BEGIN { FS = "\t" } { printf "; pg_test_fsync/itself %.2f, %.2f..%.2f", $3, $4, $5 }')
		if [ -n "$m" ]; then
			verdict agreement "$(test_awk 'm >= 0.95 && m <= 1.05' -v m="$m")" "$(printf '%s %.2f (0.95..1.05%s)' "${row#one|}" "$m" "$noise")"
		else
			verdict agreement - "${row#one|}"
		fi
	done
	m=$(get "$TMP/s_def" "nosync|write" 3)
	if [ -n "$m" ]; then
		noise=$(grep -F "nosync|write	" "$TMP/s_pg" | awk 'BEGIN { FS = "\t" } { printf "; pg_test_fsync/itself %.2f, %.2f..%.2f", $3, $4, $5 }')
		verdict overhead "$(test_awk 'm >= 0.95' -v m="$m")" "$(printf 'non-synced write %.2f (>= 0.95%s)' "$m" "$noise")"
	else
		verdict overhead - "non-synced write"
	fi
else
	verdict agreement - "no pg_test_fsync pairs"
	verdict overhead - "no pg_test_fsync pairs"
fi
if grep -q '^syncprobe' "$TMP/calls"; then
	# Each syncprobe test: 1 pwrite64, 1 fdatasync where the test has one,
	# and no other call made per operation (once per test: under 0.01).
	extra=$(awk 'BEGIN { FS = "\t" } $1 == "syncprobe" {
		if ($4 == "pwrite64" || ($4 == "fdatasync" && $2 ~ /fdatasync/))
			bad = $5 < 0.99 || $5 > 1.01
		else
			bad = $5 >= 0.01
		if (bad) printf "%s%s: %s %.3f", n++ ? "; " : "", $2, $4, $5
	}' "$TMP/calls")
	if [ -z "$extra" ]; then
		verdict syscalls 1 "syncprobe: 1 pwrite64 (+ 1 fdatasync) per op, no other call per op"
	else
		verdict syscalls 0 "syncprobe per op: $extra"
	fi
else
	verdict syscalls - "no strace counts"
fi
w=$(get "$TMP/s_cv" "sp|wall" 3)
cs=$(get "$TMP/s_cv" "sp|commit_delay" 7)
cp=$(get "$TMP/s_cv" "pg|commit_delay" 7)
if [ -n "$w" ]; then
	verdict speed "$(test_awk 'w <= 25' -v w="$w")" "$(printf 'syncprobe default run %.1f s median (<= 25 s)' "$w")"
else
	verdict speed - "wall time"
fi
if [ -n "$cs" ] && [ -n "$cp" ]; then
	verdict speed "$(test_awk 's <= p' -v s="$cs" -v p="$cp")" "$(awk -v s="$cs" -v p="$cp" 'BEGIN { printf "commit_delay CV %.1f%% (pg_test_fsync %.1f%%)", s * 100, p * 100 }')"
else
	verdict speed - "commit_delay CV"
fi
rs=$(get "$TMP/s_cv" "sp|fdatasync/fsync" 7)
rp=$(get "$TMP/s_cv" "pg|fdatasync/fsync" 7)
if [ -n "$rs" ] && [ -n "$rp" ]; then
	verdict fairness "$(test_awk 's < p' -v s="$rs" -v p="$rp")" "$(awk -v s="$rs" -v p="$rp" 'BEGIN { printf "fdatasync/fsync CV %.1f%% (pg_test_fsync %.1f%%)", s * 100, p * 100 }')"
else
	verdict fairness - "fdatasync/fsync CV"
fi
m=$(get "$TMP/s_cv" "sp|rss" 5)
if [ -n "$m" ]; then
	verdict memory "$(test_awk 'm <= 4096' -v m="$m")" "$(printf 'syncprobe peak RSS %d KiB, the largest run (<= 4096)' "$m")"
else
	verdict memory - "peak RSS"
fi

echo
if [ -n "$NOTES" ]; then
	echo "Not measured or failed:"
	printf '%s' "$NOTES"
else
	echo "Everything was measured."
fi
progress "done"
