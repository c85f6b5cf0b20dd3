#!/usr/bin/env python3
# generate.py OUTDIR - write the hostile cases too big to keep in git
#
# Each NAME.eml written here has its NAME.expect next to this script;
# t0260-hostile.sh runs them with the committed cases.
import base64
import os
import sys

out = sys.argv[1]


def head(subject, mid, extra=""):
    return ("From: Reporter <reporter@example.com>\n"
            "To: bugs@example.org\n"
            "Date: Thu, 03 Dec 2026 07:36:38 +0000\n"
            "Subject: %s\nMessage-ID: <%s@hostile.example.com>\n%s"
            % (subject, mid, extra)).encode()


def write(name, data):
    with open(os.path.join(out, name + ".eml"), "wb") as f:
        f.write(data)


# 100,000 header lines (gmime alone would need gigabytes)
write("headers-100k",
      head("many headers", "headers-100k")
      + b"".join(b"X-Flood-%d: value\n" % i for i in range(100000))
      + b"\nBUG: unable to handle page fault\n")

# one 1 MB header line
write("long-header-line",
      head("long " + "A" * (1 << 20), "long-header-line") + b"\nbody\n")

# 1000 nested multiparts, each with its own boundary
m = [head("deep nesting", "deep-nesting",
          "Content-Type: multipart/mixed; boundary=b0\n") + b"\n"]
for i in range(1, 1000):
    m.append(b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n"
             % (i - 1, i))
m.append(b"--b999\nContent-Type: text/plain\n\ndeepest\n")
m += [b"--b%d--\n" % i for i in range(999, -1, -1)]
write("deep-nesting", b"".join(m))

# 2000 nested message/rfc822 (no boundaries at all)
write("deep-rfc822",
      head("deep rfc822", "deep-rfc822",
           "Content-Type: message/rfc822\n") + b"\n"
      + b"From: n@example.org\nContent-Type: message/rfc822\n\n" * 2000
      + b"Content-Type: text/plain\n\ninnermost\n")

# 10,000 parts
write("part-flood",
      head("part flood", "part-flood",
           "Content-Type: multipart/mixed; boundary=p\n") + b"\n"
      + b"--p\nContent-Type: text/plain\n\npart\n" * 10000 + b"--p--\n")


def attachment(name, mid, size):
    data = base64.encodebytes(os.urandom(size))
    return (head(name, mid, "MIME-Version: 1.0\n"
                 "Content-Type: multipart/mixed; boundary=att\n") + b"\n"
            b"--att\nContent-Type: text/plain\n\nvmcore attached\n"
            b"--att\nContent-Type: application/octet-stream; name=vmcore\n"
            b"Content-Transfer-Encoding: base64\n\n" + data + b"--att--\n")


# 12.7 MB of base64: over INTAKE_MAX_BYTES (10 MiB); 9.9 MB: under it
write("huge-attachment-over", attachment("huge over", "huge-over", 9 << 20))
write("huge-attachment-under",
      attachment("huge under", "huge-under", 7 << 20))

# 5 MB of pathological text for the rules (under the size limit)
write("regex-dos-big",
      head("regex: big", "regex-dos-big", "Content-Type: text/plain\n")
      + b"\n" + (b"a" * 65536 + b"!\n" + b"(" * 4096 + b"\n"
                 + b"x " * 8192 + b"\n") * 60)
