# cv_time.awk -v t=TOOL -v i=RUN: GNU time's "%e %M" line as the run's
# figures "TOOL|wall<TAB>seconds<TAB>RUN" and "TOOL|rss<TAB>KiB<TAB>RUN".
{ print t "|wall\t" $1 "\t" i; print t "|rss\t" $2 "\t" i }
