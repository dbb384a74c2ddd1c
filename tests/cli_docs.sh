#!/bin/sh
# cli_docs.sh: the manual and the README cannot drift from the program.
# Every long option of --help, and of every command's --help, is an item of
# the man page's OPTIONS section and a line of the README's Options section,
# and those sections name no option that --help does not; the man page
# formats without a warning and fits 80 columns; the README's quick-start
# commands are the ones CI runs; EXIT STATUS gives 0, 1, 2 and 3; every
# command of the man page's EXAMPLES runs (shortened; pgbench on the fake
# server); no document says how long something takes, and the caps that
# HOW LONG EACH TEST RUNS states are the report header's.
#
# DOCS_MAN and DOCS_README may name other copies of the two files, so that
# each check can be seen to fail on a broken copy.
. "$top_srcdir/tests/lib.sh"

man_page=${DOCS_MAN:-$top_srcdir/man/syncprobe.1}
readme=${DOCS_README:-$top_srcdir/README}

quick_heading='Quick start (a fresh Debian machine, as root, in this directory)'
quick_build='    apt-get update && apt-get install -y gcc make autoconf automake && autoreconf -fi && ./configure && make && src/syncprobe'
quick_check='    make check'

# man_section NAME: the lines of the man page's section NAME, without its
# .SH line, with \- as - and font escapes removed.
man_section() {
	awk -v want="$1" '
		/^\.SH/ {
			name = $0
			sub(/^\.SH[ \t]*/, "", name)
			gsub(/"/, "", name)
			on = (name == want)
			next
		}
		on' "$man_page" |
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\f\[[^]]*\]//g'
}

# man_tags NAME: the tag of every .TP item in section NAME (the next line).
man_tags() {
	man_section "$1" | awk 'tag { print; tag = 0; next } /^\.TP/ { tag = 1 }' |
	sed -e 's/^\.[BI][RI]\{0,1\} //'
}

# readme_section HEADING: the lines under a heading of the README (a line
# at column 0) up to the next heading.
readme_section() {
	awk -v want="$1" '
		/^[^ \t]/ { on = ($0 == want); next }
		on' "$readme"
}

# option_lines: from lines spelled as --help spells an option
# ("  -s, --secs-per-test=DURATION ...", "      --file-size=SIZE ..."), the
# long option names, one a line, sorted.
option_lines() {
	sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' | sort -u
}

# option_pairs: the same lines as "SHORT LONG" (SHORT empty for a
# long-only option), sorted.
option_pairs() {
	sed -n 's/^ *\(-\([A-Za-z0-9]\), \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2 \3/p' | sort -u
}

# any_options: every --name anywhere in the input, sorted.
any_options() {
	awk '{
		while (match($0, /--[a-z][a-z0-9-]*/)) {
			print substr($0, RSTART + 2, RLENGTH - 2)
			$0 = substr($0, RSTART + RLENGTH)
		}
	}' | sort -u
}

# same_set DESC WANT GOT: pass when the two lists are equal, else say which
# names are missing from GOT and which GOT has in excess.
same_set() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
		return
	fi
	printf '%s\n' "$2" >"$WORK/want"
	printf '%s\n' "$3" >"$WORK/got"
	tap_fail "$1" "missing: $(comm -23 "$WORK/want" "$WORK/got" | tr '\n' ' ')
extra:   $(comm -13 "$WORK/want" "$WORK/got" | tr '\n' ' ')"
}

