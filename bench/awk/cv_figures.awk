# cv_figures.awk -v t=TOOL -v i=RUN -v cd=COMMIT_DELAY ROWS: a run's
# commit_delay and fdatasync/fsync figures, as cv_time.awk's lines, from
# its rows ("group|name<TAB>ops/sec"). commit_delay: syncprobe's advice
# (cd); for pg_test_fsync half its fdatasync time per op (1e6 / ops/sec,
# unrounded), rounded as syncprobe rounds. The fdatasync/fsync ratio from
# one write.
BEGIN { FS = "\t" }
{ ops[$1] = $2 }
END {
	fd = ops["one|fdatasync"]; fs = ops["one|fsync"]
	if (t == "pg" && fd > 0) cd = int(1e6 / fd / 2 + 0.5)
	if (cd != "") print t "|commit_delay\t" cd "\t" i
	if (fd > 0 && fs > 0) print t "|fdatasync/fsync\t" fd / fs "\t" i
}
