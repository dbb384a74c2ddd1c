# fio_ratios.awk -v l=LABEL -v so= -v fo= -v sp= -v fp=: one pair's ratios
# syncprobe/fio, "LABEL|ops/sec<TAB>so/fo" and "LABEL|p99<TAB>sp/fp", each
# only where both figures are above 0. syncprobe's p99 is in us, fio's in ns.
BEGIN {
	if (so > 0 && fo > 0) printf "%s|ops/sec\t%s\n", l, so / fo
	if (sp > 0 && fp > 0) printf "%s|p99\t%s\n", l, sp * 1000 / fp
}
