# syscalls_table.awk: the sorted lines of syscalls_order.awk as table 3's
# rows, the test named on its first row only.
BEGIN { FS = "\t" }
{
	test = $5 == prev ? "" : $5
	prev = $5
	printf "%-30s %-14s %7s  %-15s %9.4f\n", test, $4, $6, $7, $8
}
