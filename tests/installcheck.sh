#!/bin/sh
# installcheck.sh: make installcheck. The installed syncprobe runs: it
# prints its version, probes a temporary directory briefly and leaves
# nothing in it, the installed manual page formats with man -l without a
# warning, its -F json validates against the installed JSON Schema, and the
# installed bash completion completes syncprobe. SYNCPROBE, MAN_PAGE,
# SCHEMA_DIR, BASH_COMPLETION_FILE and PACKAGE_VERSION name what was
# installed (make installcheck sets them).
. "$top_srcdir/tests/lib.sh"

: "${MAN_PAGE:?MAN_PAGE must name the installed manual page}"
: "${PACKAGE_VERSION:?PACKAGE_VERSION must be set}"

tap_check "$SYNCPROBE is installed and executable" test -x "$SYNCPROBE"

run --version
tap_is "$rc $(cat "$WORK/out")" "0 syncprobe $PACKAGE_VERSION" \
    "syncprobe --version exits 0 and prints its version"

mkdir "$WORK/target"
run $ONE "$WORK/target"
problems=
[ "$rc" -eq 0 ] || problem "exit status $rc: $(cat "$WORK/err")"
grep -q '^fdatasync ' "$WORK/out" || problem "no fdatasync row in the report"
no_testfile "$WORK/target" || problem "left a test file in the target"
if [ -z "$problems" ]; then
	tap_ok "a short probe of a temporary directory reports and leaves nothing"
else
	tap_fail "a short probe of a temporary directory reports and leaves nothing" "$problems"
fi

# The report's schema, where scripts are told to find it.
: "${SCHEMA_DIR:?SCHEMA_DIR must name the installed schema directory}"
tap_check "the report's JSON Schema is installed" test -r "$SCHEMA_DIR/report.schema.json"
"$SYNCPROBE" -F json $ONE "$WORK/target" >"$WORK/report.json" 2>/dev/null || :
if command -v python3 >/dev/null 2>&1; then
	rc=0
	python3 "$top_srcdir/tests/json_schema.py" "$SCHEMA_DIR/report.schema.json" \
	    "$WORK/report.json" >"$WORK/schema.out" 2>&1 || rc=$?
	case $rc in
	0) tap_ok "-F json validates against the installed schema" ;;
	77) tap_skip "-F json validates against the installed schema" "$(cat "$WORK/schema.out")" ;;
	*) tap_fail "-F json validates against the installed schema" "$(head -n 5 "$WORK/schema.out")" ;;
	esac
else
	tap_skip "-F json validates against the installed schema" "python3 is not installed"
fi

tap_check "the manual page is installed" test -r "$MAN_PAGE"
if ! command -v man >/dev/null 2>&1; then
	tap_skip "man -l of the installed page prints no warning" "man is not installed"
else
	rc=0
	MANWIDTH=80 man --warnings -l "$MAN_PAGE" >"$WORK/man.out" 2>"$WORK/man.err" || rc=$?
	problems=
	[ "$rc" -eq 0 ] || problem "exit status $rc"
	[ ! -s "$WORK/man.err" ] || problem "$(cat "$WORK/man.err")"
	grep -q 'SYNCPROBE' "$WORK/man.out" || problem "no SYNCPROBE header in what man printed"
	if [ -z "$problems" ]; then
		tap_ok "man -l of the installed page prints no warning"
	else
		tap_fail "man -l of the installed page prints no warning" "$problems"
	fi
fi

# The completion, where configure put it, defines syncprobe's completion
# once bash-completion has loaded it.
if [ -z "${BASH_COMPLETION_FILE:-}" ]; then
	tap_skip "the bash completion is installed" "configured without it"
elif ! command -v bash >/dev/null 2>&1 || [ ! -r /usr/share/bash-completion/bash_completion ]; then
	tap_check "the bash completion is installed" test -r "$BASH_COMPLETION_FILE"
	tap_skip "the installed completion defines syncprobe's" "bash-completion is not installed"
else
	tap_check "the bash completion is installed" test -r "$BASH_COMPLETION_FILE"
	got=$(bash -c '. /usr/share/bash-completion/bash_completion >/dev/null 2>&1
	    . "$1" && complete -p syncprobe' sh "$BASH_COMPLETION_FILE" 2>&1) || :
	tap_is "$got" "complete -F _syncprobe syncprobe" "the installed completion defines syncprobe's"
fi

tap_done
