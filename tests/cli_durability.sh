#!/bin/sh
# cli_durability.sh: the durability check without a power cut (issue 14).
# A writer's records verify; one killed with SIGKILL loses nothing on a
# real filesystem; a durability file truncated or corrupted afterwards is
# reported as lost records (exit 3); foreign files, existing files, other
# runs' acknowledgements and symbolic links are refused (exit 2) and left
# as they were. tests/cli_durability_fuse.sh adds the power cut.
. "$top_srcdir/tests/lib.sh"

fs=$(stat -f -c %T "$WORK" 2>/dev/null || echo "?")
nl='
'

# write DIR ARGS...: a writer into DIR; $WORK/acks, $WORK/werr, $rc.
write() {
	wdir=$1
	shift
	mkdir -p "$wdir"
	rc=0
	"$SYNCPROBE" durability write -q "$@" "$wdir" >"$WORK/acks" 2>"$WORK/werr" || rc=$?
}

# verify ARGS...: the verifier; $WORK/vout, $WORK/verr, $rc.
verify() {
	rc=0
	"$SYNCPROBE" durability verify "$@" >"$WORK/vout" 2>"$WORK/verr" || rc=$?
}

# expect DESC WANT_RC GOT_CHECK: pass when $rc is WANT_RC and GOT_CHECK
# (a shell condition) holds; show the outputs otherwise.
expect() {
	if [ "$rc" -eq "$2" ] && eval "$3"; then
		tap_ok "$1"
	else
		tap_fail "$1" "rc=$rc (want $2)${nl}stdout: $(head -c 2000 "$WORK/vout" 2>/dev/null)${nl}stderr: $(cat "$WORK/verr" "$WORK/werr" 2>/dev/null)"
	fi
}

sum() {
	cksum <"$1"
}

# --- A writer's records verify.
d=$WORK/append
write "$d" -n 20 --pattern=append --file-size=64k
expect "writer -n 20 --pattern=append exits 0" 0 \
    '[ "$(grep -c "^ack " "$WORK/acks")" -eq 20 ]'
tap_is "$(head -n 1 "$WORK/acks" | sed 's/run=[0-9a-f]*/run=R/')" \
    "syncprobe-durability 1 run=R block=8192 size=65536 pattern=append method=fdatasync direct=off acks=same-filesystem file=$d/syncprobe-durability" \
    "the header line names the run, geometry, method and file, and that the acks are on its filesystem"
tap_is "$(sed -n '2p;21p' "$WORK/acks" | cut -d' ' -f1,3,4)" "ack 1 8192
ack 20 49152" "acks give each record's number and offset, wrapping after 7 slots"
tap_is "$(tail -n 1 "$WORK/acks" | cut -d' ' -f1,3,4)" "end 20 count" \
    "an end line says the writer stopped after -n records"
tap_is "$(stat -c '%s %a' "$d/syncprobe-durability")" "65536 600" \
    "the durability file is kept, preallocated to --file-size, mode 0600"
cp "$WORK/acks" "$WORK/acks.append"

verify --acks="$WORK/acks" "$d"
expect "verify: exit 0, verdict kept" 0 'grep -q "^verdict: kept" "$WORK/vout"'
verify --acks="$WORK/acks" -F json "$d"
expect "verify -F json: 20 acknowledged, 7 expected (one per slot), 7 kept, 0 lost" 0 \
    '[ "$(json_field acknowledged) $(json_field expected) $(json_field kept) $(json_field lost) $(json_field verdict) $(json_field writer_end)" = "20 7 7 0 kept count" ]'
schema_valid "verify -F json, kept" durability-verify "$WORK/vout"

o=$WORK/overwrite
write "$o" -n 20 --file-size=64k -m fsync
verify --acks="$WORK/acks" -F json "$o"
expect "overwrite with fsync: 20 acknowledged, the newest expected and kept" 0 \
    '[ "$(json_field acknowledged) $(json_field expected) $(json_field kept) $(json_field method)" = "20 1 1 fsync" ]'

for m in open_datasync open_sync; do
	write "$WORK/m-$m" -n 5 --pattern=append --file-size=64k -m "$m" -b 4k
	verify --acks="$WORK/acks" "$WORK/m-$m"
	expect "-m $m -b 4k: written and verified" 0 'grep -q "^verdict: kept" "$WORK/vout"'
done

