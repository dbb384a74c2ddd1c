# cv_pairs.awk: the runs' figures ("sp|FIGURE" or "pg|FIGURE", value, run)
# as "FIGURE<TAB>sp/pg" for every figure both tools have from the same run
# number: the paired ratios.
BEGIN { FS = OFS = "\t" }
{ split($1, p, "|"); v[p[1], p[2], $3] = $2; k[p[2]] = 1; r[$3] = 1 }
END {
	for (f in k) for (i in r)
		if ((("sp", f, i) in v) && (("pg", f, i) in v) && v["pg", f, i] > 0)
			print f, v["sp", f, i] / v["pg", f, i]
}
