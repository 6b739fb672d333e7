# SPDX-License-Identifier: MIT
"""Sourced by gdb (run-gdb-probes.py): a breakpoint on every USDT probe
urcu:NAME listed in $URCU_PROBE_NAMES (comma-separated) that records the
probe's arguments and lets the program go on.  One line per hit is appended
to $URCU_PROBE_LOG: "hit NAME ARG..." (a probe whose first argument is the
flavor's name gives it as a string), and one line per probe at setup:
"set NAME N" (N locations) or "missing NAME reason".

Sourced once the program has stopped at main, so the libraries are loaded
and a probe that does not exist is an error at once, not a pending
breakpoint."""
import os

import gdb

LOG = open(os.environ['URCU_PROBE_LOG'], 'a')
NAMES = [n for n in os.environ['URCU_PROBE_NAMES'].split(',') if n]
# Probes whose first argument is not the flavor's name.
NO_FLAVOR = ('lfht_',)


class ProbeBreak(gdb.Breakpoint):
    def __init__(self, name):
        super().__init__('-probe-stap urcu:' + name, internal=False)
        self.probe = name
        self.silent = True

    def stop(self):
        try:
            argc = int(gdb.parse_and_eval('$_probe_argc'))
            args = []
            for i in range(argc):
                v = gdb.parse_and_eval('$_probe_arg%d' % i)
                if i == 0 and not self.probe.startswith(NO_FLAVOR):
                    args.append(gdb.parse_and_eval(
                        '(const char *) $_probe_arg0').string())
                else:
                    args.append(str(int(v)))
            LOG.write('hit %s %s\n' % (self.probe, ' '.join(args)))
        except gdb.error as e:
            LOG.write('error %s %s\n' % (self.probe, str(e).replace('\n', ' ')))
        LOG.flush()
        return False


for name in NAMES:
    try:
        bp = ProbeBreak(name)
        LOG.write('set %s %d\n' % (name, len(bp.locations)
                                   if hasattr(bp, 'locations') else 1))
    except (gdb.error, RuntimeError) as e:
        LOG.write('missing %s %s\n' % (name, str(e).replace('\n', ' ')))
    LOG.flush()