# subset DESC ALL SOME: pass when every name of SOME is in ALL.
subset() {
	printf '%s\n' "$2" >"$WORK/all"
	printf '%s\n' "$3" | sed '/^$/d' >"$WORK/some"
	extra=$(comm -13 "$WORK/all" "$WORK/some" | tr '\n' ' ')
	if [ -z "$extra" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "not in --help: $extra"
	fi
}

rc=0
"$SYNCPROBE" --help >"$WORK/help" || rc=$?
[ "$rc" -eq 0 ] || tap_fail "syncprobe --help exits 0" "exit status $rc"
# Every command's options count too: the commands are the lines of the
# Commands block of --help, up to the first word that is not a name.
commands=$(awk '/^Commands/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ {
		name = ""
		for (i = 1; i <= NF && $i ~ /^[a-z]+$/; i++)
			name = name (name == "" ? "" : " ") $i
		print name
	}' "$WORK/help")
if [ -n "$commands" ]; then
	tap_ok "--help lists the commands ($(printf '%s\n' "$commands" | tr '\n' ',' | sed 's/,$//'))"
else
	tap_fail "--help lists the commands" "no Commands block in --help"
fi
printf '%s\n' "$commands" | while IFS= read -r command; do
	# shellcheck disable=SC2086
	"$SYNCPROBE" help $command || echo "syncprobe help $command failed: $?" >&2
done >>"$WORK/help" 2>"$WORK/help_err"
tap_is "$(cat "$WORK/help_err")" "" "syncprobe help COMMAND exits 0 for every command"
help_options=$(option_lines <"$WORK/help")
help_pairs=$(option_pairs <"$WORK/help")
if [ -n "$help_options" ] && printf '%s\n' "$help_options" | grep -qx 'secs-per-test'; then
	tap_ok "--help lists its options ($(printf '%s\n' "$help_options" | wc -l | tr -d ' '))"
else
	tap_fail "--help lists its options" "no option lines found in --help"
fi

# (a) The man page's OPTIONS section: one item per option of --help, with
# the same short option, and no other option named anywhere in it.
if [ -r "$man_page" ]; then
	man_section OPTIONS >"$WORK/man_options"
	man_tags OPTIONS >"$WORK/man_tags"
	same_set "man OPTIONS has an item for each option of --help, and no other" \
	    "$help_options" "$(option_lines <"$WORK/man_tags")"
	same_set "man OPTIONS items pair short and long options as --help does" \
	    "$help_pairs" "$(option_pairs <"$WORK/man_tags")"
	subset "every option named in man OPTIONS exists in --help" \
	    "$help_options" "$(any_options <"$WORK/man_options")"
else
	tap_fail "man page $man_page is readable"
fi

# (a) The README's Options section: one line per option, spelled as --help
# spells it, and no other option named anywhere in it.
if [ -r "$readme" ]; then
	readme_section Options >"$WORK/readme_options"
	same_set "README Options has a line for each option of --help, and no other" \
	    "$help_options" "$(option_lines <"$WORK/readme_options")"
	same_set "README Options lines pair short and long options as --help does" \
	    "$help_pairs" "$(option_pairs <"$WORK/readme_options")"
	subset "every option named in README Options exists in --help" \
	    "$help_options" "$(any_options <"$WORK/readme_options")"
else
	tap_fail "README $readme is readable"
fi

# (b) The man page formats without a warning, and fits the 78 columns man
# gives the text in an 80-column terminal (an .EX block is not wrapped).
if ! command -v groff >/dev/null 2>&1; then
	tap_skip "groff -man -ww prints no warning" "groff is not installed"
	tap_skip "groff -man -ww at 80 columns prints no warning" "groff is not installed"
	tap_skip "the man page fits 80 columns" "groff is not installed"
elif [ -n "$(printf '.TH T 1\n.SH NAME\nt \\- t\n' | groff -man -ww -z 2>&1)" ]; then
	tap_skip "groff -man -ww prints no warning" "groff does not work here"
	tap_skip "groff -man -ww at 80 columns prints no warning" "groff does not work here"
	tap_skip "the man page fits 80 columns" "groff does not work here"
else
	tap_is "$(groff -man -ww -z "$man_page" 2>&1)" "" "groff -man -ww prints no warning"
	# As man shows it on an 80-column terminal (MANWIDTH=80), where a
	# line of long names cannot be adjusted (installcheck's man -l).
	tap_is "$(groff -man -Tascii -rLL=78n -ww -z "$man_page" 2>&1)" "" \
	    "groff -man -ww at 80 columns prints no warning"
	wide=$(groff -man -Tascii -rLL=78n -P-cbou "$man_page" 2>/dev/null |
	    awk 'length > 78 { print NR ": " $0 }')
	tap_is "$wide" "" "the man page fits 80 columns"
fi

# (c) The quick start: exactly the two commands, in order, under the
# heading CI looks for; and they are the first lines CI's own search
# (.ci/run: grep '^    apt-get update ', grep '^    make check$') finds.
quick=$(readme_section "$quick_heading" | { grep '^    ' || true; })
tap_is "$quick" "$quick_build
$quick_check" "README quick start has exactly the two commands, in order"
tap_is "$({ grep -E '^    apt-get update ' "$readme" || true; } | head -n 1)" "$quick_build" \
    "the first README line CI takes as the build command is the quick start's"
tap_is "$({ grep -E '^    make check$' "$readme" || true; } | head -n 1)" "$quick_check" \
    "the first README line CI takes as the test command is the quick start's"

# (e) WARNINGS has an item for each code of the warning table, and no other.
same_set "man WARNINGS has an item for each warning code, and no other" \
    "$(warning_codes | tr -d '[]"' | tr ',' '\n' | sort)" \
    "$(man_tags WARNINGS | sed -e 's/^\.B //' | sort)"

# (f) The probe's sample output in the README, and the man page's text
# examples, have the shape of a real report: its section titles, column
# headings, row names, setting names and headings, in the same order (the
# figures, the machine's facts and the warnings are the run's own; "..."
# marks lines left out). The paced row's method is the platform's
# default, so it is compared as M.
# report_shape: those lines of a text report on stdin.
report_shape() {
	awk '
		/^\.\.\.$/ { next }
		function name_of(line) {
			sub(/  +([0-9].*|n\/a)$/, "", line)
			return line
		}
		/^\(figures in usecs/ { print title; print; table = 1; head = 1; next }
		table && head { gsub(/  */, " "); print; head = 0; next }
		table && /^$/ { table = 0 }
		table && /^[^ (]/ { line = name_of($0); sub(/^[a-z_]*, 100\/s paced$/, "M, 100/s paced", line); print line; next }
		/^(Advice|What to set)$/ { print; next }
		/^  [a-z_]* = / { sub(/ = .*/, " ="); print; next }
		{ title = $0 }
	'
}
# readme_sample: the README's sample report of the probe, its two-space
# indent removed: from its first line to the end of its What to set.
readme_sample() {
	awk '
		/^Sample output$/ { on = 1; next }
		on && /^[^ ]/ { exit }
		on && /^  syncprobe [0-9]/ { report = 1 }
		report && /^  What to set$/ { last = 1 }
		report && last && /^$/ { exit }
		on && report { sub(/^  /, ""); print }
	' "$readme"
}
# in_order SHAPE REAL: every line of the file SHAPE is a line of the file
# REAL, in the same order.
in_order() {
	awk 'NR == FNR { want[++n] = $0; next } i < n && $0 == want[i + 1] { i++ }
	    END { exit !(n > 0 && i == n) }' "$1" "$2"
}
# man_examples: the man page's examples of the text report, unescaped.
man_examples() {
	awk '
		/^\.EX/ { ex = 1; first = 1; next }
		/^\.EE/ { ex = 0; keep = 0; next }
		ex && first { first = 0; keep = ($0 ~ /^(Compare file sync methods|What to set$)/) }
		ex && keep { gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047"); print }
	' "$man_page"
}
mkdir -p "$WORK/sample"
"$SYNCPROBE" -n 5 --file-size 1M "$WORK/sample" >"$WORK/sample.txt" 2>/dev/null || true
report_shape <"$WORK/sample.txt" >"$WORK/real.shape"
readme_sample | report_shape >"$WORK/readme.shape"
tap_check "a real report has a shape to compare with" test -s "$WORK/real.shape"
tap_check "the README's sample output has a real report's titles, rows and settings, in order" \
    in_order "$WORK/readme.shape" "$WORK/real.shape"
man_examples | report_shape >"$WORK/man.shape"
tap_check "the man page's text examples have a real report's lines, in order" \
    in_order "$WORK/man.shape" "$WORK/real.shape"

# (d) EXIT STATUS gives each status as an item.
statuses=$(man_tags "EXIT STATUS" | sed -e 's/^\.B //' | { grep -x '[0-9]' || true; } | tr '\n' ' ')
tap_is "$statuses" "0 1 2 3 " "man EXIT STATUS has items 0, 1, 2 and 3"


# (g) The man page's EXAMPLES run. Each command of an .EX block that
# starts with "syncprobe" (or "ssh HOST syncprobe", run here) runs in
# order, in one directory, so that the saved reports and acknowledgements
# of one example are there for the next: shortened by options added after
# its own (-n, a short --for, a one-second pgbench on the fake PostgreSQL
# of tests/fakepg), which still parses every value it gives, with its
# /srv, /mnt and /var paths under $WORK/root. Each must exit 0 and print
# something, and leave no test file; one that pipes into a tool this
# machine lacks, or needs a user it lacks, is skipped.

# example_commands: the commands of the EXAMPLES section, one a line,
# unescaped; an indented line, or one after a backslash, continues the
# command above it.
example_commands() {
	man_section EXAMPLES | awk '
		function flush() { if (cmd != "") print cmd; cmd = "" }
		/^\.EX/ { ex = 1; next }
		/^\.EE/ { flush(); ex = 0; next }
		!ex { next }
		{
			gsub(/\\\(aq/, "\047"); gsub(/\\e/, "\\")
			line = $0
			if (line ~ /^[ \t]/ && cmd != "") {
				sub(/^[ \t]+/, "", line)
				cmd = cmd " " line
			} else {
				flush()
				cmd = line
			}
			sub(/ \\$/, "", cmd)
		}
		END { flush() }'
}

# shorten: an example's command on stdin, made short for make check: run
# here rather than over ssh, with options that make it short. An option
# may be given once only, so one the example gives already has its value
# replaced in place (the example's own value is written to
# $WORK/replaced, "COMMAND<tab>OPTION<tab>VALUE", for check_replaced to
# parse); the others are appended (options may follow the operands). Its
# paths are moved under $ROOT.
shorten() {
	awk -v fakepg="$FAKE" -v pguser="$PG_USER_OPT" -v replaced="$WORK/replaced" '
	function put(opt, val) { nput++; po[nput] = opt; pv[nput] = val }
	{
		line = $0
		sub(/^ssh [^ ]+ /, "", line)
		# The invocation ends at the first pipe, redirection or &&.
		rest = ""
		if (match(line, / [|<>&]/)) {
			rest = substr(line, RSTART)
			line = substr(line, 1, RSTART - 1)
		}
		n = split(line, w, " ")
		cmd = "probe"
		if (w[2] ~ /^(watch|pgbench|compare)$/) cmd = w[2]
		if (w[2] == "durability") cmd = w[2] " " w[3]
		nput = 0
		if (cmd == "probe") {
			# -s with -n is refused: a short -s where it gives one.
			groups = ""; timed = 0
			for (k = 2; k < n; k++) {
				if (w[k] == "-t" || w[k] == "--tests") groups = w[k + 1]
				if (w[k] ~ /^(-s|--secs-per-test)/) timed = 1
			}
			if (timed) put("-s", "0.01"); else put("-n", "5")
			# A small file where one is made; two delays and no
			# deciding rounds where -t group runs.
			if (groups != "etcd") put("--file-size", "256k")
			if (groups ~ /(^|,)(group|all)(,|$)/) {
				put("--commit-delays", "0,10"); put("--decide", "0")
			}
		} else if (cmd == "watch") {
			put("--for", "0.3"); put("--interval", "0.1")
		} else if (cmd == "pgbench") {
			# Two clients: the default siblings (5) never delay there,
			# so that delay 0 alone runs.
			put("-n", "5"); put("--no-group", ""); put("-T", "1")
			put("--repeats", "2"); put("--clients", "2")
			put("--commit-delays", "0,10"); put("--pg-bin", fakepg)
		} else if (cmd == "durability write") {
			put("-n", "5"); put("--file-size", "64k")
		}
		for (j = 1; j <= nput; j++) {
			done = 0
			for (k = 2; k <= n && !done; k++) {
				if (w[k] == po[j]) {
					done = 1
					if (pv[j] == "" || k == n)
						continue
					printf "%s\t%s\t%s\n", cmd, po[j], w[k + 1] >>replaced
					w[k + 1] = pv[j]
				} else if (index(w[k], po[j] "=") == 1) {
					done = 1
					printf "%s\t%s\t%s\n", cmd, po[j],
					    substr(w[k], length(po[j]) + 2) >>replaced
					w[k] = po[j] "=" pv[j]
				}
			}
			if (done)
				continue
			if (pv[j] == "")
				add = add " " po[j]
			else if (po[j] ~ /^--/)
				add = add " " po[j] "=" pv[j]
			else
				add = add " " po[j] " " pv[j]
		}
		out = w[1]
		for (k = 2; k <= n; k++)
			out = out " " w[k]
		if (cmd == "pgbench")
			add = add pguser
		print out add rest
		add = ""
	}' | sed -e "s#\\([ =<>]\\)/srv/#\\1$ROOT/srv/#g" -e "s#\\([ =<>]\\)/mnt/#\\1$ROOT/mnt/#g" \
	    -e "s#\\([ =<>]\\)/var/#\\1$ROOT/var/#g"
}

# check_replaced: each value an example gave that shorten replaced is
# still parsed: given alone, on a directory that does not exist, the run
# is refused for the directory, never for the value (a '--for 10m' fails:
# 'm' is no unit).
check_replaced() {
	[ -s "$WORK/replaced" ] || return 0
	while IFS='	' read -r cr_cmd cr_opt cr_value; do
		cr_words=
		[ "$cr_cmd" = probe ] || cr_words=$cr_cmd
		# shellcheck disable=SC2086 # the command's words, split
		"$SYNCPROBE" $cr_words "$cr_opt" "$cr_value" "$WORK/no-such-dir" \
		    >/dev/null 2>"$WORK/replaced.err" </dev/null || :
		if grep -q "no-such-dir" "$WORK/replaced.err"; then
			tap_ok "man EXAMPLES: the replaced value $cr_opt $cr_value is accepted"
		else
			tap_fail "man EXAMPLES: the replaced value $cr_opt $cr_value is accepted" \
			    "$(head -c 600 "$WORK/replaced.err")"
		fi
	done <"$WORK/replaced"
}

# example_paths LINE: make the directories LINE names under $ROOT: each
# path is a directory, or a file (a name with a dot) in one.
example_paths() {
	for ep_word in $1; do
		ep_path=${ep_word#*=}
		case $ep_path in
		"$ROOT"/*) ;;
		*) continue ;;
		esac
		case ${ep_path##*/} in
		*.*) mkdir -p "${ep_path%/*}" ;;
		*) mkdir -p "$ep_path" ;;
		esac
	done
}

ROOT=$WORK/root
FAKE=$WORK/fakepg
cp -R "$top_srcdir/tests/fakepg" "$FAKE"
chmod -R a+rX,u+w "$FAKE"
PG_USER_OPT=
no_pg_user=
if [ "$(id -u)" -eq 0 ]; then
	if id postgres >/dev/null 2>&1; then
		PG_USER_OPT=" --pg-user postgres"
	else
		no_pg_user="as root, pgbench needs a user postgres to run the server as"
	fi
fi
SYNCPROBE_FAKEPG_PIDS=$WORK/fakepg.pids
: >"$SYNCPROBE_FAKEPG_PIDS"
chmod 666 "$SYNCPROBE_FAKEPG_PIDS"
export SYNCPROBE_FAKEPG_PIDS
mkdir -p "$WORK/bin" "$WORK/examples" "$ROOT"
ln -s "$SYNCPROBE" "$WORK/bin/syncprobe"
example_commands >"$WORK/examples.txt"
ran=
while IFS= read -r example; do
	case $example in
	"syncprobe "* | "ssh "*" syncprobe "*) ;;
	*) continue ;;
	esac
	short=$(printf '%s\n' "$example" | shorten)
	why=
	for tool in jq; do
		case $short in
		*"| $tool "*) command -v $tool >/dev/null 2>&1 || why="$tool is not installed" ;;
		esac
	done
	case $short in
	*"syncprobe pgbench "*) [ -z "$no_pg_user" ] || why=$no_pg_user ;;
	esac
	if [ -n "$why" ]; then
		tap_skip "man EXAMPLES runs: $example" "$why"
		continue
	fi
	example_paths "$short"
	rc=0
	(cd "$WORK/examples" && PATH="$WORK/bin:$PATH" sh -c "$short") \
	    >"$WORK/example.out" 2>"$WORK/example.err" </dev/null || rc=$?
	problems=
	[ "$rc" -eq 0 ] || problem "exit status $rc: $(head -c 600 "$WORK/example.err")"
	# What it prints, unless it goes to a file or a filter (jq's select
	# may rightly print nothing); a filter that prints only null asks for
	# a key the report does not have.
	case $short in
	*" > "* | *" | "*) ;;
	*) [ -s "$WORK/example.out" ] || problem "it printed nothing" ;;
	esac
	if [ -s "$WORK/example.out" ] && ! grep -qvx 'null' "$WORK/example.out"; then
		problem "it printed only null: a key the JSON does not have?"
	fi
	left=$(find "$ROOT" -name '.syncprobe*' -print)
	[ -z "$left" ] || problem "it left $left"
	if [ -z "$problems" ]; then
		tap_ok "man EXAMPLES runs: $example"
	else
		tap_fail "man EXAMPLES runs: $example" "ran: $short$nl$problems"
	fi
	ran="$ran$nl$example"
