#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check that the per-flavor name lists agree with each other (TAP).

The flavor API is written down in several places that nothing else ties
together:

  liburcu/include/urcu/static/urcu-flavor-api.h   URCU_I_FLAVOR(name) declarations
  liburcu/include/urcu/map/urcu-<flavor>.h         generic name -> urcu_<flavor>_name
  liburcu/include/urcu/map/clear.h                 #undef of every generic name
  liburcu/src/flavor-table.c                       .field = URCU_FN(name)
  liburcu/include/urcu/flavor.h                    struct rcu_flavor_struct fields
  tests/unit/check_symbols.py                      FLAVOR_API, CALL_RCU_API, BP_API

Each failing check names the name and the list it is missing from.

Usage: check_flavor_lists.py SOURCE_ROOT
"""

import ast
import os
import re
import sys

FLAVORS = ('memb', 'mb', 'qsbr', 'bp', 'signal')
REFERENCE = 'memb'

# Declared in urcu-flavor-api.h but deliberately not in check_symbols.py's
# lists (none today: add a name here with the reason when one is).
UNCHECKED = {}

n = 0
failed = 0


def check(ok, what, missing=()):
    global n, failed
    n += 1
    if ok:
        print('ok %d - %s' % (n, what))
    else:
        failed += 1
        print('not ok %d - %s' % (n, what))
        for m in missing:
            print('#   %s' % m)


def read(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return f.read()


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def map_defines(text, flavor):
    """Generic name -> target of every plain '#define NAME TARGET' line."""
    out = {}
    for m in re.finditer(r'^\s*#\s*define\s+(\w+)[ \t]+(\w+)\s*$',
                         strip_comments(text), re.M):
        out[m.group(1)] = m.group(2)
    return out


def map_guard_and_markers(text):
    """Names defined with no value (include guard, URCU_API_MAP, ...)."""
    return set(re.findall(r'^\s*#\s*define\s+(\w+)\s*$', strip_comments(text), re.M))


def py_tuple(text, name, path):
    tree = ast.parse(text, path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return None


def main():
    if len(sys.argv) != 2:
        print('usage: check_flavor_lists.py SOURCE_ROOT', file=sys.stderr)
        return 64
    root = sys.argv[1]
    inc = 'liburcu/include/urcu'

    api_path = inc + '/static/urcu-flavor-api.h'
    api_text = strip_comments(read(root, api_path))
    api = re.findall(r'URCU_I_FLAVOR\((\w+)\)', api_text)
    check(len(api) > 0, '%s declares URCU_I_FLAVOR(...) names (%d)' % (api_path, len(api)))
    api = set(api)

    # 1. The generic-name maps: the reference flavor's names, with the
    #    matching prefix, in every flavor's map; every name in clear.h.
    maps = {}
    markers = {}
    for f in FLAVORS:
        text = read(root, '%s/map/urcu-%s.h' % (inc, f))
        maps[f] = map_defines(text, f)
        markers[f] = map_guard_and_markers(text)
    clear_path = inc + '/map/clear.h'
    cleared = set(re.findall(r'^\s*#\s*undef\s+(\w+)', strip_comments(read(root, clear_path)),
                             re.M))
    ref = maps[REFERENCE]
    check(len(ref) > 0, 'map/urcu-%s.h maps generic names (%d)' % (REFERENCE, len(ref)))
    for f in FLAVORS:
        path = 'map/urcu-%s.h' % f
        bad = []
        for generic, target in sorted(ref.items()):
            want = target.replace('urcu_%s_' % REFERENCE, 'urcu_%s_' % f, 1)
            got = maps[f].get(generic)
            if got is None:
                bad.append('%s: missing from %s (map/urcu-%s.h maps it to %s)'
                           % (generic, path, REFERENCE, target))
            elif got != want:
                bad.append('%s: %s maps it to %s, expected %s' % (generic, path, got, want))
        for generic, target in sorted(maps[f].items()):
            if not re.match(r'_?urcu_%s_' % f, target):
                bad.append('%s: %s maps it to %s, not to a urcu_%s_ name'
                           % (generic, path, target, f))
        check(not bad, '%s maps every generic name of map/urcu-%s.h with the prefix urcu_%s_'
              % (path, REFERENCE, f), bad)
        not_cleared = sorted(set(maps[f]) - cleared)
        not_cleared += sorted(m for m in markers[f] - cleared
                              if not m.startswith('RCU_'))  # flavor selectors stay
        check(not not_cleared, 'every name %s defines is #undef\'d in map/clear.h' % path,
              ['%s: defined in %s, missing from map/clear.h' % (x, path) for x in not_cleared])
        # Every function a map points at is declared by the flavor API header
        # (the inline _urcu_* names live in static/urcu-<flavor>.h instead).
        undeclared = []
        for generic, target in sorted(maps[f].items()):
            if target.startswith('_') or not target.startswith('urcu_%s_' % f):
                continue
            short = target[len('urcu_%s_' % f):]
            if short not in api:
                undeclared.append('%s: %s maps %s to it, missing from %s'
                                  % (target, path, generic, api_path))
        check(not undeclared, 'every urcu_%s_ name in %s is declared in %s'
              % (f, path, api_path), undeclared)
    all_defined = set()
    for f in FLAVORS:
        all_defined |= set(maps[f]) | {m for m in markers[f] if not m.startswith('RCU_')}
    stale = sorted(cleared - all_defined)
    check(not stale, 'every name map/clear.h #undef\'s is defined by some flavor map',
          ['%s: in map/clear.h, missing from every map/urcu-<flavor>.h' % x for x in stale])

    # 2. The API header against check_symbols.py's lists.
    sym_path = 'tests/unit/check_symbols.py'
    sym_text = read(root, sym_path)
    lists = {}
    for name in ('FLAVOR_API', 'CALL_RCU_API', 'BP_API'):
        lists[name] = py_tuple(sym_text, name, sym_path)
        check(lists[name] is not None, '%s defines %s' % (sym_path, name))
    listed = set()
    for v in lists.values():
        listed |= set(v or ())
    unlisted = sorted(api - listed - set(UNCHECKED))
    check(not unlisted, 'every URCU_I_FLAVOR name of %s is in %s\'s FLAVOR_API, '
          'CALL_RCU_API or BP_API (or UNCHECKED here)' % (api_path, sym_path),
          ['%s: declared in %s, missing from %s (FLAVOR_API/CALL_RCU_API/BP_API)'
           % (x, api_path, sym_path) for x in unlisted])
    extra = sorted(listed - api)
    check(not extra, 'every name in %s\'s lists is declared in %s' % (sym_path, api_path),
          ['%s: in %s, missing from %s' % (x, sym_path, api_path) for x in extra])
    fork_block = re.search(r'#ifdef URCU_I_FLAVOR_HAS_FORK_HANDLERS(.*?)#endif', api_text, re.S)
    fork = set(re.findall(r'URCU_I_FLAVOR\((\w+)\)', fork_block.group(1))) if fork_block else set()
    check(fork == set(lists['BP_API'] or ()),
          'BP_API in %s is the URCU_I_FLAVOR_HAS_FORK_HANDLERS block of %s' % (sym_path, api_path),
          ['%s: in one, missing from the other' % x
           for x in sorted(fork ^ set(lists['BP_API'] or ()))])

    # 3. The flavor table: each field exists in struct rcu_flavor_struct and
    #    names a declared function.
    table_path = 'liburcu/src/flavor-table.c'
    table = re.findall(r'\.(\w+)\s*=\s*URCU_FN\((\w+)\)', strip_comments(read(root, table_path)))
    check(len(table) > 0, '%s initializes fields (%d)' % (table_path, len(table)))
    struct_path = inc + '/flavor.h'
    m = re.search(r'struct rcu_flavor_struct\s*\{(.*?)\};', strip_comments(read(root, struct_path)),
                  re.S)
    fields = set()
    for member in (m.group(1).split(';') if m else ()):
        # The first (*name) of a member is the member; later ones are the
        # function-pointer parameters of its own signature.
        fm = re.search(r'\(\s*\*\s*(\w+)\s*\)', member)
        if fm:
            fields.add(fm.group(1))
    private_path = 'liburcu/src/flavor.h'
    private = set(re.findall(r'URCU_FN\((\w+)\)\s*\(',
                             strip_comments(read(root, private_path))))
    bad = []
    for field, fn in table:
        if field not in fields:
            bad.append('.%s: initialized in %s, missing from struct rcu_flavor_struct in %s'
                       % (field, table_path, struct_path))
        if fn not in api and fn not in private:
            bad.append('URCU_FN(%s): used in %s, missing from %s and %s'
                       % (fn, table_path, api_path, private_path))
    check(not bad, 'every %s field is a struct rcu_flavor_struct member and names a declared '
          'function' % table_path, bad)
    unset = sorted(fields - {f for f, _ in table})
    check(not unset, 'every struct rcu_flavor_struct member is initialized in %s' % table_path,
          ['.%s: member of struct rcu_flavor_struct, missing from %s' % (x, table_path)
           for x in unset])

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
