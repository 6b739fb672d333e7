#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the man pages (TAP output, one test per page and check).

For every page: man(1) and groff(1) render it without a single warning; it
has the sections every page of its kind must have; each cross-reference to
one of our names resolves to a page or alias we install; its EXAMPLE
compiles, warning-free, against this tree's headers.  For every alias: the
target page exists and mentions the name (or, for a flavor-prefixed name,
the function's suffix), and no alias shadows a page.

Exit status 0 when everything passes, 1 otherwise, 77 when neither man nor
groff is installed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REQUIRED = {
    '3': ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'MEMORY ORDERING',
          'RETURN VALUE', 'EXAMPLE', 'SEE ALSO'],
    '7': ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'SEE ALSO'],
    '1': ['NAME', 'SYNOPSIS', 'DESCRIPTION'],
}

# Cross-references to names of this shape must resolve to one of our pages.
OURS = re.compile(r'^(rcu_|urcu|cds_|__cds_|CDS_|cmm_|CMM_|caa_|CAA_|uatomic|'
                  r'call_rcu|synchronize_rcu|start_poll|poll_state|defer_rcu|'
                  r'(get|set|create)_\w*call_rcu|free_all_cpu|URCU_|'
                  r'DEFINE_URCU|DECLARE_URCU|DEFINE_RCU)')

FLAVORED = re.compile(r'^urcu_(memb|mb|qsbr|bp|signal)_(\w+)$')


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def result(self, ok, what, details=''):
        self.n += 1
        if not ok:
            self.failed += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', self.n, what))
        if ok:
            return
        for line in details.rstrip().splitlines():
            print('# ' + line)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def page_name(path):
    base = os.path.basename(path)
    name, _, section = base.rpartition('.')
    return name, section


def sections_of(text):
    return [m.group(1).strip().strip('"')
            for m in re.finditer(r'^\.SH\s+(.*)$', text, re.M)]


def plain(text):
    """Roff source with the escapes that split names removed."""
    text = re.sub(r'\\f[BIRP]|\\f\[[A-Z]*\]', '', text)
    text = text.replace('\\-', '-').replace('\\&', '')
    return text.replace('" "', '').replace('"', '')


def cross_refs(text):
    """(name, section) of every reference written NAME (N)."""
    refs = []
    for m in re.finditer(r'^\.(?:BR|B|IR|I)\s+"?([\w.]+)"?\s+\((\d)\)', text,
                         re.M):
        refs.append((m.group(1), m.group(2)))
    for m in re.finditer(r'\\fB([\w.]+)\\f[PR]\((\d)\)', text):
        refs.append((m.group(1), m.group(2)))
    return refs


def example_code(text):
    m = re.search(r'^\.SH EXAMPLE\n(.*?)(?=^\.SH )', text, re.S | re.M)
    if not m:
        return None
    blocks = re.findall(r'^\.EX\n(.*?)^\.EE', m.group(1), re.S | re.M)
    code = '\n'.join(blocks)
    for esc, ch in (('\\-', '-'), ('\\e', '\\'), ('\\(em', '--'),
                    ('\\&', '')):
        code = code.replace(esc, ch)
    return code


