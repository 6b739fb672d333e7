#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate sysheaders.tsv: for every public header of ours that liburcu
also has, the system headers liburcu's makes available (what a program may
use after including only that header), for check_headers.py.

Run by hand, against a private unpacked copy of Debian's liburcu-dev
(tools/liburcu-ref.sh CACHE_DIR prints its root; never install it), then
commit the output; the test itself never needs liburcu:

    tests/unit/gen-sysheaders.py \\
        --ref "$(tools/liburcu-ref.sh build-hdr/liburcu-ref)/usr/include/x86_64-linux-gnu" \\
        > tests/unit/sysheaders.tsv

How.  For each header, flag set (hdrcheck.FLAG_SETS: C gnu11 and c99, C++11
and C++17) and mode (with and without _LGPL_SOURCE), the compiler lists
every file a translation unit that includes only liburcu's header opens
(-H), so the system headers it makes available directly or transitively
(glibc's internals left out, sysprobe.IGNORED).  Each such system header
has probes (sysprobe.PROBES: a use of what it declares); the probes are
compiled after liburcu's header, and a probe that fails there is dropped,
so the data asks of us exactly what liburcu satisfies: <stddef.h> pulled in
by <stdlib.h> for size_t and NULL only does not promise offsetof, and a
strict -std=c99 gets no POSIX names from <time.h>.  Errors inside
liburcu's header itself (0.13.2's futex.h calls syscall() undeclared under
-std=c99, some static headers do not compile alone) do not matter here: a
probe counts when its own line compiles.

