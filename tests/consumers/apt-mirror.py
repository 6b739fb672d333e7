#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Debian archive address of this system's own apt sources.

usage: apt-mirror.py CODENAME [FILE...]

Prints the first URI of the first enabled entry (type deb or deb-src) that
lists the suite CODENAME and the component main: the archive the consumer
suite builds its private deb-src line from, so that a local mirror or a
proxy configured for apt is used too, and no host is written in the tree.
FILEs default to what apt reads: /etc/apt/sources.list, then
/etc/apt/sources.list.d/*.list and *.sources, in name order.  Both formats:
one-line ("deb [options] URI SUITE COMPONENT...") and deb822 stanzas
("Types:", "URIs:", "Suites:", "Components:", "Enabled:").  Entries of
other suites (CODENAME-security, a third-party repository's own suite) are
passed over.  Exit status 1, with nothing printed, when no entry fits.
"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

APT_DIR = "/etc/apt"


def default_files():
    parts = os.path.join(APT_DIR, "sources.list.d")
    found = glob.glob(os.path.join(parts, "*.list")) + glob.glob(os.path.join(parts, "*.sources"))
    return [os.path.join(APT_DIR, "sources.list")] + sorted(found)


def one_line_entries(text):
    """(types, uris, suites, components, enabled) of each one-line entry."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"(deb|deb-src)\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)$", line)
        if m:
            yield [m.group(1)], [m.group(2)], [m.group(3)], m.group(4).split(), True


def deb822_entries(text):
    """The same for each deb822 stanza (field names are case-insensitive)."""
    for stanza in re.split(r"\n\s*\n", text):
        fields, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#"):
                continue
            if line[:1].isspace() and key:
                fields[key] += " " + line.strip()
                continue
            m = re.match(r"([A-Za-z0-9-]+):\s*(.*)$", line)
            if m:
                key = m.group(1).lower()
                fields[key] = m.group(2).strip()
        if "uris" not in fields:
            continue
        enabled = fields.get("enabled", "yes").lower() not in ("no", "false", "0")
        yield (fields.get("types", "").split(), fields["uris"].split(),
               fields.get("suites", "").split(), fields.get("components", "").split(), enabled)


def mirror(codename, files):
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        entries = deb822_entries(text) if path.endswith(".sources") else one_line_entries(text)
        for types, uris, suites, components, enabled in entries:
            if (enabled and uris and set(types) & {"deb", "deb-src"}
                    and codename in suites and "main" in components):
                return uris[0]
    return None


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    uri = mirror(argv[1], argv[2:] or default_files())
    if not uri:
        return 1
    print(uri)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
