#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile every public header on its own, under each flag set real consumers
use (hdrcheck.FLAG_SETS: C -std=gnu11 and -std=c99 with -Wshadow
-Wpointer-arith -Wwrite-strings -Wstrict-prototypes -Wmissing-prototypes
-Wcast-qual, C++ -std=c++11 and -std=c++17), each with and without
_LGPL_SOURCE, always with -Wall -Wextra -Werror.  TAP output, one check per
(header, flag set, mode), then one per (flavor, flag set, mode) for a
liburcu-style program using the main APIs.  No exception: every header
compiles under every set (liburcu 0.13.2 does not: under -std=c99 its
flavor headers with _LGPL_SOURCE call syscall() undeclared, and -Wcast-qual
flags its CMM_ACCESS_ONCE and caa_container_of in most headers).

Each header's translation unit includes it twice (the include guard), then
uses what every system header liburcu's header of the same name makes
available declares (--sysdata, sysheaders.tsv: written by
gen-sysheaders.py against Debian's liburcu 0.13.2 plus 0.15's additions;
probes in sysprobe.py): a program that uses static_assert, pthread_mutex_t,
errno, size_t, bool, uint32_t... after including only a liburcu header must
compile against ours too.

Usage: check_headers.py --root DIR [--root DIR ...] [--inc DIR ...]
                        [--sysdata FILE] --cc CMD... [--cxx CMD...]

