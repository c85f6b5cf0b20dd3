#!/bin/sh
# embed.sh SYMBOL FILE - print a C file defining 'const char SYMBOL[]' with FILE's bytes
set -eu
sym=$1
file=$2
printf '/* generated from %s by tools/embed.sh; do not edit */\n' "$file"
printf 'const char %s[] = {\n' "$sym"
od -An -v -tu1 "$file" | awk '{ for (i = 1; i <= NF; i++) printf "%s,", $i; printf "\n" }'
printf '0 };\n'
