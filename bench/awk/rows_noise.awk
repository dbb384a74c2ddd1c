# rows_noise.awk -v k=KEY: from the summary of pg_test_fsync's ratios to
# its previous run, "; pg_test_fsync/itself MED, MIN..MAX" for KEY (no
# newline), or nothing: the noise beside a target's verdict.
BEGIN { FS = "\t" }
$1 == k { printf "; pg_test_fsync/itself %.2f, %.2f..%.2f", $3, $4, $5 }