done <"$WORK/examples.txt"
check_replaced
# Every command, test group and picture has an example.
missing=
for want in 'syncprobe /' 'syncprobe .*-t group' 'syncprobe .*-t etcd' 'syncprobe compare ' \
    'syncprobe durability write ' 'syncprobe durability verify ' 'syncprobe watch ' \
    'syncprobe pgbench ' 'syncprobe .*-F svg' 'syncprobe compare .*-F svg' \
    'syncprobe pgbench .*-F svg'; do
	grep -q -- "$want" "$WORK/examples.txt" || missing="$missing '$want'"
done
tap_is "$missing" "" "man EXAMPLES has the probe, -t group, -t etcd, compare, durability write and verify, watch, pgbench, and -F svg of the probe, compare and pgbench"

# (h) No document states a duration the code does not derive. A phrase
# saying how long something takes ("about 9 seconds", "takes 12 s", "lasts
# 2 minutes") is refused in README, HACKING, bench/README and the man
# page: such figures go stale unnoticed (the length of a run depends on
# the disk and the load; the program prints it, and bench/*.sh --estimate
# computes it). Latencies (us, ms) are measured figures, not lengths. The durations of HOW LONG EACH TEST
# RUNS must be the caps the report's header gives, as the code writes it
# (tests/golden/text-adaptive.txt, which tests/test_reports compares with
# the code's own output).

