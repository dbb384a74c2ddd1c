# syscalls_order.awk: the counts (syscalls_trace.awk's lines) with three
# sort keys in front: the test, syncprobe before pg_test_fsync, the
# measured calls (pwrite64, fdatasync) before the others.
BEGIN { FS = OFS = "\t" }
{ print $2, $1 == "syncprobe" ? 0 : 1, $4 ~ /^(pwrite64|fdatasync)$/ ? 0 : 1, $0 }
