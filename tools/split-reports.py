#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""split-reports.py - split labelled reports into a tuning and a held-out part

usage: tools/split-reports.py [--held-out FRACTION] [--output FILE] DIR...

Reads the labelled messages of every DIR (DIR/index.tsv with the columns
file, class, ...; or the files of DIR/user, DIR/fuzzer and DIR/ai, as
router/app/corpus.c does) and writes the split file (classifiers/split.tsv by
default) that 'triage eval --split' and 'triage train --split' read: one
line per message, keyed by its Message-ID, marked "tune" (rules,
thresholds and the model may be fitted on it) or "held-out" (only ever
judged on).

Groups.  Messages are joined, as corpus_group() joins them, when they
share an author (the sender's bare address with "+tag" removed, the bug's
reporter for a Bugzilla relay; the display name's words), a thread (any
Message-ID, In-Reply-To or References id) or a "group=NAME" tag in the
index notes.  A group is never split: no author or thread is on both
sides.  'triage eval' checks that against its own grouping and refuses a
split that crosses one.

Assignment.  Each group is identified by its thread root: the smallest
(as a string) of its members' first References id, else In-Reply-To,
else Message-ID; it is ordered by the SHA-256 of that id, so the order
does not depend on file names or on the order of the sources.  The
groups are stratified by their majority class (ties: ai, fuzzer, user);
within each class, in hash order, a group goes to the held-out part when
it fits in the class's target (round(FRACTION x messages of the class),
default FRACTION 0.35).  A group larger than a quarter of its class's
target stays in the tuning part, so that no single author or thread
(syzbot, one prolific sender) makes up the held-out figures of a class.

Frozen.  When the output file exists, every message it already marks
keeps its mark, and so does the rest of its group (two marks in one
group are an error: fix the file by hand).  Only new groups are
assigned, towards the same targets.  So adding labelled data never moves
a report that figures were already judged on into the tuning part.

