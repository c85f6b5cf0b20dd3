#!/bin/sh
# bench/filter.sh - triage-filter's cost per message, against the cost of
# starting a process, measured in the same run
#
# 300 deliveries of a ~6 KB user report (distinct Message-IDs, so none is
# a duplicate) through ./triage-filter with Linux 6.12's MAINTAINERS, the
# symbol index and the rules snapshot compiled, as the MTA would run it.
#   RUNS=N bench/filter.sh
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${TRIAGE_SHARED:-$SRC/../shared}
TREE=$SRC/build/linux
B=$SRC/build/bench/filter
RUNS=${RUNS:-300}
rm -rf "$B" && mkdir -p "$B/state" "$B/msgs"
cc -O2 -o "$B/spawn" "$SRC/bench/spawn.c"

if [ -f "$TREE/MAINTAINERS" ]; then
	MNT=$TREE/MAINTAINERS
elif [ -f "$SHARED/data/linux/MAINTAINERS" ]; then
	MNT=$SHARED/data/linux/MAINTAINERS
else
	echo "filter bench: no MAINTAINERS (build/linux or ../shared); skipped"
	exit 0
fi
cat >"$B/routes.conf" <<CONF
state_dir = $B/state
maintainers = $MNT
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
[ -d "$TREE/fs" ] && echo "kernel_tree = $TREE" >>"$B/routes.conf"
"$SRC/triage" -c "$B/routes.conf" update >/dev/null

msg=$SRC/tests/corpus/explain/0001-user-xfs-oops.eml
i=0
while [ $i -lt "$RUNS" ]; do
	i=$((i + 1))
	# pad to ~6 KB with a dmesg excerpt, as real reports carry
	{
		sed "s/^Message-ID: <\(.*\)>/Message-ID: <$i.\1>/" "$msg"
		j=0
		while [ $j -lt 40 ]; do
			j=$((j + 1))
			printf '[%5d.%06d] xfs filesystem being mounted at /srv/backup%d supports timestamps until 2038\n' $j $j $j
		done
	} >"$B/msgs/m$i.eml"
	echo "$B/msgs/m$i.eml"
done >"$B/list"
bytes=$(wc -c <"$B/msgs/m1.eml")

export TRIAGE_CONFIG="$B/routes.conf"
floor=$("$B/spawn" -n "$RUNS" "$B/list" -- /bin/true)
filt=$("$B/spawn" -F "$B/list" -- "$SRC/triage-filter")
sed "s/^Message-ID: <\(.*\)>/Message-ID: <rss.\1>/" "$B/msgs/m1.eml" >"$B/rss.eml"
rss=$( { /usr/bin/time -f '%M' "$SRC/triage-filter" <"$B/rss.eml"; } 2>&1 >/dev/null | tail -1) || rss=?
fm=$(echo "$floor" | tr ' ' '\n' | sed -n 's/^wall_median_ms=//p')
tm=$(echo "$filt" | tr ' ' '\n' | sed -n 's/^wall_median_ms=//p')
echo "== filter: $RUNS deliveries of a $bytes-byte report ($(ldd "$SRC/triage-filter" | wc -l) shared objects)"
echo "process floor (/bin/true):        $floor"
echo "triage-filter, one per message:   $filt"
echo "peak RSS of one more run:         ${rss} KiB (file pages of the mmapped indexes included)"
awk -v a="$tm" -v b="$fm" 'BEGIN { printf "ratio filter / process floor:     %.1fx\n", a / b }'
echo "recorded: $(sqlite3 "$B/state/triage.db" 'select count(*) from reports') reports, $(sqlite3 "$B/state/triage.db" 'select count(*) from outbox') queued forwards"
