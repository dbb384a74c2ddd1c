#!/bin/sh
# cli_svg.sh: -F svg writes one picture that XML tools accept and a
# renderer draws in colour: every golden picture (tests/golden/*.svg, which
# tests/test_reports and tests/test_watch_svg write) and those of real runs: the probe with two
# targets, -t group, and compare. A label, a target's path and a saved
# report's strings holding markup, quotes and control bytes are text in the
# picture: escaped, never markup, never a byte XML forbids. (syncprobe
# pgbench -F svg: tests/cli_pgbench.sh, on its fake server.)
# xmllint (libxml2-utils) and rsvg-convert (librsvg2-bin) and python3 for
# tests/png_colours.py: each check that needs one is skipped without it
# (picture_ok and drawn_in_colour, tests/lib.sh).
. "$top_srcdir/tests/lib.sh"

# Every golden picture.
for f in "$top_srcdir"/tests/golden/*.svg; do
	picture_ok "golden $(basename "$f")" "$f"
	drawn_in_colour "golden $(basename "$f")" "$f"
done

# The probe, two targets side by side.
mkdir "$WORK/a" "$WORK/b"
run -F svg $FAST --rounds 1 -t one,two -m fdatasync,fsync "$WORK/a" "$WORK/b"
tap_is "$rc $(cat "$WORK/err")" "0 " "the probe -F svg: exits 0, nothing on stderr"
cp "$WORK/out" "$WORK/probe.svg"
picture_ok "the probe, two targets" "$WORK/probe.svg"
drawn_in_colour "the probe, two targets" "$WORK/probe.svg"
problems=
grep -q '>Compare file sync methods using two 8kB writes<' "$WORK/probe.svg" ||
    problem "no group titled"
grep -q '>target 2<' "$WORK/probe.svg" || problem "no legend for target 2"
grep -q ' advised<' "$WORK/probe.svg" || problem "no row marked advised"
grep -q '>What to set for target 1<' "$WORK/probe.svg" || problem "no settings"
[ -z "$problems" ] && tap_ok "the probe -F svg: groups, targets, the advice" ||
    tap_fail "the probe -F svg: groups, targets, the advice" "$problems"

# -t group: commits/s against commit_delay.
run -F svg $FAST -t group --clients 1,2 --rounds 2 "$WORK/a"
tap_is "$rc" 0 "-t group -F svg: exits 0"
cp "$WORK/out" "$WORK/group.svg"
picture_ok "-t group" "$WORK/group.svg"
tap_check "-t group -F svg: the half rule marked" grep -q '>half rule: d/2 = ' "$WORK/group.svg"

# A label and a target holding markup, quotes and control bytes.
C1=$(printf '\001')
ESC=$(printf '\033')
FF=$(printf '\377')
hostile_dir="$WORK/<script>&\"'$C1$ESC[2J$FF"
mkdir "$hostile_dir"
label="<script>alert(\"x\")</script> & 'q' $C1$ESC[31m$FF"
run -F json $FAST -t one -m fdatasync --direct=off --label "$label" "$hostile_dir"
cp "$WORK/out" "$WORK/hostile.json"
run -F svg $FAST -t one -m fdatasync --direct=off --label "$label" "$hostile_dir"
cp "$WORK/out" "$WORK/hostile.svg"

# escaped DESC FILE BYTE: no markup of the hostile strings, no raw control
# or stray byte, and their text shown escaped, the byte that is not UTF-8
# as BYTE (a JSON report holds U+FFFD for it).
escaped() {
	problems=
	! grep -q '<script' "$2" || problem "a <script element"
	! grep -q "$C1" "$2" || problem "a raw \\001"
	! grep -q "$ESC" "$2" || problem "a raw ESC"
	! LC_ALL=C grep -q "$FF" "$2" || problem "a raw byte \\377 (not UTF-8)"
	grep -qF "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos; \\001\\033[31m$3" "$2" ||
	    problem "the label not shown escaped"
	grep -qF "&lt;script&gt;&amp;&quot;&apos;\\001\\033[2J$3" "$2" ||
	    problem "the path not shown escaped"
	[ -z "$problems" ] && tap_ok "$1: markup, quotes and control bytes escaped" ||
	    tap_fail "$1: markup, quotes and control bytes escaped" "$problems"
}
escaped "the probe" "$WORK/hostile.svg" '\377'
picture_ok "the probe, a hostile label and path" "$WORK/hostile.svg"

# compare: the same rows of each saved run, one colour each, the ratios.
run -F json $FAST -t one -m fdatasync,fsync --direct=off --rounds 3 --label before "$WORK/a"
cp "$WORK/out" "$WORK/before.json"
run compare -F svg "$WORK/before.json" "$WORK/hostile.json"
tap_is "$rc $(cat "$WORK/err")" "0 " "compare -F svg: exits 0, nothing on stderr"
cp "$WORK/out" "$WORK/compare.svg"
picture_ok "compare" "$WORK/compare.svg"
drawn_in_colour "compare" "$WORK/compare.svg"
escaped "compare, a saved report's label and path" "$WORK/compare.svg" "$(printf '\357\277\275')"
tap_check "compare -F svg: run 2's fdatasync against run 1's as a ratio" \
    grep -Eq '>[0-9.]+ +[0-9]+\.[0-9][0-9]x\*?</text>' "$WORK/compare.svg"
run compare --format=text "$WORK/before.json"
tap_check "compare --format=text: the text, as without -F" grep -q '^run 1: before$' "$WORK/out"
run compare -F png "$WORK/before.json"
tap_is "$rc $(cat "$WORK/err")" \
    "2 syncprobe: --format 'png': unknown value (choose text, svg)" \
    "compare -F png: refused, naming the formats"

tap_done
