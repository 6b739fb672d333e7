#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the dynamic symbols the shared libraries export.

Usage: check_symbols.py NM HEADER_ROOT NAME LIBRARY [NAME LIBRARY ...]

NAME is the library's name without "lib" (urcu, urcu-memb, urcu-mb,
urcu-qsbr, urcu-bp, urcu-signal, urcu-common, urcu-cds).  For each library, from
`NM -D --defined-only`:

- every exported symbol has an allowed prefix: the library's own
  (urcu_<flavor>_ for a flavor library, urcu_common_ for liburcu-common),
  or cds_ / rcu_ (data structures and generic call_rcu-family names);
- no internal symbol is exported: nothing starting with urcu_i_, and no
  other flavor's prefix;
- the API names this library must provide are all exported;
- every exported symbol carries our own version node (VERSION_NODE), never
  one of liburcu's, so a binary built against one library cannot silently
  bind to the other; except the names the inline read side references
  (INLINE_SUPPORT), which carry the reader-ABI node (READER_NODE) and only
  it, so that a library with another reader layout refuses programs built
  against this one (docs/DESIGN.md, "Reader ABI").

And over all libraries together: every function or variable that a public
header under HEADER_ROOT declares with URCU_API by its plain name (templates
written with URCU_I_FLAVOR or ## are covered by the per-flavor lists) is
exported by one of them, so a program that calls it links.

TAP output: one check per library and rule.
"""
import os
import re
import subprocess
import sys

FLAVOR_OF = {
    'urcu': 'memb',
    'urcu-memb': 'memb',
    'urcu-mb': 'mb',
    'urcu-qsbr': 'qsbr',
    'urcu-bp': 'bp',
    'urcu-signal': 'signal',
}
ALL_FLAVORS = ('memb', 'mb', 'qsbr', 'bp', 'signal')
SHARED_PREFIXES = ('cds_', 'rcu_')

# The per-flavor API (static/urcu-flavor-api.h) every flavor library exports.
FLAVOR_API = (
    'init', 'exit', 'register_thread', 'unregister_thread',
    'read_lock', 'read_unlock', 'read_ongoing',
    'quiescent_state', 'thread_offline', 'thread_online',
    'synchronize_rcu', 'start_poll_synchronize_rcu', 'poll_state_synchronize_rcu',
    'flavor',
)
CALL_RCU_API = (
    'call_rcu', 'barrier', 'create_call_rcu_data', 'call_rcu_data_free',
    'get_default_call_rcu_data', 'get_cpu_call_rcu_data',
    'get_thread_call_rcu_data', 'get_call_rcu_data', 'get_call_rcu_thread',
    'set_thread_call_rcu_data', 'set_cpu_call_rcu_data',
    'create_all_cpu_call_rcu_data', 'free_all_cpu_call_rcu_data',
    'call_rcu_before_fork', 'call_rcu_after_fork_parent', 'call_rcu_after_fork_child',
    'defer_rcu', 'defer_register_thread', 'defer_unregister_thread',
    'defer_barrier', 'defer_barrier_thread', 'defer_exit',
    'register_rculfhash_atfork', 'unregister_rculfhash_atfork',
)
BP_API = ('before_fork', 'after_fork_parent', 'after_fork_child')
# Names the inline read side (every program, unless URCU_NO_INLINE_READ_SIDE)
# links against: the reader ABI, versioned READER_NODE.
INLINE_SUPPORT = {
    'qsbr': ('i_gp', 'i_reader', 'i_quiescent_state_slow', 'i_debug_misuse'),
    'other': ('i_gp', 'i_reader', 'i_read_lock_slow', 'i_read_unlock_misuse',
              'i_read_unlock_slow'),
}
VERSION_NODE = 'URCU_DROPIN_1'
READER_NODE = 'URCU_DROPIN_READER_1'
COMMON_API = ('cds_wfcq_init', 'cds_wfcq_enqueue', 'cds_wfcq_dequeue_blocking',
              'cds_wfcq_splice_blocking',
              # wfstack and the deprecated wfqueue live here, as in liburcu
              '__cds_wfs_init', '__cds_wfs_pop_all', '__cds_wfs_pop_blocking',
              '__cds_wfs_pop_nonblocking', '__cds_wfs_pop_with_state_blocking',
              '__cds_wfs_pop_with_state_nonblocking', 'cds_wfs_destroy', 'cds_wfs_empty',
              'cds_wfs_first', 'cds_wfs_init', 'cds_wfs_next_blocking',
              'cds_wfs_next_nonblocking', 'cds_wfs_node_init', 'cds_wfs_pop_all_blocking',
              'cds_wfs_pop_blocking', 'cds_wfs_pop_lock', 'cds_wfs_pop_unlock',
              'cds_wfs_pop_with_state_blocking', 'cds_wfs_push',
              '__cds_wfq_dequeue_blocking', 'cds_wfq_dequeue_blocking', 'cds_wfq_destroy',
              'cds_wfq_enqueue', 'cds_wfq_init', 'cds_wfq_node_init')
# liburcu-cds: liburcu 0.15's exported data-structure API, with the two bit
# helpers it exports but declares only privately (cds_lfht_fls_ulong,
# cds_lfht_get_count_order_ulong); its urcu_workqueue_* internals are
# deliberately not exported.
CDS_API = ('__cds_lfs_init', '__cds_lfs_pop', '__cds_lfs_pop_all', '_cds_lfht_new',
           'cds_lfht_fls_ulong', 'cds_lfht_get_count_order_ulong',
           '_cds_lfht_new_with_alloc', 'cds_lfht_node_init_deleted',
           'cds_lfht_add', 'cds_lfht_add_replace', 'cds_lfht_add_unique',
           'cds_lfht_count_nodes', 'cds_lfht_del', 'cds_lfht_destroy', 'cds_lfht_first',
           'cds_lfht_is_node_deleted', 'cds_lfht_lookup', 'cds_lfht_next',
           'cds_lfht_next_duplicate', 'cds_lfht_replace', 'cds_lfht_resize',
           'cds_lfht_mm_chunk', 'cds_lfht_mm_mmap', 'cds_lfht_mm_order',
           'cds_lfq_dequeue_rcu', 'cds_lfq_destroy_rcu', 'cds_lfq_enqueue_rcu',
           'cds_lfq_init_rcu', 'cds_lfq_node_init_rcu',
           'cds_lfs_destroy', 'cds_lfs_empty', 'cds_lfs_init', 'cds_lfs_init_rcu',
           'cds_lfs_node_init', 'cds_lfs_node_init_rcu', 'cds_lfs_pop_all_blocking',
           'cds_lfs_pop_blocking', 'cds_lfs_pop_lock', 'cds_lfs_pop_rcu',
           'cds_lfs_pop_unlock', 'cds_lfs_push', 'cds_lfs_push_rcu')


def exported(nm, path):
    p = subprocess.run([nm, '-D', '--defined-only', path], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError('%s failed on %s: %s' % (nm, path, p.stderr.strip()))
    syms = set()
    for line in p.stdout.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        kind, name = fields[-2], fields[-1]
        if kind == 'A':
            continue  # version definitions (LIBURCU_x.y), not symbols
        syms.add(name)
    return syms


def plain(syms):
    return {s.split('@', 1)[0] for s in syms}


DECL_RE = re.compile(r'\bURCU_API\b([^;{]*?)(?:;|\{)', re.S)
FUNC_NAME_RE = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
VAR_NAME_RE = re.compile(r'\b([A-Za-z_]\w*)\s*(?:URCU_I_TLS_MODEL\s*)?$')


def declared(root):
    """Plain names declared URCU_API in the public headers under root."""
    names = {}
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith('.h'):
                continue
            path = os.path.join(d, f)
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
            text = re.sub(r'//[^\n]*', ' ', text)
            # Drop macro bodies (continued lines) and the templates' names.
            text = re.sub(r'^\s*#[^\n]*(?:\\\n[^\n]*)*', ' ', text, flags=re.M)
            for m in DECL_RE.finditer(text):
                decl = m.group(1)
                if 'URCU_I_FLAVOR' in decl or '##' in decl:
                    continue
                fm = FUNC_NAME_RE.search(decl)
                if fm and '(*' not in decl[:fm.start() + 2]:
                    name = fm.group(1)
                else:
                    vm = VAR_NAME_RE.search(decl.strip())
                    if not vm:
                        continue
                    name = vm.group(1)
                names.setdefault(name, os.path.relpath(path, root))
    return names


def reader_abi_names(name):
    """The names of lib`name` that the inline read side references."""
    if name not in FLAVOR_OF:
        return []
    flavor = FLAVOR_OF[name]
    return ['urcu_%s_%s' % (flavor, n)
            for n in INLINE_SUPPORT['qsbr' if flavor == 'qsbr' else 'other']]


def required(name):
    if name == 'urcu-common':
        return list(COMMON_API)
    if name == 'urcu-cds':
        return list(CDS_API)
    flavor = FLAVOR_OF[name]
    names = list(FLAVOR_API) + list(CALL_RCU_API)
    names += INLINE_SUPPORT['qsbr' if flavor == 'qsbr' else 'other']
    if flavor == 'bp':
        names += BP_API
    if flavor in ('memb', 'bp'):
        names.append('membarrier_available')
    return ['urcu_%s_%s' % (flavor, n) for n in names]


def main():
    if len(sys.argv) < 5 or len(sys.argv) % 2 != 1:
        sys.exit(__doc__)
    nm = sys.argv[1]
    header_root = sys.argv[2]
    pairs = list(zip(sys.argv[3::2], sys.argv[4::2]))
    everything = set()
    n = 0
    failed = 0

    def check(cond, text, details=()):
        nonlocal n, failed
        n += 1
        print('%sok %d - %s' % ('' if cond else 'not ', n, text))
        if not cond:
            failed += 1
            for d in sorted(details)[:40]:
                print('#   ' + d)

    for name, path in pairs:
        try:
            versioned = exported(nm, path)
        except RuntimeError as e:
            check(False, 'lib%s: %s' % (name, e))
            continue
        syms = plain(versioned)
        everything |= syms
        reader_abi = set(reader_abi_names(name))
        wrong = [s for s in versioned
                 if not s.endswith('@@' + (READER_NODE if plain([s]) <= reader_abi
                                           else VERSION_NODE))]
        check(not wrong, 'lib%s: every exported symbol has version node %s, the %d '
              'reader-ABI names %s' % (name, VERSION_NODE, len(reader_abi), READER_NODE),
              wrong)
        if name == 'urcu-common':
            # __cds_ names: liburcu's unlocked wfcqueue/wfstack variants, kept as is.
            # urcu_misuse_: the process-wide misuse count (<urcu/debug.h>);
            # urcu_set_stall_: the process-wide stall handler (<urcu/gp-stats.h>).
            own = ('urcu_common_', '__cds_', 'urcu_misuse_', 'urcu_set_stall_')
        elif name == 'urcu-cds':
            own = ('__cds_lfs_', '_cds_lfht_')
        elif name in FLAVOR_OF:
            own = ('urcu_%s_' % FLAVOR_OF[name],)
        else:
            check(False, 'lib%s: unknown library name' % name)
            continue
        allowed = own + SHARED_PREFIXES
        bad = [s for s in syms if not s.startswith(allowed)]
        check(not bad, 'lib%s: all %d exported symbols have an allowed prefix (%s)'
              % (name, len(syms), ', '.join(allowed)), bad)
        internal = [s for s in syms if s.startswith('urcu_i_')]
        check(not internal, 'lib%s: no urcu_i_ internals exported' % name, internal)
        others = [s for s in syms for f in ALL_FLAVORS
                  if s.startswith('urcu_%s_' % f) and ('urcu_%s_' % f,) != own]
        check(not others, "lib%s: no other flavor's symbols" % name, others)
        missing = [s for s in required(name) if s not in syms]
        check(not missing, 'lib%s: the %d required API names are exported'
              % (name, len(required(name))), missing)
    decls = declared(header_root)
    undefined = ['%s (declared in %s)' % (d, h) for d, h in decls.items() if d not in everything]
    check(not undefined, 'all %d names declared URCU_API in the public headers are exported'
          % len(decls), undefined)
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
