#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""liburcu's per-architecture and uatomic headers exist and behave.  TAP.

Usage: check-arch-headers.py --data arch-headers.tsv --inc DIR [--inc DIR ...]
                             [--jobs N] --cc CMD... [--cxx CMD...]

arch-headers.tsv lists every urcu/arch/*.h and urcu/uatomic/*.h that
liburcu 0.15.6 installs, with the machine family each one is for ("any":
all of them).  The family of the compiler given (--cc, or a cross compiler
run by hand) comes from its predefined macros (FAMILIES below: written here
independently of <urcu/arch.h>, so a wrong detection there shows as a
header refusing its own machine).  Then, per header and language (C11 with
--cc, C++17 with --cxx), warnings as errors:

  * for this family or any: the header alone (twice: its guard), then code
    using what it gives (barriers, caa_get_cycles; for uatomic headers the
    atomics with and without a memory order; uassert.h's checks), then
    <urcu.h> and <urcu/uatomic.h> after it; and the same code after
    <urcu.h> and <urcu/uatomic.h>.  Both must compile: no missing name, no
    redefinition either way round.
  * for another family: the header alone must fail with exactly one error,
    its own '#error "<header> is for ..."'.  A header that compiles there
    anyway, or fails some other way, is not ok.

Also: every header of the data exists under an --inc directory, and every
urcu/arch/*.h or urcu/uatomic/*.h found there is in the data.  A check
marked "todo:<check>[@family,...]" in the data's third column (check:
before, after or refuses; on the families named, or all) is a known gap:
its failure prints "not ok ... # TODO" (which does not fail the run), and
its success fails, so that the mark is removed once the gap is closed.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from hdrcheck import parse_options  # noqa: E402

OPTIONS = ('--data', '--inc', '--cc', '--cxx', '--jobs')
ARCH_DIRS = ('urcu/arch', 'urcu/uatomic')

# family -> the compiler's predefined macros that identify it.
FAMILIES = [
    ('x86', 'defined(__x86_64__) || defined(__i386__)'),
    ('aarch64', 'defined(__aarch64__)'),
    ('arm', 'defined(__arm__)'),
    ('ppc', 'defined(__powerpc__) || defined(__powerpc64__)'),
    ('s390', 'defined(__s390__) || defined(__s390x__)'),
    ('riscv', 'defined(__riscv)'),
    ('mips', 'defined(__mips__)'),
    ('sparc64', 'defined(__sparc__)'),
    ('alpha', 'defined(__alpha__)'),
    ('hppa', 'defined(__hppa__)'),
    ('ia64', 'defined(__ia64__)'),
    ('m68k', 'defined(__m68k__)'),
    ('nios2', 'defined(__nios2__)'),
    ('tile', 'defined(__tilegx__)'),
    ('loongarch', 'defined(__loongarch__)'),
]

WARN = ['-Wall', '-Wextra', '-Werror', '-pedantic', '-fsyntax-only']
LANGS = {'C11': ['-x', 'c', '-std=c11'], 'C++17': ['-x', 'c++', '-std=c++17']}

# What a program gets from any urcu/arch/*.h: <urcu/arch.h>'s names.
USE_ARCH = """
static int use_arch(void)
{
	static int line[CAA_CACHE_LINE_SIZE];
	caa_cycles_t t = caa_get_cycles();

	cmm_mb(); cmm_rmb(); cmm_wmb();
	cmm_smp_mb(); cmm_smp_rmb(); cmm_smp_wmb();
	cmm_smp_read_barrier_depends();
	caa_cpu_relax();
	return line[0] + (int) (t & 1);
}
"""

# And from any urcu/uatomic/*.h: <urcu/uatomic.h>'s.
USE_UATOMIC = """
static long use_uatomic(void)
{
	static long v;
	long old;

	uatomic_set(&v, 1);
	uatomic_inc(&v);
	uatomic_add(&v, 2, CMM_RELAXED);
	old = uatomic_xchg(&v, 3);
	old += uatomic_cmpxchg(&v, 3, 4, CMM_ACQ_REL, CMM_ACQUIRE);
	old += uatomic_add_return(&v, 1);
	cmm_smp_mb__before_uatomic_inc();
	uatomic_store(&v, old, CMM_RELEASE);
	return uatomic_load(&v, CMM_ACQUIRE) + uatomic_read(&v) + use_arch();
}
"""

USE_UASSERT = """
_uatomic_static_assert_atomic(sizeof(int));
urcu_static_assert(!_uatomic_has_atomic_type(3), "3 bytes", three);
urcu_static_assert(!_uatomic_has_atomic_type(16), "16 bytes", sixteen);

static long use_uassert(void)
{
	_uatomic_static_assert_atomic(sizeof(long));
	return _uatomic_has_atomic_type(4) ? use_uatomic() : 0;
}
"""

AFTER = '#include <urcu.h>\n#include <urcu/uatomic.h>\n'


def use_code(header):
    code = USE_ARCH
    if header.startswith('urcu/uatomic/'):
        code += USE_UATOMIC
    if header == 'urcu/uatomic/uassert.h':
        code += USE_UASSERT
    # -Wunused-function: the last function is called from main, which
    # calls the others.
    last = re.findall(r'static \w+ (use_\w+)\(void\)', code)[-1]
    return code + '\nint main(void)\n{\n\treturn (int) %s();\n}\n' % last


def read_data(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith('#') or not line.strip():
                continue
            cols = line.rstrip('\n').split('\t')
            if len(cols) not in (2, 3):
                sys.exit('%s:%d: want "header<TAB>family[<TAB>todo:check]"' % (path, n))
            fam = cols[1]
            if fam != 'any' and fam not in dict(FAMILIES):
                sys.exit('%s:%d: unknown family %r' % (path, n, fam))
            todo = {}
            for mark in (cols[2].split() if len(cols) == 3 else []):
                m = re.fullmatch(r'todo:(before|after|refuses)(?:@([\w,]+))?', mark)
                if not m:
                    sys.exit('%s:%d: want todo:<check>[@family,...], not %r' % (path, n, mark))
                todo[m.group(1)] = set(m.group(2).split(',')) if m.group(2) else None
            rows.append((cols[0], fam, todo))
    return rows


def family_of(cc):
    # The name in quotes: some are predefined macros (mips is 1 on MIPS).
    probe = ''.join('#if %s\nurcu_family "%s"\n#endif\n' % (cond, fam) for fam, cond in FAMILIES)
    r = subprocess.run(cc + ['-E', '-P', '-x', 'c', '-'], input=probe,
                       capture_output=True, text=True)
    found = re.findall(r'^urcu_family "(\w+)"', r.stdout, re.M)
    if r.returncode != 0 or len(found) > 1:
        sys.exit('check-arch-headers.py: cannot tell the machine family of %s: %s%s'
                 % (' '.join(cc), r.stderr, ' '.join(found)))
    return found[0] if found else 'unknown'


def compile_src(cmd, lang, incs, src):
    args = cmd + LANGS[lang] + WARN + ['-I' + i for i in incs] + ['-']
    p = subprocess.run(args, input=src, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def error_lines(stderr):
    return [l for l in stderr.splitlines() if re.search(r': (fatal )?error: ', l)]


def main():
    opts = parse_options('check-arch-headers.py', OPTIONS, sys.argv[1:])
    if not opts['--data'] or not opts['--cc'] or not opts['--inc']:
        sys.exit(__doc__.split('\n\n')[1])
    rows = read_data(opts['--data'][0])
    incs = [i for i in opts['--inc'] if os.path.isdir(i)]
    jobs = int(opts['--jobs'][0]) if opts['--jobs'] else 2
    compilers = {'C11': opts['--cc']}
    if opts['--cxx']:
        compilers['C++17'] = opts['--cxx']
    family = family_of(opts['--cc'])

    n = 0
    failed = 0

    def tap(ok, text, diag=(), todo=None):
        nonlocal n, failed
        n += 1
        if todo:
            # A known gap: failing is expected; passing means the mark goes.
            if ok:
                failed += 1
                print('not ok %d - %s (known gap closed: remove its todo:%s mark from the data)'
                      % (n, text, todo))
            else:
                print('not ok %d - %s # TODO known gap (data: todo:%s)' % (n, text, todo))
        else:
            if not ok:
                failed += 1
            print('%s %d - %s' % ('ok' if ok else 'not ok', n, text))
        for d in diag:
            print('# ' + d)
        sys.stdout.flush()

    print('# machine family of %s: %s' % (' '.join(opts['--cc']), family))

    # The data and the tree list the same headers.
    listed = {h for h, _, _ in rows}
    found = set()
    for inc in incs:
        for sub in ARCH_DIRS:
            d = os.path.join(inc, sub)
            if os.path.isdir(d):
                found |= {sub + '/' + f for f in os.listdir(d) if f.endswith('.h')}
    missing = sorted(listed - found)
    extra = sorted(found - listed)
    tap(not missing, 'every header of the data exists (%d)' % len(listed),
        ['missing: ' + ' '.join(missing)] * bool(missing))
    tap(not extra, 'every urcu/arch, urcu/uatomic header is in the data',
        ['not in %s: %s' % (os.path.basename(opts['--data'][0]), ' '.join(extra))]
        * bool(extra))

    # (text, todo, kind, lang, source)
    work = []
    for header, fam, todo in rows:
        if header not in found:
            continue
        inc = '#include <%s>\n' % header
        # The known gaps that apply to this machine family.
        todo = {c for c, fams in todo.items() if fams is None or family in fams}
        for lang in compilers:
            if fam in ('any', family):
                code = use_code(header)
                work.append(('<%s> alone, then <urcu.h>, %s' % (header, lang),
                             'before' if 'before' in todo else None, 'compiles', lang,
                             inc + inc + code + AFTER))
                work.append(('<%s> after <urcu.h>, %s' % (header, lang),
                             'after' if 'after' in todo else None, 'compiles', lang,
                             AFTER + inc + code))
            else:
                work.append(('<%s> refuses %s (it is for %s), %s' % (header, family, fam, lang),
                             'refuses' if 'refuses' in todo else None, header, lang, inc))

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda w: compile_src(compilers[w[3]], w[3], incs, w[4]), work))

    for (text, todo, kind, _, _), (rc, err) in zip(work, results):
        if kind == 'compiles':
            tap(rc == 0, text, err.strip().splitlines()[:15] if rc else (), todo)
            continue
        errs = error_lines(err)
        want = '%s is for ' % kind
        ok = rc != 0 and len(errs) == 1 and want in errs[0]
        diag = []
        if rc == 0:
            diag = ['compiled: it must stop the build with its #error']
        elif not ok:
            diag = ['want exactly one error, its own #error "%s..."; got:' % want] + \
                err.strip().splitlines()[:15]
        tap(ok, text, diag, todo)

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