# duration_phrases FILE...: "FILE: PHRASE" for each such phrase, the
# files' lines joined (a phrase may be wrapped), roff escapes removed.
duration_phrases() {
	for dp_file in "$@"; do
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(..//g' -e 's/^\.[A-Z][A-Z]* //' "$dp_file" |
		awk -v file="${dp_file#"$top_srcdir"/}" '
		{ text = text " " $0 }
		END {
			text = text " "
			gsub(/[ \t]+/, " ", text)
			t = tolower(text)
			re = "(about|around|roughly|takes|take|took about|lasts|last) (at most |up to |under |over |only |nearly )?~?[0-9][0-9.,]* ?(s|sec|secs|seconds|second|min|mins|minutes|minute|hours|hour|days|day)[^a-z0-9]"
			while (match(t, re)) {
				print file ": " substr(text, RSTART, RLENGTH - 1)
				t = substr(t, RSTART + RLENGTH)
				text = substr(text, RSTART + RLENGTH)
			}
		}'
	done
}
for f in "${DOCS_README:-$top_srcdir/README}" "$top_srcdir/HACKING" "$top_srcdir/bench/README" "$man_page"; do
	[ -r "$f" ] || tap_fail "$f is readable"
done
tap_is "$(duration_phrases "$readme" "$top_srcdir/HACKING" "$top_srcdir/bench/README" "$man_page")" "" \
    "no document says how long something takes (README, HACKING, bench/README, the man page)"
# durations: the durations on stdin (1s, 500ms, 0.15 s...), in seconds,
# one a line, sorted and unique.
durations() {
	tr -s ' \n' '  ' | sed -e 's/\([0-9]\) \(s[^a-z]\)/\1\2/g' -e 's/\([0-9]\) \(ms[^a-z]\)/\1\2/g' \
	    -e 's/\([0-9]\) \(us[^a-z]\)/\1\2/g' | awk '{
		while (match($0, /[0-9][0-9.]*(us|ms|s)([^a-z0-9]|$)/)) {
			d = substr($0, RSTART, RLENGTH)
			sub(/[^a-z0-9.]$/, "", d)
			v = d; sub(/[a-z]+$/, "", v)
			u = d; sub(/^[0-9.]+/, "", u)
			printf "%g\n", v / (u == "us" ? 1e6 : u == "ms" ? 1e3 : 1)
			$0 = substr($0, RSTART + RLENGTH)
		}
	}' | sort -u
}
header_caps=$(sed -n '2,5p' "$top_srcdir/tests/golden/text-adaptive.txt" | durations)
stated=$(man_section "HOW LONG EACH TEST RUNS" | durations)
tap_check "HOW LONG EACH TEST RUNS states caps ($(echo $stated))" test -n "$stated"
subset_of_caps=$(printf '%s\n' "$stated" | { grep -vxF "$header_caps" || true; })
tap_is "$subset_of_caps" "" "every duration of HOW LONG EACH TEST RUNS is a cap the report's header gives ($(echo $header_caps))"

tap_done
