#!/bin/sh
# demo.sh - what 'make demo' shows, on a fresh machine, with no setup
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
D=$SRC/build/demo
TRIAGE=$SRC/triage
FILTER=$SRC/triage-filter
rm -rf "$D"
mkdir -p "$D/state"
# The built-in default configuration, with state kept in the build tree.
export TRIAGE_STATE_DIR="$D/state"
unset TRIAGE_CONFIG
# Before 'make install' the rules are found next to the programs.
config="the built-in configuration"

echo "== triage update: compile Linux v6.12 MAINTAINERS and index its functions (from Debian's linux-source-6.12)"
"$TRIAGE" update --maintainers "$SRC/build/linux/MAINTAINERS" \
	--tree "$SRC/build/linux" --kernel-tree "$SRC/build/linux"
echo
echo "== triage map: which sections own these files?"
"$TRIAGE" map fs/xfs/xfs_inode.c net/ipv4/tcp.c drivers/gpu/drm/i915/i915_gem.c mm/slub.c
echo
echo "== triage map --json fs/xfs/xfs_inode.c (first section)"
"$TRIAGE" map --json fs/xfs/xfs_inode.c | sed -n '1,30p'
echo
echo "== triage-filter: two reports delivered as the MTA would ($config)"
for m in demo-example.eml demo-example-ai.eml; do
	from=$(sed -n 's/^From: .*<\(.*\)>$/\1/p' "$SRC/tools/$m" | head -1)
	rc=0
	SENDER=$from RECIPIENT=bugs@example.org ORIGINAL_RECIPIENT=bugs@example.org \
		"$FILTER" <"$SRC/tools/$m" >"$D/filter.out" || rc=$?
	echo "tools/$m: exit $rc, $(wc -c <"$D/filter.out") bytes on standard output"
done
echo
echo "== triage explain tools/demo-example.eml: why (the same stages, as a dry run)"
"$TRIAGE" explain "$SRC/tools/demo-example.eml"
echo
echo "== the audit database: reports and decisions"
sqlite3 -header -column "$D/state/triage.db" \
	"SELECT r.id, r.class, r.state, r.section, d.action, d.recipient
	   FROM reports r JOIN decisions d ON d.report = r.id ORDER BY r.id"
echo
echo "== the outbox: the forward waits for 'triage deliver' (transport = smtp; nothing is sent here)"
# a forward stores what it adds and names the stored message (triage(1))
sqlite3 -header -column "$D/state/triage.db" \
	"SELECT o.id, o.report, o.kind, o.state, o.recipients,
	   length(CAST(o.message AS BLOB)) + coalesce(length(CAST(m.raw AS BLOB))
	   - o.raw_offset, 0) AS bytes
	   FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report
	   ORDER BY o.id"
sqlite3 "$D/state/triage.db" \
	"SELECT CAST(o.message || coalesce(substr(m.raw, o.raw_offset + 1), x'')
	   AS BLOB) FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report
	   ORDER BY o.id LIMIT 1" | sed '/^From: /q'
if "$TRIAGE" pending --help >/dev/null 2>&1; then
	echo
	echo "== triage pending: what waits for a human"
	"$TRIAGE" pending
fi
