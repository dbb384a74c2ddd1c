#!/bin/sh
# cli_postgres.sh: a real PostgreSQL server takes syncprobe's -F conf lines
# exactly. Skips when PostgreSQL is not installed (CI installs it).
. "$top_srcdir/tests/lib.sh"

bindir=
for d in /usr/lib/postgresql/*/bin /usr/local/pgsql/bin; do
	if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
		bindir=$d
	fi
done
if [ -z "$bindir" ]; then
	tap_skip "a PostgreSQL cluster takes the -F conf lines" "initdb and postgres not found"
	tap_done
	exit 0
fi

# The server refuses to run as root: use an unprivileged account.
as_user() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	user=
	for u in postgres nobody; do
		if id "$u" >/dev/null 2>&1; then user=$u; break; fi
	done
	if [ -z "$user" ] || ! command -v runuser >/dev/null 2>&1; then
		tap_skip "a PostgreSQL cluster takes the -F conf lines" "running as root with no unprivileged user"
		tap_done
		exit 0
	fi
	as_user() { runuser -u "$user" -- "$@"; }
fi

pg=$WORK/pg
mkdir "$pg"
[ "$(id -u)" -ne 0 ] || chown "$user" "$pg"
stop_server() {
	as_user "$bindir/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap stop_server EXIT

conf=$WORK/syncprobe.conf
rc=0
# -t group measures commit_delay, so that it is an active line too.
"$SYNCPROBE" -F conf $FAST -t one,two,group --clients 1,3 --commit-delays 0,40 \
    --rounds 2 "$WORK" >"$conf" || rc=$?
tap_is "$rc" 0 "syncprobe -F conf exits 0"
method=$(sed -n "s/^wal_sync_method = '\([a-z_]*\)'\$/\1/p" "$conf")
delay=$(sed -n 's/^commit_delay = \([0-9]*\)$/\1/p' "$conf")
siblings=$(sed -n 's/^commit_siblings = \([0-9]*\)$/\1/p' "$conf")
tap_check "-F conf sets wal_sync_method and commit_delay (-t group measured it)" \
	test -n "$method" -a -n "$delay"

if ! as_user "$bindir/initdb" -D "$pg/data" -A trust -U postgres >"$WORK/initdb.log" 2>&1; then
	tap_fail "initdb a throwaway cluster" "$(tail -5 "$WORK/initdb.log")"
	tap_done
	exit 1
fi
tap_ok "initdb a throwaway cluster"
cat "$conf" >>"$pg/data/postgresql.conf"

# Unix socket in the temp directory only; no TCP.
if as_user "$bindir/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$pg'" start >/dev/null 2>&1; then
	tap_ok "the server starts with the -F conf lines appended"
else
	tap_fail "the server starts with the -F conf lines appended" "$(tail -5 "$pg/server.log" 2>/dev/null)"
	tap_done
	exit 1
fi
psql=$bindir/psql
[ -x "$psql" ] || psql=psql
show() { as_user "$psql" -h "$pg" -U postgres -d postgres -Atc "SHOW $1"; }
tap_is "$(show wal_sync_method)" "$method" "SHOW wal_sync_method is the advised '$method'"
tap_is "$(show commit_delay)" "$delay" "SHOW commit_delay is the advised $delay"
tap_is "$(show commit_siblings)" "${siblings:-5}" "SHOW commit_siblings is the advised ${siblings:-5}"
tap_done
