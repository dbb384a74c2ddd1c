# etcd_hist.awk BEFORE AFTER: what a load added to etcd's
# etcd_disk_wal_fsync_duration_seconds (two readings of its /metrics lines):
# "count<TAB>mean_us<TAB>p99_le_ms", the p99 as the upper bound of the
# first bucket holding 99% of the added fsyncs ("+Inf" past the last).
function key(line) { sub(/ [^ ]*$/, "", line); return line }
FNR == NR { before[key($0)] = $NF; next }
{ d[key($0)] = $NF - before[key($0)] }
/_bucket/ {
	le = $0
	sub(/.*le="/, "", le)
	sub(/".*/, "", le)
	n++
	les[n] = le
	cum[n] = d[key($0)]
}
END {
	count = d["etcd_disk_wal_fsync_duration_seconds_count"]
	sum = d["etcd_disk_wal_fsync_duration_seconds_sum"]
	for (i = 1; i <= n; i++)
		if (cum[i] >= 0.99 * count) {
			p99 = les[i]
			break
		}
	printf "%d\t%.1f\t%s\n", count, count ? sum / count * 1e6 : 0, p99 == "+Inf" ? p99 : p99 * 1000
}
