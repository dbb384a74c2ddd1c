# pair_ratios.awk SP OTHER: both "key<TAB>value"; out "key<TAB>sp/other"
# for every key both have (other's value above 0), in OTHER's order.
BEGIN { FS = OFS = "\t" }
NR == FNR { sp[$1] = $2; next }
($1 in sp) && $2 > 0 { print $1, sp[$1] / $2 }
