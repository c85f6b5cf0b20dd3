#!/usr/bin/env python3
# check.py FILTER DB CASE.eml CASE.expect - one hostile case (t0260-hostile)
#
# Runs the real triage-filter on CASE.eml (with the environment of
# CASE.env when there is one: VAR=value lines, \r \n \t escapes), twice,
# and checks the filter contract and CASE.expect.  Always checked:
#   - the exit status is 0 or 75, the one CASE.expect names;
#   - nothing on stdout, at most one line on stderr;
#   - with exit 0, the report is recorded exactly once (by its sha256),
#     and the second run is a redelivery, not a second report;
#   - the stored subject, from, message-id and envelope are valid UTF-8
#     without CR, LF or NUL;
#   - every message queued for it: the block we add before the original
#     has only our header names and no CR; the original follows byte for
#     byte; no recipient is an address the message injected
#     (@example.net: every injected address in the corpus is there).
#     Only forward_subject_tag's "[triage #ID-TOKEN] " may be added to the
#     original (after "Subject: ").
# CASE.expect, one "key value" a line ('#' comments):
#   exit N | state S | class C | reason ERE | flags-set N | flags-clear N
#   outbox N | subject TEXT | message-id TEXT | from-addr TEXT
#   envelope-from TEXT|NULL | raw verbatim | max-seconds N
#   reply-to ADDR (the one reply queued) | config LINE (added to the
#   routes.conf for this case only)
import hashlib
import os
import re
import sqlite3
import subprocess
import sys
import time
import zlib

