#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""A version script derived from src/libpagepool.map, the one list of the
library's exports.

  --node NAME     the version node instead of the map's own (PAGEPOOL_0)
  --runtime-only  only the groups between the map's "===== runtime ====="
                  and "===== core =====" markers: libpagepool-runtime.so,
                  the runtime, mm and dma layers alone

A kernel core build's libpagepool.so takes node PAGEPOOL_KCORE_0, so a
program built against it does not run on pagepool's own libpagepool.so.0
(the dynamic linker names the missing version) and the other way round;
the runtime-only library has PAGEPOOL_RUNTIME_0.
usage: version-map.py libpagepool.map OUT [--node NAME] [--runtime-only]
"""
import argparse
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument('map')
ap.add_argument('out')
ap.add_argument('--node')
ap.add_argument('--runtime-only', action='store_true')
a = ap.parse_args()

text = open(a.map).read()
m = re.search(r'^(\w+) \{\nglobal:\n(.*?)\nlocal:', text, re.S | re.M)
if not m:
    sys.exit(f'version-map.py: {a.map} has no "NODE {{ global: ... local:" block')
node, body = m.group(1), m.group(2)
if a.runtime_only:
    lines = body.split('\n')
    start = next((i for i, l in enumerate(lines) if '===== runtime =====' in l), None)
    end = next((i for i, l in enumerate(lines) if '===== core =====' in l), None)
    if start is None or end is None or end < start:
        sys.exit(f'version-map.py: {a.map} has no "===== runtime =====" ... "===== core =====" groups')
    body = '\n'.join(lines[start:end]).rstrip()
what = 'the runtime, mm and dma groups' if a.runtime_only else 'every group'
with open(a.out, 'w') as f:
    f.write(f'/* Generated from src/libpagepool.map by tools/version-map.py:\n'
            f' * {what}, version node {a.node or node}. */\n'
            f'{a.node or node} {{\nglobal:\n{body}\n\nlocal:\n\t*;\n}};\n')
