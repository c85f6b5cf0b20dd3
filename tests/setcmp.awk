# setcmp.awk - compare "path<TAB>A | B" lines against an expected TSV
# (path in column 1, sections in column 2, " | " separated) as sets.
#   awk -f setcmp.awk expected.tsv actual.txt
# Prints the disagreeing paths and a summary line; exits 1 unless all agree.
BEGIN { FS = "\t" }
FNR == NR {
	if (FNR == 1 && $1 == "path")
		next
	want[$1] = norm($2)
	n++
	next
}
{
	got[$1] = norm($2)
}
END {
	for (p in want) {
		if (!(p in got)) {
			printf "missing: %s\n", p
			bad++
		} else if (got[p] != want[p]) {
			printf "differs: %s\n  want: %s\n  got:  %s\n", p, want[p], got[p]
			bad++
		} else {
			ok++
		}
	}
	printf "agreement: %d/%d paths (%.1f%%) have exactly the expected section set\n", ok, n, n ? 100 * ok / n : 0
	exit bad ? 1 : 0
}
function norm(s,   a, k, i, j, t) {
	k = split(s, a, / \| /)
	for (i = 1; i <= k; i++)
		for (j = i + 1; j <= k; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	s = ""
	for (i = 1; i <= k; i++)
		s = s (i > 1 ? " | " : "") a[i]
	return s
}
