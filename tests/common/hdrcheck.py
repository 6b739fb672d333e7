# SPDX-License-Identifier: MIT
"""Helpers shared by the header checks run by meson (tests/unit/check_headers.py,
tests/cds/check_cds_headers.py, tests/names/check-names.py): their option
parsing and compiling a source given on stdin.
"""
import subprocess
import sys

C_FLAGS = ['-x', 'c', '-std=gnu11']
CXX_FLAGS = ['-x', 'c++']
WARN_FLAGS = ['-Wall', '-Wextra', '-Werror', '-fsyntax-only', '-pthread']

# The flag sets real consumers build liburcu-style code with, so that the
# installed headers compile cleanly wherever such a consumer includes them:
# (name, language, flags), each compiled with SET_WARN_FLAGS.  The sets add
# the warnings such projects enable (the C++ ones those that apply to C++);
# strict -std=c99 has no GNU keywords (typeof, asm) and no POSIX names from
# the C library headers.  No -pthread: a consumer's flags come from
# pkg-config (-I only), and -pthread's _REENTRANT would give -std=c99 the
# POSIX names of 1995.
SET_WARN_FLAGS = ['-Wall', '-Wextra', '-Werror', '-fsyntax-only']
STRICT_WARNINGS = ['-Wshadow', '-Wpointer-arith', '-Wwrite-strings', '-Wcast-qual']
C_STRICT_WARNINGS = STRICT_WARNINGS + ['-Wstrict-prototypes', '-Wmissing-prototypes']
FLAG_SETS = [
    ('gnu11', 'C', ['-x', 'c', '-std=gnu11'] + C_STRICT_WARNINGS),
    ('c99', 'C', ['-x', 'c', '-std=c99'] + C_STRICT_WARNINGS),
    ('c++11', 'C++', ['-x', 'c++', '-std=c++11'] + STRICT_WARNINGS),
    ('c++17', 'C++', ['-x', 'c++', '-std=c++17'] + STRICT_WARNINGS),
]


def parse_options(prog, options, argv):
    """{option: [words]} for each of OPTIONS: every word after an option
    belongs to it up to the next option (so --cc may take several words).
    A word before any option ends the run with a message naming PROG."""
    opts = {o: [] for o in options}
    cur = None
    for a in argv:
        if a in options:
            cur = a
            continue
        if cur is None:
            sys.exit('%s: argument %r before any option' % (prog, a))
        opts[cur].append(a)
    return opts


def languages(opts):
    """(name, compiler command, language flags): C, and C++ when --cxx is given."""
    langs = [('C', opts['--cc'], C_FLAGS)]
    if opts['--cxx']:
        langs.append(('C++', opts['--cxx'], CXX_FLAGS))
    return langs


def flag_sets(opts):
    """(name, compiler command, flags) of each FLAG_SETS entry whose compiler
    is configured (--cc, --cxx)."""
    cmds = {'C': opts['--cc'], 'C++': opts['--cxx']}
    return [(name, cmds[lang], flags) for name, lang, flags in FLAG_SETS if cmds[lang]]


def compile_stdin(cmd, lang_flags, incs, src, extra=(), timeout=120, warn=WARN_FLAGS):
    """Compile SRC (syntax only, warnings as errors: WARN) with the include
    directories INCS; returns (exit status, stderr)."""
    args = cmd + lang_flags + warn + list(extra) + ['-I' + i for i in incs] + ['-']
    p = subprocess.run(args, input=src, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stderr
