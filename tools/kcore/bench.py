#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""make kernel-bench: pagepool's core against a kernel tree's page_pool.c.

The same two programs, built once per core (bench/bench_page_pool_simple
and bench/bench_page_pool_cross_cpu of a default build and of a kernel
core build), run in one process tree, interleaved: each round runs both
cores, the order alternating, after one discarded warm-up round. Reported
per line: the median and range over the rounds for each core and the
ratio, and whether pagepool's core is at least as fast there.

  fast path      tasklet_page_pool01_fast_path: alloc + recycle_direct
  non-direct put tasklet_page_pool02_ptr_ring: alloc + put from softirq
                 that is not napi-local (refill from the ring)
  slow path      tasklet_page_pool03_slow: alloc + release to the page
                 allocator
  cross-CPU      bench_page_pool_cross_cpu, 1 returning thread: pages/s

  tree module    when the tree has the kernel's own benchmark module
                 (tools/testing/selftests/net/bench/page_pool/, v6.17 on):
                 its page_pool lines, the module's files unchanged, built
                 with pagepool-kmod against each core - the kernel core
                 build has it (bench/meson.build), and the same files are
                 compiled here against the pagepool build's headers and
                 library, at the same -O2

Cycles are TSC cycles per element (tsc_interval / invoke count).
usage: bench.py PAGEPOOL_BUILD KCORE_BUILD [--rounds N] [--loops N]
                [--xloops N] [--out FILE]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

LINES = [
    ('fast path (cycles)', 'tasklet_page_pool01_fast_path'),
    ('non-direct put + refill (cycles)', 'tasklet_page_pool02_ptr_ring'),
    ('slow path (cycles)', 'tasklet_page_pool03_slow'),
]
XLINE = 'cross-CPU, 1 returner (M pages/s)'

TB = re.compile(r'Type:(\S+) .*invoke count:(\d+) tsc_interval:(\d+)')
XPS = re.compile(r'Type:page_pool_cross_cpu pages/sec: (\d+)')


def run(build, prog, args):
    env = dict(os.environ, LD_LIBRARY_PATH=build)
    p = subprocess.run([os.path.join(build, 'bench', prog)] + args, env=env,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f'{build}/bench/{prog} failed ({p.returncode}):\n{p.stdout}{p.stderr}')
    return p.stdout + p.stderr


MODULE = 'kernel_bench_page_pool_simple'
MODULE_DIR = 'tools/testing/selftests/net/bench/page_pool'


def build_module(pagepool, kcore, outdir):
    """The tree's bench module against the pagepool build, or None when the
    kernel core build has none (a tree before v6.17)."""
    if not os.path.exists(os.path.join(kcore, 'bench', MODULE)):
        return None
    src = os.path.join(kcore + '-ksrc', MODULE_DIR)
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    prog = os.path.join(outdir, MODULE)
    cmd = [os.environ.get('CC', 'cc'), '-std=gnu11', '-O2', '-g', '-w', '-o', prog,
           os.path.join(src, 'bench_page_pool_simple.c'), os.path.join(src, 'time_bench.c'),
           '-I' + os.path.join(top, 'include'), '-I' + os.path.join(pagepool, 'include'),
           os.path.join(pagepool, 'src', 'kmod', 'libpagepool-kmod.a'),
           '-L' + pagepool, '-lpagepool', '-pthread']
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'{" ".join(cmd)} failed:\n{p.stderr}')
    return prog


def module_round(build, prog, loops):
    env = dict(os.environ, LD_LIBRARY_PATH=build)
    p = subprocess.run([prog, f'loops={loops}'], env=env, capture_output=True,
                       text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f'{prog} failed ({p.returncode}):\n{p.stdout}{p.stderr}')
    return {f'tree module: {name} (cycles)': int(tsc) / int(count)
            for name, count, tsc in TB.findall(p.stdout + p.stderr) if 'page_pool' in name}


def one_round(build, loops, xloops):
    out = run(build, 'bench_page_pool_simple', [f'loops={loops}'])
    got = {}
    for name, count, tsc in TB.findall(out):
        got[name] = int(tsc) / int(count)
    res = {}
    for label, name in LINES:
        if name not in got:
            sys.exit(f'{build}: no {name} line in bench_page_pool_simple output:\n{out}')
        res[label] = got[name]
    out = run(build, 'bench_page_pool_cross_cpu', [f'loops={xloops}', 'returning_cpus=1'])
    m = XPS.search(out)
    if not m:
        sys.exit(f'{build}: no pages/sec line in bench_page_pool_cross_cpu output:\n{out}')
    res[XLINE] = int(m.group(1)) / 1e6
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pagepool')
    ap.add_argument('kcore')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--loops', type=int, default=10_000_000)
    ap.add_argument('--xloops', type=int, default=5_000_000)
    ap.add_argument('--out')
    a = ap.parse_args()

    version = open(os.path.join(a.kcore + '-ksrc', 'VERSION')).read().strip() \
        if os.path.exists(os.path.join(a.kcore + '-ksrc', 'VERSION')) else 'kernel'
    tmp = tempfile.TemporaryDirectory()
    module = build_module(a.pagepool, a.kcore, tmp.name)
    modules = {'pagepool': module, version: os.path.join(a.kcore, 'bench', MODULE)}
    cores = [('pagepool', a.pagepool), (version, a.kcore)]
    samples = {c: {} for c, _ in cores}
    for r in range(a.rounds + 1):
        order = cores if r % 2 == 0 else cores[::-1]
        for core, build in order:
            res = one_round(build, a.loops, a.xloops)
            if module:
                res.update(module_round(build, modules[core], a.loops))
            if r == 0:
                continue	# warm-up
            for k, v in res.items():
                samples[core].setdefault(k, []).append(v)
    module_lines = sorted(k for k in samples['pagepool'] if k.startswith('tree module:'))

    lines = []
    lines.append(f'kernel-bench: pagepool\'s core ({a.pagepool}) against kernel {version}\'s '
                 f'page_pool.c ({a.kcore}), {a.rounds} interleaved rounds after a warm-up, '
                 f'loops={a.loops} xloops={a.xloops}')
    lines.append(f'{"line":48s} {"pagepool median [range]":>26s} {version + " median [range]":>26s}'
                 f' {"kernel/pagepool":>16s}  pagepool no slower')
    worse = 0
    for label in [l for l, _ in LINES] + [XLINE] + module_lines:
        pp = samples['pagepool'][label]
        kc = samples[version][label]
        mp, mk = statistics.median(pp), statistics.median(kc)
        ratio = mk / mp
        higher_better = label == XLINE
        ok = mp >= mk if higher_better else mp <= mk
        worse += not ok
        lines.append(f'{label:48s} {mp:9.2f} [{min(pp):7.2f}-{max(pp):7.2f}] '
                     f'{mk:9.2f} [{min(kc):7.2f}-{max(kc):7.2f}] {ratio:16.2f}  '
                     f'{"yes" if ok else "NO"}')
    if not module:
        lines.append(f'tree module: none (kernel {version} has no {MODULE_DIR}/; in-tree from v6.17)')
    lines.append('ratio: cycles lines, kernel / pagepool (above 1: pagepool faster); '
                 'cross-CPU, kernel pages/s / pagepool pages/s (below 1: pagepool faster)')
    text = '\n'.join(lines)
    print(text)
    if a.out:
        os.makedirs(os.path.dirname(a.out) or '.', exist_ok=True)
        with open(a.out, 'w') as f:
            f.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