# --- Damage after the fact is reported as lost records (exit 3).
cp "$d/syncprobe-durability" "$WORK/pristine"
truncate -s 40000 "$d/syncprobe-durability"
verify --acks="$WORK/acks.append" -F json "$d"
expect "truncated to 40000 bytes: exit 3, records 14 18 19 20 missing" 3 \
    '[ "$(json_field lost) $(json_field missing) $(tr -d " \n" <"$WORK/vout" | sed "s/.*lost_first\":\[\([^]]*\)\].*/\1/")" = "4 4 14,18,19,20" ]'
schema_valid "verify -F json, lost" durability-verify "$WORK/vout"
cp "$WORK/pristine" "$d/syncprobe-durability"
# The byte becomes its complement: a fixed 'X' was already there in one run
# of 256, the payload being pseudo-random, and then nothing was corrupt.
byte=$(od -An -tu1 -j 20000 -N 1 "$d/syncprobe-durability" | tr -d ' ')
printf "\\$(printf '%03o' $((255 - byte)))" |
    dd of="$d/syncprobe-durability" bs=1 seek=20000 conv=notrunc 2>/dev/null
verify --acks="$WORK/acks.append" "$d"
expect "one byte changed in slot 2: exit 3, record 16 corrupt" 3 \
    'grep -q "first lost: 16$" "$WORK/vout" && grep -q "missing 0, corrupt 1" "$WORK/vout" && grep -q "^verdict: LOST" "$WORK/vout"'
cp "$WORK/pristine" "$d/syncprobe-durability"
dd if=/dev/zero of="$d/syncprobe-durability" bs=8192 count=1 conv=notrunc 2>/dev/null
verify --acks="$WORK/acks.append" -F json --remove "$d"
expect "header zeroed: exit 3, header missing, --remove refused" 3 \
    '[ "$(json_field header) $(json_field lost) $(json_field removed)" = "missing 0 false" ] && [ -f "$d/syncprobe-durability" ] && grep -q "not removed" "$WORK/verr"'
cp "$WORK/pristine" "$d/syncprobe-durability"
mv "$d/syncprobe-durability" "$WORK/moved"
verify --acks="$WORK/acks.append" -F json "$d"
expect "the file gone from where the writer made it: exit 3, all 7 missing" 3 \
    '[ "$(json_field file_exists) $(json_field lost) $(json_field missing)" = "false 7 7" ]'
verify --acks="$WORK/acks.append" "$WORK"
expect "no durability file in another directory: exit 2, no such file" 2 \
    'grep -q "No such file" "$WORK/verr" && [ ! -s "$WORK/vout" ]'
mv "$WORK/moved" "$d/syncprobe-durability"

# --- What is not a durability file is refused and left alone (exit 2).
head -c 65536 /dev/urandom >"$WORK/random"
before=$(sum "$WORK/random")
verify --acks="$WORK/acks.append" -f "$WORK/random" --remove
expect "a random file elsewhere: not this run's durability file, exit 2, nothing on stdout" 2 \
    '[ ! -s "$WORK/vout" ] && grep -q "not this run.s durability file" "$WORK/verr"'
tap_is "$(sum "$WORK/random")" "$before" "the random file is untouched, --remove or not"
cp "$WORK/random" "$d/syncprobe-durability"
verify --acks="$WORK/acks.append" --remove "$d"
expect "random bytes at the writer's path: not a durability file, exit 2, left there" 2 \
    '[ ! -s "$WORK/vout" ] && grep -q "not a durability file" "$WORK/verr" && [ "$(sum "$d/syncprobe-durability")" = "$before" ]'
cp "$WORK/pristine" "$d/syncprobe-durability"
ln -s "$d/syncprobe-durability" "$WORK/link"
verify --acks="$WORK/acks.append" -f "$WORK/link"
expect "a symbolic link to a durability file: refused, exit 2" 2 \
    'grep -q "symbolic link" "$WORK/verr"'
mkfifo "$WORK/fifo" 2>/dev/null && {
	verify --acks="$WORK/acks.append" -f "$WORK/fifo"
	expect "a FIFO: refused at once, exit 2" 2 'grep -q "not a regular file" "$WORK/verr"'
}
: >"$WORK/empty"
verify --acks="$WORK/acks.append" -f "$WORK/empty"
expect "an empty file of another name: not this run's durability file, exit 2" 2 \
    'grep -q "not this run.s durability file" "$WORK/verr" && [ ! -s "$WORK/vout" ]'

