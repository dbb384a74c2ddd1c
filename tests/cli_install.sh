#!/bin/sh
# cli_install.sh: make install DESTDIR=... puts exactly the binary, the
# manual page, the JSON Schemas of schema/ and the bash completion (when
# configure chose a directory for it) in place, nothing else, and make
# uninstall removes all of them.
# MAKE, abs_top_builddir and the installation directories come from make
# check.
. "$top_srcdir/tests/lib.sh"

: "${MAKE:=make}"
: "${abs_top_builddir:?abs_top_builddir must be set}"
: "${INSTALL_BINDIR:?}" "${INSTALL_MAN1DIR:?}" "${INSTALL_SCHEMADIR:?}"
: "${INSTALL_BASHCOMPLETIONDIR=}"

dest=$WORK/dest
want="$dest$INSTALL_BINDIR/syncprobe
$dest$INSTALL_MAN1DIR/syncprobe.1"
for f in "$top_srcdir"/schema/*.schema.json; do
	want="$want
$dest$INSTALL_SCHEMADIR/${f##*/}"
done
[ -z "$INSTALL_BASHCOMPLETIONDIR" ] ||
    want="$want
$dest$INSTALL_BASHCOMPLETIONDIR/syncprobe"
want=$(printf '%s\n' "$want" | sort)

# installed: every file and symbolic link under $dest, sorted.
installed() {
	find "$dest" ! -type d -print | sort
}

rc=0
(cd "$abs_top_builddir" && $MAKE install DESTDIR="$dest") >"$WORK/install.log" 2>&1 || rc=$?
tap_is "$rc" 0 "make install DESTDIR=... succeeds"
tap_is "$(installed)" "$want" "it installs exactly the binary, the manual page, the schemas and the completion"
tap_check "the installed binary is executable" test -x "$dest$INSTALL_BINDIR/syncprobe"

rc=0
(cd "$abs_top_builddir" && $MAKE uninstall DESTDIR="$dest") >"$WORK/uninstall.log" 2>&1 || rc=$?
tap_is "$rc" 0 "make uninstall DESTDIR=... succeeds"
tap_is "$(installed)" "" "make uninstall removes every file it installed"

tap_done
