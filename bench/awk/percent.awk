# percent.awk -v x=X: X * 100 with one decimal, no newline.
BEGIN { printf "%.1f", x * 100 }
