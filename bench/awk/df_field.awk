# df_field.awk -v f=N: field N of df -P's line for the filesystem.
NR == 2 { print $f }
