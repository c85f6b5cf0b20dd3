#!/bin/sh
# fetch-real-mail.sh MIRRORS OUTDIR LABELS... - the messages hand labels name
#
# tests/real/*.tsv name each fetched message by its public-inbox git
# mirror and commit (column "source": OWNER/REPO@COMMIT; the message is
# the commit's file m).  MIRRORS holds the mirrors as repositories
# OWNER+REPO/repo, bare or with a .git inside (what the search tool's
# fetch brings); the messages go to OUTDIR/LIST/FILE, as
# tools/eval-real.py reads them.  Rows whose source is "shared" are
# ../shared/corpus/lists: nothing to fetch.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 MIRRORS OUTDIR LABELS..." >&2; exit 64; }
mirrors=$1 out=$2
shift 2
for labels in "$@"; do
	set_dir="$out/$(basename "$labels" .tsv)"
	grep -v '^#' "$labels" | tail -n +2 |
	while IFS='	' read -r mid list file kind class sections note source; do
		[ "$source" = shared ] && continue
		repo=${source%@*} commit=${source#*@}
		git_dir="$mirrors/$(echo "$repo" | tr / +)/repo"
		# some snapshots arrive as a work tree with its .git inside
		[ -d "$git_dir/.git" ] && git_dir="$git_dir/.git"
		[ -d "$git_dir" ] || { echo "$0: no mirror $git_dir" >&2; exit 66; }
		mkdir -p "$set_dir/$list"
		git --git-dir="$git_dir" show "$commit:m" >"$set_dir/$list/$file.tmp" &&
			mv "$set_dir/$list/$file.tmp" "$set_dir/$list/$file"
	done
done
