#!/bin/sh
# bench/pgbench_delay.sh: does syncprobe's group-commit experiment (-t group)
# predict what commit_delay does to a real PostgreSQL server? For each disk
# case it runs the experiment, then pgbench against a throwaway PostgreSQL
# cluster on the same filesystem, with a one-row INSERT script, at each
# client count and each commit_delay of the experiment's own sweep (delays
# shuffled within every repeat), and prints both side by side: tps against
# delay 0, commits per WAL flush, and whether each calls a delay better,
# worse or no different from 0 (the same rule for both: the paired ratio to
# delay 0 beyond its 95% confidence half-width).
#
# SETTINGS=advice runs pgbench instead with four settings only: delay 0,
# the rule (d/2, commit_siblings 5), the experiment's advice (its
# commit_delay and commit_siblings) and d/2 with the advised siblings, and
# ranks them by median tps with the min-max ranges.
#
# Run by hand, never by make check: every case runs pgbench SECS seconds
# REPEATS times for each cell (client count x delay), after the experiment.
# See bench/README ("pgbench_delay.sh") for the knobs and a result.
set -u
LC_ALL=C
export LC_ALL

usage() {
	cat <<'EOF'
Usage: sh bench/pgbench_delay.sh DIR

Runs syncprobe -t group and pgbench (PostgreSQL 15, a cluster made for the
run in a fresh subdirectory of DIR) and prints the two side by side.
Knobs (environment):
  CASES="plain slow"  plain: the disk as it is; slow: every fdatasync made
               SLOW_US longer by tests/faultshim.so, in the server and in
               syncprobe alike; capN (cap1000, cap500...): a disk capped at N
               I/O operations a second, the team's capdisk (a FUSE
               passthrough, run by CAPDISK's run.sh as root) mounted over a
               fresh directory of DIR's filesystem for the case
  SLOW_US=2000 microseconds added to each flush in the slow case
  CAPDISK=../shared/capdisk/run.sh   the capped disk's runner
  CLIENTS=1,8,32
  REPEATS=6    pgbench repeats of every (clients, delay) cell, at least 3
  SECS=8       seconds per pgbench run
  JOBS=        pgbench threads (-j); default: one per client, as the
               experiment has a client thread per committer
  SP_SECS=4 SP_ROUNDS=20   syncprobe's -s (per cell) and --rounds;
               "default": syncprobe's own, as a user runs it
  SETTINGS=sweep  sweep: pgbench runs every delay of the experiment's sweep;
               advice: only 0, the rule (d/2, commit_siblings 5), the
               experiment's advice and d/2 with the advised siblings
  WHERE=0      1: also where a commit's time goes: CPU per commit of the
               server (its processes' CPU times in /proc: Linux) and of
               pgbench (GNU time), and of the experiment (its report's, at
               delay 0: client and committer); and what the server's
               backends wait for in the delay-0 runs (pg_stat_activity
               sampled every 20 ms)
  PG_START=pg_ctl  or direct: run postgres from this script's session
               rather than through pg_ctl (which puts the server in a
               session, and so a scheduling autogroup, of its own)
  RESULTS=dir  also keep the raw figures there (syncprobe's JSON, one line
               per pgbench run)
  PG_BIN=/usr/lib/postgresql/15/bin  SYNCPROBE=path  SHIM=path  JQ=path
EOF
	exit "${1:-2}"
}

die() {
	printf 'pgbench_delay.sh: %s\n' "$*" >&2
	exit 2
}

say() {
	printf '%s\n' "$*" >&2
}

case ${1:-} in
-h | --help) usage 0 ;;
esac
[ $# -eq 1 ] || usage
DIR=$1
[ -d "$DIR" ] || die "$DIR: not a directory"

here=$(cd "$(dirname "$0")" && pwd)
CASES=${CASES:-plain slow}
SLOW_US=${SLOW_US:-2000}
CLIENTS=${CLIENTS:-1,8,32}
REPEATS=${REPEATS:-6}
SECS=${SECS:-8}
JOBS=${JOBS:-}
SP_SECS=${SP_SECS:-4}
SP_ROUNDS=${SP_ROUNDS:-20}
SETTINGS=${SETTINGS:-sweep}
WHERE=${WHERE:-0}
PG_START=${PG_START:-pg_ctl}
TIME=${TIME:-/usr/bin/time}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
SYNCPROBE=${SYNCPROBE:-$here/../src/syncprobe}
SHIM=${SHIM:-$here/../tests/faultshim.so}
JQ=${JQ:-jq}
CAPDISK=${CAPDISK:-$here/../../shared/capdisk/run.sh}

for knob in REPEATS SECS SP_ROUNDS SLOW_US; do
	eval "v=\$$knob"
	[ "$knob" != SP_ROUNDS ] || [ "$v" != default ] || continue
	case $v in
	'' | *[!0-9]*) die "$knob=$v: give a whole number" ;;
	esac
