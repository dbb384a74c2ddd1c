# cv_row.awk -v f=FORMAT: a summary line (summarize.awk) as one tool's
# cells of table 4, median, min and max in FORMAT and the CV in percent
# ("-" for one run), no newline.
BEGIN { FS = "\t" }
{
	cv = $7 < 0 ? "-" : sprintf("%.1f%%", $7 * 100)
	printf " " f " " f " " f " %6s |", $3, $4, $5, cv
}
