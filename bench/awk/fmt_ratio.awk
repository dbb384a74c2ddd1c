# fmt_ratio.awk -v k=KEY: the summary line (summarize.awk) whose key is
# KEY as "median  min  max", each with 2 decimals, no newline: a cell of a
# ratio table. The key must match whole: "O_DSYNC|p99" is not
# "O_DIRECT+O_DSYNC|p99".
BEGIN { FS = "\t" }
$1 == k { printf "%6.2f %6.2f %6.2f", $3, $4, $5 }
