#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unit check of apt-mirror.py, the consumer suite's archive address: sample
sources files in both formats (one-line and deb822), with the entries that
must be passed over (security suites, a third-party repository sorted
first, a disabled stanza, comments, deb-src, options in brackets), and a
local mirror.  The hosts are reserved example names (RFC 2606).  TAP."""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "apt-mirror.py")

ONE_LINE = """\
# the security archive first: passed over (another suite)
deb http://security.example/archive-security bookworm-security main
#deb http://commented.example/archive bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/archive.gpg] http://mirror.example/archive bookworm main contrib # trailing
deb-src http://mirror.example/archive bookworm main
"""

THIRD_PARTY = """\
Types: deb
URIs: https://vendor.example/node_20.x
Suites: nodistro
Components: main
"""

DEB822 = """\
Types: deb
# a comment inside the stanza
URIs: http://deb822.example/archive
  http://second.example/archive
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/archive.gpg

Types: deb
URIs: http://deb822.example/archive-security
Suites: bookworm-security
Components: main
"""

DISABLED_FIRST = """\
Types: deb deb-src
URIs: http://disabled.example/archive
Suites: bookworm
Components: main
Enabled: no

types: deb-src
uris: file:/srv/mirror/archive
suites: bookworm
components: main non-free-firmware
"""

NOTHING = """\
deb http://mirror.example/archive trixie main
deb http://mirror.example/archive bookworm contrib
"""

count = failures = 0


def ok(cond, what, detail=""):
    global count, failures
    count += 1
    if not cond:
        failures += 1
        for out in (sys.stdout, sys.stderr):
            print("not ok %d - %s" % (count, what), file=out)
            for line in str(detail).splitlines():
                print("#   " + line, file=out)
    else:
        print("ok %d - %s" % (count, what))


def run(files):
    p = subprocess.run([sys.executable, TOOL, "bookworm"] + files, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout.strip(), p.stderr


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    with tempfile.TemporaryDirectory() as d:
        one = write(d, "sources.list", ONE_LINE)
        third = write(d, "aaa-vendor.sources", THIRD_PARTY)
        deb822 = write(d, "system.sources", DEB822)
        disabled = write(d, "local.sources", DISABLED_FIRST)
        nothing = write(d, "other.list", NOTHING)
        empty = write(d, "empty.list", "")
        cases = [
            ([one], "http://mirror.example/archive",
             "one-line: security suite, comment and trailing comment skipped, options read"),
            ([empty, third, deb822], "http://deb822.example/archive",
             "deb822: a third-party suite sorted first is passed over; first of two URIs"),
            ([disabled], "file:/srv/mirror/archive",
             "deb822: a disabled stanza is passed over; lower-case fields; local mirror"),
            ([os.path.join(d, "missing.list"), nothing, one], "http://mirror.example/archive",
             "a missing file and one with no main entry for the release are passed over"),
        ]
        for files, want, what in cases:
            rc, out, err = run(files)
            ok(rc == 0 and out == want, "%s (%s)" % (what, out or "nothing"),
               "exit %d, printed %r, want %r\n%s" % (rc, out, want, err))
        rc, out, err = run([nothing, third])
        ok(rc == 1 and out == "", "no entry for the release: exit 1, nothing printed",
           "exit %d, printed %r\n%s" % (rc, out, err))
    print("1..%d" % count)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
