#!/bin/sh
# longfuncs.sh [-f MAXFILE] [-l MAXFUNC] DIR|FILE... - C files and
# functions too long to read (issue 19: no file over 2,000 lines, no
# function over ~150)
#
# Prints one line per C file over MAXFILE lines (default 2000) and per
# function whose body, from its opening to its closing brace, is over
# MAXFUNC lines (default 150):
#   file  router/x/y.c  2345 lines
#   func  router/x/y.c:120  name  180 lines
# and exits 1 when it printed any.  Generated tables (*_table.c) are
# data: their length is not counted.  It reads clang-formatted code (make
# format-check): a function's body opens with "{" alone at column 0 and
# closes with "}" alone at column 0, which no initializer or block does.
set -eu

maxfile=2000
maxfunc=150
while getopts f:l: o; do
	case $o in
	f) maxfile=$OPTARG ;;
	l) maxfunc=$OPTARG ;;
	*) echo "usage: longfuncs.sh [-f MAXFILE] [-l MAXFUNC] DIR|FILE..." >&2; exit 64 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: longfuncs.sh [-f MAXFILE] [-l MAXFUNC] DIR|FILE..." >&2; exit 64; }

files=$(for a in "$@"; do
	if [ -d "$a" ]; then
		find "$a" -name '*.c' -type f
	else
		echo "$a"
	fi
done | LC_ALL=C sort)
[ -n "$files" ] || { echo "longfuncs.sh: no C file in $*" >&2; exit 64; }

# shellcheck disable=SC2086
awk -v maxfile="$maxfile" -v maxfunc="$maxfunc" '
function flush() {
	if (fname != "" && fname !~ /_table\.c$/ && flines > maxfile) {
		printf "file  %s  %d lines\n", fname, flines
		over++
	}
}
FNR == 1 { flush(); fname = FILENAME; flines = 0; open = 0; sig = "" }
{ flines++ }
# the last identifier followed by "(" in the lines before the body is
# the function name (the signature may span lines)
!open && /^[A-Za-z_]/ { sig = $0; sigline = FNR; next }
!open && /^[ \t]/ && sig != "" { sig = sig " " $0; next }
!open && /^\{$/ && sig ~ /\(/ {
	name = sig
	# attributes and PRINTF_LIKE(...)-style macros are not the name
	gsub(/__attribute__\(\([^)]*\)\)/, "", name)
	gsub(/[A-Z_][A-Z0-9_]*\([^)]*\)/, "", name)
	sub(/\(.*/, "", name)
	sub(/.*[^A-Za-z0-9_]/, "", name)
	open = 1; start = FNR
	next
}
!open { sig = ""; next }
open && /^\}$/ {
	len = FNR - start + 1
	if (len > maxfunc) {
		printf "func  %s:%d  %s  %d lines\n", FILENAME, sigline, name, len
		over++
	}
	open = 0; sig = ""
}
END { flush(); exit over ? 1 : 0 }
' $files