done
[ "$REPEATS" -ge 3 ] || die "REPEATS=$REPEATS: at least 3"
case $SETTINGS in
sweep | advice) ;;
*) die "SETTINGS=$SETTINGS: sweep or advice" ;;
esac
case $WHERE in
0) ;;
1) [ -x "$TIME" ] || die "$TIME: GNU time not found (set TIME=)" ;;
*) die "WHERE=$WHERE: 0 or 1" ;;
esac
case $PG_START in
pg_ctl | direct) ;;
*) die "PG_START=$PG_START: pg_ctl or direct" ;;
esac
case $JOBS in
*[!0-9]*) die "JOBS=$JOBS: give a whole number" ;;
esac
[ -x "$SYNCPROBE" ] || die "$SYNCPROBE: no syncprobe there (make, or set SYNCPROBE=)"
for t in initdb pg_ctl pgbench psql; do
	[ -x "$PG_BIN/$t" ] || die "$PG_BIN/$t: not found (install postgresql-15 or set PG_BIN=)"
done
command -v "$JQ" >/dev/null 2>&1 || die "jq not found (set JQ=)"
case " $CASES " in
*" slow "*) [ -r "$SHIM" ] || die "$SHIM: not built (make tests/faultshim.so, or set SHIM=)" ;;
esac
for c in $CASES; do
	case $c in
	plain | slow) ;;
	cap*)
		n=${c#cap}
		case $n in
		'' | *[!0-9]*) die "CASES: '$c': cap and a number of I/O a second, such as cap1000" ;;
		esac
		[ -r "$CAPDISK" ] || die "$CAPDISK: the capped disk's run.sh is not there (set CAPDISK=)"
		;;
	*) die "CASES: '$c' is not plain, slow or capN" ;;
	esac
done

# The server refuses to run as root: run it as postgres (or nobody).
as_pg() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	pguser=
	for u in postgres nobody; do
		if id "$u" >/dev/null 2>&1; then pguser=$u; break; fi
	done
	[ -n "$pguser" ] || die "running as root with no postgres user"
	as_pg() { runuser -u "$pguser" -- "$@"; }
fi

WORK=$(mktemp -d "$DIR/pgbench-delay.XXXXXX") || die "$DIR: cannot make a directory"
chmod 755 "$WORK"
[ "$(id -u)" -ne 0 ] || chown "$pguser" "$WORK"
DATA=$WORK/data
# A capped case runs this script again, on the capped disk, for that one
# case: its figures go to the first run's results.
RES=${PGBENCH_DELAY_RES:-$WORK/results}

stop_server() {
	as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || :
}

