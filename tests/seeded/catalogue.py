#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The seeded-bug catalogue: does each bug get caught?

For every name of tests/seeded/catalogue.txt this script configures a
scratch build with -Dseeded_bug=NAME (only the flavors that matter, no man
pages), builds urcutorture and the tests it needs, then

  (a) runs urcutorture alone, in the modes and flavors that should catch the
      bug (--duration each, 10 s by default), and records the verdict
      (exit 1 FAILURE, or CRASH when the report says so; exit 2 STALL), the
      detectors that fired (the error kinds of the JSON report, "watchdog"
      for a stall, "crash" for a crash) and the seconds to
      detection (the first "!!!" stat line; for errors counted only at the
      end, or a stall, the run's elapsed time);
  (b) runs the default tests relevant to it and records which fail.

An "A/A" control, the same runs on an unseeded build, must pass everything.
The table at the end says, per bug, whether urcutorture caught it and
whether the tests did; the exit status is 1 if any bug escaped either (or
the control failed), 0 otherwise.

Resumable: each bug's result is kept in PREFIX-results/NAME.json and reused
unless --force; the build directories PREFIX-NAME are reused (ninja does
nothing when they are current).  Builds may run in parallel (--jobs); the
runs themselves are sequential (they are timing-sensitive and CPU-bound).

  catalogue.py [--source DIR] [--build-prefix PREFIX] [--only A,B] [--jobs N]
               [--duration S] [--force] [--no-tests] [--no-control]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Tests of the relevant suites that check no behaviour of a flavor (headers,
# symbol lists): left out, they cannot catch a seeded bug and cost minutes.
STATIC_TESTS = re.compile(r'^(public-headers|exported-symbols|flavor-name-lists|'
                          r'wfcqueue-|callrcu-multiflavor|multiflavor-)')

# What each bug breaks, the flavors to build, urcutorture's runs (mode,
# flavor, extra arguments).  The tests run are those of DEFAULT_SUITES
# plus the torture-short runs of each flavor, 'urcutorture-FLAVOR' and
# 'urcutorture-litmus-FLAVOR', plus the default tests named in 'tests'.
BUGS = {
    'skip-wait': dict(
        breaks='synchronize_rcu waits for every pre-existing reader (it returns at once)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'skip-reader': dict(
        breaks='the scan waits for every registered reader (the second-oldest is skipped)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'no-flip': dict(
        breaks='a grace period flips the sequence before scanning (no flip: no reader is waited for)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'done-before-scan': dict(
        breaks='done is published after the scan (before it: callers sharing the grace period return early)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'nesting-off-by-one': dict(
        breaks='only the outermost unlock ends a section (leaving depth 2 re-snapshots)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'qsbr-unpublished': dict(
        breaks='qsbr thread_online publishes the snapshot (it does not: the thread stays invisible)',
        flavors=['qsbr'], runs=[('stress', 'qsbr', [])]),
    'bp-register-race': dict(
        breaks='bp lazy registration publishes the first section (it does not: unseen by the scan)',
        flavors=['bp'], runs=[('stress', 'bp', [])]),
    'cb-before-gp': dict(
        breaks='call_rcu callbacks run after a grace period (the worker skips it)',
        flavors=['memb'], runs=[('stress', 'memb', []), ('callback', 'memb', [])]),
    'lost-callback': dict(
        breaks='every call_rcu callback is invoked once (one in 4096 is dropped)',
        flavors=['memb'], runs=[('callback', 'memb', []), ('stress', 'memb', [])]),
    'early-barrier': dict(
        breaks='rcu_barrier waits for the callbacks queued before it (it returns at once)',
        flavors=['memb'], runs=[('barrier', 'memb', []), ('stress', 'memb', [])]),
    'early-poll': dict(
        breaks='poll_state_synchronize_rcu reports a full grace period (one early)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'defer-no-gp': dict(
        breaks='defer_rcu functions run after a grace period (without one)',
        flavors=['memb'], runs=[('stress', 'memb', [])]),
    'order-updater': dict(
        breaks='B1 orders the readers\' word stores before the scan (skipped: store buffering, H3)',
        flavors=['memb', 'mb'], runs=[('litmus', 'memb', []), ('litmus', 'mb', []),
                                       ('stress', 'memb', [])]),
    'order-reader': dict(
        breaks='fenced readers fence after publishing their word (skipped: store buffering, H3)',
        flavors=['mb'], runs=[('litmus', 'mb', []), ('stress', 'mb', [])]),
    'gp-stats-double': dict(
        breaks='gp_stats counts each grace period once (twice: completed, histogram, total)',
        flavors=['memb'], runs=[('stress', 'memb', []), ('gp-latency', 'memb', [])]),
    'bp-register-unlocked': dict(
        breaks='bp registration links its record under the registry lock (without it)',
        flavors=['bp'], runs=[('stress', 'bp', [])]),
    'stale-snapshot': dict(
        breaks='the scan reads the reader words after B1 and the flip (read once before B1 and trusted: store buffering)',
        flavors=['memb', 'signal', 'bp'], runs=[('litmus', 'memb', []), ('litmus', 'signal', []),
                                                ('litmus', 'bp', [])]),
    'lfht-destroy-hang': dict(
        breaks='cds_lfht_destroy of an auto-resize table returns (it waits for an acknowledgement never sent)',
        flavors=['memb'], runs=[('hash', 'memb', ['--stall-timeout=5s'])],
        tests=['urcutorture-hash-memb']),
    'implicit-unlinked': dict(
        breaks='a thread registered implicitly (read_lock) is linked where the scan looks (it is not)',
        flavors=['memb', 'mb', 'signal'], runs=[('stress', 'memb', []), ('stress', 'mb', []),
                                                ('stress', 'signal', [])]),
    'unregister-in-section': dict(
        breaks='rcu_unregister_thread inside a section keeps it protected (it unregisters at once)',
        flavors=['memb', 'mb', 'signal'], runs=[('stress', 'memb', []), ('stress', 'mb', []),
                                                ('stress', 'signal', [])]),
    'implicit-first-unordered': dict(
        breaks='the section that registers a thread implicitly is published before its loads '
               '(its word store passes them)',
        flavors=['memb', 'mb', 'signal'], runs=[('stress', 'memb', []), ('litmus', 'mb', []),
                                                ('stress', 'signal', [])]),
}
DEFAULT_SUITES = ['unit', 'callrcu']
ALL_FLAVORS = ['memb', 'mb', 'qsbr', 'bp', 'signal']


def build_flavors(flavors):
    """The flavors to configure: memb always (tests/cds needs it)."""
    return flavors if 'memb' in flavors else ['memb'] + flavors


def catalogue_names():
    names = []
    with open(os.path.join(HERE, 'catalogue.txt')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                names.append(line)
    return names


def log(msg):
    print(msg, flush=True)


def sh(cmd, cwd=None, timeout=None, env=None):
    """Run cmd niced; (rc, output).  rc None when the timeout killed it."""
    try:
        p = subprocess.run(['nice', '-n', '5'] + cmd, cwd=cwd, timeout=timeout, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors='replace')
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ''
        if isinstance(out, bytes):
            out = out.decode('utf-8', 'replace')
        return None, out


def build_dir(args, name):
    return '%s-%s' % (args.build_prefix, name)


def wanted_tests(bdir, flavors, extra=()):
    """The relevant default tests of a configured build: [(name, [ninja targets])].

    extra: further default tests the bug names (its spec's 'tests')."""
    rc, out = sh(['meson', 'introspect', '--tests', bdir])
    tests = json.loads(out) if rc == 0 else []
    rc, out = sh(['meson', 'introspect', '--targets', bdir])
    targets = {t['id']: t['filename'] for t in json.loads(out)} if rc == 0 else {}
    sel = []
    for t in tests:
        suites = [s.split(':')[-1] for s in t['suite']]
        name = t['name']
        keep = any(s in DEFAULT_SUITES for s in suites) and not STATIC_TESTS.match(name)
        keep = keep or ('torture-short' in suites and name in
                        ['urcutorture-' + f for f in flavors]
                        + ['urcutorture-litmus-' + f for f in flavors]
                        + list(extra))
        named = [f for f in ALL_FLAVORS if f in name.split('-')]
        if not keep or (named and not set(named) & set(flavors)):
            continue
        outs = []
        for dep in t.get('depends', []):
            for fn in targets.get(dep, []):
                outs.append(os.path.relpath(fn, bdir))
        sel.append((name, outs))
    return sel


def configure_and_build(args, name, flavors, with_tests, extra=()):
    """Configure (once) and build what the runs need.  Returns an error or None."""
    bdir = build_dir(args, name)
    if not os.path.exists(os.path.join(bdir, 'build.ninja')):
        if os.path.exists(bdir):
            shutil.rmtree(bdir)
        opts = ['-Dflavors=' + ','.join(build_flavors(flavors)), '-Dman=false']
        if name != 'none':
            opts.append('-Dseeded_bug=' + name)
        rc, out = sh(['meson', 'setup', bdir, args.source] + opts)
        if rc != 0:
            return 'meson setup failed:\n' + out[-3000:]
    targets = ['tools/urcutorture']
    if with_tests:
        for _, outs in wanted_tests(bdir, flavors, extra):
            targets += outs
    targets = sorted(set(targets))
    rc, out = sh(['ninja', '-C', bdir, '-j', str(args.ninja_jobs)] + targets)
    if rc != 0:
        return 'build failed:\n' + out[-3000:]
    return None


def torture_modes(exe):
    rc, out = sh([exe, '--list-modes'])
    return set(out.split()) if rc == 0 else set()


def run_torture(args, bdir, mode, flavor, extra):
    """One urcutorture run: dict with verdict, rc, detectors, seconds."""
    exe = os.path.join(bdir, 'tools', 'urcutorture')
    res = dict(mode=mode, flavor=flavor, extra=extra)
    if mode not in torture_modes(exe):
        res.update(verdict='NO-MODE', rc=None, detectors=[], seconds=None,
                   note='this urcutorture has no mode %s' % mode)
        return res
    jpath = os.path.join(bdir, 'seeded-%s-%s.json' % (mode, flavor))
    if os.path.exists(jpath):
        os.unlink(jpath)
    cmd = [exe, '--mode=' + mode, '--flavor=' + flavor, '--duration=%gs' % args.duration,
           '--stat-interval=500ms', '--json=' + jpath] + extra
    t0 = time.monotonic()
    rc, out = sh(cmd, timeout=args.duration + args.hang_s)
    wall = time.monotonic() - t0
    res.update(rc=rc, wall_s=round(wall, 1), command=' '.join(cmd[:1] + cmd[1:]))
    doc = None
    try:
        with open(jpath) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        pass
    detectors = []
    if doc:
        for r in doc.get('results', []):
            for k, v in (r.get('errors') or {}).items():
                if v and k not in detectors:
                    detectors.append(k)
    first = None
    for line in out.splitlines():
        m = re.match(r'^!!! \[\s*([0-9.]+)s\]', line)
        if m:
            first = float(m.group(1))
            break
    elapsed = doc.get('elapsed_s') if doc else None
    if rc is None:
        verdict = 'HANG'
        res['note'] = 'killed after %d s without a verdict' % int(args.duration + args.hang_s)
    elif rc == 1 and doc and doc.get('verdict') == 'CRASH':
        # The crash handler exits 1 too; its report says CRASH and when.
        verdict = 'CRASH'
        detectors.append('crash')
        crash = doc.get('crash') or {}
        res['note'] = 'crashed: %s in %s' % (crash.get('signal'), crash.get('role'))
        first = crash.get('after_s')
    elif rc == 1:
        verdict = 'FAILURE'
    elif rc == 2:
        verdict = 'STALL'
        detectors.append('watchdog')
    elif rc == 0:
        verdict = 'SUCCESS'
    elif rc < 0 or rc >= 128:
        verdict = 'CRASH'
        res['note'] = 'killed by signal %d' % (-rc if rc < 0 else rc - 128)
        res['tail'] = out[-1500:]
    else:
        verdict = 'EXIT%d' % rc
        res['tail'] = out[-1500:]
    res['verdict'] = verdict
    res['detectors'] = detectors
    if verdict in ('FAILURE', 'STALL') or (verdict == 'CRASH' and first is not None):
        res['seconds'] = first if first is not None else (elapsed if elapsed else round(wall, 1))
    else:
        res['seconds'] = None
    return res


def run_tests(args, bdir, flavors, extra=()):
    """The relevant default tests: (names run, names failed, names timed out)."""
    names = [n for n, _ in wanted_tests(bdir, flavors, extra)]
    if not names:
        return [], [], []
    logbase = 'seeded-tests'
    logfile = os.path.join(bdir, 'meson-logs', logbase + '.json')
    if os.path.exists(logfile):
        os.unlink(logfile)
    sh(['meson', 'test', '-C', bdir, '--no-rebuild', '--num-processes', str(args.test_jobs),
        '--logbase', logbase] + names, timeout=args.tests_timeout)
    failed, timed_out, ran = [], [], []
    try:
        with open(logfile) as f:
            for line in f:
                t = json.loads(line)
                t['name'] = t['name'].split(' / ')[-1]  # "urcu:unit / NAME"
                ran.append(t['name'])
                if t['result'] == 'TIMEOUT':
                    timed_out.append(t['name'])
                if t['result'] not in ('OK', 'SKIP', 'EXPECTEDFAIL'):
                    failed.append(t['name'])
    except (OSError, ValueError):
        failed.append('(no test log: meson test did not finish)')
    return ran, failed, timed_out


def result_path(args, name):
    return os.path.join(args.build_prefix + '-results', name + '.json')


def evaluate(args, name, spec, with_tests):
    """Build and run one bug (or the control, name 'none')."""
    path = result_path(args, name)
    if not args.force and os.path.exists(path):
        with open(path) as f:
            res = json.load(f)
        if res.get('complete') and res.get('duration') == args.duration \
                and (res.get('tests_run') is not None or not with_tests):
            log('%-20s reused %s' % (name, path))
            return res
    bdir = build_dir(args, name)
    res = dict(name=name, breaks=spec['breaks'], flavors=spec['flavors'],
               duration=args.duration, build_dir=bdir)
    err = configure_and_build(args, name, spec['flavors'], with_tests, spec.get('tests', ()))
    if err:
        res.update(error=err, complete=False)
        log('%-20s %s' % (name, err.splitlines()[0]))
        return res
    res['torture'] = []
    for mode, flavor, extra in spec['runs']:
        r = run_torture(args, bdir, mode, flavor, extra)
        log('%-20s urcutorture --mode=%s --flavor=%s: %s %s %s' % (
            name, mode, flavor, r['verdict'], ','.join(r['detectors']) or '-',
            '' if r['seconds'] is None else '%.1f s' % r['seconds']))
        res['torture'].append(r)
    if with_tests:
        t0 = time.monotonic()
        ran, failed, timed_out = run_tests(args, bdir, spec['flavors'], spec.get('tests', ()))
        res.update(tests_run=ran, tests_failed=failed, tests_timed_out=timed_out,
                   tests_s=round(time.monotonic() - t0, 1))
        log('%-20s tests: %d run, %d failed%s' % (name, len(ran), len(failed),
            (': ' + ' '.join(failed)) if failed else ''))
    else:
        res['tests_run'] = None
    res['complete'] = True
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        json.dump(res, f, indent=1)
    return res


def caught_by_torture(res):
    hits = [r for r in res.get('torture', []) if r['verdict'] in ('FAILURE', 'STALL', 'CRASH')]
    return hits


def fmt_torture(res):
    hits = caught_by_torture(res)
    if not hits:
        tried = ', '.join('%s/%s %s' % (r['mode'], r['flavor'], r['verdict'])
                          for r in res.get('torture', []))
        return 'NO (%s)' % (tried or 'not run')
    best = min(hits, key=lambda r: r['seconds'] if r['seconds'] is not None else 1e9)
    others = len(hits) - 1
    s = 'yes: %s/%s %s %s' % (best['mode'], best['flavor'], best['verdict'],
                              ','.join(best['detectors']) or best.get('note', '-'))
    if best['seconds'] is not None:
        s += ' %.1f s' % best['seconds']
    if others:
        s += ' (+%d run%s)' % (others, 's' if others > 1 else '')
    return s


def fmt_tests(res):
    if res.get('tests_run') is None:
        return 'not run'
    failed = res.get('tests_failed', [])
    if not failed:
        return 'NO (%d passed)' % len(res['tests_run'])
    shown = failed if len(failed) <= 4 else failed[:4] + ['+%d more' % (len(failed) - 4)]
    return 'yes: %d/%d fail: %s' % (len(failed), len(res['tests_run']), ' '.join(shown))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--source', default=os.path.normpath(os.path.join(HERE, '..', '..')))
    ap.add_argument('--build-prefix', default=os.path.join(os.getcwd(), 'seeded-build'),
                    help='scratch build dirs are PREFIX-NAME, results in PREFIX-results')
    ap.add_argument('--only', default='', help='comma-separated bug names (default: all)')
    ap.add_argument('--jobs', type=int, default=1, help='builds configured/built at once')
    ap.add_argument('--ninja-jobs', type=int, default=2)
    ap.add_argument('--test-jobs', type=int, default=2)
    ap.add_argument('--duration', type=float, default=10.0, help='seconds per urcutorture run')
    ap.add_argument('--hang-s', type=float, default=60.0,
                    help='seconds past --duration before a run counts as a hang')
    ap.add_argument('--tests-timeout', type=float, default=900.0)
    ap.add_argument('--force', action='store_true', help='ignore saved results')
    ap.add_argument('--no-tests', action='store_true', help='urcutorture only')
    ap.add_argument('--no-control', action='store_true', help='skip the unseeded A/A control')
    ap.add_argument('--list', action='store_true', help='print the catalogue and exit')
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)
    args.build_prefix = os.path.abspath(args.build_prefix)

    names = catalogue_names()
    if sorted(names) != sorted(BUGS):
        print('catalogue.txt and catalogue.py disagree: %s' % sorted(set(names) ^ set(BUGS)),
              file=sys.stderr)
        return 2
    if args.list:
        for n in names:
            print('%-20s %s' % (n, BUGS[n]['breaks']))
        return 0
    if args.only:
        sel = [n for n in args.only.split(',') if n]
        unknown = [n for n in sel if n not in BUGS]
        if unknown:
            print('unknown bug(s): %s' % ' '.join(unknown), file=sys.stderr)
            return 64
        names = [n for n in names if n in sel]
    with_tests = not args.no_tests
    t_start = time.monotonic()

    # The control: every flavor and every run of the selected bugs, unseeded.
    jobs = [(n, BUGS[n]) for n in names]
    if not args.no_control:
        flavors, runs = [], []
        for n in names:
            flavors += [f for f in BUGS[n]['flavors'] if f not in flavors]
            runs += [r for r in BUGS[n]['runs'] if r not in runs]
        jobs.insert(0, ('none', dict(breaks='(A/A control: no seeded bug)', flavors=flavors,
                                     runs=runs)))

    # Builds first (in parallel if asked), then the runs one after the other.
    def build_only(job):
        name, spec = job
        if not args.force and os.path.exists(result_path(args, name)):
            return name, None
        return name, configure_and_build(args, name, spec['flavors'], with_tests,
                                          spec.get('tests', ()))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for name, err in ex.map(build_only, jobs):
            if err:
                log('%-20s %s' % (name, err.splitlines()[0]))
    log('builds done after %.0f s' % (time.monotonic() - t_start))

    results = [evaluate(args, n, spec, with_tests) for n, spec in jobs]

    print()
    print('| bug | breaks | caught by urcutorture? (run, verdict, detector, seconds) '
          '| caught by tests? (which) |')
    print('|---|---|---|---|')
    escaped = []
    control_ok = True
    for res in results:
        name = res['name']
        if res.get('error'):
            print('| %s | %s | ERROR: %s | |' % (name, res['breaks'], res['error'].splitlines()[0]))
            escaped.append(name)
            continue
        if name == 'none':
            bad = [r for r in res['torture'] if r['verdict'] not in ('SUCCESS', 'NO-MODE')]
            tf = res.get('tests_failed') or []
            control_ok = not bad and not tf
            print('| A/A control | unseeded build | %s | %s |' % (
                'all SUCCESS' if not bad else 'NOT SUCCESS: ' + ', '.join(
                    '%s/%s %s' % (r['mode'], r['flavor'], r['verdict']) for r in bad),
                ('all %d pass' % len(res['tests_run'])) if res.get('tests_run') is not None
                and not tf else ('not run' if res.get('tests_run') is None
                                 else 'FAIL: ' + ' '.join(tf))))
            continue
        t_ok = bool(caught_by_torture(res))
        s_ok = bool(res.get('tests_failed')) if with_tests else True
        if not t_ok or not s_ok:
            escaped.append(name)
        print('| %s | %s | %s | %s |' % (name, res['breaks'], fmt_torture(res), fmt_tests(res)))
    print()
    print('load: %s; total %.0f s' % (' '.join('%.2f' % x for x in os.getloadavg()),
                                       time.monotonic() - t_start))
    if escaped:
        print('ESCAPED (urcutorture or the tests missed them): %s' % ' '.join(escaped))
    if not control_ok:
        print('CONTROL FAILED: the unseeded build did not pass the same runs')
    return 1 if escaped or not control_ok else 0


if __name__ == '__main__':
    sys.exit(main())
