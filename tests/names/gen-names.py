#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate names.tsv: the public names of liburcu's headers, for check-names.py.

Run once by hand, against private unpacked copies of Debian's liburcu-dev:
bookworm's 0.13.2 (tools/liburcu-ref.sh puts one under
<builddir>/liburcu-ref/root) and trixie's 0.15.2 (apt-get download
liburcu-dev with a private APT_CONFIG whose sources.list names trixie, then
dpkg -x; never installed), then commit the output; the test itself never
needs liburcu:

    tests/names/gen-names.py \\
        --ref build/liburcu-ref/root/usr/include/x86_64-linux-gnu \\
        --ref-later build/liburcu-015/root/usr/include/x86_64-linux-gnu \\
        > tests/names/names.tsv

What it records.  Every function, variable, macro, enumerator, struct,
union, enum and typedef that one of liburcu's installed headers defines
(include guards excepted), once per header that defines it, in each of the
two modes a program can compile in (with and without _LGPL_SOURCE).  The
names come from the compilers, not from reading the text: `gcc -E -dD`
lists every macro still defined at the end of a header together with the
file that defined it, and clang's JSON AST gives every declaration with
its file.

How each name is checked.  For each name the script writes the strongest
check it can (a reference `(void) name;` for functions, objects, enumerators
and macros that expand to one; `sizeof` for structs, unions and enums; a
pointer declaration for typedefs), compiles it against liburcu itself, and
keeps the strongest check that liburcu passes: a check that liburcu fails
(a function-like macro used without arguments, an alias of a name liburcu
never declared) falls back to "defined": `#ifndef name` and, only if the
name is no macro, `(void) name;`.  So the data asks of us exactly what
liburcu's own headers satisfy.

