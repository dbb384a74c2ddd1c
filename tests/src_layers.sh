#!/bin/sh
# src_layers.sh: the sources keep their layers (HACKING "Where things are").
# A folder includes only folders before it in
#   util -> storage -> probe -> group -> advice -> target -> report
#   -> session, durability, pgbench, watch (commands, none including another)
#   -> cli -> main.c
# no two modules (a .c and its .h) include each other's headers, no field
# of function pointer type in a folder is set to a function of a folder
# after it (a call up the order that the includes do not show), and no two
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
# (config.h, the build's own, aside), FILE relative to SRCDIR. One awk
# for every file: a shell loop that started sed and dirname for each
# file and include took most of this test's 18 s.
includes() {
	(cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | sort | xargs awk '
		match($0, /^#[ \t]*include[ \t]*"[^"]*"/) {
			inc = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
			if (inc != "config.h") print FILENAME, inc
		}')
}

# against_order SRCDIR: the includes that run against the order (each
# folder's place from layer_of).
against_order() {
	map=$(for d in util storage probe group advice target report session durability \
	    pgbench watch cli .; do printf '%s:%s ' "$d" "$(layer_of "$d")"; done)
	includes "$1" | awk -v map="$map" '
		BEGIN { n = split(map, m, " "); for (i = 1; i <= n; i++) { split(m[i], kv, ":"); L[kv[1]] = kv[2] } }
		function folder(p) { if (p !~ /\//) return "."; sub(/\/[^\/]*$/, "", p); return p }
		function layer(d) { return (d in L) ? L[d] + 0 : 99 }
		{
			from = folder($1); to = folder($2); lf = layer(from); lt = layer(to)
			if (lf == 99 || lt == 99 || lt > lf || (lt == lf && from != to))
				print $1 " includes " $2
		}'
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

# sources SRCDIR: every .c and .h under SRCDIR, relative to it.
sources() {
	(cd "$1" && find . -name '*.[ch]' | sed 's|^\./||' | sort)
}

# fn_types SRCDIR: the names typedef'd as function types, one a line.
fn_types() {
	(cd "$1" && sources . | xargs cat) | sed -n \
	    -e 's/^typedef[^(]*(\*[ \t]*\([A-Za-z_][A-Za-z_0-9]*\))[ \t]*(.*/\1/p' \
	    -e 's/^typedef[^(]*[ \t*]\([A-Za-z_][A-Za-z_0-9]*\)[ \t]*(.*/\1/p' | sort -u
}

# fn_fields SRCDIR: "STRUCT FIELD FOLDER" for each field of function
# pointer type (RET (*FIELD)(...), or TYPE *FIELD of a function type) of
# a struct defined at the start of a line in FOLDER.
fn_fields() {
	types=$(fn_types "$1" | tr '\n' ' ')
	(cd "$1" && sources . | xargs awk -v types="$types" '
		BEGIN { n = split(types, t, " "); for (i = 1; i <= n; i++) ft[t[i]] = 1 }
		FNR == 1 { dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "."; s = "" }
		/^(typedef )?struct [A-Za-z_0-9]+ \{/ { s = $0; sub(/^(typedef )?struct /, "", s); sub(/ .*/, "", s); next }
		s != "" && /^}/ { s = ""; next }
		s == "" { next }
		match($0, /\(\*[ \t]*[A-Za-z_][A-Za-z_0-9]*\)[ \t]*\(/) {
			f = substr($0, RSTART + 2, RLENGTH - 2); sub(/^[ \t]*/, "", f); sub(/[ \t]*\).*/, "", f)
			print s, f, dir; next
		}
		match($0, /^[ \t]*(const[ \t]+)?[A-Za-z_][A-Za-z_0-9]*[ \t]*\*[ \t]*[A-Za-z_][A-Za-z_0-9]*;/) {
			d = substr($0, RSTART, RLENGTH); gsub(/const|[*;]/, " ", d); split(d, w, " ")
			if (w[1] in ft) print s, w[2], dir
		}')
}

# fn_defs SRCDIR: "NAME FILE" for each function defined (its name at the
# start of a line, the return type on the line before, as STYLE.md lays
# a definition out).
fn_defs() {
	(cd "$1" && sources . | grep '\.c$' | xargs awk '
		/^[A-Za-z_][A-Za-z_0-9]*\(/ { n = $0; sub(/\(.*/, "", n); print n, FILENAME }')
}

# fn_sets SRCDIR: "FILE STRUCT FIELD NAME" for each name a struct's field
# is set to: X.FIELD = NAME or X->FIELD = NAME (STRUCT from X's
# declaration in the file, "?" when none is found), .FIELD = NAME in an
# initializer of a struct STRUCT, and FIELD "*" for every name in such
# an initializer (rows of a table, a struct given in order).
fn_sets() {
	(cd "$1" && sources . | xargs awk '
		FNR == 1 { delete decl; init = "" }
		{
			line = $0
			gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
			gsub(/\/\*.*\*\//, "", line)
			rest = line
			while (match(rest, /struct[ \t]+[A-Za-z_][A-Za-z_0-9]*[ \t*]+[A-Za-z_][A-Za-z_0-9]*/)) {
				d = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
				gsub(/\*/, " ", d); split(d, w, " "); decl[w[3]] = w[2]
			}
			if (init == "" && match(line, /struct[ \t]+[A-Za-z_][A-Za-z_0-9]*[^=;(]*=[ \t]*\{/)) {
				d = substr(line, RSTART); split(d, w, /[ \t]+/); init = w[2]
				line = substr(line, RSTART + RLENGTH)
			}
			rest = line
			while (match(rest, /[A-Za-z_][A-Za-z_0-9]*[ \t]*(\.|->)[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*=[ \t]*&?[ \t]*[A-Za-z_][A-Za-z_0-9]*/)) {
				d = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
				gsub(/->|[.=&]/, " ", d); split(d, w, " ")
				print FILENAME, (w[1] in decl) ? decl[w[1]] : "?", w[2], w[3]
			}
			if (init != "") {
				rest = line
				while (match(rest, /\.[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*=[ \t]*&?[ \t]*[A-Za-z_][A-Za-z_0-9]*/)) {
					d = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
					gsub(/[.=&]/, " ", d); split(d, w, " ")
					print FILENAME, init, w[1], w[2]
				}
				rest = line
				while (match(rest, /[A-Za-z_][A-Za-z_0-9]*/)) {
					print FILENAME, init, "*", substr(rest, RSTART, RLENGTH)
					rest = substr(rest, RSTART + RLENGTH)
				}
				if (line ~ /\}[ \t]*;/)
					init = ""
			}
		}')
}

# calls_up SRCDIR: "FILE sets struct STRUCT.FIELD (FOLDER) to NAME
# (FOLDER)" for each field of function pointer type of a struct in one
# folder set to a function defined in a folder after it: a call up the
# order that no #include shows.
calls_up() {
	{
		fn_fields "$1" | sed 's/^/F /'
		fn_defs "$1" | sed 's/^/D /'
		fn_sets "$1" | sed 's/^/S /'
	} | awk '
		function folder(f) { if (!sub(/\/[^\/]*$/, "", f)) f = "."; return f }
		$1 == "F" { fld[$2 " " $3] = $4; st[$2] = $4; any[$3] = any[$3] " " $4; next }
		$1 == "D" { def[$2 " " $3] = 1; if (!($2 in where)) where[$2] = $3; next }
		$1 == "S" { s[++ns] = $2 " " $3 " " $4 " " $5 }
		END {
			for (i = 1; i <= ns; i++) {
				split(s[i], w, " "); file = w[1]; stc = w[2]; f = w[3]; name = w[4]
				if ((name " " file) in def) nf = folder(file)
				else if (name in where) nf = folder(where[name])
				else continue
				if (f == "*" && (stc in st)) sf = st[stc]
				else if ((stc " " f) in fld) sf = fld[stc " " f]
				else if (stc == "?" && (f in any)) sf = any[f]
				else continue
				# A field of several structs: each folder that has one.
				n = split(sf, fs, " ")
				for (k = 1; k <= n; k++)
					print file, (stc == "?" ? "" : stc) (f == "*" ? "" : "." f), fs[k], name, nf
			}
		}' | sort -u | while read -r file field sf name nf; do
		if [ "$(layer_of "$nf")" -gt "$(layer_of "$sf")" ]; then
			echo "$file sets struct $field ($sf) to $name ($nf)"
		fi
	done
}

# A made-up tree that breaks each rule: probe includes report, two util
# modules include each other, and report fills a probe struct's function
# pointers with its own functions, in order and by assignment.
fake=$WORK/src
mkdir -p "$fake/util" "$fake/probe" "$fake/report"
printf '#include "report/r.h"\n' >"$fake/probe/p.c"
printf '#include "util/b.h"\n' >"$fake/util/a.c"
printf '#include "util/a.h"\n' >"$fake/util/b.c"
: >"$fake/util/a.h" >"$fake/util/b.h" >"$fake/report/r.h"
printf 'struct hook {\n\tvoid (*done)(void *ctx);\n\tint n;\n};\n' >"$fake/probe/hook.h"
cat >"$fake/report/hook.c" <<'EOF'
#include "probe/hook.h"

void
report_done(void *ctx)
{
}

void
report_hook(struct hook *h)
{
	struct hook g = { report_done, 1 };

	h->done = report_done;
	(void)g;
}
EOF
tap_is "$(against_order "$fake")" "probe/p.c includes report/r.h" \
    "the order check finds an include against the order"
tap_is "$(each_other "$fake")" "util/a <-> util/b" \
    "the circle check finds two modules that include each other"
tap_is "$(calls_up "$fake")" "report/hook.c sets struct hook (probe) to report_done (report)
report/hook.c sets struct hook.done (probe) to report_done (report)" \
    "the function pointer check finds a call up the order, in order and by assignment"

tap_is "$(against_order "$top_srcdir/src")" "" \
    "every #include under src/ runs with the folder order"
tap_is "$(each_other "$top_srcdir/src")" "" "no two modules include each other's headers"
tap_is "$(calls_up "$top_srcdir/src")" "" \
    "no function pointer of a folder is set to a function of a folder after it"
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
