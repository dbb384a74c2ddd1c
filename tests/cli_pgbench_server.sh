#!/bin/sh
# cli_pgbench_server.sh: syncprobe pgbench against the real PostgreSQL
# installed here (.ci/run installs postgresql-15): one client count, two
# delays, 1 s runs, one deciding pair at most, no -t group. It checks that the sweep reads the real
# server's figures and leaves no cluster, socket or process behind; no
# figure is asserted beyond being there. Skipped without PostgreSQL.
. "$top_srcdir/tests/lib.sh"

bin=
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && [ -x "$d/pgbench" ] && bin=$d
done
if [ -z "$bin" ]; then
	echo "1..0 # SKIP PostgreSQL's server programs are not installed"
	exit 0
fi
tap_require jq
pgbench_user
D=$WORK/dir
mkdir "$D"
chmod 755 "$D"

run pgbench -q -n 20 --no-group $USER_OPT --clients 8 --commit-delays 0,20 \
    --commit-siblings 1 -T 1 --repeats 2 --decide 1 -F json "$D"
tap_is "$rc" 0 "a sweep on the real server exits 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$WORK/err"
jq_checks "$WORK/out" <<'CHECKS'
the server's version is read | .server_version | test("^[0-9]+")
one client count, two settings | (.clients | length) == 1 and (.settings | length) == 2
both settings ran twice, and once more where 20 led 0 within noise | .clients[0] as $c | all($c.cells[]; .runs and (.runs_tps | length) == 2 + ($c.decided.runs // 0))
deciding, if it ran, ran the delay against 0 | .clients[0].decided | . == null or (.commit_delay_usecs == 20 and .runs == 1)
every run completed transactions | all(.clients[0].cells[].runs_tps[]; . > 0)
commits per flush from pg_stat_wal | all(.clients[0].cells[]; .commits_per_flush > 0)
a verdict against 0 | .clients[0].cells[1].versus_zero | IN("same", "better", "worse", "unclear")
an advice from the sweep | .advice.commit_delay_usecs | IN(0, 20)
CHECKS
problems=
left=$(find "$D" -mindepth 1 -maxdepth 1 -print)
[ -z "$left" ] || problem "left in DIR: $left"
i=0
while ps -eo args= | grep -F "$D" | grep -v grep >/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
ps -eo args= | grep -F "$D" | grep -v grep >"$WORK/ps" || :
[ ! -s "$WORK/ps" ] || problem "processes left: $(cat "$WORK/ps")"
if [ -z "$problems" ]; then
	tap_ok "no cluster, socket or server process left"
else
	tap_fail "no cluster, socket or server process left" "$problems"
fi

# ---- two SIGINTs as the server starts: no shared memory left ----
# The server's own segments, learnt from its /proc/PID/maps while it
# runs: its /dev/shm/PostgreSQL.* files, and its SysV segment (the maps
# line /SYSV... carries the shmid as its inode). Others' servers on this
# machine are not looked at.
postmaster() {
	ps -eo pid=,args= | awk -v d="$D/" '$2 ~ /\/postgres$/ && $3 == "-D" && index($4, d) == 1 { print $1; exit }'
}
has_shm() {
	pm=$(postmaster)
	[ -n "$pm" ] && grep -q " /dev/shm/PostgreSQL\." "/proc/$pm/maps" 2>/dev/null
}
if [ -z "$DEFAULT_SIGNALS" ] || [ ! -r /proc/self/maps ] || ! command -v ipcs >/dev/null 2>&1; then
	tap_skip "two SIGINTs as the server starts: no shared memory left" \
	    "needs default signals, /proc/PID/maps and ipcs"
else
	$DEFAULT_SIGNALS "$SYNCPROBE" pgbench -q -n 20 --no-group $USER_OPT --clients 8 \
	    --commit-delays 0,20 --commit-siblings 1 -T 1 --repeats 2 --decide 0 "$D" \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	if waiting "$pid" has_shm; then
		files=$(sed -n 's|.* \(/dev/shm/PostgreSQL\.[0-9]*\).*|\1|p' "/proc/$pm/maps" | sort -u)
		shmid=$(awk '$6 ~ /^\/SYSV/ { print $5; exit }' "/proc/$pm/maps")
		kill -INT "$pid"
		sleep 0.2
		kill -INT "$pid" 2>/dev/null || :
		rc=0
		wait "$pid" || rc=$?
		problems=
		[ "$rc" -eq 130 ] || problem "exit $rc, not 130 (SIGINT)"
		for f in $files; do
			[ ! -e "$f" ] || problem "left: $f"
		done
		[ -n "$shmid" ] || problem "no SysV segment seen in its maps"
		if [ -n "$shmid" ] && ipcs -m | awk '{ print $2 }' | grep -qx "$shmid"; then
			problem "left: the SysV segment $shmid"
		fi
		[ -z "$(find "$D" -mindepth 1 -maxdepth 1 -print)" ] || problem "left in DIR"
		if [ -z "$problems" ]; then
			tap_ok "two SIGINTs as the server starts: its SysV segment and $(echo $files | wc -w) /dev/shm files are gone"
		else
			tap_fail "two SIGINTs as the server starts: no shared memory left" "$problems"
		fi
	else
		rc=0
		wait "$pid" || rc=$?
		tap_fail "two SIGINTs as the server starts: the server started" "exit $rc: $(cat "$WORK/err")"
	fi
fi
tap_done
