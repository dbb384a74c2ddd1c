# pg_rows.awk: pg_test_fsync's text report (LC_ALL=C) as "group|syncprobe
# row name<TAB>ops/sec". Its open_* rows and every sizes row use O_DIRECT:
# syncprobe's "(direct)" rows; fdatasync, fsync and the rest are buffered
# in both tools.
BEGIN { OFS = "\t" }
/^Compare file sync methods using one/ { g = "one" }
/^Compare file sync methods using two/ { g = "two" }
/^Compare open_sync with different write sizes/ { g = "sizes" }
/^Test if fsync on non-write file descriptor/ { g = "descriptor" }
/^Non-sync/ { g = "nosync" }
g != "" && / ops\/sec / {
	for (i = 2; i < NF && $(i + 1) != "ops/sec"; i++) ;
	name = $1
	for (j = 2; j < i; j++) name = name " " $j
	if (((g == "one" || g == "two") && name ~ /^open_/) || g == "sizes")
		name = name " (direct)"
	print g "|" name, $i
}
