# get.awk -v k=KEY -v c=COLUMN: column c of the line whose first field is
# KEY (the whole line for c=0).
BEGIN { FS = "\t" }
$1 == k { print $c }
