#!/bin/sh
# src_layers.sh: the sources keep their layers (HACKING "Where things are").
# A folder includes only folders before it in
#   util -> storage -> probe -> group -> advice -> target -> report
#   -> session, durability, pgbench, watch (commands, none including another)
#   -> cli -> main.c
# no two modules (a .c and its .h) include each other's headers, and no two
# files of the library call each other (from nm: one defines what the other
# uses, both ways). Each check is first run on a made-up tree that breaks
# it, so that it is seen to fail.
. "$top_srcdir/tests/lib.sh"

# layer_of FOLDER: its place in the order; 99 for a folder not in it.
layer_of() {
	case $1 in
	util) echo 0 ;;
	storage) echo 1 ;;
	probe) echo 2 ;;
	group) echo 3 ;;
	advice) echo 4 ;;
	target) echo 5 ;;
	report) echo 6 ;;
	session|durability|pgbench|watch) echo 7 ;;
	cli) echo 8 ;;
	.) echo 9 ;;
	*) echo 99 ;;
	esac
}

# includes SRCDIR: "FILE INCLUDED" for every #include "..." under SRCDIR
# (config.h, the build's own, aside), FILE relative to SRCDIR.
includes() {
	(cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | sort | while read -r f; do
		sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" |
		    while read -r inc; do
			[ "$inc" = config.h ] || echo "$f $inc"
		    done
	done)
}

# against_order SRCDIR: the includes that run against the order.
against_order() {
	includes "$1" | while read -r f inc; do
		from=$(dirname "$f") to=$(dirname "$inc")
		lf=$(layer_of "$from") lt=$(layer_of "$to")
		if [ "$lf" -eq 99 ] || [ "$lt" -eq 99 ] || [ "$lt" -gt "$lf" ] ||
		    { [ "$lt" -eq "$lf" ] && [ "$from" != "$to" ]; }; then
			echo "$f includes $inc"
		fi
	done
}

# each_other SRCDIR: pairs of modules (a file without .c/.h) that include
# each other's headers.
each_other() {
	includes "$1" | sed 's/\.[ch] / /; s/\.h$//' | awk '$1 != $2 { e[$1 " " $2] = 1 }
		END { for (k in e) { split(k, m, " "); if ((m[2] " " m[1]) in e && m[1] < m[2])
			print m[1] " <-> " m[2] } }' | sort
}

# calls_each_other LIB: pairs of members of the archive LIB that call each
# other (or use each other's data), from nm.
calls_each_other() {
	# "LIB:MEMBER:VALUE T name", or "LIB:MEMBER: U name" for a use.
	nm -A "$1" 2>/dev/null | awk '
		NF != 3 { next }
		{ split($1, w, ":"); obj = w[2] }
		$2 ~ /^[TDRBC]$/ { def[$3] = obj }
		$2 == "U" { use[obj " " $3] = 1 }
		END {
			for (k in use) { split(k, u, " "); if (u[2] in def && def[u[2]] != u[1])
				e[u[1] " " def[u[2]]] = 1 }
			for (k in e) { split(k, m, " "); if ((m[2] " " m[1]) in e && m[1] < m[2])
				print m[1] " <-> " m[2] }
		}' | sort
}

# A made-up tree that breaks each rule: probe includes report, and two
# util modules include each other.
fake=$WORK/src
mkdir -p "$fake/util" "$fake/probe" "$fake/report"
printf '#include "report/r.h"\n' >"$fake/probe/p.c"
printf '#include "util/b.h"\n' >"$fake/util/a.c"
printf '#include "util/a.h"\n' >"$fake/util/b.c"
: >"$fake/util/a.h" >"$fake/util/b.h" >"$fake/report/r.h"
tap_is "$(against_order "$fake")" "probe/p.c includes report/r.h" \
    "the order check finds an include against the order"
tap_is "$(each_other "$fake")" "util/a <-> util/b" \
    "the circle check finds two modules that include each other"

tap_is "$(against_order "$top_srcdir/src")" "" \
    "every #include under src/ runs with the folder order"
tap_is "$(each_other "$top_srcdir/src")" "" "no two modules include each other's headers"
tap_is "$(ls "$top_srcdir/src" | grep '\.c$' | tr '\n' ' ')" "main.c " \
    "no .c at the top of src/ but main.c"

lib=$(dirname "$(dirname "$SYNCPROBE")")/libsyncprobe.a
if ! command -v nm >/dev/null 2>&1; then
	tap_skip "nm finds two objects that call each other" "nm is not installed"
	tap_skip "no two files of the library call each other" "nm is not installed"
elif [ ! -r "$lib" ]; then
	tap_fail "the library is built" "no $lib"
else
	# Two objects that call each other, built here to be seen.
	printf 'void b(void);\nvoid a(void);\nvoid a(void) { b(); }\n' >"$WORK/a.c"
	printf 'void a(void);\nvoid b(void);\nvoid b(void) { a(); }\n' >"$WORK/b.c"
	if ${CC:-cc} -c -o "$WORK/a.o" "$WORK/a.c" 2>/dev/null &&
	    ${CC:-cc} -c -o "$WORK/b.o" "$WORK/b.c" 2>/dev/null &&
	    ar rc "$WORK/lib.a" "$WORK/a.o" "$WORK/b.o" 2>/dev/null; then
		tap_is "$(calls_each_other "$WORK/lib.a")" "a.o <-> b.o" \
		    "nm finds two objects that call each other"
	else
		tap_skip "nm finds two objects that call each other" "no C compiler or ar here"
	fi
	tap_is "$(calls_each_other "$lib")" "" "no two files of the library call each other"
fi

tap_done
