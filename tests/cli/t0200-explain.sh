#!/bin/sh
# t0200-explain: 'triage explain' runs the whole pipeline as a dry run
. "$(dirname "$0")/../lib.sh"
C="$SRC/tests/corpus/explain"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
export TRIAGE_CONFIG="$T/routes.conf"
test_setup 'function definitions and modules of a tiny fixture tree' '
	"$TRIAGE" update --kernel-tree "$SRC/tests/data/kernel-tree" >"$T/update.out" &&
	grep -q "^symbols: " "$T/update.out"
'

# check.py JSON EXPECT: every "key: value" line of EXPECT holds in JSON;
# "a.b" walks objects, "sections.N" is the N-th section's name.
cat >"$T/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    key, want = line.split(": ", 1)
    v = d
    for part in key.split("."):
        if isinstance(v, list):
            v = v[int(part)]
            if isinstance(v, dict) and "name" in v and key.startswith("sections"):
                v = v["name"]
        else:
            v = v[part]
    got = json.dumps(v) if not isinstance(v, str) else v
    if got != want:
        print("%s: %s: want %r, got %r" % (sys.argv[2], key, want, got))
        bad += 1
sys.exit(1 if bad else 0)
PY

for msg in "$C"/*.eml "$C"/*.txt; do
	name=$(basename "$msg")
	test_expect_success "explain $name" '
		"$TRIAGE" explain --json "$msg" >"$T/out.json" &&
		python3 "$T/check.py" "$T/out.json" "${msg%.*}.expect"
	'
done

test_expect_success 'the JSON carries every field issues 3-5 name' '
	"$TRIAGE" explain --json "$C/0003-syzbot-like.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	for k in ("message_id", "subject", "evidence", "sections", "class",
	          "scores", "confidence", "rules", "recipient", "reason",
	          "action"):
	    assert k in d, k
	for k in ("title", "guilty_file", "frames", "files", "functions",
	          "kernel_version", "hardware", "reproducer", "subject_prefix"):
	    assert k in d["evidence"], k
	f = d["evidence"]["frames"][0]
	for k in ("function", "file", "line", "module"):
	    assert k in f, k
	assert set(d["scores"]) == {"user", "fuzzer", "ai"}
	assert all({"name", "score", "describe"} <= set(r) for r in d["rules"])
	assert all({"name", "score"} <= set(s) for s in d["sections"])
	assert d["sections"] == sorted(d["sections"], key=lambda s: -s["score"])
	PY
'

test_expect_success 'explain reads standard input and writes no database' '
	"$TRIAGE" explain <"$C/0001-user-xfs-oops.eml" >"$T/out.txt" &&
	grep -q "^class     user" "$T/out.txt" &&
	! test -e "$T/state/triage.db"
'

# a trace whose claims the fixture tree contradicts: xfs_inode_item_push
# (lines 7-9 of its file) cited at line 700, and called by xfsaild, not
# the other way round
cat >"$T/trace.eml" <<'EOF'
From: Some One <someone@example.com>
To: bugs@example.org
Subject: xfs: use-after-free in xfsaild
Message-ID: <trace-claims@example.com>

BUG: KASAN: slab-use-after-free in xfsaild+0x2a/0x90 fs/xfs/xfs_trans_ail.c:5
Read of size 8 at addr ffff888012345678 by task xfsaild/1234

Call Trace:
 <TASK>
 xfsaild+0x2a/0x90 fs/xfs/xfs_trans_ail.c:5
 xfs_inode_item_push+0x41/0x100 fs/xfs/xfs_inode_item.c:700
 </TASK>
EOF

test_expect_success 'explain shows the claims checked: a line outside its function, a caller that does not call the frame above' '
	"$TRIAGE" explain "$T/trace.eml" >"$T/out.txt" &&
	grep -q "^claims    .* lines 1/2, calls 1/1$" "$T/out.txt" &&
	grep -q "frame xfs_inode_item_push: fs/xfs/xfs_inode_item.c:700 is not in it (lines 7-9" "$T/out.txt" &&
	grep -q "AI_FALSE_TRACE" "$T/out.txt" &&
	"$TRIAGE" explain --json "$T/trace.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	c = json.load(open(sys.argv[1]))["claims"]
	assert c["kinds"]["lines"] == [1, 2], c
	assert c["kinds"]["calls"] == [1, 1], c
	assert c["first"].startswith("frame xfs_inode_item_push:"), c
	PY
'

# the same trace from a report of net-next: the tree indexed is older
# than its code, so its lines and calls are not checked
sed "s/^Subject: xfs: use-after-free in xfsaild/&\\
Message-ID: <trace-next@example.com>/; /^Message-ID: <trace-claims/d; s/^BUG: KASAN/Seen on net-next today.\\
\\
&/" "$T/trace.eml" >"$T/trace-next.eml"

test_expect_success 'a development tree'"'"'s trace: its lines and calls are not checked' '
	grep -q "^Seen on net-next today" "$T/trace-next.eml" &&
	"$TRIAGE" explain "$T/trace-next.eml" >"$T/out.txt" &&
	! grep -q "AI_FALSE_TRACE" "$T/out.txt" &&
	"$TRIAGE" explain --json "$T/trace-next.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	c = json.load(open(sys.argv[1]))["claims"]
	assert c["kinds"].get("lines", [0, 0]) == [0, 0], c
	assert c["kinds"].get("calls", [0, 0]) == [0, 0], c
	assert c["false"] == 0, c
	PY
'

test_expect_success 'a real trace of the fixture tree: its claims hold' '
	"$TRIAGE" explain --json "$C/0001-user-xfs-oops.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	c = json.load(open(sys.argv[1]))["claims"]
	assert c["kinds"]["calls"] == [0, 1], c
	assert c["false"] == 0, c
	PY
'

# a developer's report about a driver the tree does not have yet: its
# names are not invented, they are newer than the tree (not checked)
cat >"$T/newer.eml" <<'EOF'
From: Some One <someone@example.com>
To: bugs@example.org
Subject: build error in drivers/hwmon/newsmc-hwmon.c
Message-ID: <newer-driver@example.com>

With clang-17, newsmc_hwmon_write_f32() inlined into
newsmc_hwmon_write_key() fails a FIELD_PREP check; btusb_disconnect()
and btusb_made_up_helper() are not involved.
EOF

test_expect_success 'names of a driver the tree lacks are not checked; an invented one of a known driver fails' '
	"$TRIAGE" explain "$T/newer.eml" >"$T/out.txt" &&
	grep -q "^claims    2 checked, 1 false: names 1/2$" "$T/out.txt" &&
	grep -q "btusb_made_up_helper() is not a kernel function" "$T/out.txt" &&
	grep -q "against the tree indexed (its version not known)" "$T/out.txt" &&
	grep -q "2 names not checked: the tree is older" "$T/out.txt" &&
	"$TRIAGE" explain --json "$T/newer.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["claims"]
	assert c["not_checked_newer"] == 2, c
	assert c["tree_version"] is None, c
	assert c["kinds"]["names"] == [1, 2], c
	PY
'

# code quoted from a file of the fixture tree that is not in it
cat >"$T/quote.eml" <<'EOF'
From: Some One <someone@example.com>
To: bugs@example.org
Subject: xfs: missing check in xfs_inode_item_push
Message-ID: <quote-claims@example.com>

In fs/xfs/xfs_inode_item.c:

	if (!lip->li_buf)
		return xfs_iflush_cluster(lip->li_buf, buffer_list);

which dereferences a NULL buffer.
EOF

test_expect_success 'explain shows a quote the tree does not have' '
	"$TRIAGE" explain "$T/quote.eml" >"$T/out.txt" &&
	grep -q "^claims    .* quotes 1/1" "$T/out.txt" &&
	grep -q "the code quoted from fs/xfs/xfs_inode_item.c (2 lines) is in no line of it" "$T/out.txt" &&
	sed "s/if (!lip->li_buf)/struct list_head	*buffer_list)/" "$T/quote.eml" >"$T/quote2.eml" &&
	"$TRIAGE" explain --json "$T/quote2.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	c = json.load(open(sys.argv[1]))["claims"]
	assert c["kinds"]["quotes"] == [0, 1], c
	PY
'

# commit ids a report cites, checked against the history experts import read
if command -v git >/dev/null; then
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	test_expect_success 'explain shows the commit ids checked against the history imported' '
		git init -q "$T/repo" &&
		for s in "Linux 6.11" "xfs: flush the log before the push" "Linux 6.12"; do
			echo "$s" >>"$T/repo/f" &&
			(cd "$T/repo" && git add f &&
			 GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org \
			 GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org \
			 git commit -q -m "$s") || return 1
		done &&
		"$TRIAGE" experts import --git "$T/repo" --since all --quiet >"$T/imp.out" &&
		grep -q "history: 3 commits, 2 releases" "$T/imp.out" &&
		fix=$(git -C "$T/repo" log --format=%H --grep=flush | cut -c1-12) &&
		test -n "$fix" &&
		cat >"$T/commits.eml" <<-EOF &&
		From: Some One <someone@example.com>
		To: bugs@example.org
		Subject: xfs: hang in xfs_inode_item_push
		Message-ID: <commit-claims@example.com>

		CPU: 0 PID: 1 Comm: umount Not tainted 6.12.0 #1
		Fixes: $fix ("xfs: take the ilock in the push")
		I bisected it: first bad commit: 0123456789ab
		EOF
		"$TRIAGE" explain "$T/commits.eml" >"$T/out.txt" &&
		grep -q "^claims    .* commits 2/2" "$T/out.txt" &&
		grep -q "commits against the history imported, 3 commits to Linux 6.12$" "$T/out.txt" &&
		sed "s/take the ilock in/flush the log before/; s/6.12.0 #1/6.13.0 #1/" \
			"$T/commits.eml" >"$T/commits2.eml" &&
		"$TRIAGE" explain --json "$T/commits2.eml" >"$T/out.json" &&
		python3 - "$T/out.json" <<-\PY
		import json, sys
		c = json.load(open(sys.argv[1]))["claims"]
		assert c["kinds"]["commits"] == [0, 1], c
		assert c["commits_not_checked"] == 1, c
		assert c["history_commits"] == 3, c
		PY
	'
fi

test_expect_success 'a missing file is reported, exit 66' '
	test_exit 66 "$TRIAGE" explain "$T/nope.eml" 2>"$T/err" &&
	grep -q "cannot open" "$T/err"
'

test_done
