#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every public name of liburcu's headers compiles against ours.  TAP.

Usage: check-names.py --data names.tsv --omitted omitted.txt
                      --gaps gaps.txt --pending pending.txt --man urcu.7
                      --inc DIR [--inc DIR ...] [--jobs N] --cc CMD...

names.tsv (written once by gen-names.py from Debian's liburcu 0.13.2 and
0.15.2, plus a few 0.14 names documented in ../shared) lists each name
with the header ("unit") to include, the mode (with or without
_LGPL_SOURCE) and the check.  One C file per unit and mode references every name of that unit
(namecheck.py); a name whose check does not compile is missing.

One TAP line per unit and mode:
  * ok when every name compiles, or fails only if listed in omitted.txt
    (deliberate omissions, each with its reason);
  * "not ok ... # TODO" (which does not fail the run) when the only names
    missing are listed in gaps.txt: known gaps in headers this check does
    not own, each with the reason, waiting for their owners;
  * "# SKIP" when the unit's header is listed in pending.txt (being
    written) and does not exist yet; as soon as it exists it is checked;
  * not ok, with the missing names as diagnostics, otherwise.
Then the consistency checks: every omitted name and every gap is still
missing (a name we now provide must leave the list: the check gets
stricter by itself as gaps close); no name is both; omitted.txt and the
"Deliberate differences" subsection of urcu(7) name the same names; every
pending header is one the data knows.
"""
import concurrent.futures
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from namecheck import failing_checks, is_clang, read_data, split_unit, write_unit  # noqa: E402
from hdrcheck import parse_options  # noqa: E402

OPTIONS = ('--data', '--omitted', '--gaps', '--pending', '--man', '--inc', '--cc', '--jobs')
MAN_SECTION = 'Deliberate differences'


def parse(argv):
    opts = parse_options('check-names.py', OPTIONS, argv)
    for o in ('--data', '--omitted', '--gaps', '--pending', '--man', '--cc'):
        if not opts[o]:
            sys.exit('check-names.py: %s is required' % o)
    return opts


def read_reasons(path):
    """{name: reason} of omitted.txt or gaps.txt.  A line "reason: text"
    gives the reason of the names on the lines after it (whitespace-
    separated), up to the next reason line."""
    out = {}
    reason = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('reason:'):
                reason = line[len('reason:'):].strip()
                continue
            if not reason:
                sys.exit('%s:%d: names before any "reason:" line' % (path, n))
            for name in line.split():
                out[name] = reason
    return out


def read_pending(path):
    with open(path) as f:
        return {l.split('#')[0].strip() for l in f} - {''}


def man_names(path):
    """Names set in bold in urcu(7)'s "Deliberate differences" subsection:
    \\fBname\\fR (or \\fB\\%name\\fR, not hyphenated) in running text and the
    arguments of .B / .BR lines."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'^\.SS "?%s"?\s*$(.*?)(?=^\.S[HS]\b)' % MAN_SECTION, text, re.M | re.S)
    if not m:
        return None
    body = m.group(1)
    names = set(re.findall(r'\\fB(?:\\%)?([A-Za-z_]\w*)\\f[RP]', body))
    for line in body.splitlines():
        if line.startswith('.B '):
            names.update(re.findall(r'[A-Za-z_]\w*', line[3:].split('"')[0]))
        elif line.startswith('.BR '):
            # .BR alternates bold and roman: the odd words are bold.
            words = line[4:].split()
            names.update(w for w in words[0::2] if re.fullmatch(r'[A-Za-z_]\w*', w))
    return names


def header_exists(header, incs):
    return any(os.path.isfile(os.path.join(d, header)) for d in incs)


