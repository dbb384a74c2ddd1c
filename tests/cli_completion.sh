#!/bin/sh
# cli_completion.sh: the bash completion the build wrote ($COMPLETION),
# sourced after bash-completion, offers what syncprobe takes: every long
# option of each command's --help and no other, each choice's values as
# the parser names them when it refuses a value (-t's groups, -m's
# methods, -F's formats...), the commands, directories for targets and
# files for compare. COMP_WORDS is split as bash splits it (at "=").
# Skips without bash or bash-completion.
. "$top_srcdir/tests/lib.sh"

: "${COMPLETION:?COMPLETION must name the generated completion script}"

tap_require bash
bc=${BASH_COMPLETION_SCRIPT:-}
if [ -z "$bc" ]; then
	for f in /usr/share/bash-completion/bash_completion \
	    /usr/local/share/bash-completion/bash_completion /etc/bash_completion; do
		[ -r "$f" ] && { bc=$f; break; }
	done
fi
if [ -z "$bc" ]; then
	echo "1..0 # SKIP bash-completion is not installed"
	exit 0
fi

# offered WORD...: what completing the last WORD of "syncprobe WORD..."
# offers, one a line, sorted; run in $WORK/files.
offered() {
	(cd "$WORK/files" && bash -c '
		. "$1" >/dev/null 2>&1; . "$2" || exit 9
		shift 2
		# No completion is running: compopt (no space after "--tests=")
		# would complain, and changes nothing that is checked here.
		compopt() { :; }
		COMP_WORDS=(syncprobe "$@")
		COMP_CWORD=$#
		# bash split "--tests=x" as "--tests" "=" "x": no space in the line.
		COMP_LINE=syncprobe last=
		for w in "$@"; do
			if [[ $w == = || $last == = ]]; then COMP_LINE+=$w; else COMP_LINE+=" $w"; fi
			last=$w
		done
		COMP_POINT=${#COMP_LINE}
		_syncprobe syncprobe "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' sh "$bc" "$COMPLETION" "$@") | sed '/^$/d' | sort
}

# lines WORD...: the words, one a line, sorted.
lines() {
	printf '%s\n' "$@" | sed '/^$/d' | sort
}

# refused_values ARGS...: the values the parser names when it refuses a
# value ("(choose both, on, off)", "(tests are one, two, ..., all)"), one
# a line, sorted.
refused_values() {
	"$SYNCPROBE" "$@" 2>&1 >/dev/null |
	    sed -e 's/.*(\(.*\))$/\1/' -e 's/^[a-z]* are //' -e 's/^choose //' -e 's/:.*//' |
	    tr ',' '\n' | sed -e 's/^ *//' -e '/^$/d' | sort
}

# help_longs ARGS...: the long options of syncprobe ARGS --help, sorted.
help_longs() {
	"$SYNCPROBE" "$@" --help |
	    sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' | sort -u
}

# offers GOT WANT DESC: GOT is WANT, and WANT is not empty (a parse of
# --help or of a message that found nothing must not pass).
offers() {
	if [ -z "$2" ]; then
		tap_fail "$3" "nothing to compare with: the expected list is empty"
	else
		tap_is "$1" "$2" "$3"
	fi
}

mkdir -p "$WORK/files/rdir" "$WORK/files/rdir2"
: >"$WORK/files/r1.json"
: >"$WORK/files/r2.json"

tap_check "the completion script is bash" bash -n "$COMPLETION"
tap_is "$(bash -c '. "$1" >/dev/null 2>&1; . "$2"; complete -p syncprobe' sh "$bc" "$COMPLETION")" \
    "complete -F _syncprobe syncprobe" "it completes syncprobe with its own function"

# The commands, from the probe's --help (its Commands section).
commands=$("$SYNCPROBE" --help | awk '
	/^Commands/ { on = 1; next }
	on && /^$/ { exit }
	on && /^  [a-z]/ {
		name = ""
		for (i = 1; i <= NF && $i ~ /^[a-z]+$/; i++)
			name = name (name == "" ? "" : " ") $i
		print name
	}')
tap_check "the probe's --help lists commands" [ -n "$commands" ]

# Every command's long options, and no others, as its --help has them.
printf '%s\n' "" "$commands" >"$WORK/commands"
while IFS= read -r cmd; do
	# shellcheck disable=SC2086 # the command's words
	want=$(help_longs $cmd)
	got=$(offered $cmd -- | sed -e 's/^--//' -e 's/=$//')
	offers "$got" "$want" "syncprobe ${cmd:+$cmd }--<TAB> offers the long options of its --help"
done <"$WORK/commands"

offers "$(offered -t '')" "$(refused_values -t nosuch)" \
    "syncprobe -t <TAB> offers the test groups -t takes"
offers "$(offered --tests = '')" "$(refused_values -t nosuch)" \
    "syncprobe --tests=<TAB> offers them too"
offers "$(offered -t one,t)" "$(lines one,two)" \
    "syncprobe -t one,t<TAB> completes the list's last item"
# What was typed before the last item comes back as typed: never expanded
# as a pattern (a file x,one matched *,one) nor split at a space.
: >"$WORK/files/x,one"
offers "$(offered -t '*,o')" "$(lines '*,one')" \
    "syncprobe -t '*,o'<TAB> keeps the * as typed (no file name offered)"
offers "$(offered -t 'a b,o')" "$(lines 'a b,one')" \
    "syncprobe -t 'a b,o'<TAB> is one word, not split at the space"
rm -f "$WORK/files/x,one"
offers "$(offered -m '')" "$(refused_values -m nosuch)" "syncprobe -m <TAB> offers the methods"
offers "$(offered -F '')" "$(refused_values -F nosuch)" "syncprobe -F <TAB> offers the formats"
offers "$(offered --direct = '')" "$(refused_values --direct=nosuch)" \
    "syncprobe --direct=<TAB> offers its values"
offers "$(offered --pattern = '')" "$(refused_values --pattern=nosuch)" \
    "syncprobe --pattern=<TAB> offers its values"
offers "$(offered --wal-sync-method = '')" "$(refused_values --wal-sync-method=nosuch)" \
    "syncprobe --wal-sync-method=<TAB> offers the methods"
offers "$(offered durability write --direct = '')" \
    "$(refused_values durability write --direct=nosuch)" \
    "syncprobe durability write --direct=<TAB> offers the writer's values"
offers "$(offered durability verify -F '')" "$(refused_values durability verify -F nosuch)" \
    "syncprobe durability verify -F <TAB> offers the verifier's formats"
offers "$(offered compare -F '')" "$(refused_values compare -F nosuch)" \
    "syncprobe compare -F <TAB> offers its formats"
offers "$(offered pgbench -F '')" "$(refused_values pgbench -F nosuch)" \
    "syncprobe pgbench -F <TAB> offers its formats"
tap_check "svg is offered where it is written: the probe, compare and pgbench" \
    sh -c '[ "$(printf "%s\n" "$1" "$2" "$3" | grep -c "^svg$")" -eq 3 ] &&
	! printf "%s\n" "$4" | grep -q "^svg$"' sh "$(offered -F '')" \
    "$(offered compare -F '')" "$(offered pgbench -F '')" "$(offered durability verify -F '')"

first_words=$(printf '%s\n' "$commands" | sed 's/ .*//' | sort -u)
offers "$(offered '' | grep -v '^rdir')" "$first_words" \
    "syncprobe <TAB> offers the commands (and directories)"
offers "$(offered durability '')" "$(printf '%s\n' "$commands" | sed -n 's/^durability //p' | sort)" \
    "syncprobe durability <TAB> offers its second words"
offers "$(offered -q r)" "$(lines rdir rdir2)" "a probe target completes to directories only"
offers "$(offered compare r)" "$(lines r1.json r2.json rdir rdir2)" \
    "compare completes to files"
offers "$(offered -f r)" "$(lines r1.json r2.json rdir rdir2)" "-f FILE completes to files"
offers "$(offered help '')" "$first_words" "syncprobe help <TAB> offers the commands"

tap_done
