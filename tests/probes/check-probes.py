#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The USDT probes in the built libraries match urcu_probes(7) (TAP).

The man page is the list: each probe is a tagged paragraph
"\\fBname\\fP(\\fIarg\\fP, ...)", the ones under the subsection "Hash table"
belong to liburcu-cds, every other one to each flavor library.  For every
shared library given with --lib NAME=PATH, `readelf -n` must show exactly
the probes of its kind, provider urcu, each location with as many arguments
as the page lists (liburcu-common: none).  The bpftrace scripts of
tools/trace may only name probes of the page, and only arguments they have.

Exit 0 when every check passes, 1 otherwise; with --sdt=no (the build has
no <sys/sdt.h>) or without readelf the library checks are skipped, and
said so.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

PROBE_LINE = re.compile(r'^\\fB(\w+)\\fP\((.*)\)$')


def man_probes(path):
    """{name: (nargs, 'cds' or 'flavor')} from the page's PROBES section."""
    probes = {}
    kind = None
    in_probes = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('.SH '):
                in_probes = line.split(None, 1)[1].strip('"') == 'PROBES'
                continue
            if not in_probes:
                continue
            if line.startswith('.SS '):
                kind = 'cds' if line[4:].startswith('Hash table') else 'flavor'
                continue
            m = PROBE_LINE.match(line)
            if m:
                args = re.findall(r'\\fI(\w+)\\fP', m.group(2))
                probes[m.group(1)] = (len(args), kind)
    return probes


def notes(readelf, lib):
    """[(provider, name, nargs)] of the stapsdt notes of lib."""
    r = subprocess.run([readelf, '-n', lib], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip() or 'readelf failed')
    out = []
    cur = {}
    for line in r.stdout.splitlines():
        line = line.strip()
        m = re.search(r'\bProvider:\s*(\S+)', line)
        if m:
            # (readelf --wide puts it on the note's first line)
            cur = {'provider': m.group(1)}
        elif line.startswith('Name:') and 'provider' in cur:
            cur['name'] = line.split(':', 1)[1].strip()
        elif line.startswith('Location:') and 'name' in cur:
            # A probe without arguments has no "Arguments:" line.
            out.append([cur['provider'], cur['name'], 0])
        elif line.startswith('Arguments:') and out and 'name' in cur:
            out[-1][2] = len(line.split(':', 1)[1].split())
    return [tuple(n) for n in out]


def trace_refs(path):
    """[(probe, highest argN used in its block or -1)] of a bpftrace script."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    refs = []
    # A probe spec, then the action block that follows it.
    for m in re.finditer(r'usdt:[^\s{,]*?:urcu:(\w+)(.*?)(?=\busdt:|\Z)', text,
                         re.S):
        used = [int(a) for a in re.findall(r'\barg(\d+)\b', m.group(2))]
        refs.append((m.group(1), max(used) if used else -1))
    return refs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--man', required=True)
    ap.add_argument('--lib', action='append', default=[])
    ap.add_argument('--trace-dir')
    ap.add_argument('--sdt', choices=['yes', 'no'], required=True)
    ap.add_argument('--readelf', default=shutil.which('readelf'))
    args = ap.parse_args()

    n = 0
    failed = 0

    def result(ok, what, details=()):
        nonlocal n, failed
        n += 1
        failed += not ok
        print('%sok %d - %s' % ('' if ok else 'not ', n, what))
        for d in details:
            print('# ' + d)

    def skip(what, why):
        nonlocal n
        n += 1
        print('ok %d - %s # SKIP %s' % (n, what, why))

    probes = man_probes(args.man)
    result(len(probes) >= 14 and all(k for _, k in probes.values()),
           'urcu_probes(7) lists %d probes, each in a subsection' % len(probes),
           ['%s: %s' % (p, v) for p, v in sorted(probes.items())])
    by_kind = {'flavor': {}, 'cds': {}}
    for name, (nargs, kind) in probes.items():
        by_kind[kind][name] = nargs

    for spec in args.lib:
        lib, path = spec.split('=', 1)
        kind = 'none' if lib == 'urcu-common' else 'cds' if lib == 'urcu-cds' else 'flavor'
        want = {} if kind == 'none' else by_kind[kind]
        what = 'lib%s: %s probes of urcu_probes(7), each with its arguments' % (
            lib, 'no' if kind == 'none' else 'the %d %s' % (len(want), kind))
        if args.sdt == 'no':
            skip(what, 'built without USDT probes (no <sys/sdt.h>: install '
                 'systemtap-sdt-dev, or meson option sdt)')
            continue
        if not args.readelf:
            skip(what, 'readelf (binutils) not installed')
            continue
        try:
            found = notes(args.readelf, path)
        except RuntimeError as e:
            result(False, what, [str(e)])
            continue
        problems = []
        names = set()
        for provider, name, nargs in found:
            if provider != 'urcu':
                problems.append('provider %s (probe %s): not urcu' % (provider, name))
                continue
            names.add(name)
            if name in want and nargs != want[name]:
                problems.append('%s: a location with %d arguments, the page says %d'
                                % (name, nargs, want[name]))
        for name in sorted(set(want) - names):
            problems.append('%s: missing' % name)
        for name in sorted(names - set(want)):
            problems.append('%s: in the library, not on the page (or not in this library)'
                            % name)
        result(not problems, what + ' (%d locations)' % len(found), problems)

    if args.trace_dir:
        scripts = sorted(f for f in os.listdir(args.trace_dir) if f.endswith('.bt'))
        result(len(scripts) >= 3, 'tools/trace has %d bpftrace scripts' % len(scripts),
               scripts)
        for script in scripts:
            problems = []
            refs = trace_refs(os.path.join(args.trace_dir, script))
            for name, top in refs:
                if name not in probes:
                    problems.append('urcu:%s: no such probe in urcu_probes(7)' % name)
                elif top >= probes[name][0]:
                    problems.append('urcu:%s: uses arg%d, the probe has %d arguments'
                                    % (name, top, probes[name][0]))
            if not refs:
                problems.append('names no urcu probe')
            result(not problems, 'tools/trace/%s names only probes and arguments of '
                   'urcu_probes(7)' % script, problems)

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
