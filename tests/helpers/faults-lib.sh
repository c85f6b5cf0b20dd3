# faults-lib.sh - shared by the t06xx fault and load tests
#
# make_messages DIR N [PREFIX] - N distinct user reports, each with a
#	crash of its own, that are forwarded (XFS section of tests/data/MAINTAINERS.kernel), each
#	with a unique Message-ID <PREFIX.K@faults.example> and a last
#	line "END-OF-REPORT PREFIX.K", so a truncated copy shows; prints
#	nothing, writes DIR/list (one path a line)
# write_conf FILE [EXTRA LINES] - routes.conf for the fault tests (the
#	MAINTAINERS file and rules directory are FAULTS_MAINTAINERS and
#	FAULTS_RULES: copies where another user must read them)
# build_killrun - cc tests/helpers/killrun.c into $T/killrun
# sendmail_standin PATH SPOOL - a sendmail(1) that stores each message
#	it is given, atomically (written aside, then renamed), in SPOOL
# start_peer SPOOL - start tests/helpers/smtp-peer.py on SPOOL, set
#	PEER_PORT, PEER_PID (its pid also in SPOOL/pid)
# stop_peer SPOOL - stop it, and wait until it has ended
# count_spool SPOOL N [PREFIX] - check SPOOL holds each of the N reports
#	exactly once and complete; prints "# " figures, fails otherwise

make_messages() {
	python3 - "$1" "$2" "${3:-m}" "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" <<-\PY
	import os, sys
	d, n, prefix, src = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
	os.makedirs(d, exist_ok=True)
	orig = open(src, "rb").read()
	paths = []
	for k in range(n):
	    tag = "%s.%d" % (prefix, k)
	    m = orig.replace(b"<0001.user-xfs@example.com>", b"<%s@faults.example>" % tag.encode())
	    m = m.replace(b"every night", b"every night (%s)" % tag.encode())
	    # a reporter of its own: one sender's reports beyond sender_cap wait
	    m = m.replace(b"dana@example.com", b"dana.%s@example.com" % tag.replace(".", "-").encode())
	    # a crash of its own: the same crash again would wait as "seen again"
	    fn = b"xfs_inode_item_push_" + tag.replace(".", "_").encode()
	    m = m.replace(b"xfs_inode_item_push", fn)
	    m += b"\nEND-OF-REPORT %s\n" % tag.encode()
	    p = os.path.join(d, tag + ".eml")
	    with open(p, "wb") as f:
	        f.write(m)
	    paths.append(p)
	with open(os.path.join(d, "list"), "w") as f:
	    f.write("".join(p + "\n" for p in paths))
	PY
}

FAULTS_MAINTAINERS=$SRC/tests/data/MAINTAINERS.kernel
FAULTS_RULES=$SRC/classifiers
write_conf() {
	f=$1 &&
	shift &&
	{
		echo "state_dir = $T/state" &&
		echo "maintainers = $FAULTS_MAINTAINERS" &&
		echo "rules_dir = $FAULTS_RULES" &&
		echo "router_address = triage@example.org" &&
		for l in "$@"; do echo "$l" || return 1; done
	} >"$f"
}

build_killrun() {
	[ -x "$T/killrun" ] ||
	${CC:-cc} -O2 -Wall -o "$T/killrun" "$SRC/tests/helpers/killrun.c"
}

sendmail_standin() {
	mkdir -p "$2" &&
	cat >"$1" <<-EOF &&
	#!/bin/sh
	# a sendmail(1) stand-in: keep the message, atomically
	tmp="$2/.tmp.\$\$"
	{ echo "ARGS \$*"; cat; } >"\$tmp" || exit 75
	exec mv "\$tmp" "\$(mktemp "$2/msg.XXXXXXXXXX")"
	EOF
	chmod 755 "$1"
}

count_spool() {
	python3 - "$1" "$2" "${3:-m}" <<-\PY
	import os, re, sys, collections
	spool, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	seen = collections.Counter()
	partial = 0
	for name in os.listdir(spool):
	    if not name.startswith("msg."):
	        continue
	    data = open(os.path.join(spool, name), "rb").read()
	    m = re.search(rb"^Message-ID: <([^@>]+)@faults\.example>", data, re.M)
	    if m and not m.group(1).startswith(prefix.encode() + b"."):
	        continue  # another test's
	    if not m or not data.rstrip().endswith(b"END-OF-REPORT " + m.group(1)):
	        partial += 1
	        continue
	    seen[m.group(1).decode()] += 1
	want = {"%s.%d" % (prefix, k) for k in range(n)}
	missing = want - set(seen)
	dups = {k: c for k, c in seen.items() if c > 1}
	extra = set(seen) - want
	print("# spool: %d distinct reports forwarded of %d, %d missing, %d sent more than once (%d extra copies), %d truncated or empty"
	      % (len(set(seen) & want), n, len(missing), len(dups), sum(c - 1 for c in dups.values()), partial))
	if missing: print("missing:", sorted(missing)[:10])
	if dups: print("duplicates:", sorted(dups.items())[:10])
	sys.exit(1 if missing or dups or extra or partial else 0)
	PY
}

start_peer() {
	mkdir -p "$1" &&
	rm -f "$1/port" &&
	{ python3 "$SRC/tests/helpers/smtp-peer.py" "$1" 2>"$1/err" & } &&
	PEER_PID=$! &&
	echo $PEER_PID >"$1/pid" &&
	test_wait 10 test -s "$1/port" &&
	PEER_PORT=$(cat "$1/port") ||
	{ cat "$1/err"; return 1; }
}

# (a test that started it ran in a subshell of its own: wait(1) cannot
# wait for it, and it may stay a zombie where nobody reaps orphans)
stop_peer() {
	[ -f "$1/pid" ] || return 0
	pid=$(cat "$1/pid") &&
	{ kill "$pid" 2>/dev/null || :; } &&
	{ wait "$pid" 2>/dev/null || :; } &&
	test_wait 10 gone "$pid" &&
	rm -f "$1/pid"
}
gone() {
	! kill -0 "$1" 2>/dev/null ||
	grep -q "^State:.*Z" "/proc/$1/status" 2>/dev/null
}