liburcu 0.15.  Its headers (upstream, read for their #include lines only)
pull in everything 0.13.2's do, plus the system headers in LATER below
(each also reaching every header that includes the one named, as the
-H listing of 0.13.2 shows); headers 0.13.2 lacks get 0.15's list alone
(NEW_IN_015).  Those system headers are included after liburcu's header
and probed the same way.

Output columns (tab-separated): header, flag set, mode (plain, lgpl or
both), the probes (sysprobe.encode: a system header alone for all of its
probes, header:probe,probe for some).  A header with no line has no
counterpart in liburcu; check_headers.py still compiles it alone.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
from hdrcheck import FLAG_SETS, SET_WARN_FLAGS  # noqa: E402
from sysprobe import PROBES, encode, ignored, source  # noqa: E402

SRC_ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
OUR_ROOTS = ['liburcu/include', 'arch/include']
GENERATED = ['urcu/config.h']  # built into <builddir>/arch/include
MODES = (('plain', []), ('lgpl', ['-D_LGPL_SOURCE']))

# liburcu 0.15: system headers its header includes beyond 0.13.2's (from
# the upstream headers' #include lines).  The flavor headers include
# <stdbool.h> themselves; urcu/assert.h (0.14) brings <assert.h> to the
# headers that now use it instead of including <assert.h>.
LATER = {
    'urcu/urcu-memb.h': ['stdbool.h'],
    'urcu/urcu-mb.h': ['stdbool.h'],
    'urcu/urcu-signal.h': ['stdbool.h'],
    'urcu/urcu-qsbr.h': ['stdbool.h'],
    'urcu/urcu-bp.h': ['stdbool.h'],
    'urcu/debug.h': ['assert.h'],
    'urcu/ref.h': ['assert.h'],
    'urcu/static/wfstack.h': ['assert.h'],
    'urcu/static/rculfqueue.h': ['assert.h', 'errno.h'],
    'urcu/futex.h': ['errno.h', 'stdint.h', 'time.h'],
}
# Headers of 0.14/0.15 that 0.13.2 does not have.
NEW_IN_015 = {
    'urcu/annotate.h': ['stddef.h', 'stdio.h', 'stdlib.h'],
    'urcu/assert.h': ['assert.h'],
    'urcu/urcu-poll.h': [],
}


def run(args, src):
    p = subprocess.run(args, input=src, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def search_dirs(cmd, lang):
    """The compiler's system include directories, longest first."""
    _, err = run(cmd + ['-x', lang, '-E', '-v', '-o', os.devnull, '-'], '')
    dirs = []
    inside = False
    for line in err.splitlines():
        if line.startswith('#include <...> search starts here'):
            inside = True
        elif line.startswith('End of search list'):
            inside = False
        elif inside:
            dirs.append(os.path.normpath(line.strip()) + '/')
    return sorted(dirs, key=len, reverse=True)


class Gen:
    def __init__(self, ref, cc, cxx):
        self.ref = os.path.normpath(os.path.abspath(ref)) + '/'
        self.cmds = {'C': cc, 'C++': cxx}
        self.dirs = {'C': search_dirs(cc, 'c'), 'C++': search_dirs(cxx, 'c++')}
        self.unknown = set()

    def base(self, fset, defs):
        name, lang, flags = fset
        args = self.cmds[lang] + flags + ['-I' + self.ref] + defs
        if lang == 'C':
            # gcc 12 only warns; a probe of an undeclared function fails.
            args.append('-Werror=implicit-function-declaration')
        return args, lang

    def listing(self, args, lang, src):
        """(urcu headers, system headers) that SRC opens."""
        _, err = run(args + ['-E', '-H', '-o', os.devnull, '-'], src)
        ours, system = set(), set()
        for line in err.splitlines():
            m = re.match(r'^\.+ (\S+)$', line)
            if not m:
                continue
            path = os.path.normpath(m.group(1))
            if path.startswith(self.ref):
                ours.add(path[len(self.ref):])
                continue
            for d in self.dirs[lang]:
                if path.startswith(d):
                    name = path[len(d):]
                    break
            else:
                name = path
            if ignored(name):
                continue
            if name not in PROBES:
                self.unknown.add(name)
                continue
            system.add(name)
        return ours, system

    def validate(self, args, prelude, items):
        """The ITEMS whose probe lines compile after PRELUDE.  A function
        that liburcu's header calls undeclared (0.13.2's futex.h calls
        syscall() under -std=c99) is implicitly declared from then on, which
        declares nothing: its probes are dropped."""
        _, err = run(args + ['-fsyntax-only', '-'], prelude)
        implicit = set(re.findall(r"implicit declaration of function .(\w+).", err))
        code = {(h, n): stmt for h, probes in PROBES.items() for n, stmt in probes}
        items = [i for i in items
                 if not implicit & set(re.findall(r'\w+', code[i]))]
        for _ in range(10):
            src, where = source(prelude, items)
            rc, err = run(args + ['-fsyntax-only', '-'], src)
            if 'fatal error' in err:
                raise SystemExit('gen-sysheaders: fatal error compiling\n%s\n%s' % (src, err))
            bad = set()
            last_error = None
            for line in err.splitlines():
                m = re.match(r'^(.*?):(\d+):\d+: (error|note|warning)', line)
                if not m:
                    continue
                kind = m.group(3)
                if kind == 'error':
                    last_error = line
                if m.group(1) == '<stdin>' and int(m.group(2)) in where and (
                        kind == 'error' or (kind == 'note' and last_error)):
                    bad.add(where[int(m.group(2))])
                if kind == 'warning':
                    last_error = None
            if not bad:
                return items
            items = [i for i in items if i not in bad]
        raise SystemExit('gen-sysheaders: probes do not settle for\n' + prelude)

    def one(self, header, in_ref, fset, defs):
        args, lang = self.base(fset, defs)
        prelude = '#include <%s>\n' % header if in_ref else ''
        extra = list(NEW_IN_015.get(header, []))
        if in_ref:
            ours, _ = self.listing(args, lang, prelude)
            for h in sorted(ours | {header}):
                extra += LATER.get(h, [])
        prelude += ''.join('#include <%s>\n' % s for s in sorted(set(extra)))
        if not prelude:
            return []
        _, system = self.listing(args, lang, prelude)
        items = [(s, name) for s in sorted(system) for name, _ in PROBES[s]]
        return self.validate(args, prelude, items)

    def strict_check(self, fset, items):
        """The probes themselves are warning-free under the strict flags of
        FSET (the system headers included directly)."""
        name, lang, flags = fset
        headers = sorted({h for h, _ in items})
        prelude = ''.join('#include <%s>\n' % h for h in headers)
        src, _ = source(prelude, sorted(items))
        args = self.cmds[lang] + flags + SET_WARN_FLAGS + ['-']
        rc, err = run(args, src)
        if rc != 0 or err.strip():
            raise SystemExit('gen-sysheaders: the probes warn under %s:\n%s' % (name, err))


def our_headers():
    names = set(GENERATED)
    for root in OUR_ROOTS:
        top = os.path.join(SRC_ROOT, root)
        for d, _, files in os.walk(top):
            for f in files:
                if f.endswith('.h'):
                    names.add(os.path.relpath(os.path.join(d, f), top))
    return sorted(names)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ref', required=True,
                    help="liburcu's include directory (with urcu.h and urcu/)")
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--cxx', default='g++')
    ap.add_argument('--jobs', type=int, default=2)
    opts = ap.parse_args()
    if not os.path.isfile(os.path.join(opts.ref, 'urcu', 'urcu-memb.h')):
        sys.exit('gen-sysheaders: %s is no liburcu include directory' % opts.ref)
    gen = Gen(opts.ref, opts.cc.split(), opts.cxx.split())

    work = []
    for header in our_headers():
        in_ref = os.path.isfile(os.path.join(opts.ref, header))
        if not in_ref and header not in NEW_IN_015:
            continue
        for fset in FLAG_SETS:
            for mode, defs in MODES:
                work.append((header, in_ref, fset, mode, defs))
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
        results = list(ex.map(lambda w: gen.one(w[0], w[1], w[2], w[4]), work))
    if gen.unknown:
        sys.exit('gen-sysheaders: system headers without probes (add to sysprobe.PROBES '
                 'or IGNORED): %s' % ', '.join(sorted(gen.unknown)))

    for fset in FLAG_SETS:
        every = {i for (h, _, fs, _, _), r in zip(work, results) if fs is fset for i in r}
        if every:
            gen.strict_check(fset, every)

    table = {}
    for (header, _, fset, mode, _), items in zip(work, results):
        table.setdefault((header, fset[0]), {})[mode] = encode(items)
    print('# Generated by tests/unit/gen-sysheaders.py against Debian\'s liburcu-dev 0.13.2')
    print('# (plus liburcu 0.15\'s additions, listed in the script); do not edit.')
    print('# header\tflag set\tmode\tsystem headers (header:probes when only some)')
    for (header, fname), modes in table.items():
        if modes['plain'] == modes['lgpl']:
            print('%s\t%s\tboth\t%s' % (header, fname, modes['plain']))
        else:
            for mode in ('plain', 'lgpl'):
                print('%s\t%s\t%s\t%s' % (header, fname, mode, modes[mode]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