# --- Only the writer's own file can have lost anything (issue 20, item 3):
# an empty or zeroed file elsewhere is not this run's (exit 2), however
# the acknowledgements name it; the same file reached by another spelling
# of its directory is.
i3=$WORK/i3
write "$i3" -n 3
cp "$WORK/acks" "$WORK/acks.i3"
mkdir "$WORK/i3other"
: >"$WORK/i3other/syncprobe-durability"
verify --acks="$WORK/acks.i3" "$WORK/i3other"
expect "an empty syncprobe-durability in another directory: not this run's durability file, exit 2 (was LOST)" 2 \
    '[ ! -s "$WORK/vout" ] && grep -q "^syncprobe: $WORK/i3other/syncprobe-durability: not this run.s durability file" "$WORK/verr"'
head -c 16384 /dev/zero >"$WORK/zeros"
verify --acks="$WORK/acks.i3" -f "$WORK/zeros"
expect "a zeroed file of another name: not this run's durability file, exit 2" 2 \
    '[ ! -s "$WORK/vout" ] && grep -q "not this run.s durability file" "$WORK/verr"'
tap_is "$(head -n 1 "$WORK/acks.i3" | sed 's/.* file=//')" "$(cd "$i3" && pwd -P)/syncprobe-durability" \
    "the header line names the file by its absolute path"
rc=0
(cd "$i3" && "$SYNCPROBE" durability verify --acks="$WORK/acks.i3" .) >"$WORK/vout" 2>"$WORK/verr" || rc=$?
expect "the writer's file as ./syncprobe-durability from its directory: kept, exit 0" 0 \
    'grep -q "^verdict: kept" "$WORK/vout"'
ln -s "$i3" "$WORK/i3link"
verify --acks="$WORK/acks.i3" "$WORK/i3link"
expect "the writer's file through a link to its directory: kept, exit 0" 0 \
    'grep -q "^verdict: kept" "$WORK/vout"'
mkdir "$WORK/rel"
rc=0
(cd "$WORK" && "$SYNCPROBE" durability write -q -n 3 rel) >"$WORK/acks.rel" 2>"$WORK/werr" || rc=$?
verify --acks="$WORK/acks.rel" "$WORK/rel"
expect "a writer given a relative directory, verified from elsewhere: kept, exit 0" 0 \
    'grep -q "^verdict: kept" "$WORK/vout"'
dd if=/dev/zero of="$i3/syncprobe-durability" bs=8192 count=1 conv=notrunc 2>/dev/null
verify --acks="$WORK/acks.i3" "$i3"
expect "the header zeroed at the writer's own path: still LOST, exit 3" 3 \
    'grep -q "^verdict: LOST" "$WORK/vout"'

# The acknowledgements' method= and direct= against the file's header: a
# mismatch is refused (exit 2), not reported as what the acks claim.
write "$WORK/i3m" -n 3
cp "$WORK/acks" "$WORK/acks.i3m"

# edited DESC SED CHECK: the verifier on $WORK/i3m with the header line of
# its acknowledgements edited by SED: refused, exit 2, nothing on stdout,
# and CHECK (a shell condition) holds.
edited() {
	sed "$2" "$WORK/acks.i3m" >"$WORK/acks.edited"
	verify --acks="$WORK/acks.edited" "$WORK/i3m"
	expect "$1" 2 "[ ! -s \"\$WORK/vout\" ] && $3"
}
edited "acks saying method=fsync for a file written with fdatasync: refused, exit 2" \
    '1s/method=fdatasync/method=fsync/' \
    'grep -q "disagree on how run .*method=fdatasync direct=off in the file, method=fsync" "$WORK/verr"'
edited "acks saying direct=on for a buffered file: refused, exit 2" '1s/direct=off/direct=on/' \
    'grep -q "direct=off in the file, method=fdatasync direct=on" "$WORK/verr"'

# Strings from either file reach the terminal escaped: a method and a
# file name holding an escape sequence.
esc=$(printf '\033')
edited "a method holding ESC [31m: refused, exit 2, shown escaped in octal, no raw ESC" \
    "1s/method=fdatasync/method=${esc}[31mred/" \
    'grep -q "method=\\\\033\[31mred" "$WORK/verr" && ! grep -q "$esc" "$WORK/verr"'
bel=$(printf '\a')
edited "a file= holding a raw OSC sequence: not this run's durability file, exit 2, no raw ESC" \
    "1s|file=.*|file=$WORK/i3m/${esc}]0;owned${bel}syncprobe-durability|" \
    'grep -q "not this run.s durability file" "$WORK/verr" && ! grep -q "$esc" "$WORK/verr"'
# The writer escapes file= as ls -b does: a backslash it never writes
# (ESC \ ends this OSC sequence) is no header of its.
edited "a file= holding an OSC sequence ended by ESC \\: a malformed header line, exit 2, no raw ESC" \
    "1s|file=.*|file=$WORK/i3m/${esc}]0;owned${esc}\\\\syncprobe-durability|" \
    'grep -q "malformed header line" "$WORK/verr" && ! grep -q "$esc" "$WORK/verr"'
