# holds.awk -- X OP Y [OP Y]...: 1 if X OP Y holds for every pair, else 0;
# OP is <, <=, >= or >. The numbers are arguments so that a verdict needs
# no program built in a shell string.
BEGIN {
	x = ARGV[1] + 0
	ok = 1
	for (i = 2; i + 1 < ARGC; i += 2) {
		op = ARGV[i]; y = ARGV[i + 1] + 0
		if (op == "<") r = x < y
		else if (op == "<=") r = x <= y
		else if (op == ">=") r = x >= y
		else if (op == ">") r = x > y
		else { print "holds.awk: " op ": not a comparison" > "/dev/stderr"; exit 2 }
		ok = ok && r
	}
	print ok ? 1 : 0
	exit
}
