#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Run a page_pool benchmark module built as a program (the kernel tree's
bench_page_pool_simple.c with pagepool-kmod) and check what it printed.

The module's own exit status says little: it returns 0 from module_init
whatever its loops did, and a loop that stopped early (an allocation
that failed) only prints a warning. So: the program exits 0; it printed
at least one page_pool "Type:" line; every such line ran the loops asked
for ("invoke count" equals loops=N); and nothing printed WARNING, ABORT or
ERR. usage: check_bench_module.py PROG loops=N [name=value ...]
"""
import re
import subprocess
import sys

prog, args = sys.argv[1], sys.argv[2:]
loops = next((int(a.split('=', 1)[1]) for a in args if a.startswith('loops=')), None)
if loops is None:
    sys.exit('check_bench_module.py: give loops=N')
p = subprocess.run([prog] + args, capture_output=True, text=True, timeout=300)
out = p.stdout + p.stderr
print(out, end='')
errors = []
if p.returncode != 0:
    errors.append(f'exit status {p.returncode}')
lines = re.findall(r'Type:(\S*page_pool\S*) .*invoke count:(\d+) ', out)
if not lines:
    errors.append('no page_pool "Type:" line')
for name, count in lines:
    if int(count) != loops:
        errors.append(f'{name}: invoke count {count}, not loops={loops}')
for bad in ('WARNING', 'ABORT', 'ERR'):
    if re.search(r'\b' + bad + r'\b', out):
        errors.append(f'printed {bad}')
for e in errors:
    print('check_bench_module.py: ' + e)
print(f'check_bench_module.py: {len(lines)} page_pool lines, '
      f'{"OK" if not errors else "FAILED"}')
sys.exit(1 if errors else 0)