ed="$WORK/e${esc}[2Jx"
write "$ed" -n 3
cp "$WORK/acks" "$WORK/acks.ed"
verify --acks="$WORK/acks.ed" "$ed"
expect "a directory named with ESC [2J: verified, kept, its paths in the report escaped" 0 \
    'grep -q "^verdict: kept" "$WORK/vout" && grep -q "^  file: .*e\\\\033\[2Jx/syncprobe-durability$" "$WORK/vout" && ! grep -q "$esc" "$WORK/vout"'
tap_check "... and the writer's header line holds the name escaped, no raw ESC" \
    sh -c 'head -n 1 "$1" | grep -q "file=.*/e\\\\033\[2Jx/syncprobe-durability$" && ! grep -q "$2" "$1"' \
    sh "$WORK/acks.ed" "$esc"
nd="$WORK/new${nl}line"
write "$nd" -n 3
cp "$WORK/acks" "$WORK/acks.nd"
verify --acks="$WORK/acks.nd" "$nd"
expect "a directory with a newline in its name: written (escaped in the header line), verified" 0 \
    'grep -q "^verdict: kept" "$WORK/vout" && [ "$(wc -l <"$WORK/acks.nd")" -eq 5 ] && head -n 1 "$WORK/acks.nd" | grep -q "file=.*/new\\\\nline/syncprobe-durability$"'

# --- Acknowledgements that are not this run's, or not acknowledgements.
write "$WORK/other" -n 3 --pattern=append --file-size=64k
verify --acks="$WORK/acks" "$d"
expect "acks of another run: refused, exit 2, 'not this run'" 2 \
    'grep -q "not this run" "$WORK/verr" && [ ! -s "$WORK/vout" ]'
{ head -n 1 "$WORK/acks.append"; sed -n 2p "$WORK/acks"; } >"$WORK/mixed"
verify --acks="$WORK/mixed" "$d"
expect "an ack line of another run among this run's: refused with its line number" 2 \
    'grep -q "mixed line 2: .*not this run" "$WORK/verr"'
verify --acks="$WORK/random" "$d"
expect "acks that are random bytes: refused, exit 2" 2 'grep -q "random line 1" "$WORK/verr"'
head -c 40 "$WORK/acks.append" >"$WORK/acks.cuthead"
verify --acks="$WORK/acks.cuthead" "$d"
expect "acks ending inside the header line: refused, exit 2, said to be cut short (not empty)" 2 \
    'grep -q "acks.cuthead: the header line is cut short" "$WORK/verr"'
if mkfifo "$WORK/acks.fifo" 2>/dev/null && command -v timeout >/dev/null 2>&1; then
	rc=0
	timeout 20 "$SYNCPROBE" durability verify --acks="$WORK/acks.fifo" "$d" \
	    >"$WORK/vout" 2>"$WORK/verr" || rc=$?
	expect "acks from a FIFO no one writes to: refused at once, exit 2, saying so" 2 \
	    'grep -q "acks.fifo: a FIFO with no writer" "$WORK/verr"'
else
	tap_skip "acks from a FIFO no one writes to" "no mkfifo or timeout"
fi
sed '$d' "$WORK/acks.append" | sed '$d' >"$WORK/cut"
printf 'ack %s 20 49' "$(sed -n 's/.*run=\([0-9a-f]*\).*/\1/p' "$WORK/acks.append")" >>"$WORK/cut"
verify --acks="$WORK/cut" -F json "$d"
expect "a last line cut short is not counted: 19 acknowledged, nothing lost" 0 \
    '[ "$(json_field acknowledged) $(json_field acks_last_line_cut) $(json_field unacknowledged_kept) $(json_field lost)" = "19 true 1 0" ]'

# --- The writer never overwrites, and refuses before it writes.
before=$(sum "$d/syncprobe-durability")
write "$d" -n 3 --pattern=append --file-size=64k
expect "a second writer in the same directory: exit 2, 'already exists'" 2 \
    '[ ! -s "$WORK/acks" ] && grep -q "already exists" "$WORK/werr"'