--root names an include root whose *.h files are public headers (walked
recursively; a build directory's generated headers too); --inc adds further
include directories.  --cc / --cxx take the compiler command (several words
allowed) up to the next option.  Without --cxx the C++ checks are not run
(one skipped check says so).

A "template" header, one whose first directive is an #ifndef followed at once
by #error (it may only be included by another header that defines the
parameter first), is reported as skipped, and so is a per-architecture
file (urcu/arch/*.h, urcu/uatomic/*.h) that stops the build on this machine
with its '#error "<header> is for ..."' (it is for another family:
tests/names/check-arch-headers.py checks which headers refuse where).
"""
import concurrent.futures
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hdrcheck import SET_WARN_FLAGS, compile_stdin, flag_sets, parse_options  # noqa: E402
from sysprobe import read_data, source  # noqa: E402

OPTIONS = ('--root', '--inc', '--cc', '--cxx', '--jobs', '--sysdata')
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


def refuses_here(cmd, incs, rel):
    """Whether the per-architecture header REL stops the build on this
    machine with its own '#error "REL is for ..."'."""
    rc, err = compile_stdin(cmd, ['-x', 'c', '-std=gnu11'], incs,
                            '#include <%s>\n' % rel, timeout=60, warn=['-fsyntax-only'])
    return rc != 0 and ('%s is for ' % rel) in err


def skip_reason(rel, full, refused):
    if rel in refused:
        return 'header of another architecture'
    if is_template(full):
        return 'template header, included by others only'
    return None


INCLUDE_RE = re.compile(r'^\s*#\s*include\s*<(urcu[^>]*)>', re.M)


def lgpl_blind(headers):
    """The headers whose translation unit cannot depend on _LGPL_SOURCE:
    neither they nor any urcu header they include mention it."""
    text = {}
    for rel, full in headers:
        with open(full, encoding='utf-8', errors='replace') as f:
            text[rel] = f.read()
    blind = set()
    for rel in text:
        seen, todo = set(), [rel]
        while todo:
            h = todo.pop()
            if h in seen or h not in text:
                continue
            seen.add(h)
            todo += INCLUDE_RE.findall(text[h])
        if not any('_LGPL_SOURCE' in text[h] for h in seen):
            blind.add(rel)
    return blind


def calibrate(cmd, flags, incs, items):
    """The ITEMS (system header probes) this system compiles cleanly under
    FLAGS when their system headers are included directly, and the others
    (another C library or older kernel headers may lack what Debian 12's
    have): a probe the system itself cannot satisfy asks nothing of us."""
    items = sorted(items)
    lost = []
    for _ in range(5):
        prelude = ''.join('#include <%s>\n' % h for h in sorted({h for h, _ in items}))
        src, where = source(prelude, items)
        rc, err = compile_stdin(cmd, flags, incs, src, timeout=60, warn=SET_WARN_FLAGS)
        if rc == 0:
            return items, lost
        bad = {where[int(n)] for n in re.findall(r'^<stdin>:(\d+):\d+: error', err, re.M)
               if int(n) in where}
        if not bad:
            sys.exit('check_headers.py: the probes do not compile:\n' + err)
        lost += sorted(bad)
        items = [i for i in items if i not in bad]
    sys.exit('check_headers.py: the probes do not settle:\n' + err)


def compile_one(cmd, flags, incs, header, lgpl, items):
    defs = ['-D_LGPL_SOURCE'] if lgpl else []
    extra, expected = EXPECTED_WARNINGS.get(header, ([], None))
    # Included twice: the second inclusion checks the include guard.  Then
    # the system headers' probes, when liburcu's header makes some available.
    prelude = '#include <%s>\n#include <%s>\n' % (header, header)
    src = source(prelude, items)[0] if items else prelude
    rc, err = compile_stdin(cmd, flags, incs, src, extra + defs, timeout=60,
                            warn=SET_WARN_FLAGS)
    if expected is None:
        return rc, err
    # Only the expected warning(s), each naming the expected text.
    warnings = [line for line in err.splitlines() if 'warning:' in line]
    if rc == 0 and warnings and all(expected in w for w in warnings):
        return 0, ''
    return 1, err or 'the expected warning "%s" did not appear' % expected


# A liburcu-style program: the read side, pointer publication, RCU lists,
# the hash table, call_rcu and the atomics, through the flavor's generic
# names.  It must compile without a warning under every flag set.
API_UNITS = [
    ('memb', '#include <urcu.h>\n'),
    ('mb', '#define RCU_MB\n#include <urcu.h>\n'),
    ('qsbr', '#include <urcu-qsbr.h>\n'),
    ('bp', '#include <urcu-bp.h>\n'),
]
API_PROGRAM = r"""
#include <urcu/rculist.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculfhash.h>
#include <urcu/uatomic.h>
#include <urcu/ref.h>

struct api_item {
	int key;
	struct cds_list_head list;
	struct cds_hlist_node hlist;
	struct cds_lfht_node hnode;
	struct rcu_head rcu;
};

static CDS_LIST_HEAD(api_list);
static struct cds_hlist_head api_hlist;
static struct api_item *api_ptr;

static int api_match(struct cds_lfht_node *node, const void *key)
{
	const struct api_item *it = caa_container_of(node, struct api_item, hnode);

	return it->key == *(const int *) key;
}

static void api_free(struct rcu_head *head)
{
	free(caa_container_of(head, struct api_item, rcu));
}

static void api_release(struct urcu_ref *ref)
{
	(void) ref;
}

unsigned long api_use(void);
unsigned long api_use(void)
{
	struct api_item *it, *tmp;
	struct cds_list_head *pos;
	struct cds_hlist_node *hpos;
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct urcu_ref ref;
	unsigned int u = 0;
	unsigned long ul = 0;
	int key = 1;

	rcu_register_thread();
	it = (struct api_item *) calloc(1, sizeof(*it));
	if (!it)
		abort();
	cds_list_add_rcu(&it->list, &api_list);
	cds_list_add_tail_rcu(&it->list, &api_list);
	cds_hlist_add_head_rcu(&it->hlist, &api_hlist);
	rcu_read_lock();
	cds_list_for_each_entry_rcu(tmp, &api_list, list)
		ul += (unsigned long) tmp->key;
	cds_list_for_each_rcu(pos, &api_list)
		ul++;
	cds_hlist_for_each_entry_rcu_2(tmp, &api_hlist, hlist)
		ul += (unsigned long) tmp->key;
	cds_hlist_for_each_rcu(hpos, &api_hlist)
		ul++;
	tmp = rcu_dereference(api_ptr);
	(void) rcu_read_ongoing();
	rcu_read_unlock();
	cds_list_replace_rcu(&it->list, &it->list);
	cds_list_del_rcu(&it->list);
	cds_hlist_del_rcu(&it->hlist);
	rcu_assign_pointer(api_ptr, it);
	tmp = rcu_xchg_pointer(&api_ptr, NULL);
	tmp = rcu_cmpxchg_pointer(&api_ptr, NULL, it);
	rcu_set_pointer(&api_ptr, NULL);
	synchronize_rcu();

	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	cds_lfht_node_init(&it->hnode);
	rcu_read_lock();
	(void) cds_lfht_add_unique(ht, 1, api_match, &key, &it->hnode);
	cds_lfht_lookup(ht, 1, api_match, &key, &iter);
	if (cds_lfht_iter_get_node(&iter))
		(void) cds_lfht_del(ht, cds_lfht_iter_get_node(&iter));
	cds_lfht_for_each_entry(ht, &iter, tmp, hnode)
		ul += (unsigned long) tmp->key;
	cds_lfht_for_each_entry_duplicate(ht, 1, api_match, &key, &iter, tmp, hnode)
		ul++;
	rcu_read_unlock();
	(void) cds_lfht_destroy(ht, NULL);
	call_rcu(&it->rcu, api_free);
	rcu_barrier();

	uatomic_set(&u, 1);
	ul += uatomic_read(&u);
	uatomic_add(&u, 2);
	uatomic_sub(&u, 1);
	uatomic_inc(&u);
	uatomic_dec(&u);
	uatomic_or(&u, 1);
	uatomic_and(&u, ~1U);
	ul += uatomic_add_return(&u, 1) + uatomic_sub_return(&u, 1);
	ul += uatomic_xchg(&u, 3);
	ul += uatomic_cmpxchg(&u, -1UL, 0);	/* liburcu casts: no -Woverflow */
	ul += uatomic_cmpxchg(&ul, 0, 1);
	cmm_smp_mb();
	cmm_barrier();
	CMM_STORE_SHARED(u, CMM_LOAD_SHARED(u) + 1);
	urcu_ref_init(&ref);
	urcu_ref_get(&ref);
	urcu_ref_put(&ref, api_release);
	rcu_quiescent_state();
	rcu_thread_offline();
	rcu_thread_online();
	rcu_unregister_thread();
	return ul + (tmp != NULL);
}
"""


def main():
    opts = parse(sys.argv[1:])
    if not opts['--cc'] or not opts['--root']:
        sys.exit('usage: check_headers.py --root DIR ... --cc CMD... [--cxx CMD...]')
    roots = [r for r in opts['--root'] if os.path.isdir(r)]
    incs = roots + [i for i in opts['--inc'] if os.path.isdir(i)]
    jobs = int(opts['--jobs'][0]) if opts['--jobs'] else max(1, min(4, os.cpu_count() or 1))
    sysdata = read_data(opts['--sysdata'][0]) if opts['--sysdata'] else {}
    headers = collect(roots)
    if not headers:
        print('1..0 # SKIP no headers found')
        return 0

    sets = flag_sets(opts)
    blind = lgpl_blind(headers)
    arch_headers = [rel for rel, _ in headers if rel.startswith(ARCH_DIRS)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        refused = {rel for rel, no in zip(arch_headers, ex.map(
            lambda rel: refuses_here(opts['--cc'], incs, rel), arch_headers)) if no}

    # The probes this system satisfies, per flag set.
    usable = {}
    for name, cmd, flags in sets:
        wanted = {i for (_, fset, _), items in sysdata.items() if fset == name for i in items}
        ok, lost = calibrate(cmd, flags, incs, wanted) if wanted else ([], [])
        usable[name] = set(ok)
        for header, probe in lost:
            print('# %s: this system lacks %s from <%s>; not asked of our headers'
                  % (name, probe, header))

    # (description, skip reason or None, compiler command, flags, source or
    # (header, lgpl, items) to compile alone)
    work = []
    for rel, full in headers:
        reason = skip_reason(rel, full, refused)
        for name, cmd, flags in sets:
            plain_items = None
            for lgpl in (False, True):
                items = [i for i in sysdata.get((rel, name, 'lgpl' if lgpl else 'plain'), [])
                         if i in usable[name]]
                text = '%s, %s, %s' % (rel, name, 'with _LGPL_SOURCE' if lgpl
                                        else 'without _LGPL_SOURCE')
                if items:
                    text += ', %d uses of its system headers' % len(items)
                why = reason
                if not why and lgpl and rel in blind and items == plain_items:
                    why = 'the same translation unit as without it (nothing it includes tests it)'
                plain_items = items
                work.append((text, why, cmd, flags, (rel, lgpl, items)))
    for flavor, umbrella in API_UNITS:
        for name, cmd, flags in sets:
            for lgpl in (False, True):
                text = 'liburcu-style program, %s flavor, %s, %s' % (
                    flavor, name, 'with _LGPL_SOURCE' if lgpl else 'without _LGPL_SOURCE')
                src = ('#define _LGPL_SOURCE\n' if lgpl else '') + umbrella + API_PROGRAM
                work.append((text, None, cmd, flags, src))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {}
        for idx, (_, reason, cmd, flags, what) in enumerate(work):
            if reason:
                continue
            if isinstance(what, tuple):
                fut = ex.submit(compile_one, cmd, flags, incs, *what)
            else:
                fut = ex.submit(compile_stdin, cmd, flags, incs, what, (), 60,
                                SET_WARN_FLAGS)
            futs[fut] = idx
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()

    n = 0
    failed = 0
    for idx, (text, reason, _, _, _) in enumerate(work):
        n += 1
        if idx not in results:
            print('ok %d - %s # SKIP %s' % (n, text, reason))
            continue
        rc, err = results[idx]
        if rc == 0:
            print('ok %d - %s' % (n, text))
        else:
            failed += 1
            print('not ok %d - %s' % (n, text))
            for line in err.strip().splitlines()[:15]:
                print('# ' + line)
    if not opts['--cxx']:
        n += 1
        print('ok %d # SKIP no C++ compiler configured' % n)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