filt, dbpath, eml, expect = sys.argv[1:5]
data = open(eml, "rb").read()
want = {}
for line in open(expect, encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    k, _, v = line.partition(" ")
    want[k] = v

env = dict(os.environ)
envfile = eml[: -len(".eml")] + ".env"
if os.path.exists(envfile):
    for line in open(envfile, encoding="utf-8"):
        line = line.rstrip("\n")
        if line:
            k, _, v = line.partition("=")
            env[k] = v.encode().decode("unicode_escape")

if "config" in want:
    # this case's setting on top of the test's routes.conf
    conf = open(env["TRIAGE_CONFIG"], encoding="utf-8").read()
    extra = os.path.join(os.path.dirname(dbpath), "..", "case.conf")
    with open(extra, "w", encoding="utf-8") as f:
        f.write(conf + "\n" + want["config"] + "\n")
    env["TRIAGE_CONFIG"] = extra

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def run():
    t = time.monotonic()
    r = subprocess.run([filt], input=data, env=env, capture_output=True)
    return r, time.monotonic() - t


def clean(s, what):
    if s is None:
        return
    if isinstance(s, bytes):
        try:
            s = s.decode("utf-8")
        except UnicodeDecodeError:
            fails.append("%s is not valid UTF-8: %r" % (what, s[:80]))
            return
    check(not re.search("[\r\n\0]", s), "%s has CR, LF or NUL: %r"
          % (what, s[:120]))


db_before = 0
if os.path.exists(dbpath):
    db_before = sqlite3.connect(dbpath).execute(
        "select count(*) from reports").fetchone()[0]
r, secs = run()
exp_exit = int(want.get("exit", "0"))
check(r.returncode in (0, 75), "exit status %d (only 0 or 75)" % r.returncode)
check(r.returncode == exp_exit, "exit status %d, expected %d"
      % (r.returncode, exp_exit))
check(r.stdout == b"", "output on stdout: %r" % r.stdout[:200])
check(r.stderr.count(b"\n") <= 1, "more than one line on stderr: %r"
      % r.stderr[:300])
if "max-seconds" in want:
    # a generous bound: the filter's own deadline (120 s) would defer
    check(secs < float(want["max-seconds"]), "took %.1f s" % secs)

if r.returncode == 0:
    db = sqlite3.connect(dbpath)
    db.text_factory = bytes
    kept = data[: 10 << 20]
    sha = hashlib.sha256(kept).hexdigest()
    rows = db.execute("select r.id, class, state, flags, subject,"
                      " message_id, from_addr, envelope_from, envelope_to,"
                      " m.encoding, m.raw from reports r left join messages"
                      " m on m.report = r.id where sha256 = ?",
                      (sha,)).fetchall()
    check(len(rows) == 1, "%d reports with its sha256, expected 1"
          % len(rows))
    total = db.execute("select count(*) from reports").fetchone()[0]
    check(total == db_before + 1, "%d new reports, expected 1"
          % (total - db_before))
    if rows:
        (rid, cls, state, flags, subj, mid, faddr, efrom, eto, enc,
         raw) = rows[0]
        if enc == b"zlib":
            raw = zlib.decompress(raw)
        dec = lambda b: None if b is None else b.decode("utf-8", "replace")
        cls, state, subj_s, mid_s = dec(cls), dec(state), dec(subj), dec(mid)
        reason = db.execute("select reason from decisions where report = ?"
                            " order by id desc limit 1",
                            (rid,)).fetchone()
        reason = dec(reason[0]) if reason else ""
        for v, what in ((subj, "subject"), (mid, "message-id"),
                        (faddr, "from_addr"), (efrom, "envelope_from"),
                        (eto, "envelope_to")):
            clean(v, what)
        if "state" in want:
            check(state == want["state"], "state %s, expected %s"
                  % (state, want["state"]))
        if "class" in want:
            check(cls == want["class"], "class %s, expected %s"
                  % (cls, want["class"]))
        if "reason" in want:
            check(re.search(want["reason"], reason), "reason %r !~ /%s/"
                  % (reason, want["reason"]))
        if "flags-set" in want:
            n = int(want["flags-set"])
            check(flags & n == n, "flags %d, expected bits %d set"
                  % (flags, n))
        if "flags-clear" in want:
            n = int(want["flags-clear"])
            check(flags & n == 0, "flags %d, expected bits %d clear"
                  % (flags, n))
        if "subject" in want:
            check(subj_s == want["subject"], "subject %r, expected %r"
                  % (subj_s, want["subject"]))
        if "message-id" in want:
            check(mid_s == want["message-id"], "message-id %r, expected %r"
                  % (mid_s, want["message-id"]))
        if "from-addr" in want:
            check(dec(faddr) == want["from-addr"], "from_addr %r" % faddr)
        if "envelope-from" in want:
            e = want["envelope-from"]
            check(efrom is None if e == "NULL" else dec(efrom) == e,
                  "envelope_from %r, expected %s" % (efrom, e))
        if want.get("raw") == "verbatim":
            check(raw == data, "the stored message differs from the input")
        # schema 4: a forward keeps its head and ends with the stored
        # original from raw_offset on
        out = db.execute("select o.kind, o.recipients, cast(o.message ||"
                         " coalesce(substr(m.raw, o.raw_offset + 1), x'')"
                         " as blob)"
                         " from outbox o left join messages m"
                         " on m.report = o.raw_report"
                         " where o.report = ?", (rid,)).fetchall()
        if "outbox" in want:
            check(len(out) == int(want["outbox"]), "%d queued messages,"
                  " expected %s" % (len(out), want["outbox"]))
        ours = re.compile(rb"^(Resent-[A-Za-z-]+|X-Loop|Auto-Submitted|"
                          rb"X-Triage-[A-Za-z-]+):")
        if "reply-to" in want:
            got = [r for k, r, m in out if k == b"reply"]
            check(got == [want["reply-to"].encode()],
                  "replies to %r, expected %s" % (got, want["reply-to"]))
        for kind, rcpt, msg in out:
            check(b"example.net" not in rcpt,
                  "an injected recipient: %r" % rcpt)
            if kind == b"reply":
                # all of it is ours: one header per line, none injected
                hdr = msg.split(b"\n\n", 1)[0]
                check(b"\r" not in hdr, "CR in a reply's header")
                for l in hdr.split(b"\n"):
                    check(re.match(rb"^([A-Za-z-]+): |[ \t]", l) and
                          not re.match(rb"(?i)^(bcc|cc|rcpt|data)\b", l),
                          "a reply header we did not write: %r" % l[:100])
            if kind != b"forward":
                continue
            # the original, byte for byte, but for "[triage #ID-TOKEN] "
            # that forward_subject_tag may add at the start of its Subject
            tok = re.search(rb"\[triage #%d-([a-z2-7]{8})\] " % rid, msg)
            tag = b"[triage #%d-%s] " % (rid, tok.group(1) if tok else b"?")
            orig = data
            if not msg.endswith(data):
                i = data.find(b"\nSubject:") + 1
                if data.startswith(b"Subject:"):
                    i = 0
                j = i + len(b"Subject:")
                j += len(data[j:]) - len(data[j:].lstrip(b" \t"))
                orig = data[:j] + tag + data[j:]
            check(msg.endswith(orig), "the forward changed the original"
                  " (more than tagging its Subject)")
            block = msg[: len(msg) - len(orig)]
            check(b"\r" not in block, "CR in our header block")
            # ours too: the reporter's bare address (when it is one)
            # and the report's own address, nothing else (issue 23)
            mine = re.compile(rb"^Reply-To: ([A-Za-z0-9._%%+-]+@[A-Za-z0-9.-]+"
                              rb", )?triage\+%d-[a-z2-7]{8}@example\.org$"
                              % rid)
            for l in block.split(b"\n")[:-1]:
                check(ours.match(l) or mine.match(l) or
                      l[:1] in (b" ", b"\t"),
                      "a header we did not write: %r" % l[:100])

    # the MTA delivers the same bytes again: still one report
    r2, _ = run()
    check(r2.returncode == 0, "second run: exit %d" % r2.returncode)
    n = db.execute("select count(*) from reports where sha256 = ?",
                   (sha,)).fetchone()[0]
    check(n == 1, "second run: %d reports with its sha256" % n)

for f in fails:
    print(f)
sys.exit(1 if fails else 0)