cleanup() {
	trap - EXIT INT TERM HUP
	stop_server
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

# env_for CASE: the environment the disk case runs under.
env_for() {
	if [ "$1" = slow ]; then
		printf 'LD_PRELOAD=%s SYNCPROBE_FAULT_SYNC_DELAY_US=%s\n' "$SHIM" "$SLOW_US"
	fi
	:
}

# sql QUERY: one value from the server.
sql() {
	as_pg "$PG_BIN/psql" -h "$WORK" -U postgres -d postgres -XAtqc "$1"
}

start_server() {
	stop_server
	if [ "$PG_START" = direct ]; then
		# shellcheck disable=SC2046
		as_pg env $(env_for "$1") "$PG_BIN/postgres" -D "$DATA" -c listen_addresses='' \
		    -c unix_socket_directories="$WORK" >>"$WORK/server.log" 2>&1 &
		tries=0
		until sql "SELECT 1" >/dev/null 2>&1; do
			tries=$((tries + 1))
			[ "$tries" -le 300 ] || die "the server did not start: $(tail -3 "$WORK/server.log")"
			sleep 0.2
		done
		return
	fi
	# shellcheck disable=SC2046
	as_pg env $(env_for "$1") "$PG_BIN/pg_ctl" -D "$DATA" -l "$WORK/server.log" -w -t 60 \
	    -o "-c listen_addresses='' -c unix_socket_directories='$WORK'" start >/dev/null ||
	    die "the server did not start: $(tail -3 "$WORK/server.log")"
}

# The server's CPU so far, in clock ticks: the postmaster's own and its
# waited-for children's (the backends of finished runs), and its live
# children's (Linux /proc; 0 without it).
server_ticks() {
	pm=$(head -1 "$DATA/postmaster.pid" 2>/dev/null)
	[ -r "/proc/$pm/stat" ] || { echo 0; return; }
	# The fields after the command name (which may hold spaces): utime
	# stime cutime cstime are the 12th to 15th of them.
	{ sed 's/.*) //' "/proc/$pm/stat" | awk '{ print $12 + $13 + $14 + $15 }'
	  for kid in $(cat /proc/"$pm"/task/*/children 2>/dev/null); do
		sed 's/.*) //' "/proc/$kid/stat" 2>/dev/null | awk '{ print $12 + $13 }'
	  done; } | awk '{ t += $1 } END { print t + 0 }'
}

# sample_waits CASE CLIENTS: what each client backend waits for, every 20
# ms, one line each into $RES.waits; SECS * 30 samples, so that it ends by
# itself within about a run (a sample takes 20 ms and the query's time).
sample_waits() {
	i=0
	while [ "$i" -lt $((SECS * 30)) ]; do
		i=$((i + 1))
		echo "SELECT coalesce(wait_event_type || ':' || wait_event, state) FROM pg_stat_activity
		    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid();"
		echo "SELECT pg_sleep(0.02);"
	done | as_pg "$PG_BIN/psql" -h "$WORK" -U postgres -d postgres -XAtq 2>/dev/null |
	    awk -v c="$1" -v n="$2" 'NF { print c "\t" n "\t" $0; fflush() }' >>"$RES.waits"
}

make_cluster() {
	as_pg "$PG_BIN/initdb" -D "$DATA" -A trust -U postgres >"$WORK/initdb.log" 2>&1 ||
	    die "initdb failed: $(tail -3 "$WORK/initdb.log")"
	# Durable commits, flushed with fdatasync as syncprobe does; no
	# checkpoint or autovacuum in the middle of the runs.
	cat >>"$DATA/postgresql.conf" <<'EOF'
fsync = on
synchronous_commit = on
wal_sync_method = fdatasync
shared_buffers = 128MB
max_wal_size = 16GB
checkpoint_timeout = 1h
autovacuum = off
commit_siblings = 5
track_wal_io_timing = on
EOF
	printf 'INSERT INTO t VALUES (1);\n' >"$WORK/insert.sql"
	chmod 644 "$WORK/insert.sql"
}

# shuffled LIST...: the words in random order.
shuffled() {
	printf '%s\n' "$@" | awk 'BEGIN { srand() } { print rand() "\t" $0 }' | sort -n | cut -f2
}

# The experiment's cells as "CASE CLIENTS DELAY VS0 NOISE VERDICT PER_FLUSH".
experiment() {
	c=$1
	say "$(date +%T) $c: syncprobe -t group"
	started=$(date +%s)
	out=$WORK/$c.json
	mkdir -p "$WORK/sp-$c"
	sp_opts=
	[ "$SP_SECS" = default ] || sp_opts="-s $SP_SECS"
	[ "$SP_ROUNDS" = default ] || sp_opts="$sp_opts --rounds $SP_ROUNDS"
	# shellcheck disable=SC2046,SC2086
	env $(env_for "$c") "$SYNCPROBE" -q -F json -t group --wal-sync-method fdatasync \
	    --clients "$CLIENTS" $sp_opts "$WORK/sp-$c" >"$out" ||
	    die "syncprobe failed"
	# What a commit cost the experiment in CPU at delay 0, per count
	# (null from a syncprobe before it reported it).
	[ "$WHERE" = 0 ] || "$JQ" -r --arg c "$c" '.targets[0].group.clients[]
	    | "\($c)\t\(.clients)\t\(.cells[0].commit_cpu_usecs)"' "$out" >>"$RES.spcpu"
	cp "$out" "$RES.$c.json"
	printf '%s\texperiment\t%s\n' "$c" $(($(date +%s) - started)) >>"$RES.times"
	"$JQ" -r --arg c "$c" '.targets[0] | .advice as $a | .group.rule_commit_delay_usecs as $r
	    | ["0 0/5", "rule \($r)/5", "advice \($a.commit_delay_usecs)/\($a.commit_siblings)",
	       "rule-advised-siblings \($r)/\($a.commit_siblings)"][] | $c + " " + .' \
	    "$out" | tr ' ' '\t' >>"$RES.settings"
	"$JQ" -r '.targets[0].advice | "advice: commit_delay = \(.commit_delay_usecs): \(.commit_delay_reason)",
	    "advice: commit_siblings = \(.commit_siblings): \(.commit_siblings_reason)"' \
	    "$out" >"$RES.$c.advice"
	"$JQ" -r --arg c "$c" '.targets[0].group.clients[] | .clients as $n | .cells[]
	    | [$c, $n, .commit_delay_usecs, .versus_zero_percent, .noise_percent,
	       (if .commit_delay_usecs > 0 and .delayed_flushes == 0 then "nosleep" else .versus_zero end),
	       .commits_per_flush, (.flush_usecs // 0)] | @tsv' "$out" >>"$RES.cells"
}

# pgbench for every cell, REPEATS times: "CASE CLIENTS DELAY REP TPS COMMITS SYNCS
# SYNC_USECS SERVER_TICKS PGBENCH_CPU_SECS" (SETTINGS=advice: DELAY/SIBLINGS for
# DELAY; the last two 0 without WHERE=1).
pgbench_runs() {
	c=$1
	if [ "$SETTINGS" = advice ]; then
		# Each distinct "DELAY/SIBLINGS" once: the advice may be the rule.
		delays=$(awk -F '\t' -v c="$c" '$1 == c { print $3 }' "$RES.settings" | sort -u)
	else
		delays=$("$JQ" -r '.targets[0].group.commit_delays_usecs[] | "\(.)/5"' "$WORK/$c.json")
	fi
	# WAL syncs, the microseconds spent in them (track_wal_io_timing) and
	# commits so far.
	counts="SELECT (SELECT wal_sync || ' ' || (wal_sync_time * 1000)::bigint FROM pg_stat_wal)
	    || ' ' || (SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres')"
	started=$(date +%s)
	start_server "$c"
	sql "DROP TABLE IF EXISTS t; CREATE TABLE t (v int)" >/dev/null
	rep=1
	while [ "$rep" -le "$REPEATS" ]; do
		for n in $(printf '%s\n' "$CLIENTS" | tr , ' '); do
			# shellcheck disable=SC2086
			for ds in $(shuffled $delays); do
				d=${ds%/*} s=${ds#*/}
				say "$(date +%T) $c: repeat $rep, $n clients, commit_delay $d, commit_siblings $s"
				before="$(sql "$counts") $(server_ticks)"
				jobs=${JOBS:-$n}
				[ "$jobs" -le "$n" ] || jobs=$n
				timed='' sampler=
				if [ "$WHERE" = 1 ]; then
					timed="$TIME -o $WORK/pgbench.time -f %U+%S"
					if [ "$d" = 0 ]; then
						sample_waits "$c" "$n" &
						sampler=$!
					fi
				fi
				# shellcheck disable=SC2086
				tps=$(as_pg env PGOPTIONS="-c commit_delay=$d -c commit_siblings=$s" \
				    $timed "$PG_BIN/pgbench" -h "$WORK" \
				    -U postgres -n -f "$WORK/insert.sql" -c "$n" -j "$jobs" -T "$SECS" postgres \
				    2>/dev/null | sed -n 's/^tps = \([0-9.]*\) (without.*/\1/p')
				[ -z "$sampler" ] || wait "$sampler"
				pbcpu=0
				[ -z "$timed" ] || pbcpu=$(tail -1 "$WORK/pgbench.time" | awk -F+ '{ print $1 + $2 }')
				# Backends send their counts when they exit.
				sleep 1
				after="$(sql "$counts") $(server_ticks)"
				[ -n "$tps" ] || die "pgbench failed (see $WORK/server.log)"
				# shellcheck disable=SC2086
				set -- $before $after
				[ "$SETTINGS" = advice ] || ds=$d
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$n" "$ds" "$rep" "$tps" \
				    $(($7 - $3)) $(($5 - $1)) $(($6 - $2)) $(($8 - $4)) "$pbcpu" >>"$RES.runs"
			done
		done
		rep=$((rep + 1))
	done
	stop_server
	printf '%s\tpgbench\t%s\n' "$c" $(($(date +%s) - started)) >>"$RES.times"
}

# The comparison tables, from $RES.cells and $RES.runs.
report() {
	awk -F '\t' -v secs="$SECS" -v slow="$SLOW_US" '
	function t95(df) {
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ")
		return df < 1 ? 1e9 : df <= 10 ? t[df] : 2.0
	}
	FILENAME ~ /cells$/ {
		k = $1 SUBSEP $2 SUBSEP $3
		e_vs[k] = $4; e_noise[k] = $5; e_verdict[k] = $6; e_cpf[k] = $7; e_flush[k] = $8
		if (!(($1 SUBSEP $2) in seen_n)) { seen_n[$1 SUBSEP $2] = 1; nlist[$1] = nlist[$1] " " $2 }
		if (!(($1 SUBSEP $3) in seen_d)) { seen_d[$1 SUBSEP $3] = 1; dlist[$1] = dlist[$1] " " $3 }
		next
	}
	{
		k = $1 SUBSEP $2 SUBSEP $3
		tps[k SUBSEP $4] = $5; commits[k] += $6; syncs[k] += $7; sync_us[k] += $8
		if ($4 > reps) reps = $4
		if (!($1 in seen_c)) { seen_c[$1] = 1; cases[++ncases] = $1 }
	}
	END {
		for (ci = 1; ci <= ncases; ci++) {
			c = cases[ci]
			printf "\n== %s: %s\n", c, c == "slow" ? \
			    "every fdatasync " slow " us longer (tests/faultshim.so)" : c ~ /^cap/ ? \
			    "capped at " substr(c, 4) " I/O a second (capdisk)" : "the disk as it is"
			split(substr(nlist[c], 2), ns, " ")
			split(substr(dlist[c], 2), ds, " ")
			for (ni = 1; ni in ns; ni++) {
				n = ns[ni]
				printf "\n%s client%s   %-38s %s\n", n, n == 1 ? "" : "s", \
				    "experiment (syncprobe -t group)", "pgbench, PostgreSQL 15"
				printf "%-9s %8s %7s %-8s %7s   %8s %7s %-8s %7s   %s\n", "delay", \
				    "vs 0", "noise", "verdict", "c/flush", "vs 0", "noise", "verdict", \
				    "c/flush", "same verdict"
				z = c SUBSEP n SUBSEP ds[1]
				for (di = 1; di in ds; di++) {
					d = ds[di]; k = c SUBSEP n SUBSEP d
					cpf = syncs[k] ? commits[k] / syncs[k] : 0
					if (di == 1) {
						printf "%6s us %8s %7s %-8s %7.2f   %8s %7s %-8s %7.2f\n", d, \
						    "", "", "", e_cpf[k], "", "", "", cpf
						continue
					}
					s = 0; ss = 0; m = 0
					for (r = 1; r <= reps; r++) {
						if (!((z SUBSEP r) in tps) || tps[z SUBSEP r] <= 0) continue
						q = tps[k SUBSEP r] / tps[z SUBSEP r]
						s += q; ss += q * q; m++
					}
					mean = s / m
					sd = m > 1 ? sqrt((ss - s * mean) / (m - 1)) : 0
					pct = (mean - 1) * 100
					noise = t95(m - 1) * sd / sqrt(m) * 100
					v = pct > noise ? "better" : -pct > noise ? "worse" : "same"
					ev = e_verdict[k] == "nosleep" ? "same" : e_verdict[k]
					agree = ev == v ? "yes" : "no"
					total[c]++; if (agree == "yes") agreed[c]++
					printf "%6s us %+7.1f%% %6.1f%% %-8s %7.2f   %+7.1f%% %6.1f%% %-8s %7.2f   %s\n", \
					    d, e_vs[k], e_noise[k], e_verdict[k], e_cpf[k], pct, noise, v, cpf, agree
				}
			}
			for (ni = 1; ni in ns; ni++) {
				k = c SUBSEP ns[ni] SUBSEP ds[1]
				printf "%s clients, delay 0: a flush (write + sync) in the experiment %.0f us; " \
				    "the server'"'"'s WAL sync %.0f us\n", ns[ni], e_flush[k], \
				    syncs[k] ? sync_us[k] / syncs[k] : 0
			}
			printf "\n%s: %d of %d delays given the same verdict by both\n", c, agreed[c], total[c]
		}
	}' "$RES.cells" "$RES.runs"
}

# SETTINGS=advice: per case and client count, each setting's median tps
# over the repeats with its min-max range and commits per flush, against
# delay 0 and against the advice; a setting "beats the advice" when its
# median is more than 3% higher and its range lies wholly above the
# advice's. From $RES.settings and $RES.runs.
report_settings() {
	awk -F '\t' '
	function median(k,   i, j, n, v, t) {
		n = cnt[k]
		for (i = 1; i <= n; i++) v[i] = val[k, i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		lo[k] = v[1]; hi[k] = v[n]
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	FILENAME ~ /settings$/ {
		if (!($1 in seen_c)) { seen_c[$1] = 1; cases[++ncases] = $1 }
		nl[$1]++; label[$1, nl[$1]] = $2; setting[$1, $2] = $3
		next
	}
	{
		k = $1 SUBSEP $2 SUBSEP $3
		val[k, ++cnt[k]] = $5; commits[k] += $6; syncs[k] += $7; sync_us[k] += $8
		if (!(($1 SUBSEP $2) in seen_n)) { seen_n[$1 SUBSEP $2] = 1; nlist[$1] = nlist[$1] " " $2 }
	}
	END {
		for (ci = 1; ci <= ncases; ci++) {
			c = cases[ci]
			split(substr(nlist[c], 2), ns, " ")
			for (ni = 1; ni in ns; ni++) {
				n = ns[ni]
				printf "\n%s, %s clients\n", c, n
				printf "%-22s %-10s %8s %-15s %6s %8s %-10s %7s %7s\n", "setting", "delay/sib", \
				    "median", "min-max", "vs 0", "vs adv", "ranges", "c/flush", "sync us"
				for (li = 1; li <= nl[c]; li++) {
					k = c SUBSEP n SUBSEP setting[c, label[c, li]]
					med[li] = median(k)
				}
				ka = c SUBSEP n SUBSEP setting[c, "advice"]
				ma = median(ka)
				mz = median(c SUBSEP n SUBSEP setting[c, "0"])
				beaten = ""
				for (li = 1; li <= nl[c]; li++) {
					l = label[c, li]; k = c SUBSEP n SUBSEP setting[c, l]
					apart = setting[c, l] == setting[c, "advice"] ? "" : \
					    lo[k] > hi[ka] ? "above adv" : hi[k] < lo[ka] ? "below adv" : "overlap"
					if (med[li] > 1.03 * ma && lo[k] > hi[ka]) beaten = beaten " " l
					printf "%-22s %-10s %8.0f %-15s %5.2fx %+7.1f%% %-10s %7.2f %7.0f\n", l, \
					    setting[c, l], med[li], sprintf("%.0f-%.0f", lo[k], hi[k]), \
					    med[li] / mz, (med[li] / ma - 1) * 100, apart, \
					    syncs[k] ? commits[k] / syncs[k] : 0, syncs[k] ? sync_us[k] / syncs[k] : 0
				}
				printf "%s\n", beaten == "" ? \
				    "no setting beats the advice by more than 3% with ranges apart" : \
				    "beats the advice by more than 3%, ranges apart:" beaten
			}
		}
	}' "$RES.settings" "$RES.runs"
}

# WHERE=1: CPU per commit of the server and pgbench in the delay-0 runs,
# the experiment's at delay 0 (its report's), and what the backends waited
# for.
report_where() {
	awk -F '\t' -v hz="$(getconf CLK_TCK)" '
	FILENAME ~ /spcpu$/ { sp[$1 SUBSEP $2] = $3; next }
	FILENAME ~ /waits$/ {
		k = $1 SUBSEP $2; w[k SUBSEP $3]++; nw[k]++
		if (!((k SUBSEP $3) in seenw)) { seenw[k SUBSEP $3] = 1; ev[k] = ev[k] "\t" $3 }
		next
	}
	$3 == 0 || $3 == "0/5" {
		k = $1 SUBSEP $2; commits[k] += $6; ticks[k] += $9; pb[k] += $10
		if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	}
	END {
		printf "\nwhere a commit'"'"'s time goes (delay 0)\n"
		for (i = 1; i <= nk; i++) {
			k = keys[i]; split(k, kk, SUBSEP)
			printf "%s, %s clients: CPU per commit: server %.1f us, pgbench %.1f us; " \
			    "the experiment %s us (client and committer)\n", kk[1], kk[2], \
			    ticks[k] / hz / commits[k] * 1e6, pb[k] / commits[k] * 1e6, \
			    sp[k] == "null" || sp[k] == "" ? "n/a" : sprintf("%.1f", sp[k])
			n = split(substr(ev[k], 2), e, "\t")
			line = ""
			for (j = 1; j <= n; j++)
				line = line sprintf("%s%s %.1f%%", j > 1 ? ", " : "", e[j], 100 * w[k SUBSEP e[j]] / nw[k])
			printf "  backends (%d samples): %s\n", nw[k], line
		}
	}' "$RES.spcpu" "$RES.waits" "$RES.runs"
}

# The inner run of a capped case: that case only, on the capped disk.
if [ -n "${PGBENCH_DELAY_RES:-}" ]; then
	make_cluster
	experiment "$CASES"
	pgbench_runs "$CASES"
	exit 0
fi

# capped CASE: run this script again under the capped disk's run.sh, which
# mounts it over a fresh directory of DIR's filesystem, for that case.
capped() {
	mnt=$WORK/mnt-$1
	say "$(date +%T) $1: the capped disk at ${1#cap} I/O a second on $mnt"
	# shellcheck disable=SC2086
	env CASES="$1" PGBENCH_DELAY_RES="$RES" CLIENTS="$CLIENTS" REPEATS="$REPEATS" \
	    SECS="$SECS" JOBS="$JOBS" SP_SECS="$SP_SECS" SP_ROUNDS="$SP_ROUNDS" \
	    SETTINGS="$SETTINGS" WHERE="$WHERE" PG_START="$PG_START" TIME="$TIME" \
	    PG_BIN="$PG_BIN" SYNCPROBE="$SYNCPROBE" SHIM="$SHIM" JQ="$JQ" \
	    bash "$CAPDISK" -i "${1#cap}" "$mnt" sh "$here/pgbench_delay.sh" "$mnt" ||
	    die "$1: the run on the capped disk failed"
}

: >"$RES.cells"
: >"$RES.spcpu"
: >"$RES.waits"
: >"$RES.settings"
: >"$RES.times"
: >"$RES.runs"
made=no
for c in $CASES; do
	case $c in
	cap*)
		capped "$c"
		continue
		;;
	esac
	[ $made = yes ] || make_cluster
	made=yes
	experiment "$c"
	pgbench_runs "$c"
done
printf 'syncprobe -t group beside pgbench: %s, clients %s, %s repeats of %s s, -j %s, PostgreSQL %s\n' \
    "$DIR" "$CLIENTS" "$REPEATS" "$SECS" "${JOBS:-clients}" "$("$PG_BIN/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([^ ]*\).*/\1/p')"
printf 'syncprobe: -s %s --rounds %s\n' "$SP_SECS" "$SP_ROUNDS"
printf 'machine: %s, %s CPUs\n' "$(uname -sr)" "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')"
for c in $CASES; do
	printf '%s: d = %s us (a flush at one committer, fdatasync)\n' "$c" \
	    "$("$JQ" '.targets[0].group.flush_usecs' "$RES.$c.json")"
done
printf 'settings: %s\n' "$SETTINGS"
for c in $CASES; do
	awk -F '\t' -v c="$c" '$1 == c { printf "%s: %s took %d s\n", c, $2, $3 }' "$RES.times"
done
if [ "$SETTINGS" = advice ]; then
	for c in $CASES; do
		sed "s/^/$c: /" "$RES.$c.advice"
	done
	report_settings
else
	report
fi
[ "$WHERE" = 0 ] || report_where
if [ -n "${RESULTS:-}" ]; then
	mkdir -p "$RESULTS" && cp "$RES".* "$RESULTS"/ && say "raw figures in $RESULTS"
fi