The output is sorted by source and file and carries no date: running the
script twice gives the same bytes.
"""

import argparse
import collections
import email
import email.policy
import email.utils
import hashlib
import os
import re
import sys

CLASSES = ("user", "fuzzer", "ai")
STRATUM_ORDER = ("ai", "fuzzer", "user")  # majority ties go to the rarer
PARTS = ("tune", "held-out")
ID_RE = re.compile(r"<([^<>]+)>")


def die(msg):
    sys.stderr.write("split-reports: %s\n" % msg)
    sys.exit(1)


def load_dir(d):
    """[(file, class, notes)] of a labelled directory"""
    index = os.path.join(d, "index.tsv")
    out = []
    if os.path.exists(index):
        with open(index, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                cols = line.rstrip("\n").split("\t")
                if n == 1 and len(cols) > 1 and cols[1] == "class":
                    continue
                if len(cols) < 2 or cols[1].strip() not in CLASSES:
                    die("%s:%d: no known class" % (index, n))
                notes = cols[4] if len(cols) > 4 else ""
                out.append((cols[0].strip(), cols[1].strip(), notes))
        return out
    for cls in CLASSES:
        sub = os.path.join(d, cls)
        if not os.path.isdir(sub):
            continue
        for name in sorted(os.listdir(sub)):
            if name.startswith(".") or not os.path.isfile(os.path.join(sub, name)):
                continue
            out.append(("%s/%s" % (cls, name), cls, ""))
    if not out:
        die("%s has no index.tsv and no user/, fuzzer/ or ai/ messages" % d)
    return out


def body_text(msg):
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        return part.get_content()
    except (LookupError, ValueError):
        return ""


def ids(value):
    return ID_RE.findall(str(value or ""))


def strip_id(value):
    found = ids(value)
    return found[0].strip() if found else str(value or "").strip(" <>\t\r\n")


def sender(msg):
    """(bare address, display name, relayed) as corpus_sender() sees them"""
    name, addr = email.utils.parseaddr(str(msg.get("From", "")))
    addr = addr.lower()
    relay = addr.startswith("bugzilla-daemon@") or addr.startswith("bugbot@")
    if relay:
        who = str(msg.get("X-Bugzilla-Who", "") or "").strip()
        if not who:
            m = re.search(r"Reporter: (\S+)", body_text(msg))
            who = m.group(1) if m else ""
        addr = who.lower()
    local, at, domain = addr.partition("@")
    if at and "+" in local:
        addr = local.split("+", 1)[0] + "@" + domain
    return addr, name.replace('"', "").replace("'", "").strip(), relay


def keys(msg, notes):
    """the group keys of one message (corpus.c item_keys())"""
    out = set()
    addr, name, relay = sender(msg)
    via = " via " in name
    if via:
        name = name.split(" via ", 1)[0]
    if addr and not via:
        out.add("addr:" + addr)
    if name and not relay:
        words = sorted(w for w in re.split(r"[ \t,]+", name.lower()) if w)
        key = " ".join(words)
        if len(key) >= 3:
            out.add("name:" + key)
    for h in ("Message-ID", "In-Reply-To", "References"):
        for v in msg.get_all(h, []):
            for i in ids(v) or ([strip_id(v)] if h == "Message-ID" else []):
                if i:
                    out.add("mid:" + i.lower())
    m = re.search(r"group=([^; \t\n]+)", notes or "")
    if m:
        out.add("tag:" + m.group(1).lower())
    return out


def thread_root(msg, mid):
    refs = [i for v in msg.get_all("References", []) for i in ids(v)]
    if refs:
        return refs[0]
    irt = ids(msg.get("In-Reply-To", ""))
    return irt[0] if irt else mid


class Item:
    def __init__(self, source, file, cls, notes, path):
        with open(path, "rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.default)
        self.source, self.file, self.cls = source, file, cls
        self.mid = strip_id(msg.get("Message-ID", ""))
        if not self.mid:
            die("%s has no Message-ID: the split cannot key it" % path)
        self.keys = keys(msg, notes)
        self.root = thread_root(msg, self.mid)


def groups_of(items):
    parent = list(range(len(items)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first = {}
    for i, it in enumerate(items):
        for k in sorted(it.keys):
            if k in first:
                a, b = find(first[k]), find(i)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                first[k] = i
    groups = collections.defaultdict(list)
    for i in range(len(items)):
        groups[find(i)].append(items[i])
    return list(groups.values())


def read_marks(path):
    marks = {}
    if not os.path.exists(path):
        return marks
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 2 or cols[1] not in PARTS:
                die("%s:%d: expected MESSAGE-ID<TAB>tune|held-out" % (path, n))
            if marks.get(cols[0], cols[1]) != cols[1]:
                die("%s:%d: %s is marked twice" % (path, n, cols[0]))
            marks[cols[0]] = cols[1]
    return marks


HEADER = """\
# split.tsv - which labelled reports tune the classifier, which judge it
#
# Written by tools/split-reports.py (see its description), do not edit:
#	tools/split-reports.py --output classifiers/split.tsv DIR...
# sources (the labelled directories, by name): %(dirs)s
# %(total)d messages in %(groups)d author/thread groups; held-out target
# %(fraction)s of each class, by whole groups (no author or thread on both
# sides), groups of more than a quarter of their class's target kept for
# tuning; the groups ordered by the SHA-256 of their thread root.
#	part       user  fuzzer  ai   groups
#	tune       %(tune)s
#	held-out   %(held)s
#
# "tune": rules, thresholds and the model may be fitted on these reports.
# "held-out": nothing is ever trained or fitted on them; 'triage eval
# --split' judges on them, 'triage train --split' leaves them out (both
# by Message-ID).  Marks are frozen: re-running the script keeps every
# mark and only assigns new messages.  The rules written before this
# split existed had all of them in view.
#
# columns: message-id, part, source (the labelled directory), file in it
# (a hint for humans; the Message-ID is the key), class, group (the first
# 8 hex digits of the SHA-256 of the group's thread root)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    ap.add_argument("--output", default="classifiers/split.tsv")
    ap.add_argument("--held-out", type=float, default=0.35, dest="fraction")
    a = ap.parse_args()
    if not 0 < a.fraction < 1:
        die("--held-out: a fraction between 0 and 1")

    items = []
    for d in a.dirs:
        source = os.path.basename(os.path.normpath(d))
        for file, cls, notes in load_dir(d):
            items.append(Item(source, file, cls, notes, os.path.join(d, file)))
    seen = {}
    for it in items:
        if it.mid in seen:
            die("%s/%s and %s share the Message-ID %s" % (it.source, it.file, seen[it.mid], it.mid))
        seen[it.mid] = "%s/%s" % (it.source, it.file)

    marks = read_marks(a.output)
    groups = groups_of(items)
    part = {}
    todo = []
    for g in groups:
        root = min(it.root for it in g)
        gid = hashlib.sha256(root.encode("utf-8")).hexdigest()
        for it in g:
            it.group = gid[:8]
        old = {marks[it.mid] for it in g if it.mid in marks}
        if len(old) > 1:
            die("group %s (%s) has both marks" % (gid[:8], ", ".join(it.file for it in g)))
        if old:
            p = old.pop()
            for it in g:
                part[it.mid] = p
        else:
            todo.append((gid, g))

    def stratum(g):
        n = collections.Counter(it.cls for it in g)
        return max(STRATUM_ORDER, key=lambda c: (n[c], -STRATUM_ORDER.index(c)))

    per_class = collections.Counter(it.cls for it in items)
    held = collections.Counter(it.cls for it in items if part.get(it.mid) == "held-out")
    for cls in STRATUM_ORDER:
        target = round(a.fraction * per_class[cls])
        cap = max(2, target // 4)
        for gid, g in sorted(todo, key=lambda t: t[0]):
            if stratum(g) != cls:
                continue
            side = "tune"
            if len(g) <= cap and held[cls] + len(g) <= target:
                side = "held-out"
                held.update(it.cls for it in g)
            for it in g:
                part[it.mid] = side

    def row(p):
        n = collections.Counter(it.cls for it in items if part[it.mid] == p)
        ng = sum(1 for g in groups if part[g[0].mid] == p)
        return "%4d  %6d  %3d  %6d" % (n["user"], n["fuzzer"], n["ai"], ng)

    items.sort(key=lambda it: (it.source, it.file))
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(HEADER % {
            "dirs": " ".join(sorted({it.source for it in items})),
            "total": len(items),
            "groups": len(groups),
            "fraction": "%g" % a.fraction,
            "tune": row("tune"),
            "held": row("held-out"),
        })
        for it in items:
            f.write("\t".join((it.mid, part[it.mid], it.source, it.file, it.cls, it.group)) + "\n")
    os.replace(tmp, a.output)


if __name__ == "__main__":
    main()
