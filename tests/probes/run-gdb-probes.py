#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The USDT probes fire where urcu_probes(7) says, with the right arguments
(TAP).

Runs probe_workload under gdb in batch mode: stops at main (the libraries
are loaded), then gdb_probes.py puts a breakpoint on every probe of the
list below (`break -probe-stap urcu:NAME`) that records $_probe_arg0...
and continues.  The workload writes what the arguments must be (thread
ids, pointers) to a file; this script compares.  Checks, in order:

  - gdb found every probe in the program's libraries (liburcu-memb,
    liburcu-cds);
  - thread_register / thread_unregister: the main thread (explicit,
    implicit = 0) and the reader thread, flavor "memb";
  - gp_start / gp_end: every end follows its start, the sequence numbers
    of ended grace periods go up one by one, every duration is > 0, at
    least the workload's four synchronize_rcu;
  - gp_wait_readers: one holdout (the reader held for 0.4 s);
  - stall: names the reader's thread id, waited >= the 0.1 s timeout,
    nesting 1, in a grace period that gp_start announced;
  - call_rcu: the workload's head and callback; cb_batch_start /
    cb_batch_end on that worker with a backlog and a count >= 1;
  - barrier_start, then barrier_end with >= 1 worker;
  - defer_rcu: the workload's function and argument;
  - lfht_resize_start / lfht_resize_end: the workload's table, 4 -> 1024
    buckets, then 1024 -> 64;
  - the workload exited normally.

Skipped (said in the TAP plan line "1..0 # SKIP why") without USDT probes in the
build (--sdt=no), without gdb, or when gdb may not trace (ptrace denied).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

PROBES = ['gp_start', 'gp_end', 'gp_wait_readers', 'stall', 'call_rcu',
          'cb_batch_start', 'cb_batch_end', 'barrier_start', 'barrier_end',
          'defer_rcu', 'thread_register', 'thread_unregister',
          'lfht_resize_start', 'lfht_resize_end']

PTRACE_DENIED = ('ptrace: Operation not permitted', 'Could not trace the inferior',
                 'Could not attach to process')


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, what, details=()):
        self.n += 1
        self.failed += not cond
        print('%sok %d - %s' % ('' if cond else 'not ', self.n, what))
        if not cond:
            for d in details:
                print('# ' + d)
        return cond


def skip_all(why):
    # Meson's TAP reader: a plan of 0 with SKIP, exit status 0.
    print('1..0 # SKIP ' + why)
    return 0


def parse_hits(path):
    hits, found, problems = [], {}, []
    with open(path, encoding='utf-8') as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'hit':
                name, args = w[1], w[2:]
                if not name.startswith('lfht_'):
                    args = [args[0]] + [int(a) for a in args[1:]] if args else []
                else:
                    args = [int(a) for a in args]
                hits.append((name, args))
            elif w[0] == 'set':
                found[w[1]] = int(w[2])
            elif w[0] == 'missing':
                found[w[1]] = 0
                problems.append(line.strip())
            elif w[0] == 'error':
                problems.append(line.strip())
    return hits, found, problems


def parse_expect(path):
    exp = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            k, _, v = line.strip().partition(' ')
            if k:
                exp[k] = int(v, 16) if v.startswith('0x') else int(v) if v.isdigit() else v
    return exp