tap_is "$(sum "$d/syncprobe-durability")" "$before" "the existing durability file is untouched"
rc=0
"$SYNCPROBE" durability write -q -n 3 -f "$WORK/random" >"$WORK/acks" 2>"$WORK/werr" || rc=$?
expect "-f naming an existing file: exit 2" 2 'grep -q "already exists" "$WORK/werr"'
before=$(sum "$WORK/random")
ln -s "$WORK/random" "$WORK/symlink"
rc=0
"$SYNCPROBE" durability write -q -n 3 -f "$WORK/symlink" >"$WORK/acks" 2>"$WORK/werr" || rc=$?
expect "-f naming a symbolic link: exit 2, never followed" 2 \
    '[ "$(sum "$WORK/random")" = "$before" ] && [ -L "$WORK/symlink" ] && grep -q "already exists" "$WORK/werr"'
# A refusal is the one line that says why: without -q, and with stdout a
# file on the target's filesystem, no acks-on-target warning comes first
# about a run that never starts.
refused "an existing durability file, without -q: exit 2, the one line 'already exists', no warning first" \
    "$d/syncprobe-durability" "$d" durability write -n 20 "$d"
refused "-f naming a symbolic link, without -q: exit 2, the one line, no warning first" \
    "$WORK/symlink" "$WORK" durability write -n 3 -f "$WORK/symlink"
write "$WORK/m-fsync_writethrough" -n 3 -m fsync_writethrough
expect "fsync_writethrough where F_FULLFSYNC is missing: exit 2, no file" 2 \
    '[ -z "$(ls -A "$WORK/m-fsync_writethrough")" ] && grep -q "F_FULLFSYNC" "$WORK/werr"'
if mount_tmpfs "$WORK/small" size=1m; then
	write "$WORK/small" --file-size=1000k -n 1
	expect "1000kB on a 1MB filesystem: exit 2 'no room', no file" 2 \
	    '[ -z "$(ls -A "$WORK/small")" ] && grep -q "not enough free space" "$WORK/werr"'
else
	tap_skip "1000kB on a 1MB filesystem: exit 2 'no room', no file" "mounting a tmpfs needs root"
fi

# --- Acknowledgements kept on the disk under test prove nothing (issue
# 20, item 4): the writer says so in its header line and on stderr, with
# the way out, and the verifier repeats it.
a4=$WORK/a4
mkdir "$a4"
rc=0
"$SYNCPROBE" durability write -n 3 "$a4" >"$WORK/acks.a4" 2>"$WORK/werr" || rc=$?
expect "acks in a file on the target's filesystem: the header line says acks=same-filesystem" 0 \
    'head -n 1 "$WORK/acks.a4" | grep -q " direct=off acks=same-filesystem file="'
expect "... and stderr says so, with the way out" 0 \
    'grep -q "^syncprobe: warning: the acknowledgements are kept on the filesystem under test: .*ssh otherhost" "$WORK/werr"'
verify --acks="$WORK/acks.a4" "$a4"
expect "... and the verifier's report repeats it" 0 \
    'grep -q "^  WARNING: the acknowledgements are kept on the filesystem under test" "$WORK/vout" && grep -q "^verdict: kept" "$WORK/vout"'
verify --acks="$WORK/acks.a4" -F json "$a4"
expect "... as acks_on_target in JSON" 0 '[ "$(json_field acks_on_target)" = same-filesystem ]'
rm -f "$a4/syncprobe-durability"
rc=0
"$SYNCPROBE" durability write -q -n 3 "$a4" >"$WORK/acks.a4" 2>"$WORK/werr" || rc=$?
expect "-q, acks on the target's filesystem: nothing on stderr, the header line still says acks=same-filesystem" 0 \
    '[ ! -s "$WORK/werr" ] && head -n 1 "$WORK/acks.a4" | grep -q " acks=same-filesystem file="'
rm -f "$a4/syncprobe-durability"
rc=0
"$SYNCPROBE" durability write -n 3 "$a4" 2>"$WORK/werr" | cat >"$WORK/acks.a4" || rc=$?
verify --acks="$WORK/acks.a4" -F json "$a4"
expect "acks through a pipe (where it ends cannot be told): no acks= field, no warning" 0 \
    '! grep -q "acks=" "$WORK/acks.a4" && ! grep -q warning "$WORK/werr" && [ "$(json_field acks_on_target)" = null ]'
if mount_tmpfs "$WORK/a4tmp" size=4m; then
	rc=0
	"$SYNCPROBE" durability write -n 3 --file-size=64k "$WORK/a4tmp" >"$WORK/acks.a4" 2>"$WORK/werr" || rc=$?
	expect "acks in a file on another filesystem (the target a tmpfs): no acks= field, no warning" 0 \
	    '! grep -q "acks=" "$WORK/acks.a4" && ! grep -q warning "$WORK/werr"'
