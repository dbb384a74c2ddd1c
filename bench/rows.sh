#!/bin/sh
# bench/rows.sh: table 1, syncprobe's ops/sec against pg_test_fsync's row
# by row over alternating pairs of runs, with pg_test_fsync against itself
# as the noise; the agreement and overhead targets. See bench/README.
set -u
BENCH_ABOUT='Table 1: ops/sec, syncprobe / pg_test_fsync, row by row. PAIRS pairs of
pg_test_fsync -s SECS and syncprobe -s SECS -F json (with ROUNDS1=1 also
syncprobe --rounds 1, the three rotating) in a fresh subdirectory of DIR;
the noise column is each pg_test_fsync run over the one before it.
Targets: agreement, overhead.'
NEEDS="jq pg_test_fsync"
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_init "$@"
bench_start $((PAIRS * SECS * (16 + 27 * (1 + ROUNDS1))))

# measure: the pairs, as ratio lines in r_def (syncprobe, default rounds),
# r_one (--rounds 1) and r_pg (pg_test_fsync over its previous run).
measure() {
	: >"$TMP/r_def"
	: >"$TMP/r_one"
	: >"$TMP/r_pg"
	sp_rounds=
	tools="pg def"
	[ "$ROUNDS1" = 1 ] && tools="pg def one"
	for i in $(upto "$PAIRS"); do
		ok=1
		# shellcheck disable=SC2086 # tools is a list
		for t in $(rotate "$i" $tools); do
			progress "pair $i/$PAIRS: $t"
			case $t in
			pg) run "$TMP/pg.txt" "$PG_TEST_FSYNC" -s "$SECS" -f "$PGFILE" || ok=0 ;;
			def) run "$TMP/def.json" "$SYNCPROBE" -q -s "$SECS" -F json "$WORK" || ok=0 ;;
			one) run "$TMP/one.json" "$SYNCPROBE" -q -s "$SECS" --rounds 1 -F json "$WORK" || ok=0 ;;
			esac
			[ "$ok" = 1 ] || { note "pair $i: $t failed: $(tail -n 1 "$TMP/$t".*err 2>/dev/null)"; break; }
		done
		[ "$ok" = 1 ] || continue
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
	done
	rm -f "$PGFILE"
	summarize "$TMP/r_def" >"$TMP/s_def"
	summarize "$TMP/r_one" >"$TMP/s_one"
	summarize "$TMP/r_pg" >"$TMP/s_pg"
}

print_table() {
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
	while IFS=$TAB read -r key n rest; do
		printf '%-10s %-35s %5s  %-20s' "${key%%|*}" "${key#*|}" "$n" "$(ratio_of "$TMP/s_def" "$key")"
		[ "$ROUNDS1" = 1 ] && printf ' %-20s' "$(ratio_of "$TMP/s_one" "$key")"
		printf ' %s\n' "$(ratio_of "$TMP/s_pg" "$key")"
	done <"$TMP/s_def"
	[ -s "$TMP/s_def" ] || echo "(no pair completed)"
}

noise() {	# noise KEY: "; pg_test_fsync/itself MED, MIN..MAX" or nothing
	awkf rows_noise -v k="$1" "$TMP/s_pg"
}

judge_targets() {
	if [ ! -s "$TMP/s_def" ]; then
		verdict agreement - "no pg_test_fsync pairs"
		verdict overhead - "no pg_test_fsync pairs"
		return
	fi
	for row in "one|fdatasync" "one|fsync" "one|open_datasync (direct)" "one|open_sync (direct)"; do
		judge "$TMP/s_def" "$row" 3 agreement "${row#one|}" \
		    "${row#one|} %.2f (0.95..1.05$(noise "$row"))" '>=' 0.95 '<=' 1.05
	done
	judge "$TMP/s_def" "nosync|write" 3 overhead "non-synced write" \
	    "non-synced write %.2f (>= 0.95$(noise "nosync|write"))" '>=' 0.95
}

section 1 "ops/sec, syncprobe / pg_test_fsync, row by row"
if [ -z "$PG_TEST_FSYNC" ] || [ -z "$JQ" ]; then
	not_measured
else
	echo "pg_test_fsync -s $SECS -f FILE; syncprobe -s $SECS -F json (default rounds)"
	[ "$ROUNDS1" = 1 ] && echo "and syncprobe -s $SECS -F json --rounds 1; the three in rotating order"
	measure
	print_table
fi
judge_targets
bench_end
