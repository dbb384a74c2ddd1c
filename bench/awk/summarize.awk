# summarize.awk: lines "key<TAB>value" in, one line per key out, in order
# of first sight: key n median min max mean cv (cv = sample standard
# deviation / mean; -1 for n < 2). Lines without a value are skipped.
BEGIN { FS = OFS = "\t" }
$2 != "" {
	if (!($1 in n)) { order[++nk] = $1; n[$1] = 0 }
	v[$1, ++n[$1]] = $2 + 0
}
END {
	for (k = 1; k <= nk; k++) {
		key = order[k]; m = n[key]
		for (i = 1; i <= m; i++) a[i] = v[key, i]
		for (i = 2; i <= m; i++) {
			x = a[i]
			for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
			a[j + 1] = x
		}
		med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		s = 0; for (i = 1; i <= m; i++) s += a[i]
		mean = s / m
		ss = 0; for (i = 1; i <= m; i++) ss += (a[i] - mean) ^ 2
		cv = m > 1 && mean != 0 ? sqrt(ss / (m - 1)) / mean : -1
		print key, m, med, a[1], a[m], mean, cv
	}
}
