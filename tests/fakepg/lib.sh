# tests/fakepg/lib.sh: sourced by the fake PostgreSQL programs, which
# tests/cli_pgbench.sh puts in place of the real ones. Knobs, from the
# environment:
#   SYNCPROBE_FAKEPG_FAIL=initdb|start|psql|checkpoint|pgbench|stop
#                                (stop: postgres ignores the signals to stop)
#   SYNCPROBE_FAKEPG_GARBAGE=1   pgbench prints no figures it should
#   SYNCPROBE_FAKEPG_GAIN=1      pgbench's tps rises with commit_delay
#   SYNCPROBE_FAKEPG_SWING="P..." the Nth timed run's tps times the Nth
#                                percentage (100 after the list)
#   SYNCPROBE_FAKEPG_HANG=pgbench|start   that step never ends
#   SYNCPROBE_FAKEPG_VICTIM=PID  postgres's postmaster.pid names PID
#   SYNCPROBE_FAKEPG_GROW=MB     each timed pgbench run takes MB more of the disk
#   SYNCPROBE_FAKEPG_FILL=1      a timed pgbench run fills the disk (1MB left),
#                                then runs on
#   SYNCPROBE_FAKEPG_VERSION=S   psql's SHOW server_version prints S
#   SYNCPROBE_FAKEPG_BINDIR=S    pg_config --bindir prints S
#   SYNCPROBE_FAKEPG_HANG_RUN=N  pgbench's Nth timed run never ends
#   SYNCPROBE_FAKEPG_CHILD=1     pgbench leaves a process behind in its group
#   SYNCPROBE_FAKEPG_PIDS=FILE   every fake process appends its pid
#   SYNCPROBE_FAKEPG_LOG=FILE    every call appends its arguments
set -eu
fake_note() {
	[ -z "${SYNCPROBE_FAKEPG_PIDS:-}" ] || echo "$1" >>"$SYNCPROBE_FAKEPG_PIDS"
}
fake_note $$
[ -z "${SYNCPROBE_FAKEPG_LOG:-}" ] || echo "$(basename "$0") $*" >>"$SYNCPROBE_FAKEPG_LOG"
fake_fails() {
	[ "${SYNCPROBE_FAKEPG_FAIL:-}" = "$1" ]
}
fake_hangs() {
	if [ "${SYNCPROBE_FAKEPG_HANG:-}" = "$1" ]; then
		sleep 300
	fi
}
# fake_read FILE DEFAULT: fake_n set to the number in FILE, or DEFAULT
# where there is none; read by the shell itself, no cat started, since the
# fakes run hundreds of times in a test.
fake_read() {
	fake_n=$2
	if [ -s "$1" ]; then
		read -r fake_n <"$1"
	fi
}
# fake_opt FLAG ARGS...: the value after FLAG.
fake_opt() {
	f=$1
	shift
	while [ $# -gt 1 ]; do
		if [ "$1" = "$f" ]; then
			echo "$2"
			return
		fi
		shift
	done
}
