#!/bin/sh
# cli_docs.sh: the manual and the README cannot drift from the program.
# Every long option of --help, and of every command's --help, is an item of
# the man page's OPTIONS section and a line of the README's Options section, and those sections name no
# option that --help does not; the man page formats without a warning and
# fits 80 columns; the README's quick-start commands are the ones CI runs;
# EXIT STATUS gives 0, 1, 2 and 3.
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
	tap_skip "the man page fits 80 columns" "groff is not installed"
elif [ -n "$(printf '.TH T 1\n.SH NAME\nt \\- t\n' | groff -man -ww -z 2>&1)" ]; then
	tap_skip "groff -man -ww prints no warning" "groff does not work here"
	tap_skip "the man page fits 80 columns" "groff does not work here"
else
	tap_is "$(groff -man -ww -z "$man_page" 2>&1)" "" "groff -man -ww prints no warning"
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

tap_done
