# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The chart, <out>/bench.png: median cycles per test, pagepool (every ring
design measured, one bar each) beside DPDK and the kernel's published figures (top), the page
allocator, DMA mapping and peer tests (middle), and, when bench_xdp_redirect
ran, its packets per second per scenario on each DMA backend beside the
2018 mlx5 series' figures (bottom). Writes the data files
(bench-pagepool.dat, bench-others.dat, bench-xdp-redirect.dat) and runs
gnuplot on tools/bench/bench.gp."""
import math
import os
import shutil
import subprocess

from . import BenchError
from .catalog import (ALLOC_TYPES, KERNEL_E5, KERNEL_EPYC, PEER_TYPES, XDPR_DMA,
                      XDPR_LINE_RATE, XDPR_SCENARIOS)

GP_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "bench.gp")

# The top panel: (test, label).
TOP_TESTS = (("tasklet_page_pool01_fast_path", "fast_path (tasklet01)"),
             ("tasklet_page_pool02_ptr_ring", "ptr_ring (tasklet02)"),
             ("tasklet_page_pool03_slow", "slow (tasklet03)"),
             ("tasklet_page_pool04_napi_aware", "napi_aware (tasklet04)"),
             ("no-softirq-page_pool01", "no-softirq01"),
             ("no-softirq-page_pool02", "no-softirq02"),
             ("no-softirq-page_pool03", "no-softirq03"),
             ("lock", "lock"), ("atomic_inc", "atomic_inc"))


def _value(x):
    return "-" if x is None or x <= 0 else f"{max(x, 0.05):.3f}"


def _axis_top(vals):
    """A decade above the panel's largest bar (and half of one more)."""
    vals = [x for x in vals if x]
    return 10 ** (math.ceil(math.log10(max(vals) * 1.5)) if vals else 3)


def plot(res, outdir, machine):
    gp = shutil.which("gnuplot")
    if not gp:
        raise BenchError("gnuplot not found (make deps-bench installs gnuplot-nox)")
    fast_v = res.dpdk_fast()[0]
    tsc = res.tsc_hz

    def med(test, design="-", **kw):
        st = res.stat(test, design, **kw)
        return st["median"] if st else None

    def per_page(d):
        # Cycles of wall time per page returned (one returning thread).
        st = res.stat("page_pool_cross_cpu", d, kind="rate", field="rate", returners=1)
        return tsc / st["median"] if st and tsc else None

    designs = res.ring_designs
    top = []
    for t, lbl in TOP_TESTS:
        dp = fast_v if t == "tasklet_page_pool01_fast_path" else None
        top.append((lbl, *[med(t, d) for d in designs], dp, KERNEL_E5.get(t),
                    KERNEL_EPYC.get(t)))
    dr = res.stat("dpdk_mempool_cross_cpu", kind="rate", field="rate")
    top.append(("cross-CPU, 1 returner (wall cycles/page)", *[per_page(d) for d in designs],
                tsc / dr["median"] if dr and tsc else None, None, None))
    bottom = [(t, med(t, "-")) for t in ALLOC_TYPES] + [(t, med(t, "-")) for t in PEER_TYPES]

    top_dat = os.path.join(outdir, "bench-pagepool.dat")
    bot_dat = os.path.join(outdir, "bench-others.dat")
    with open(top_dat, "w") as f:
        f.write(f"# label {' '.join(designs)} dpdk kernel_e5 kernel_epyc (median TSC cycles)\n")
        for lbl, *vals in top:
            f.write(f"\"{lbl}\" " + " ".join(_value(x) for x in vals) + "\n")
    with open(bot_dat, "w") as f:
        f.write("# label median_cycles\n")
        for lbl, x in bottom:
            f.write(f"\"{lbl}\" {_value(x)}\n")
    # bench_xdp_redirect: M packets/s, linear (the figures span 1-20).
    xdpr = []
    for key, letter, _, ref in XDPR_SCENARIOS:
        vals = [res.xdpr(key, d) for d in XDPR_DMA]
        if any(vals):
            xdpr.append((f"({letter}) {key}", *[v["median"] / 1e6 if v else None for v in vals],
                         ref / 1e6 if ref else None))
    xdp_dat = ""
    if xdpr:
        xdp_dat = os.path.join(outdir, "bench-xdp-redirect.dat")
        with open(xdp_dat, "w") as f:
            f.write(f"# label {' '.join(XDPR_DMA)} mlx5_2018 (M packets/s)\n")
            for lbl, *vals in xdpr:
                f.write(f"\"{lbl}\" " + " ".join(_value(x) for x in vals) + "\n")
    xdpmax = max([x for _, *vals in xdpr for x in vals if x] + [XDPR_LINE_RATE / 1e6]) * 1.15
    png = os.path.join(outdir, "bench.png")
    title = f"pagepool vs DPDK vs kernel page_pool: median TSC cycles per element " \
            f"({res.reps} run{'s' if res.reps > 1 else ''})"
    topmax = _axis_top([x for _, *vals in top for x in vals])
    botmax = _axis_top([x for _, x in bottom])
    cmd = [gp, "-e", f"topdat='{top_dat}'; botdat='{bot_dat}'; outfile='{png}'; "
           f"plottitle='{title}'; machine='{machine}'; topmax={topmax}; "
           f"botmax={botmax}; designs='{' '.join(designs)}'; "
           f"ndesigns={len(designs)}; xdpdat='{xdp_dat}'; xdpmax={xdpmax:.2f}; "
           f"linerate={XDPR_LINE_RATE / 1e6:g}", GP_SCRIPT]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(png):
        raise BenchError(f"gnuplot failed: {r.stderr.strip()}")
    return png