else
	tap_skip "acks in a file on another filesystem: no warning" "mounting a tmpfs needs root"
fi

# Two ext4 filesystems on loop devices backed by files on one disk: the
# acks on the one, the target on the other, is the same device.
same_device_setup() {
	[ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null 2>&1 &&
	    command -v losetup >/dev/null 2>&1 && command -v jq >/dev/null 2>&1 || return 1
	for n in 1 2; do
		truncate -s 16M "$WORK/dev$n.img" && mkdir -p "$WORK/dev$n" &&
		    l=$(losetup -f --show "$WORK/dev$n.img" 2>/dev/null) || return 1
		loops="$loops $l"
		mkfs.ext4 -q "$l" >/dev/null 2>&1 && mount "$l" "$WORK/dev$n" || return 1
		mounts="$mounts $WORK/dev$n"
	done
	# The disk under $WORK must be known for a device to be in common.
	"$SYNCPROBE" -q -n 3 -t one -m fdatasync --direct=off --file-size=64k -F json \
	    "$WORK/dev1" >"$WORK/dev.json" 2>/dev/null &&
	    [ -n "$(jq -r '.targets[0].device.name // empty' "$WORK/dev.json")" ]
}
loops= mounts=
if same_device_setup; then
	rc=0
	"$SYNCPROBE" durability write -n 3 --file-size=64k "$WORK/dev1" >"$WORK/dev2/acks" \
	    2>"$WORK/werr" || rc=$?
	expect "acks on another filesystem of the same disk (two loop devices): acks=same-device, and stderr says so" 0 \
	    'head -n 1 "$WORK/dev2/acks" | grep -q " acks=same-device file=" && grep -q "kept on the device under test" "$WORK/werr"'
else
	tap_skip "acks on another filesystem of the same disk: acks=same-device" \
	    "needs root, mkfs.ext4, losetup, jq, and a disk under $WORK that syncprobe can name"
fi
for m in $mounts; do umount "$m" 2>/dev/null || :; done
for l in $loops; do losetup -d "$l" 2>/dev/null || :; done

# --- Standard output that cannot be written: the one line on stderr
# says what became of the file, and it is what happened.
fo=$WORK/full
mkdir "$fo"
if [ -c /dev/full ]; then
	rc=0
	"$SYNCPROBE" durability write -n 3 --file-size=64k "$fo" >/dev/full 2>"$WORK/werr" || rc=$?
	expect "stdout /dev/full: exit 1, the file removed, and the one line says so (was: 'kept')" 1 \
	    '[ -z "$(ls -A "$fo")" ] && [ "$(wc -l <"$WORK/werr")" -eq 1 ] && grep -q "^syncprobe: write standard output: .*; $fo/syncprobe-durability removed, nothing was acknowledged)$" "$WORK/werr"'
else
	tap_skip "stdout /dev/full: exit 1, the file removed, and the one line says so" "no /dev/full"
fi

# A closed pipe. head can close it only after reading the header line, so
# the file is kept; the writer says so (nothing with -q) and dies of
# SIGPIPE, 141, as the man page's EXIT STATUS says. SIGPIPE ignored at
# start (as under nohup): EPIPE is an error, exit 1, in one line.
# pipe_write PREFIX DIR ARGS...: the writer into DIR through a pipe that
# head closes after 10 bytes; $rc, $WORK/werr.
pipe_write() {
	pw_prefix=$1 pw_dir=$2
	shift 2
	mkdir "$pw_dir"
	{
		pw_rc=0
		$pw_prefix "$SYNCPROBE" durability write -n 100000 --file-size=64k "$@" "$pw_dir" \
		    2>"$WORK/werr" || pw_rc=$?
		echo "$pw_rc" >"$WORK/pipe.rc"
	} | head -c 10 >/dev/null
	rc=$(cat "$WORK/pipe.rc")
}
if [ -n "$DEFAULT_SIGNALS" ]; then
	pipe_write "$DEFAULT_SIGNALS" "$WORK/pipe"
	expect "into a pipe closed after 10 bytes: dies of SIGPIPE (141), the file kept, one line saying so (was: exit 1, two lines)" 141 \
	    '[ -f "$WORK/pipe/syncprobe-durability" ] && [ "$(wc -l <"$WORK/werr")" -eq 1 ] && grep -q "^syncprobe: $WORK/pipe/syncprobe-durability: kept, [0-9]* records acknowledged (stopped: standard output closed); after the power cut, check it with syncprobe durability verify$" "$WORK/werr"'
	pipe_write "$DEFAULT_SIGNALS" "$WORK/pipe-q" -q
	expect "... with -q: dies of SIGPIPE (141) in silence, the file kept" 141 \
	    '[ -f "$WORK/pipe-q/syncprobe-durability" ] && [ ! -s "$WORK/werr" ]'
else
	tap_skip "into a closed pipe: dies of SIGPIPE, the file kept" "no env --default-signal or perl"
	tap_skip "... with -q: in silence" "no env --default-signal or perl"
fi
if env --ignore-signal=PIPE true 2>/dev/null; then
	pipe_write "env --ignore-signal=PIPE" "$WORK/pipe-ign"
	expect "into a closed pipe, SIGPIPE ignored at start: exit 1, the file kept, the one line says so" 1 \
	    '[ -f "$WORK/pipe-ign/syncprobe-durability" ] && [ "$(wc -l <"$WORK/werr")" -eq 1 ] && grep -q "^syncprobe: write standard output: .*; $WORK/pipe-ign/syncprobe-durability kept, [0-9]* records acknowledged: check it with syncprobe durability verify)$" "$WORK/werr"'
else
	tap_skip "into a closed pipe, SIGPIPE ignored at start: exit 1" "no env --ignore-signal"
fi

# --- Ways the writer ends: --for, a signal, SIGKILL.
write "$WORK/for" --for=200ms --pattern=append --file-size=64k
expect "--for=200ms: ends by itself, exit 0, end line 'time'" 0 \
    '[ "$(tail -n 1 "$WORK/acks" | cut -d" " -f1,4)" = "end time" ]'

# SIGKILL mid-write: every record acknowledged before it is in the file
# (the page cache keeps it; only a power cut can lose it).
for pattern in append overwrite; do
	k=$WORK/kill-$pattern
	mkdir "$k"
	rm -f "$WORK/acks"	# an old one would satisfy acks_at_least at once
	"$SYNCPROBE" durability write -q --pattern=$pattern --file-size=256k "$k" \
	    >"$WORK/acks" 2>"$WORK/werr" &
	pid=$!
	if waiting "$pid" acks_at_least 30; then
		kill -KILL "$pid"
		wait "$pid" 2>/dev/null || :
		verify --acks="$WORK/acks" -F json "$k"
		expect "kill -9 of the $pattern writer on $fs after $(grep -c '^ack ' "$WORK/acks") acks: nothing lost" 0 \
		    '[ "$(json_field lost) $(json_field writer_end) $(json_field verdict)" = "0 null kept" ]'
	else
		kill -KILL "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		tap_fail "kill -9 of the $pattern writer on $fs" "the writer gave no 30 acks: $(cat "$WORK/werr")"
	fi
done

# SIGTERM (a background job of a non-interactive shell ignores only
# SIGINT and SIGQUIT) ends the writer cleanly and keeps the file.
k=$WORK/term
mkdir "$k"
rm -f "$WORK/acks"
"$SYNCPROBE" durability write --pattern=append --file-size=64k "$k" >"$WORK/acks" 2>"$WORK/werr" &
pid=$!
if waiting "$pid" acks_at_least 5; then
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect "SIGTERM: the writer ends cleanly, exit 0, end line 'signal', file kept" 0 \
	    '[ "$(tail -n 1 "$WORK/acks" | cut -d" " -f1,4)" = "end signal" ] && [ -f "$k/syncprobe-durability" ] && grep -q "kept" "$WORK/werr"'
	verify --acks="$WORK/acks" --remove "$k"
	expect "verify --remove after SIGTERM: exit 0, the file removed" 0 \
	    '[ ! -e "$k/syncprobe-durability" ] && grep -q "removed" "$WORK/vout"'
else
	kill -KILL "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
	tap_fail "SIGTERM: the writer ends cleanly" "no acks: $(cat "$WORK/werr")"
fi

# --- A sync that fails is never acknowledged (tests/faultshim.so fails
# the 5th fdatasync: record 5's).
: "${FAULTSHIM:=}"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
f=$WORK/fault
mkdir "$f"
rm -f "$WORK/log"
rc=0
if [ -n "$FAULTSHIM" ] && [ -f "$FAULTSHIM" ]; then
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=fdatasync:EIO:5 SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" durability write -q -n 10 --pattern=append --file-size=64k "$f" \
	    >"$WORK/acks" 2>"$WORK/werr" || rc=$?
fi
if grep -q '^fdatasync 5 EIO' "$WORK/log" 2>/dev/null; then
	expect "fdatasync fails at record 5: exit 1, acks 1-4 only, end line 'error'" 1 \
	    '[ "$(grep "^ack " "$WORK/acks" | cut -d" " -f3 | tr "\n" " ")" = "1 2 3 4 " ] && [ "$(tail -n 1 "$WORK/acks" | cut -d" " -f1,3,4)" = "end 4 error" ] && grep -q "^syncprobe: fdatasync $f/syncprobe-durability: [^ ].*error$" "$WORK/werr"'
	verify --acks="$WORK/acks" -F json "$f"
	expect "after the failed sync: the 4 acknowledged records verify" 0 \
	    '[ "$(json_field acknowledged) $(json_field lost)" = "4 0" ]'
else
	tap_skip "fdatasync fails at record 5: acks 1-4 only" "no LD_PRELOAD fault shim here"
	tap_skip "after the failed sync: the 4 acknowledged records verify" "no fault shim"
fi

# --- A stop signal while the file is being filled (issue 20, item 5): no
# record is acknowledged yet, so the writer stops at once, removes the
# file and dies of the signal. The shim sends SIGTERM at the prefill's 3rd
# pwrite and fails the 4th with EIO: a writer that went on filling would
# report that write error instead.
p=$WORK/prefill
mkdir "$p"
rm -f "$WORK/log"
rc=0
if [ -n "$FAULTSHIM" ] && [ -f "$FAULTSHIM" ]; then
	LD_PRELOAD=$FAULTSHIM SYNCPROBE_FAULT=pwrite:SIGTERM:3,pwrite:EIO:4 \
	    SYNCPROBE_FAULT_PATH=$p SYNCPROBE_FAULT_LOG=$WORK/log \
	    "$SYNCPROBE" durability write -q --file-size=1M "$p" >"$WORK/acks" 2>"$WORK/werr" || rc=$?
fi
if grep -q '^pwrite 3 SIGTERM' "$WORK/log" 2>/dev/null; then
	expect "SIGTERM while filling: dies of SIGTERM at the next block, no line on stdout, the file removed" 143 \
	    '! grep -q "^pwrite 4" "$WORK/log" && [ ! -s "$WORK/acks" ] && [ -z "$(ls -A "$p")" ]'
else
	tap_skip "SIGTERM while filling: dies of it, the file removed" "no LD_PRELOAD fault shim here"
fi

# --- A reader that takes nothing (a pipe left full): the first SIGTERM
# ends the writer at once, the file kept, and stderr says the rest of the
# acknowledgements were not written. Records fast enough to fill a pipe's
# 64kB in a moment need a filesystem in memory: /dev/shm.
shm=
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=$(mktemp -d /dev/shm/syncprobe-test.XXXXXX 2>/dev/null) || :
if [ -n "$shm" ]; then
	stalled_reader d "$SYNCPROBE" durability write -q --file-size=64k "$shm"
	has_file() { [ -n "$(ls -A "$shm")" ]; }
	if waiting "$reader" has_file; then
		sleep 2	# some 20,000 records a second: the pipe is full long before
		kill -TERM "$(cat "$WORK/d.pid")"
	fi
	if waiting "$reader" test -s "$WORK/d.rc"; then
		rc=$(cat "$WORK/d.rc")
		expect "a stalled reader: the first SIGTERM ends the writer (exit 1), the file kept, saying so" 1 \
		    'grep -q "^syncprobe: write standard output: its reader took nothing until a stop signal (.* kept, [0-9]* records acknowledged" "$WORK/d.err" && [ -f "$shm/syncprobe-durability" ]'
	else
		tap_fail "a stalled reader: the first SIGTERM ends the writer" "still running: $(cat "$WORK/d.err")"
	fi
	kill "$reader" 2>/dev/null || :
	wait "$reader" 2>/dev/null || :
	waiting $$ test -s "$WORK/d.rc" || :
	rm -rf "$shm"
else
	tap_skip "a stalled reader: the first SIGTERM ends the writer" "no /dev/shm to write fast enough"
fi

# --- Direct I/O, where this filesystem takes it.
write "$WORK/direct" -n 10 --direct=on --pattern=append --file-size=64k
if [ "$rc" -eq 0 ]; then
	verify --acks="$WORK/acks" -F json "$WORK/direct"
	expect "--direct=on on $fs: written and verified" 0 \
	    '[ "$(json_field direct) $(json_field kept)" = "true 7" ]'
elif grep -q "direct I/O" "$WORK/werr"; then
	tap_skip "--direct=on: written and verified" "$fs refuses direct I/O"
else
	tap_fail "--direct=on: written and verified" "$(cat "$WORK/werr")"
fi

tap_done
