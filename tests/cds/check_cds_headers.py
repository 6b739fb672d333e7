#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cds headers together, as C and as C++, with and without _LGPL_SOURCE,
under -Wall -Wextra -Werror.  TAP output.

1. One translation unit that includes every cds header (urcu/cds.h, each
   header it gathers, and their static/ headers), alone and after each
   flavor umbrella (<urcu.h>, <urcu-qsbr.h>, <urcu-bp.h>), and calls every
   non-deprecated stack and queue function once: it must compile without a
   single warning.
2. The two deprecated headers: calling any of their functions must draw a
   deprecation warning that names the header (an error under -Werror),
   and defining CDS_WFQ_DEPRECATED / CDS_LFS_RCU_DEPRECATED empty must
   silence it.  Merely including them must not warn.
3. urcu/urcu_ref.h warns that it is deprecated when included.

Usage: check_cds_headers.py --inc DIR ... --cc CMD... [--cxx CMD...]
"""
import concurrent.futures
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from hdrcheck import compile_stdin, languages, parse_options  # noqa: E402

OPTIONS = ('--inc', '--cc', '--cxx')

CDS_HEADERS = [
    'urcu/cds.h', 'urcu/lfstack.h', 'urcu/wfstack.h', 'urcu/rculfqueue.h',
    'urcu/wfqueue.h', 'urcu/rculfstack.h', 'urcu/wfcqueue.h', 'urcu/list.h',
    'urcu/rculist.h', 'urcu/hlist.h', 'urcu/rcuhlist.h',
    'urcu/static/lfstack.h', 'urcu/static/wfstack.h', 'urcu/static/rculfqueue.h',
    'urcu/static/wfqueue.h', 'urcu/static/rculfstack.h', 'urcu/static/wfcqueue.h',
]

# Every non-deprecated stack/queue function, called once (compile only).
CALLS = r'''
static void call_everything(void (*crcu)(struct rcu_head *, void (*)(struct rcu_head *)))
{
	struct cds_lfs_stack ls; struct __cds_lfs_stack uls; struct cds_lfs_node ln;
	struct cds_wfs_stack ws; struct __cds_wfs_stack uws; struct cds_wfs_node wn;
	struct cds_lfq_queue_rcu q; struct cds_lfq_node_rcu qn;
	struct cds_lfs_head *lh; struct cds_wfs_head *wh;
	struct cds_lfs_node *lnode, *ltmp; struct cds_wfs_node *wnode, *wtmp;
	int state;

	cds_lfs_node_init(&ln); cds_lfs_init(&ls); __cds_lfs_init(&uls);
	(void) cds_lfs_empty(&ls); (void) cds_lfs_empty(&uls);
	(void) cds_lfs_push(&ls, &ln); (void) cds_lfs_push(&uls, &ln);
	(void) cds_lfs_pop_blocking(&ls); (void) cds_lfs_pop_all_blocking(&ls);
	cds_lfs_pop_lock(&ls); (void) __cds_lfs_pop(&ls); cds_lfs_pop_unlock(&ls);
	lh = __cds_lfs_pop_all(&uls);
	cds_lfs_for_each(lh, lnode) (void) lnode;
	cds_lfs_for_each_safe(lh, lnode, ltmp) (void) lnode;
	cds_lfs_destroy(&ls);

	cds_wfs_node_init(&wn); cds_wfs_init(&ws); __cds_wfs_init(&uws);
	(void) cds_wfs_empty(&ws); (void) cds_wfs_push(&uws, &wn);
	(void) cds_wfs_pop_blocking(&ws); (void) cds_wfs_pop_with_state_blocking(&ws, &state);
	wh = cds_wfs_pop_all_blocking(&ws);
	(void) cds_wfs_first(wh); (void) cds_wfs_next_blocking(&wn);
	(void) cds_wfs_next_nonblocking(&wn);
	cds_wfs_pop_lock(&ws); cds_wfs_pop_unlock(&ws);
	(void) __cds_wfs_pop_blocking(&uws); (void) __cds_wfs_pop_nonblocking(&uws);
	(void) __cds_wfs_pop_with_state_blocking(&uws, &state);
	(void) __cds_wfs_pop_with_state_nonblocking(&uws, &state);
	wh = __cds_wfs_pop_all(&uws);
	cds_wfs_for_each_blocking(wh, wnode) (void) wnode;
	cds_wfs_for_each_blocking_safe(wh, wnode, wtmp) (void) wnode;
	cds_wfs_destroy(&ws);

	cds_lfq_node_init_rcu(&qn); cds_lfq_init_rcu(&q, crcu);
	cds_lfq_enqueue_rcu(&q, &qn); (void) cds_lfq_dequeue_rcu(&q);
	(void) cds_lfq_destroy_rcu(&q);
}

/* wfcqueue with plain head pointers of both types and const (0.14/0.15 C++). */
static void call_wfcqueue(void)
{
	struct cds_wfcq_head h; struct __cds_wfcq_head uh;
	struct cds_wfcq_tail t, ut; struct cds_wfcq_node n, *node, *tmp;
	const struct cds_wfcq_head *ch = &h; const struct __cds_wfcq_head *cuh = &uh;
	int state;

	cds_wfcq_init(&h, &t); __cds_wfcq_init(&uh, &ut); cds_wfcq_node_init(&n);
	(void) cds_wfcq_empty(&h, &t); (void) cds_wfcq_empty(cuh, &ut);
	(void) cds_wfcq_empty(ch, &t); (void) cds_wfcq_empty(cds_wfcq_head_const_cast(ch), &t);
	(void) cds_wfcq_enqueue(&uh, &ut, &n); (void) cds_wfcq_enqueue(&h, &t, &n);
	(void) __cds_wfcq_dequeue_blocking(&uh, &ut);
	(void) __cds_wfcq_dequeue_with_state_blocking(&h, &t, &state);
	(void) __cds_wfcq_dequeue_nonblocking(&uh, &ut);
	(void) __cds_wfcq_dequeue_with_state_nonblocking(&uh, &ut, &state);
	(void) __cds_wfcq_splice_blocking(&h, &t, &uh, &ut);
	(void) __cds_wfcq_splice_nonblocking(&uh, &ut, &h, &t);
	(void) __cds_wfcq_first_blocking(&h, &t); (void) __cds_wfcq_first_nonblocking(&uh, &ut);
	(void) __cds_wfcq_next_blocking(&h, &t, &n); (void) __cds_wfcq_next_nonblocking(&uh, &ut, &n);
	__cds_wfcq_for_each_blocking(&uh, &ut, node) (void) node;
	__cds_wfcq_for_each_blocking_safe(&h, &t, node, tmp) (void) node;
	(void) cds_wfcq_enqueue(cds_wfcq_head_cast(&h), &t, &n);
	(void) cds_wfcq_dequeue_blocking(&h, &t);
	cds_wfcq_destroy(&h, &t);
}
'''

DEPRECATED = {
    'urcu/wfqueue.h': ('CDS_WFQ_DEPRECATED', r'''
static void use(void)
{
	struct cds_wfq_queue q; struct cds_wfq_node n;
	cds_wfq_init(&q); cds_wfq_node_init(&n); cds_wfq_enqueue(&q, &n);
	(void) cds_wfq_dequeue_blocking(&q); (void) __cds_wfq_dequeue_blocking(&q);
	cds_wfq_destroy(&q);
}
'''),
    'urcu/rculfstack.h': ('CDS_LFS_RCU_DEPRECATED', r'''
static void use(void)
{
	struct cds_lfs_stack_rcu s; struct cds_lfs_node_rcu n;
	cds_lfs_init_rcu(&s); cds_lfs_node_init_rcu(&n);
	(void) cds_lfs_push_rcu(&s, &n); (void) cds_lfs_pop_rcu(&s);
}
'''),
}


def parse(argv):
    return parse_options('check_cds_headers.py', OPTIONS, argv)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, text, details=''):
        self.n += 1
        if not cond:
            self.failed += 1
        print('%sok %d - %s' % ('' if cond else 'not ', self.n, text))
        if not cond:
            for line in details.strip().splitlines()[:20]:
                print('# ' + line)
        sys.stdout.flush()


def main():
    opts = parse(sys.argv[1:])
    if not opts['--cc']:
        sys.exit(__doc__)
    incs = opts['--inc']
    langs = languages(opts)
    tap = Tap()
    includes = ''.join('#include <%s>\n' % h for h in CDS_HEADERS)
    # (description, source, extra flags, expectation) for every compile.
    checks = []
    for lang, cmd, flags in langs:
        for lgpl in (False, True):
            mode = '%s, %s' % (lang, 'with _LGPL_SOURCE' if lgpl else 'without _LGPL_SOURCE')
            defs = ['-D_LGPL_SOURCE'] if lgpl else []
            job = (cmd, flags, defs)
            for umbrella in ('', 'urcu.h', 'urcu-qsbr.h', 'urcu-bp.h'):
                first = '#include <%s>\n' % umbrella if umbrella else ''
                checks.append(('every cds header%s, every function called: no warning (%s)'
                               % (' after <%s>' % umbrella if umbrella else '', mode),
                               job, first + includes + CALLS, 'clean', None))
            for header, (macro, use) in DEPRECATED.items():
                checks.append(('%s: including it does not warn (%s)' % (header, mode),
                               job, '#include <%s>\n' % header, 'clean', None))
                checks.append(('%s: calling its functions draws the deprecation warning (%s)'
                               % (header, mode), job, '#include <%s>\n%s' % (header, use),
                               'warns', header))
                checks.append(('%s: defining %s empty silences it (%s)' % (header, macro, mode),
                               job, '#define %s\n#include <%s>\n%s' % (macro, header, use),
                               'clean', None))
            checks.append(('urcu/urcu_ref.h: including it warns that it is deprecated (%s)'
                           % mode, job, '#include <urcu/urcu_ref.h>\n', 'warns', None))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        futs = [ex.submit(compile_stdin, job[0], job[1], incs, src, job[2])
                for _, job, src, _, _ in checks]
        results = [f.result() for f in futs]
    for (text, _, _, expect, names), (rc, err) in zip(checks, results):
        if expect == 'clean':
            tap.ok(rc == 0 and not err.strip(), text, err)
        else:
            tap.ok(rc != 0 and 'deprecated' in err and (names is None or names in err),
                   text, err or 'compiled without a warning')
    if not opts['--cxx']:
        tap.n += 1
        print('ok %d # SKIP no C++ compiler configured' % tap.n)
    print('1..%d' % tap.n)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
