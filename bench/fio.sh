#!/bin/sh
# bench/fio.sh: table 2, syncprobe against fio one method at a time (8kB
# writes rewriting one block of a filled file), ops/sec and p99 as ratios
# over alternating pairs of runs. See bench/README.
set -u
BENCH_ABOUT='Table 2: syncprobe / fio, ops/sec and p99 of 8kB writes rewriting block 0
of a 16 MiB file, for fdatasync, O_DSYNC and O_DIRECT+O_DSYNC: PAIRS pairs of
fio --runtime=SECS and syncprobe -s SECS -t one -m METHOD, alternating.'
NEEDS="jq fio"
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init "$@"
bench_start $((PAIRS * 6 * SECS + PAIRS * 10))

# fio's own layout is an fallocate()d file written in sequence: each write
# turns an unwritten extent into a written one, a metadata change every
# flush has to commit. pg_test_fsync and syncprobe rewrite block 0 of a
# file filled beforehand; so does fio here: a 16 MiB file of random bytes,
# synced, then fio with --size=8k rewrites its first block.
make_file() {
	if ! dd if=/dev/urandom of="$FIOFILE" bs=65536 count=256 conv=fsync 2>/dev/null; then
		dd if=/dev/urandom of="$FIOFILE" bs=65536 count=256 2>/dev/null && sync
	fi
}

# method MODE: the two tools' options and p99 figures for one method.
method() {
	case $1 in
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
}

# pair I: one run of each tool, the ratios appended to fio_r.
pair() {
	for t in $(rotate "$1" fio sp); do
		progress "fio $label, pair $1/$PAIRS: $t"
		# shellcheck disable=SC2086 # the option lists split on purpose
		case $t in
		fio) run "$TMP/fio.json" "$FIO" --name=compare --filename="$FIOFILE" \
			--ioengine=psync --rw=write --bs=8k --size=8k $fio_opts \
			--time_based --runtime="$SECS" --output-format=json ;;
		sp) run "$TMP/sp.json" "$SYNCPROBE" -q -s "$SECS" -t one $sp_opts \
			-F json "$WORK" ;;
		esac || { note "fio $label pair $1: $t failed: $(tail -n 1 "$TMP/$t.json.err")"; return; }
	done
	# fio may print notes before its JSON document.
	sed -n '/^{/,$p' "$TMP/fio.json" >"$TMP/fio.doc"
	f_ops=$(json_num "$TMP/fio.doc" '.jobs[0].write.iops')
	f_p99=$(json_num "$TMP/fio.doc" "$fio_p99")
	s_ops=$(json_num "$TMP/sp.json" '.targets[0].tests[0].ops_per_sec')
	s_p99=$(json_num "$TMP/sp.json" "$sp_p99")
	awkf fio_ratios -v l="$label" -v so="${s_ops:-0}" -v fo="${f_ops:-0}" \
	    -v sp="${s_p99:-0}" -v fp="${f_p99:-0}" >>"$TMP/fio_r"
}

section 2 "syncprobe / fio, 8kB writes overwriting one block of a 16 MiB file"
if [ -z "$FIO" ] || [ -z "$JQ" ]; then
	not_measured
else
	FIOFILE=$WORK/fio.dat
	make_file
	echo "fio --ioengine=psync --rw=write --bs=8k --size=8k --time_based --runtime=$SECS, then"
	echo "syncprobe -s $SECS -t one -m METHOD --direct=...; p99: fio's sync.lat_ns for"
	echo "fdatasync (the sync call alone, so syncprobe's sync_usecs), write.clat_ns else"
	: >"$TMP/fio_r"
	for mode in fdatasync dsync direct_dsync; do
		method "$mode"
		for i in $(upto "$PAIRS"); do
			pair "$i"
		done
	done
	rm -f "$FIOFILE"
	summarize "$TMP/fio_r" >"$TMP/s_fio"
	printf '%-18s %-8s %5s  %s\n' method figure pairs "   med    min    max"
	# shellcheck disable=SC2094 # s_fio is only read, twice
	while IFS=$TAB read -r key n rest; do
		printf '%-18s %-8s %5s  %s\n' "${key%%|*}" "${key#*|}" "$n" "$(ratio_of "$TMP/s_fio" "$key")"
	done <"$TMP/s_fio"
	[ -s "$TMP/s_fio" ] || echo "(no pair completed)"
fi
bench_end
