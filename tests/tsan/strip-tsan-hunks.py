#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Remove the ThreadSanitizer hunks from source files, in place.

Usage: strip-tsan-hunks.py FILE...

Each #ifdef/#ifndef/#if on URCU_I_TSAN or __SANITIZE_THREAD__ is resolved as a
build without TSan resolves it (undefined), and every dropped line becomes an
empty line, so that line numbers (__LINE__ in assertions) do not move.
compare-production.sh builds a copy of the tree treated this way next to the
real one and compares the binaries: identical means the hunks cost production
builds nothing.
"""
import re, sys

def strip(lines):
    out = []
    stack = []   # per open #if: (is_tsan_cond, keep_current_branch)
    def keeping():
        return all(k for _, k in stack)
    for line in lines:
        m = re.match(r'\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)', line)
        if m:
            d, rest = m.group(1), m.group(2)
            tsan = 'URCU_I_TSAN' in rest or '__SANITIZE_THREAD__' in rest
            if d in ('ifdef', 'ifndef', 'if'):
                if tsan:
                    keep = (d == 'ifndef')   # URCU_I_TSAN / __SANITIZE_THREAD__ undefined
                    stack.append((True, keep))
                    out.append('\n'); continue
                stack.append((False, True)); out.append(line if keeping() else '\n'); continue
            if d == 'elif' and stack and stack[-1][0]:
                # '#elif defined(__has_feature)' after the __SANITIZE_THREAD__ test:
                # the whole compiler.h detection block defines nothing without TSan.
                stack[-1] = (True, False); out.append('\n'); continue
            if d == 'else' and stack and stack[-1][0]:
                stack[-1] = (True, not stack[-1][1]); out.append('\n'); continue
            if d == 'endif' and stack:
                t, _ = stack.pop()
                if t: out.append('\n'); continue
                out.append(line if keeping() else '\n'); continue
        out.append(line if keeping() else '\n')
    return out

for path in sys.argv[1:]:
    with open(path) as f:
        lines = f.readlines()
    new = strip(lines)
    assert len(new) == len(lines)
    with open(path, 'w') as f:
        f.writelines(new)