def parse_args():
    argv = sys.argv[1:]
    cc = None
    if '--cc' in argv:
        i = argv.index('--cc')
        end = argv.index('--', i) if '--' in argv[i:] else len(argv)
        cc = argv[i + 1:end]
        argv = argv[:i] + argv[end + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument('--page', action='append', default=[])
    ap.add_argument('--extra-page', action='append', default=[])
    ap.add_argument('--alias', action='append', default=[])
    ap.add_argument('--include', action='append', default=[])
    args = ap.parse_args(argv)
    args.cc = cc
    return args


def check(args):
    man = shutil.which('man')
    groff = shutil.which('groff')
    if not man and not groff:
        print('1..0 # SKIP neither man nor groff is installed')
        return 77
    tap = Tap()
    env = dict(os.environ, LC_ALL='C.UTF-8', MANWIDTH='80', MANPAGER='cat',
               PAGER='cat', MAN_KEEP_FORMATTING='')

    pages = {}
    for path in args.page + args.extra_page:
        name, section = page_name(path)
        with open(path, encoding='utf-8') as f:
            pages[name] = (path, section, f.read())
    aliases = dict(a.split('=', 1) for a in args.alias)
    known = {name: section for name, (_, section, _) in pages.items()}
    for alias in aliases:
        known.setdefault(alias, '3')
    known.setdefault('urcutorture', '1')  # owned by the urcutorture tool

    for name, (path, section, text) in sorted(pages.items()):
        label = '%s(%s)' % (name, section)
        if man:
            r = run([man, '--warnings', '-E', 'UTF-8', '-l', path], env=env)
            out = r.stderr.strip()
            tap.result(r.returncode == 0 and not out and r.stdout.strip(),
                       label + ': man --warnings renders it cleanly', out)
            wide = [line for line in r.stdout.splitlines()
                    if len(line.rstrip()) > 80]
            tap.result(not wide, label + ': fits in 80 columns',
                       '\n'.join(wide))
        if groff:
            r = run([groff, '-man', '-ww', '-z', '-rLL=78n', path], env=env)
            out = r.stderr.strip()
            tap.result(r.returncode == 0 and not out,
                       label + ': groff -man -ww is silent', out)
        bad = ['%s(%s)' % (ref, sec) for ref, sec in cross_refs(text)
               if OURS.match(ref) and known.get(ref) != sec]
        tap.result(not bad, label + ': cross-references resolve',
                   'unknown: ' + ', '.join(sorted(set(bad))) if bad else '')
        # "and exit..TP": a request that lost its newline swallows the next entry.
        glued = [line for line in text.splitlines()
                 if not line.startswith('.') and re.search(r'\S\.(TP|PP|IP|SH|SS)$', line)]
        tap.result(not glued, label + ': no request glued to the end of a text line',
                   '\n'.join(glued))
        if path in args.extra_page:
            continue

        have = sections_of(text)
        missing = [s for s in REQUIRED.get(section, []) if s not in have]
        tap.result(not missing, label + ': has the required sections',
                   'missing: ' + ', '.join(missing) if missing else '')

        th = re.search(r'^\.TH\s+(\S+)\s+(\d)', text, re.M)
        ok = th and th.group(1) == name.upper() and th.group(2) == section
        tap.result(bool(ok), label + ': .TH names the page and its section',
                   th.group(0) if th else 'no .TH line')


        if section != '3' or args.cc is None:
            continue
        code = example_code(text)
        if not code:
            tap.result(False, label + ': EXAMPLE has code')
            continue
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, name + '.c')
            with open(src, 'w', encoding='utf-8') as f:
                f.write(code)
            cmd = args.cc + ['-std=gnu11', '-Wall', '-Wextra',
                             '-Wno-unused-parameter', '-Werror', '-c',
                             '-o', os.path.join(tmp, name + '.o'), src]
            for inc in args.include:
                cmd += ['-I', inc]
            r = run(cmd)
            tap.result(r.returncode == 0, label + ': EXAMPLE compiles',
                       r.stdout + r.stderr)

    alias_problems = []
    for alias, target in sorted(aliases.items()):
        if alias in pages:
            alias_problems.append('%s shadows a page' % alias)
            continue
        if target not in pages:
            alias_problems.append('%s -> %s: no such page' % (alias, target))
            continue
        text = plain(pages[target][2])
        m = FLAVORED.match(alias)
        needle = alias if alias in text or not m else m.group(2)
        if not re.search(r'(?<![A-Za-z0-9])_?' + re.escape(needle) +
                         r'(?![A-Za-z0-9_])', text):
            alias_problems.append('%s -> %s: the page never mentions %s'
                                  % (alias, target, needle))
    tap.result(not alias_problems,
               '%d aliases point to pages that document them' % len(aliases),
               '\n'.join(alias_problems))

    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(check(parse_args()))
