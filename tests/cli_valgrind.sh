#!/bin/sh
# cli_valgrind.sh: short runs under valgrind, on the way that succeeds and
# on the ways out through an error, with no memory error and no leak.
# Skipped where valgrind is missing and in a sanitizer build (ASan and
# valgrind do not mix; that build checks itself).
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"
: "${FAULTSHIM:=}"

skip_all() {
	for what in "a short full run" "an unusable target" \
	    "an existing -f file" "a second target missing" "an I/O error mid-run" \
	    "the durability writer" "the durability verifier, records lost" \
	    "histograms, two targets" "-F openmetrics" "compare of saved runs" \
	    "a report compare refuses" "watch, a short run" \
	    "watch: no more allocations in 600 intervals than in 50"; do
		tap_skip "valgrind: $what" "$1"
	done
	tap_done
	exit
}

command -v valgrind >/dev/null 2>&1 || skip_all "no valgrind"
# A sanitizer build names the runtime in its dynamic symbols (gcc) or
# carries it (clang): either way __asan_init is in the binary.
if grep -q __asan_init "$SYNCPROBE" 2>/dev/null; then
	skip_all "syncprobe is built with sanitizers"
fi
# valgrind replaces glibc's malloc, not the one musl calls from inside its
# own functions (fopen, getline): under musl every free of such memory
# looks invalid to it. The musl build runs the rest of make check.
if grep -q ld-musl "$SYNCPROBE" 2>/dev/null; then
	skip_all "syncprobe is linked with musl, whose internal malloc valgrind does not see"
fi
# valgrind itself must work here (some containers forbid what it needs).
if ! valgrind -q --error-exitcode=99 true >/dev/null 2>&1; then
	skip_all "valgrind does not run here"
fi

# grind DESC STATUS ARGS...: syncprobe ARGS under valgrind exits STATUS,
# valgrind finds no error and no leak, and no test file is left.
# $GRIND_ENV, when set, is an env command prefix for valgrind alone.
GRIND_ENV=
grind() {
	desc=$1 status=$2
	shift 2
	rc=0
	$GRIND_ENV valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	    --log-file="$WORK/vg" "$SYNCPROBE" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	if [ "$rc" -eq "$status" ] && [ ! -s "$WORK/vg" ] && no_testfile "$dir"; then
		tap_ok "valgrind: $desc"
	else
		tap_fail "valgrind: $desc" "exit $rc, want $status; valgrind said:
$(head -40 "$WORK/vg")
stderr: $(cat "$WORK/err")"
	fi
}

# Every group, both direct and buffered, a few operations each.
grind "a short full run" 0 -q -n 5 --file-size 64k "$dir"
grind "an unusable target" 2 $ONE "$WORK/missing"
: >"$dir/existing"
grind "an existing -f file" 2 $ONE -f "$dir/existing"
rm "$dir/existing"
grind "a second target missing" 2 $ONE "$dir" "$WORK/missing"

# The error path of the timed loop: an injected EIO from fdatasync.
if [ -n "$FAULTSHIM" ] && [ -f "$FAULTSHIM" ]; then
	# Only valgrind and syncprobe get the shim, not the tools that
	# report a failure.
	GRIND_ENV="env LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=fdatasync:EIO:5 SYNCPROBE_FAULT_PATH=$dir"
	grind "an I/O error mid-run" 1 $ONE "$dir"
	GRIND_ENV=
else
	tap_skip "valgrind: an I/O error mid-run" "no tests/faultshim.so"
fi

# The durability check: a writer, then its file cut short and verified.
grind "the durability writer" 0 durability write -q -n 20 --pattern=append --file-size=64k "$dir"
cp "$WORK/out" "$WORK/acks"
truncate -s 40000 "$dir/syncprobe-durability"
grind "the durability verifier, records lost" 3 durability verify --acks="$WORK/acks" \
    -F json --remove "$dir"

# Issue 12's paths: drawing histograms, side-by-side tables, metrics, and
# reading saved reports back.
mkdir "$dir/b"
grind "histograms, two targets" 0 --histogram $ONE "$dir" "$dir/b"
grind "-F openmetrics" 0 -F openmetrics $ONE "$dir"
"$SYNCPROBE" -F json $ONE "$dir" >"$WORK/a.json"
grind "compare of saved runs" 0 compare "$WORK/a.json" "$WORK/a.json"
sed 's/"targets"/"targetz"/' "$WORK/a.json" >"$WORK/bad.json"
grind "a report compare refuses" 2 compare "$WORK/a.json" "$WORK/bad.json"

# watch: a short run, then its memory against its length. It keeps
# fixed histograms per interval and a plot of fixed size (512 points,
# merged in pairs when full), so a run of 600 intervals must allocate
# what one of 50 does: memcheck's count of allocations, taken from both,
# grows by hundreds when anything is allocated per interval or per
# operation (the plot's merging starts at interval 513, in the long run
# only). Reading the mount table takes one allocation a mount, and other
# processes mount and unmount between the two runs: a few more or fewer
# are that, not the run's length.
# With --textfile, which writes its file after every interval: its text is
# written into memory set aside at the start.
grind "watch, a short run" 0 watch -m fdatasync --file-size 64k --for 300ms \
    --interval 100ms --textfile="$WORK/watch.prom" "$dir"
allocs() {
	valgrind --log-file="$WORK/vg-allocs" "$SYNCPROBE" watch -m fdatasync --file-size 64k \
	    --rate 400 --interval 5ms --for "$1" -F json --textfile="$WORK/watch.prom" "$dir" \
	    >"$WORK/out" 2>"$WORK/err" &&
	    sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$WORK/vg-allocs" | tr -d ,
}
short=$(allocs 250ms) long=$(allocs 3s)
lines=$(grep -c '"type": "interval"' "$WORK/out")
if [ -n "$short" ] && [ -n "$long" ] && [ $((long - short)) -lt 16 ] &&
    [ "$lines" -gt 512 ]; then
	tap_ok "valgrind: watch: no more allocations in 600 intervals than in 50 ($short, $long)"
else
	tap_fail "valgrind: watch: no more allocations in 600 intervals than in 50" \
	    "allocations: $short in 250ms, $long in 3s ($lines interval lines)"
fi

tap_done
