# syscalls_extra.awk: the counts (syscalls_trace.awk's lines) that break
# the target, "TEST: CALL PER-OP" joined by "; ", or nothing. Each
# syncprobe test: 1 pwrite64, 1 fdatasync where the test has one, and no
# other call made per operation (once per test: under 0.01).
BEGIN { FS = "\t" }
$1 == "syncprobe" {
	if ($4 == "pwrite64" || ($4 == "fdatasync" && $2 ~ /fdatasync/))
		bad = $5 < 0.99 || $5 > 1.01
	else
		bad = $5 >= 0.01
	if (bad) printf "%s%s: %s %.3f", n++ ? "; " : "", $2, $4, $5
}