Which header.  The check of a name defined in file F is compiled with the
installed header (a "unit", possibly with a flavor selection macro such as
RCU_MB before <urcu.h>) that includes F, passes the strongest check, and
exposes the fewest names: `rcu_read_lock_qsbr` (from urcu/map/urcu-qsbr.h)
is checked through <urcu-qsbr.h>, where it must expand to a declared
function, not through the map header alone.  Per-architecture files
(urcu/arch/*.h, urcu/uatomic/*.h) and the map headers (urcu/map/*.h) are
never units, programs do not include them: their names are checked through
<urcu/arch.h>, <urcu/uatomic.h> and the umbrella headers.

Later releases.  With --ref-later the same is done for liburcu 0.15's
headers, and every row they give that 0.13.2's do not (a new name, or a
known name in a new unit or mode, or with a stronger check) is added with
release 0.15, or 0.14 where the hand list below (LATER) says so.  LATER,
the 0.14/0.15 names documented in ../shared/API.md and ../shared/CDS.md,
also fills in whatever neither run gave (all of it without --ref-later).
Names 0.15 defines for C++ only (cds_wfcq_head_cast_cpp, ...) or only
under ThreadSanitizer (CMM_SANITIZE_THREAD, ...) are not in the data: the
check compiles C, without sanitizers; test_later_names.c covers them.

Output columns (tab-separated): name, unit (header, or header+MACRO for a
flavor selection), mode (plain, lgpl or both), check (ident, defined,
struct, union, enum, type, header), kind (what liburcu has: function,
variable, macro, enumerator, struct, union, enum, typedef, header),
release, compiler (any, or gcc for a name liburcu defines for GCC only).
A "header" row (name = unit) asks only that the header exist and compile
on its own; every header that does so in liburcu has one.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from namecheck import STRENGTH, failing_checks, write_unit  # noqa: E402

RELEASE = '0.13.2'
# The later release whose headers --ref-later reads (Debian trixie's liburcu-dev).
LATER_RELEASE = '0.15'
MODES = ('plain', 'lgpl')
# Flavor selections of <urcu.h> besides its default (memb).
URCU_H_VARIANTS = ('RCU_MB', 'RCU_SIGNAL')

# Names added after 0.13.2, from the interface facts in ../shared/API.md and
# ../shared/CDS.md (sections 1.1-1.11): (name, unit, check, kind, release).
FLAVORS_014 = ('memb', 'mb', 'qsbr', 'bp', 'signal')
LATER = [
    # urcu/uatomic.h: 0.15's memory-order API.
    ('cmm_memorder', 'urcu/uatomic.h', 'enum', 'enum', '0.15'),
] + [
    (n, 'urcu/uatomic.h', 'ident', 'enumerator', '0.15')
    for n in ('CMM_RELAXED', 'CMM_CONSUME', 'CMM_ACQUIRE', 'CMM_RELEASE',
              'CMM_ACQ_REL', 'CMM_SEQ_CST', 'CMM_SEQ_CST_FENCE')
] + [
    (n, 'urcu/uatomic.h', 'defined', 'macro', '0.15')
    for n in ('uatomic_load', 'uatomic_store', 'uatomic_load_mo',
              'uatomic_store_mo', 'uatomic_xchg_mo', 'uatomic_cmpxchg_mo',
              'uatomic_add_return_mo', 'uatomic_sub_return_mo',
              'uatomic_add_mo', 'uatomic_sub_mo', 'uatomic_and_mo',
              'uatomic_or_mo', 'uatomic_inc_mo', 'uatomic_dec_mo')
] + [
    ('cmm_emit_legacy_smp_mb', 'urcu/arch.h', 'defined', 'macro', '0.15'),
    ('caa_container_of_check_null', 'urcu/compiler.h', 'defined', 'macro', '0.15'),
    # urcu/assert.h (0.14).
    ('urcu_posix_assert', 'urcu/assert.h', 'defined', 'macro', '0.14'),
    ('urcu_assert', 'urcu/assert.h', 'defined', 'macro', '0.14'),
    # Polled grace periods (0.14): urcu/urcu-poll.h and every flavor.
    ('urcu_gp_poll_state', 'urcu/urcu-poll.h', 'struct', 'struct', '0.14'),
] + [
    (n, u, 'ident', 'function', '0.14')
    for u in ('urcu.h', 'urcu.h+RCU_MB', 'urcu.h+RCU_SIGNAL', 'urcu-qsbr.h', 'urcu-bp.h')
    for n in ('start_poll_synchronize_rcu', 'poll_state_synchronize_rcu')
] + [
    ('urcu_%s_%s' % (f, n), 'urcu/urcu-%s.h' % f, 'ident', 'function', '0.14')
    for f in FLAVORS_014
    for n in ('start_poll_synchronize_rcu', 'poll_state_synchronize_rcu')
] + [
    # Data structures (CDS.md 1.1-1.5, 1.11).
    ('cds_lfht_node_init_deleted', 'urcu/rculfhash.h', 'ident', 'function', '0.14'),
    ('cds_lfht_alloc', 'urcu/rculfhash.h', 'struct', 'struct', '0.15'),
    ('_cds_lfht_new_with_alloc', 'urcu/rculfhash.h', 'ident', 'function', '0.15'),
    ('cds_lfht_new_with_flavor_alloc', 'urcu/rculfhash.h', 'ident', 'function', '0.15'),
    ('cds_lfht_entry', 'urcu/rculfhash.h', 'defined', 'macro', '0.15'),
    ('cds_lfs_stack_const_ptr_t', 'urcu/lfstack.h', 'type', 'typedef', '0.15'),
    ('cds_wfs_stack_const_ptr_t', 'urcu/wfstack.h', 'type', 'typedef', '0.15'),
    ('cds_wfcq_head_const_ptr_t', 'urcu/wfcqueue.h', 'type', 'typedef', '0.15'),
]

# --------------------------------------------------------------------------
# What a unit exposes

def include_guard(path):
    with open(path, errors='replace') as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    m = re.search(r'^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)', text, re.M)
    if m and m.group(1) == m.group(2):
        return m.group(1)
    return None


def unit_source(unit, mode):
    header, _, define = unit.partition('+')
    src = ''
    if mode == 'lgpl':
        src += '#define _LGPL_SOURCE 1\n'
    if define:
        src += '#define %s 1\n' % define
    return src + '#include <%s>\n' % header


MARKER_RE = re.compile(r'^# \d+ "(?P<file>[^"]*)"')
DEFINE_RE = re.compile(r'^#define (?P<name>\w+)')
UNDEF_RE = re.compile(r'^#undef (?P<name>\w+)')


def macros_of(cc, ref, src, tmp):
    """{macro name: defining file} of the macros defined at the end of src."""
    path = os.path.join(tmp, 'm.c')
    with open(path, 'w') as f:
        f.write(src)
    r = subprocess.run(cc + ['-std=gnu11', '-E', '-dD', '-w', '-pthread', '-I' + ref, path],
                       capture_output=True, text=True)
    if r.returncode:
        return None
    cur = None
    out = {}
    for line in r.stdout.splitlines():
        m = MARKER_RE.match(line)
        if m:
            cur = m.group('file')
            continue
        m = DEFINE_RE.match(line)
        if m:
            out[m.group('name')] = cur
            continue
        m = UNDEF_RE.match(line)
        if m:
            out.pop(m.group('name'), None)
    return out


class LocTracker:
    """clang's JSON dump omits a location's file when it equals the file of
    the previously printed location, so the file is tracked in print order."""

    def __init__(self):
        self.cur = None

    def loc(self, loc):
        """File of a location (its expansion site for macro locations)."""
        if 'spellingLoc' in loc or 'expansionLoc' in loc:
            f = None
            for k, v in loc.items():
                if k == 'spellingLoc':
                    self.loc(v)
                elif k == 'expansionLoc':
                    f = self.loc(v)
            return f
        if 'file' in loc:
            self.cur = loc['file']
        return self.cur

    def walk(self, node, found, depth=0):
        """Record (name, kind, file) of top-level declarations into found."""
        here = None
        for k, v in node.items():
            if k == 'loc':
                here = self.loc(v)
            elif k == 'range':
                self.loc(v.get('begin', {}))
                self.loc(v.get('end', {}))
            elif k == 'inner':
                for child in v:
                    self.walk(child, found, depth + 1)
        kind = node.get('kind')
        name = node.get('name')
        if not name or node.get('isImplicit'):
            return
        if depth == 1 or (kind == 'EnumConstantDecl' and depth == 2):
            if kind == 'FunctionDecl':
                found.append((name, 'function', here))
            elif kind == 'VarDecl':
                found.append((name, 'variable', here))
            elif kind == 'TypedefDecl':
                found.append((name, 'typedef', here))
            elif kind == 'EnumDecl':
                found.append((name, 'enum', here))
            elif kind == 'EnumConstantDecl':
                found.append((name, 'enumerator', here))
            elif kind == 'RecordDecl' and node.get('completeDefinition'):
                found.append((name, node.get('tagUsed', 'struct'), here))


def decls_of(clang, ref, src, tmp):
    """[(name, kind, defining file)] declared by src."""
    path = os.path.join(tmp, 'd.c')
    with open(path, 'w') as f:
        f.write(src)
    r = subprocess.run(clang + ['-std=gnu11', '-fsyntax-only', '-w', '-pthread',
                                '-Xclang', '-ast-dump=json', '-I' + ref, path],
                       capture_output=True, text=True)
    if r.returncode:
        return None
    found = []
    LocTracker().walk(json.loads(r.stdout), found)
    return found


def exposed(cc, clang, ref, unit, mode):
    """{(name, file relative to ref): kind} that unit exposes in mode."""
    with tempfile.TemporaryDirectory() as tmp:
        src = unit_source(unit, mode)
        macros = macros_of(cc, ref, src, tmp)
        decls = decls_of(clang, ref, src, tmp)
    if macros is None or decls is None:
        return None
    refabs = os.path.realpath(ref)
    out = {}

    def rel(f):
        if not f:
            return None
        f = os.path.realpath(f)
        if not f.startswith(refabs + os.sep):
            return None
        return os.path.relpath(f, refabs)

    for name, f in macros.items():
        r = rel(f)
        if r and name != include_guard(os.path.join(refabs, r)):
            out[(name, r)] = 'macro'
    for name, kind, f in decls:
        r = rel(f)
        if r and not name.startswith('__builtin'):
            # A declaration beats a macro of the same name and file.
            out[(name, r)] = kind
    return out


# --------------------------------------------------------------------------

def compiles_alone(cc, ref, header):
    r = subprocess.run(cc + ['-std=gnu11', '-fsyntax-only', '-w', '-x', 'c', '-I' + ref, '-'],
                       input='#include <%s>\n' % header, capture_output=True, text=True)
    return r.returncode == 0


def strongest(kind):
    if kind in ('function', 'variable', 'enumerator', 'macro'):
        return 'ident'
    if kind in ('struct', 'union', 'enum'):
        return kind
    if kind == 'typedef':
        return 'type'
    raise ValueError(kind)


def calibrate(cc, ref, unit, mode, items, tmp):
    """Strongest check liburcu passes for each (name, kind) of a unit."""
    checks = {name: strongest(kind) for name, kind in items}
    while checks:
        order = sorted(checks)
        path = os.path.join(tmp, 'c_%s_%s.c' % (re.sub(r'\W', '_', unit), mode))
        where = write_unit(path, unit, mode, [(n, checks[n]) for n in order])
        ok, bad, out = failing_checks(cc, path, [ref], where)
        if ok:
            return checks
        if not bad:
            sys.exit('gen-names: %s (%s) fails outside the checks:\n%s' % (unit, mode, out))
        for i in bad:
            name = order[i]
            if checks[name] == 'ident':
                checks[name] = 'defined'
            else:
                del checks[name]
    return checks


def collect(cc, clang, ref, njobs, release):
    """The rows (name, unit, mode, check, kind, release) of the liburcu
    headers under ref, and the subset that clang fails (GCC-only names)."""
    headers = []
    for d, _, files in sorted(os.walk(ref)):
        for f in sorted(files):
            if f.endswith('.h'):
                headers.append(os.path.relpath(os.path.join(d, f), ref))
    units = [h for h in headers
             if not h.startswith(('urcu/arch/', 'urcu/uatomic/', 'urcu/map/'))]
    units += ['urcu.h+' + v for v in URCU_H_VARIANTS]

    jobs = [(u, m) for u in units for m in MODES]
    with concurrent.futures.ThreadPoolExecutor(njobs) as ex:
        seen = dict(zip(jobs, ex.map(lambda j: exposed(cc, clang, ref, *j), jobs)))
    for j, s in seen.items():
        if s is None:
            print('gen-names: %s (%s) does not compile on its own: not a unit' % j,
                  file=sys.stderr)
    seen = {j: s for j, s in seen.items() if s is not None}

    # Calibrate the checks of every unit against liburcu.
    with tempfile.TemporaryDirectory() as tmp:
        def cal(j):
            items = sorted({(n, k) for (n, _), k in seen[j].items()})
            return calibrate(cc, ref, j[0], j[1], items, tmp)
        with concurrent.futures.ThreadPoolExecutor(njobs) as ex:
            passed = dict(zip(seen, ex.map(cal, list(seen))))

    # For each (name, defining file, mode): the best unit.
    best = {}
    for (unit, mode), names in seen.items():
        size = len(names)
        for (name, f), kind in names.items():
            check = passed[(unit, mode)].get(name)
            if check is None:
                continue
            rank = (-STRENGTH[check], size, unit)
            key = (name, f, mode)
            if key not in best or rank < best[key][0]:
                best[key] = (rank, unit, check, kind)

    # Merge the two modes where they agree on unit and check (the kind may
    # differ: a function without _LGPL_SOURCE is often a macro with it).
    rows = collections.OrderedDict()
    for (name, f, mode), (_, unit, check, kind) in sorted(best.items()):
        rows.setdefault((name, unit, check), {})[mode] = kind
    out = set()
    for (name, unit, check), kinds in rows.items():
        mode = 'both' if len(kinds) == 2 else next(iter(kinds))
        kind = kinds.get('plain', kinds.get('lgpl'))
        out.add((name, unit, mode, check, kind, release))
    # Every header that compiles on its own in liburcu must exist in ours,
    # even one that only includes others (urcu/cds.h): one row per header.
    for unit, mode in seen:
        if '+' not in unit and mode == 'plain':
            out.add((unit, unit, 'both', 'header', 'header', release))
    # The map headers are no units (their names are checked through the
    # umbrellas), but those that compile on their own must exist too.
    for h in headers:
        if h.startswith('urcu/map/') and compiles_alone(cc, ref, h):
            out.add((h, h, 'both', 'header', 'header', release))

    # Names liburcu defines for one compiler only (URCU_GCC_VERSION): the
    # rows are compiled once more with clang; what fails there is asked of
    # GCC builds only.
    gcc_only = set()
    with tempfile.TemporaryDirectory() as tmp:
        by_unit = collections.defaultdict(list)
        for row in out:
            if row[3] != 'header':
                for mode in (MODES if row[2] == 'both' else (row[2],)):
                    by_unit[(row[1], mode)].append(row)

        def with_clang(key):
            rows_ = sorted(by_unit[key])
            path = os.path.join(tmp, 'k_%s_%s.c' % (re.sub(r'\W', '_', key[0]), key[1]))
            where = write_unit(path, key[0], key[1], [(r[0], r[3]) for r in rows_])
            ok, bad, err = failing_checks(clang, path, [ref], where)
            if not ok and not bad:
                sys.exit('gen-names: %s (%s) fails with clang:\n%s' % (key[0], key[1], err))
            return {rows_[i] for i in bad}
        with concurrent.futures.ThreadPoolExecutor(njobs) as ex:
            for bad in ex.map(with_clang, list(by_unit)):
                gcc_only |= bad

    return out, gcc_only


def strengths(rows):
    """{(name, unit, mode): strongest check strength}, 'both' split."""
    out = {}
    for r in rows:
        for m in (MODES if r[2] == 'both' else (r[2],)):
            key = (r[0], r[1], m)
            out[key] = max(out.get(key, -1), STRENGTH.get(r[3], 0))
    return out


def merge_later(out, gcc_only, later, later_gcc):
    """Add to out the rows of a later release's headers that out does not
    already ask for (a new name, or a name in a new unit or mode, or a
    stronger check), with the release of the hand list when it names them
    (0.14), else LATER_RELEASE."""
    have = strengths(out)
    hand = {(n, u): rel for n, u, _, _, rel in LATER}
    for row in sorted(later):
        modes = MODES if row[2] == 'both' else (row[2],)
        new = [m for m in modes
               if have.get((row[0], row[1], m), -1) < STRENGTH.get(row[3], 0)]
        if not new:
            continue
        mode = 'both' if len(new) == 2 else new[0]
        rel = hand.get((row[0], row[1]), LATER_RELEASE)
        added = (row[0], row[1], mode, row[3], row[4], rel)
        out.add(added)
        if row in later_gcc:
            gcc_only.add(added)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ref', required=True, help="liburcu 0.13.2's include directory")
    ap.add_argument('--ref-later', help="liburcu %s's include directory" % LATER_RELEASE)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--clang', default='clang')
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()
    cc = args.cc.split()
    clang = args.clang.split()

    out, gcc_only = collect(cc, clang, args.ref, args.jobs, RELEASE)
    if args.ref_later:
        later, later_gcc = collect(cc, clang, args.ref_later, args.jobs, LATER_RELEASE)
        merge_later(out, gcc_only, later, later_gcc)
    # The hand list: what neither set of headers gave (without --ref-later,
    # the 0.14/0.15 names documented in ../shared).
    have = {(r[0], r[1]) for r in out}
    for name, unit, check, kind, release in LATER:
        if (name, unit) not in have:
            out.add((name, unit, 'both', check, kind, release))

    print('# Public names of liburcu %s headers (+ %s\'s, generated with --ref-later, and a'
          % (RELEASE, LATER_RELEASE))
    print('# few hand-listed 0.14 names).')
    print('# Generated by tests/names/gen-names.py; read by check-names.py.')
    print('# name\tunit\tmode\tcheck\tkind\trelease\tcompiler')
    for row in sorted(out, key=lambda r: (r[1], r[0], r[2])):
        print('\t'.join(row + ('gcc' if row in gcc_only else 'any',)))


if __name__ == '__main__':
    main()
