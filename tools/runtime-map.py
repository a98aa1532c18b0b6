#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The version script of libpagepool-runtime.so, from src/libpagepool.map.

The runtime-only library (runtime, mm and dma: the kernel's environment
without a page_pool) exports exactly the groups of the whole library's
map between its "===== runtime =====" and "===== core =====" markers,
under a version node of its own, so one list stays the source of both.
usage: runtime-map.py libpagepool.map OUT
"""
import sys

src, out = sys.argv[1:]
lines = open(src).read().split('\n')
start = next((i for i, l in enumerate(lines) if '===== runtime =====' in l), None)
end = next((i for i, l in enumerate(lines) if '===== core =====' in l), None)
if start is None or end is None or end < start:
    sys.exit(f'runtime-map.py: {src} has no "===== runtime =====" ... "===== core =====" groups')
body = '\n'.join(lines[start:end]).rstrip()
with open(out, 'w') as f:
    f.write('/* Generated from src/libpagepool.map by tools/runtime-map.py:\n'
            ' * the runtime, mm and dma groups. */\n'
            'PAGEPOOL_RUNTIME_0 {\nglobal:\n' + body + '\n\nlocal:\n\t*;\n};\n')
