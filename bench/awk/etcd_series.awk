# etcd_series.awk TAB: the ratios of one series of etcd.sh's repeats (its
# NAME.tab lines: repeat, etcd's fsyncs, mean and p99 bucket, syncprobe's
# paced mean, p99 and missed starts, its back-to-back mean and p99, fio's
# mean and p99), as "KEY<TAB>ratio" lines for etcd_spread.awk: each tool's
# sync mean over etcd's in the same repeat (paced, b2b, fio), each one's
# over its own in the repeat before (noise_*), and each tool's sum of means
# over all repeats against etcd's (all_*).
BEGIN { FS = "\t"; OFS = "\t" }
{
	m["etcd"] = $3; m["paced"] = $5; m["b2b"] = $8; m["fio"] = $10
	for (t in m) {
		if (t != "etcd" && m["etcd"] > 0)
			printf "%s\t%.4f\n", t, m[t] / m["etcd"]
		if (NR > 1 && prev[t] > 0)
			printf "noise_%s\t%.4f\n", t, m[t] / prev[t]
		prev[t] = m[t]
		sum[t] += m[t]
	}
}
END {
	if (sum["etcd"] > 0)
		printf "all_paced\t%.4f\nall_b2b\t%.4f\nall_fio\t%.4f\n", sum["paced"] / sum["etcd"],
		    sum["b2b"] / sum["etcd"], sum["fio"] / sum["etcd"]
}
