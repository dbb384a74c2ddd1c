#!/bin/sh
# cli_commands.sh: the commands. The first argument picks one; each takes
# only its own options and refuses another's naming where it applies
# (tests/test_cli.c tries every pair from the tables; here are the exact
# messages of the cases issue 18 reproduced); --help of a command shows
# its options only; the old option spellings name their command.
. "$top_srcdir/tests/lib.sh"

dir=$WORK/target
mkdir "$dir"

# --- Options of another command, or of a group not chosen.
for opt in --clients=4 "--commit-siblings 7" --histogram --label=x; do
	name=${opt%%[= ]*}
	where="syncprobe -t group, syncprobe pgbench"
	case $name in --histogram|--label) where=syncprobe ;; esac
	# shellcheck disable=SC2086
	refused_exactly "syncprobe: $name: not an option of syncprobe durability write (only of $where)" \
	    "$dir" durability write $opt "$dir"
done
refused_exactly "syncprobe: --format 'openmetrics': unknown value (choose text, json: the verifier's report)" \
    "$dir" durability verify --acks=- -F openmetrics "$dir"
for size in 8k 16k; do
	refused_exactly "syncprobe: --block-size: not an option of syncprobe durability verify (only of syncprobe, syncprobe durability write, syncprobe watch)" \
	    "$dir" durability verify --acks=- --block-size=$size "$dir"
done
refused_exactly "syncprobe: --format: not an option of syncprobe durability write (only of syncprobe, syncprobe compare, syncprobe durability verify, syncprobe watch, syncprobe pgbench)" \
    "$dir" durability write -F json "$dir"
refused_exactly "syncprobe: --secs-per-test: not an option of syncprobe durability write (only of syncprobe)" \
    "$dir" durability write -s 1 "$dir"

# --- An empty operand ("$DIR" with DIR unset) is named as such, in every
# command, not as the system's error for a name of no characters.
want_dir="syncprobe: an empty operand: give a directory's name"
refused_exactly "$want_dir" "$dir" -n 1 ""
refused_exactly "$want_dir" "$dir" -n 1 "$dir" ""
refused_exactly "$want_dir" "$dir" watch --for 1 ""
refused_exactly "$want_dir" "$dir" durability write -n 1 ""
refused_exactly "$want_dir" "$dir" durability verify --acks=- ""
refused_exactly "$want_dir" "$dir" pgbench ""
refused_exactly "syncprobe: an empty operand: give a file's name" "$dir" compare "" "$dir/x.json"
refused_exactly "syncprobe: an empty operand: give a command's name" "$dir" help ""
refused_exactly "syncprobe: --acks: not an option of syncprobe (only of syncprobe durability verify)" \
    "$dir" --acks=x "$dir"
refused_exactly "syncprobe: --for: not an option of syncprobe (only of syncprobe durability write, syncprobe watch)" \
    "$dir" --for=1s "$dir"

# --- The writer's limits, from what it needs: two blocks.
refused_exactly "syncprobe: --file-size '8kB': too small for the durability file's header and one record (at least 16kB)" \
    "$dir" durability write --file-size=8k "$dir"
refused_exactly "syncprobe: --file-size '16kB': too small for the durability file's header and one record (at least 32kB)" \
    "$dir" durability write -b 16k --file-size=16k "$dir"
run durability write -q -n 2 -b 4k --file-size=8k "$dir"
tap_is "$rc" 0 "durability write -b 4k --file-size=8k: two blocks are enough"
rm -f "$dir/syncprobe-durability"
refused_exactly "syncprobe: --file-size '128GB': too large (at most 64GB)" \
    "$dir" durability write --file-size=128G "$dir"
refused_exactly "syncprobe: --direct 'both': unknown value (choose on, off: the writer writes one way)" \
    "$dir" durability write --direct=both "$dir"
refused_exactly "syncprobe: --methods: the writer uses one method (name one)" \
    "$dir" durability write -m fsync,fdatasync "$dir"
# all is every method, not one: refused, not taken for the default.
refused_exactly "syncprobe: --methods: the writer uses one method (name one)" \
    "$dir" durability write -m all "$dir"
refused_exactly "syncprobe: durability write: takes one DIR (or -f FILE)" \
    "$dir" durability write "$dir" "$dir"
refused_exactly "syncprobe: durability verify: needs --acks=FILE (the writer's standard output)" \
    "$dir" durability verify "$dir"

# --- The old spellings name the command that replaced them.
refused_exactly "syncprobe: --durability: is now a command: syncprobe durability write [OPTION]... [DIR]" \
    "$dir" --durability=write "$dir"
refused_exactly "syncprobe: --durability: is now a command: syncprobe durability verify --acks=FILE [OPTION]... [DIR]" \
    "$dir" -q --durability verify --acks=x "$dir"
refused_exactly "syncprobe: --durability: is now a command: syncprobe durability, with write or verify after it" \
    "$dir" --durability=x "$dir"
refused_exactly "syncprobe: --compare: is now a command: syncprobe compare [OPTION]... REPORT.json..." \
    "$dir" --compare x.json
refused_exactly "syncprobe: --compare: is now a command: syncprobe compare [OPTION]... REPORT.json..." \
    "$dir" --compare=1 x.json
refused_exactly "syncprobe: --durability: is now a command: syncprobe durability, with write or verify after it" \
    "$dir" --durability

# --- A command's first word alone, or with a word it does not know.
refused_exactly "syncprobe: durability: needs write or verify after it (see syncprobe help durability)" \
    "$dir" durability
refused_exactly "syncprobe: durability: needs write or verify after it (see syncprobe help durability)" \
    "$dir" durability wrtie "$dir"
refused_exactly "syncprobe: help: no command 'nope' (see syncprobe --help)" "$dir" help nope

# --- Help: a command's own options only.
"$SYNCPROBE" --help >"$WORK/help"
tap_check "--help lists the commands" grep -q '^  durability verify --acks=FILE' "$WORK/help"
tap_check "--help lists the probe's options" grep -q '^  -t, --tests=LIST' "$WORK/help"
tap_check "--help lists no option of another command" sh -c '! grep -q -- "--acks=FILE  \|--remove " "$1"' - "$WORK/help"
"$SYNCPROBE" help >"$WORK/help2"
tap_check "syncprobe help is syncprobe --help" cmp -s "$WORK/help" "$WORK/help2"
"$SYNCPROBE" compare --help >"$WORK/c1"
"$SYNCPROBE" help compare >"$WORK/c2"
tap_check "compare --help is help compare" cmp -s "$WORK/c1" "$WORK/c2"
tap_is "$(grep -c '^ *-' "$WORK/c1")" 2 "compare --help shows its two options (-F, -h)"
tap_check "compare --help: its usage" grep -q '^Usage: syncprobe compare \[OPTION\]... REPORT.json...$' "$WORK/c1"
"$SYNCPROBE" durability verify --help >"$WORK/v"
tap_is "$(sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p' "$WORK/v" | tr '\n' ' ')" \
    "acks filename remove format help " "durability verify --help: its options only"
"$SYNCPROBE" durability --help >"$WORK/d1"
"$SYNCPROBE" help durability >"$WORK/d2"
tap_check "durability --help is help durability" cmp -s "$WORK/d1" "$WORK/d2"
tap_is "$(grep -c '^Usage: ' "$WORK/d1")" 2 "help durability shows write and verify"

tap_done
