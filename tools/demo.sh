#!/bin/sh
# demo.sh - what 'make demo' shows, on a fresh machine, with no setup
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
D=$SRC/build/demo
TRIAGE=$SRC/triage
rm -rf "$D"
mkdir -p "$D/state"
# The built-in default configuration, with state kept in the build tree.
export TRIAGE_STATE_DIR="$D/state"
unset TRIAGE_CONFIG

echo "== triage update: compile Linux v6.12 MAINTAINERS (from Debian's linux-source-6.12)"
"$TRIAGE" update --maintainers "$SRC/build/linux/MAINTAINERS" --tree "$SRC/build/linux"
echo
echo "== triage map: which sections own these files?"
"$TRIAGE" map fs/xfs/xfs_inode.c net/ipv4/tcp.c drivers/gpu/drm/i915/i915_gem.c mm/slub.c
echo
echo "== triage map --json fs/xfs/xfs_inode.c (first section)"
"$TRIAGE" map --json fs/xfs/xfs_inode.c | sed -n '1,30p'