def main():
    opts = parse(sys.argv[1:])
    cc = opts['--cc']
    incs = opts['--inc']
    jobs = int(opts['--jobs'][0]) if opts['--jobs'] else 2
    rows = read_data(opts['--data'][0])
    if is_clang(cc):
        # Names liburcu defines for GCC only are not asked of clang builds.
        rows = [r for r in rows if r['compiler'] != 'gcc']
    omitted = read_reasons(opts['--omitted'][0])
    gaps = read_reasons(opts['--gaps'][0])
    pending = read_pending(opts['--pending'][0])

    units = {}
    for r in rows:
        modes = ('plain', 'lgpl') if r['mode'] == 'both' else (r['mode'],)
        for mode in modes:
            units.setdefault((r['unit'], mode), []).append(r)

    results = {}
    tmp = tempfile.mkdtemp(prefix='urcu-names-')

    def run(key):
        unit, mode = key
        header, _ = split_unit(unit)
        if not header_exists(header, incs):
            return ('pending' if header in pending else 'no-header'), set(), ''
        items = units[key]
        path = os.path.join(tmp, '%s.%s.c' % (unit.replace('/', '_').replace('+', '_'), mode))
        where = write_unit(path, unit, mode, [(r['name'], r['check']) for r in items])
        ok, bad, err = failing_checks(cc, path, incs, where)
        if ok:
            return 'ok', set(), ''
        if not bad:
            return 'broken', set(), err
        return 'some', {items[i]['name'] for i in bad}, err

    keys = sorted(units)
    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            for key, res in zip(keys, ex.map(run, keys)):
                results[key] = res
    finally:
        # URCU_NAMES_KEEP=1 keeps the generated C files for a look.
        if os.environ.get('URCU_NAMES_KEEP'):
            print('# generated files kept in ' + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    n = 0
    failed = 0
    failing_names = {}   # name -> units where it fails
    passing_names = set()

    def tap(ok, text, diag=()):
        nonlocal n, failed
        n += 1
        if not ok:
            failed += 1
        print('%s %d - %s' % ('ok' if ok else 'not ok', n, text))
        for d in diag:
            print('# ' + d)
        sys.stdout.flush()

    for key in keys:
        unit, mode = key
        status, bad, err = results[key]
        items = units[key]
        label = '<%s> %s: %d names' % (unit, mode, len(items))
        if status == 'pending':
            n += 1
            print('ok %d - %s # SKIP header not written yet (pending.txt)' % (n, label))
            continue
        if status == 'no-header':
            tap(False, label, ['header <%s> does not exist' % split_unit(unit)[0]])
            for r in items:
                failing_names.setdefault(r['name'], []).append(key)
            continue
        if status == 'broken':
            tap(False, label, ['the header fails to compile:'] + err.splitlines()[:20])
            continue
        for r in items:
            if r['name'] in bad:
                failing_names.setdefault(r['name'], []).append(key)
            else:
                passing_names.add(r['name'])
        missing = [r for r in items
                   if r['name'] in bad and r['name'] not in omitted and r['name'] not in gaps]
        diag = ['missing: %s (%s, liburcu %s, check %s)' % (
            r['name'], r['kind'], r['release'], r['check']) for r in missing]
        skipped = sorted(b for b in bad if b in omitted)
        if skipped:
            diag.append('deliberately omitted (omitted.txt): ' + ' '.join(skipped))
        todo = sorted(b for b in bad if b in gaps)
        if missing or not todo:
            tap(not missing, label, diag)
        else:
            # Only known gaps: a TODO line, which does not fail the run.
            n += 1
            print('not ok %d - %s # TODO known gaps (gaps.txt): %s' % (n, label, ' '.join(todo)))
            for d in diag:
                print('# ' + d)

    # An omission or a gap must still be missing: a name we now provide
    # leaves the list (stricter as the gaps close).  A name counts as
    # provided when it compiles in every unit that was checked.
    data_names = {r['name'] for r in rows}
    for fname, listed in (('omitted.txt', omitted), ('gaps.txt', gaps)):
        stale = sorted(o for o in listed
                       if o in data_names and o not in failing_names and o in passing_names)
        unknown = sorted(o for o in listed if o not in data_names)
        tap(not stale and not unknown, '%s lists only names that are missing' % fname,
            ['provided now, remove from %s%s: %s' % (
                fname, ' and urcu(7)' if fname == 'omitted.txt' else '', ' '.join(stale))]
            * bool(stale)
            + ['not a liburcu name in the data: ' + ' '.join(unknown)] * bool(unknown))
    both = sorted(set(omitted) & set(gaps))
    tap(not both, 'no name is both omitted and a gap',
        ['in omitted.txt and gaps.txt: ' + ' '.join(both)] * bool(both))

    in_man = man_names(opts['--man'][0])
    if in_man is None:
        tap(False, 'urcu(7) has a "%s" subsection' % MAN_SECTION)
    else:
        only_file = sorted(set(omitted) - in_man)
        only_man = sorted(in_man - set(omitted))
        tap(not only_file and not only_man,
            'omitted.txt and urcu(7) "%s" list the same %d names' % (MAN_SECTION, len(omitted)),
            ['only in omitted.txt: ' + ' '.join(only_file)] * bool(only_file)
            + ['only in urcu(7): ' + ' '.join(only_man)] * bool(only_man))

    headers = {split_unit(u)[0] for u, _ in units}
    tap(pending <= headers, 'pending.txt names headers of the data',
        ['not a header of the data: ' + ' '.join(sorted(pending - headers))]
        * bool(pending - headers))

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
