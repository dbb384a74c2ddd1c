# etcd_spread.awk -v k=KEY RATIOS: "median  min  max" of the ratios filed
# under KEY (lines "KEY<TAB>ratio"), two decimals each, no newline.
BEGIN { FS = "\t" }
$1 == k { v[++n] = $2 + 0 }
END {
	if (n == 0) {
		printf "not measured"
		exit
	}
	for (i = 2; i <= n; i++)	# insertion sort: a handful of values
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	printf "%5.2f  %5.2f  %5.2f", m, v[1], v[n]
}
