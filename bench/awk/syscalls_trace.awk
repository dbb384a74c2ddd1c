# syscalls_trace.awk -v tool=T -v test=NAME -v which=W -v prefix=P TRACE:
# from an `strace -f` trace, the calls made between an open of a file
# whose path starts with P and the close of that descriptor, in the
# segment W picks: "fdatasync" the first one that calls fdatasync,
# "direct" the first opened with O_DIRECT, "last" the last one. Out, one
# line a call: tool, test, operations, call, calls per operation. The
# operations: the segment's fdatasync calls where it has some, else its
# pwrite calls. Whole-run counts (strace -c) would mix in the file's setup
# and what a tool does after measuring (syncprobe times real sleeps for
# its commit_delay advice: clock_nanosleep, a number of them that depends
# on the figures).
BEGIN { OFS = "\t" }
function put(cnt,   k, ops) {
	ops = ("fdatasync" in cnt) ? cnt["fdatasync"] : cnt["pwrite64"]
	if (ops > 0) for (k in cnt) print tool, test, ops, k, cnt[k] / ops
	done = 1
}
function finish(   k) {
	inseg = 0
	if (done) return
	if ((which == "fdatasync" && ("fdatasync" in c)) || (which == "direct" && direct)) put(c)
	split("", last)
	for (k in c) last[k] = c[k]
}
{
	line = $0
	sub(/^[0-9]+ +/, "", line)
	if (line ~ /^(---|[+][+][+])/) next
	name = line
	sub(/[(].*/, "", name)
	if (name == "openat" && index(line, "\"" prefix) && line ~ /= [0-9]+$/) {
		split("", c)
		inseg = 1
		fd = line
		sub(/.*= /, "", fd)
		direct = line ~ /O_DIRECT/
	}
	if (inseg) c[name]++
	if (inseg && name == "close" && line ~ ("^close[(]" fd "[)]")) finish()
}
END { if (which == "last" && !done) put(last) }