def check(tap, hits, found, problems, exp):
    missing = [p for p in PROBES if found.get(p, 0) < 1]
    tap.ok(not missing, 'gdb sets a breakpoint on each of the %d probes' % len(PROBES),
           ['not found: ' + ', '.join(missing)] + problems)
    tap.ok(not problems, 'gdb reads every argument of every hit', problems)

    def of(name):
        return [a for n, a in hits if n == name]

    main_tid, reader_tid = exp.get('tid_main'), exp.get('tid_reader')
    reg = of('thread_register')
    tap.ok(['memb', main_tid, 0] in reg and ['memb', reader_tid, 0] in reg,
           'thread_register: main thread %s and reader %s, explicit' % (main_tid, reader_tid),
           ['hits: %s' % reg])
    unreg = of('thread_unregister')
    tap.ok(['memb', main_tid] in unreg and ['memb', reader_tid] in unreg,
           'thread_unregister: main thread and reader', ['hits: %s' % unreg])

    # Grace periods: starts and ends in order, one leader at a time.
    started, ended, bad = set(), [], []
    for name, a in hits:
        if name == 'gp_start':
            started.add(a[1])
        elif name == 'gp_end':
            if a[0] != 'memb' or a[1] not in started or a[2] <= 0:
                bad.append('gp_end %s: flavor memb, started, duration > 0?' % a)
            ended.append(a[1])
    steps = [b - a for a, b in zip(ended, ended[1:])]
    tap.ok(len(ended) >= 4 and not bad and all(s == 1 for s in steps),
           'gp_start/gp_end: %d grace periods, sequence +1 each, durations > 0' % len(ended),
           bad + ['ended: %s' % ended])

    waits = of('gp_wait_readers')
    tap.ok(any(a[0] == 'memb' and a[1] in started and a[2] == 1 for a in waits),
           'gp_wait_readers: one holdout (the held reader)', ['hits: %s' % waits])

    stalls = of('stall')
    tap.ok(any(a[0] == 'memb' and a[1] in started and a[2] == reader_tid
               and a[3] >= 100000000 and a[4] == 1 for a in stalls),
           'stall: the reader %s, waited >= 0.1 s, nesting 1' % reader_tid,
           ['hits: %s' % stalls])

    calls = [a for a in of('call_rcu') if a[2] == exp.get('head')]
    tap.ok(len(calls) == 1 and calls[0][0] == 'memb' and calls[0][3] == exp.get('callback')
           and calls[0][1] != 0,
           'call_rcu: the workload\'s head and callback, a worker',
           ['hits: %s' % of('call_rcu'), 'expected head %#x callback %#x'
            % (exp.get('head', 0), exp.get('callback', 0))])
    worker = calls[0][1] if calls else None
    starts = [a for a in of('cb_batch_start') if a[1] == worker]
    ends = [a for a in of('cb_batch_end') if a[1] == worker]
    tap.ok(starts and ends and all(a[2] >= 1 for a in starts + ends)
           and sum(a[2] for a in ends) >= 2,
           'cb_batch_start/end on that worker: backlog and count >= 1 (callback + barrier)',
           ['starts %s' % starts, 'ends %s' % ends])

    order = [(n, a) for n, a in hits if n in ('barrier_start', 'barrier_end')]
    tap.ok(len(order) == 2 and order[0][0] == 'barrier_start'
           and order[1][0] == 'barrier_end' and order[1][1][1] >= 1,
           'barrier_start, then barrier_end with >= 1 worker', ['hits: %s' % order])

    defers = of('defer_rcu')
    tap.ok(['memb', exp.get('defer_fct'), exp.get('defer_p')] in defers,
           'defer_rcu: the workload\'s function and argument', ['hits: %s' % defers])

    ht = exp.get('ht')
    resizes = [(n, a[1], a[2]) for n, a in hits
               if n.startswith('lfht_resize') and a[0] == ht]
    want = [('lfht_resize_start', 4, 1024), ('lfht_resize_end', 4, 1024),
            ('lfht_resize_start', 1024, 64), ('lfht_resize_end', 1024, 64)]
    tap.ok(resizes == want, 'lfht_resize_start/end: 4 -> 1024, then 1024 -> 64 buckets',
           ['hits: %s' % resizes, 'want: %s' % want])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--workload', required=True)
    ap.add_argument('--gdb-script', required=True)
    ap.add_argument('--sdt', choices=['yes', 'no'], required=True)
    ap.add_argument('--gdb', default=shutil.which('gdb'))
    args = ap.parse_args()

    if args.sdt == 'no':
        return skip_all('built without USDT probes (no <sys/sdt.h>: install '
                        'systemtap-sdt-dev, or meson option sdt)')
    if not args.gdb:
        return skip_all('gdb not installed (Debian package gdb)')

    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'hits')
        expect = os.path.join(tmp, 'expect')
        env = dict(os.environ, URCU_PROBE_LOG=log, URCU_PROBE_NAMES=','.join(PROBES))
        open(log, 'w').close()
        cmd = [args.gdb, '-nx', '-batch',
               '-ex', 'set pagination off', '-ex', 'set confirm off',
               '-ex', 'set print thread-events off',
               '-ex', 'break main', '-ex', 'run',
               '-ex', 'source ' + args.gdb_script, '-ex', 'continue',
               '--args', args.workload, expect]
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, env=env, timeout=120)
            out = r.stdout
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b'').decode(errors='replace') + '\n(gdb timed out)'
        if any(s in out for s in PTRACE_DENIED):
            return skip_all('gdb may not trace here (ptrace denied)')
        tap = Tap()
        exited = 'exited normally' in out
        if not tap.ok(exited and os.path.exists(expect),
                      'the workload runs to its end under gdb',
                      out.splitlines()[-30:]):
            print('1..%d' % tap.n)
            return 1
        hits, found, problems = parse_hits(log)
        check(tap, hits, found, problems, parse_expect(expect))
    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
