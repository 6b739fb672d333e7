#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile every public header on its own, as C and as C++, each with and
without _LGPL_SOURCE, with -Wall -Wextra -Werror.  TAP output, one check per
(header, language, mode).

Usage: check_headers.py --root DIR [--root DIR ...] [--inc DIR ...]
                        [--arch NAME] --cc CMD... [--cxx CMD...]

--root names an include root whose *.h files are public headers (walked
recursively); --inc adds further include directories (generated headers).
--cc / --cxx take the compiler command (several words allowed) up to the
next option.  Without --cxx the C++ checks are reported as skipped.

A "template" header, one whose first directive is an #ifndef followed at once
by #error (it may only be included by another header that defines the
parameter first), is reported as skipped, and so are the per-architecture
files (urcu/arch/*.h, urcu/uatomic/*.h) of other architectures than --arch
(their inline assembly is for another machine); generic.h is always checked.
"""
import concurrent.futures
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from hdrcheck import compile_stdin, languages, parse_options  # noqa: E402

OPTIONS = ('--root', '--inc', '--cc', '--cxx', '--jobs', '--arch')
ARCH_DIRS = ('urcu/arch/', 'urcu/uatomic/')

# Headers that warn on purpose when included: the warning must appear (it
# is not an error for them), and nothing else may.  The deprecated
# urcu/wfqueue.h and urcu/rculfstack.h warn only when their functions are
# called, so including them stays silent (tests/cds/check_cds_headers.py
# checks their warnings).
EXPECTED_WARNINGS = {
    'urcu/urcu_ref.h': (['-Wno-error=cpp'], 'urcu/urcu_ref.h is deprecated'),
}

TEMPLATE_RE = re.compile(r'^\s*#\s*ifndef\s+\w+\s*\n\s*#\s*error\b', re.M)


def parse(argv):
    return parse_options('check_headers.py', OPTIONS, argv)


def first_directive_block(text):
    """Text from the first preprocessor directive on (comments skipped)."""
    no_block = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    no_line = re.sub(r'//[^\n]*', '', no_block)
    m = re.search(r'^\s*#', no_line, re.M)
    return no_line[m.start():] if m else ''


def is_template(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        block = first_directive_block(f.read())
    return TEMPLATE_RE.match(block) is not None


def collect(roots):
    headers = []
    seen = set()
    for root in roots:
        for d, _, files in sorted(os.walk(root)):
            for f in sorted(files):
                if not f.endswith('.h'):
                    continue
                full = os.path.join(d, f)
                rel = os.path.relpath(full, root)
                if rel in seen:
                    continue
                seen.add(rel)
                headers.append((rel, full))
    return headers


def skip_reason(rel, full, arch):
    if rel.startswith(ARCH_DIRS):
        base = os.path.basename(rel)[:-2]
        if base != 'generic' and base != arch:
            return 'header of another architecture'
    if is_template(full):
        return 'template header, included by others only'
    return None


def compile_one(cmd, lang_flags, incs, header, lgpl):
    defs = ['-D_LGPL_SOURCE'] if lgpl else []
    extra, expected = EXPECTED_WARNINGS.get(header, ([], None))
    # Included twice: the second inclusion checks the include guard.
    src = '#include <%s>\n#include <%s>\n' % (header, header)
    rc, err = compile_stdin(cmd, lang_flags, incs, src, extra + defs, timeout=60)
    if expected is None:
        return rc, err
    # Only the expected warning(s), each naming the expected text.
    warnings = [line for line in err.splitlines() if 'warning:' in line]
    if rc == 0 and warnings and all(expected in w for w in warnings):
        return 0, ''
    return 1, err or 'the expected warning "%s" did not appear' % expected


def main():
    opts = parse(sys.argv[1:])
    if not opts['--cc'] or not opts['--root']:
        sys.exit('usage: check_headers.py --root DIR ... --cc CMD... [--cxx CMD...]')
    roots = [r for r in opts['--root'] if os.path.isdir(r)]
    incs = roots + [i for i in opts['--inc'] if os.path.isdir(i)]
    arch = opts['--arch'][0] if opts['--arch'] else 'generic'
    jobs = int(opts['--jobs'][0]) if opts['--jobs'] else max(1, min(4, os.cpu_count() or 1))
    headers = collect(roots)
    if not headers:
        print('1..0 # SKIP no headers found')
        return 0

    langs = languages(opts)

    work = []
    for rel, full in headers:
        for lang, cmd, flags in langs:
            for lgpl in (False, True):
                work.append((rel, full, lang, cmd, flags, lgpl))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {}
        for idx, (rel, full, lang, cmd, flags, lgpl) in enumerate(work):
            if skip_reason(rel, full, arch):
                continue
            futs[ex.submit(compile_one, cmd, flags, incs, rel, lgpl)] = idx
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()

    n = 0
    failed = 0
    for idx, (rel, full, lang, cmd, flags, lgpl) in enumerate(work):
        mode = 'with _LGPL_SOURCE' if lgpl else 'without _LGPL_SOURCE'
        n += 1
        if idx not in results:
            print('ok %d - %s as %s, %s # SKIP %s'
                  % (n, rel, lang, mode, skip_reason(rel, full, arch)))
            continue
        rc, err = results[idx]
        if rc == 0:
            print('ok %d - %s as %s, %s' % (n, rel, lang, mode))
        else:
            failed += 1
            print('not ok %d - %s as %s, %s' % (n, rel, lang, mode))
            for line in err.strip().splitlines()[:15]:
                print('# ' + line)
    if not opts['--cxx']:
        n += 1
        print('ok %d # SKIP no C++ compiler configured' % n)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
