# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The records of a run and the figures made of them: medians, minima and
maxima over the measured rounds, the XDP direct / lookup ratio paired
within each round, the spread (max / min) of a figure, and the summary
table's rows (each test's median beside its reference and the kernel's
published figure). Results also carries what the run said about itself
(mode, rounds, warm-up, pinning, load, machine facts), for the report."""
import statistics

from .catalog import (ALLOC_TYPES, BARE_VARIANTS, FAST_PATH_FACTOR, KERNEL_E5, KERNEL_EPYC,
                      PEER_TYPES, SIMPLE_TYPES, XDP_BULK_TEST, XDP_TABLES, XDP_TESTS,
                      XDPR_DMA, XDPR_SCENARIOS, cycle_targets)


def median(xs):
    return statistics.median(xs) if xs else None


def summary(v):
    """median, min, max and count of a list of figures; None for none."""
    if not v:
        return None
    return dict(median=median(v), min=min(v), max=max(v), n=len(v))


def spread(*stats):
    """The worst max / min over the rounds of the given figures (1: none
    varied, or none to compare)."""
    return max((st["max"] / st["min"] for st in stats if st and st["min"]), default=1)


class Results:
    """Every parsed record of the measured rounds, and the run's facts."""

    def __init__(self, mode, reps, had_warmup, rx_cpu, ret_cpu, ncpus):
        self.mode = mode            # full, short or replay
        self.reps = reps
        self.had_warmup = had_warmup
        self.rx_cpu, self.ret_cpu, self.ncpus = rx_cpu, ret_cpu, ncpus
        self.samples = []
        self.tsc_hz = None
        self.dpdk_version = None
        self.selftest = []          # (design, rep, set of tests the selftest regex matched)
        self.load = []              # 1-minute load average before and after
        # The designs measured: the build's (Runner.choose_designs).
        self.ring_designs = []
        self.xdp_designs = list(XDP_TABLES)
        self.skipped = []           # what was not run, and why: for the report

    def add(self, prog, rep, parsed):
        self.samples.extend(parsed.samples)
        if parsed.tsc_hz:
            self.tsc_hz = parsed.tsc_hz
        if parsed.dpdk_version:
            self.dpdk_version = parsed.dpdk_version
        if parsed.selftest is not None:
            self.selftest.append((prog["design"], rep, parsed.selftest))

    def values(self, test, design="-", kind="elem", field="cycles", returners="", role=None):
        return [s[field] for s in self.samples
                if s["test"] == test and s["design"] == design and s["kind"] == kind
                and (returners == "" or s["returners"] == returners)
                and (role is None or s["role"] == role)]

    def stat(self, test, design="-", kind="elem", field="cycles", returners="", role=None):
        return summary(self.values(test, design, kind, field, returners, role))

    def xdp_ratio(self, test, design):
        """direct / lookup cycles per frame, paired within each run (the
        program interleaves the two generations), over the runs."""
        lookup = XDP_TABLES[design][1]
        by_rep = {}
        for s in self.samples:
            if s["program"] == "bench_xdp_return" and s["design"] == design:
                by_rep.setdefault(s["rep"], {})[s["test"]] = s["cycles"]
        return summary([r[f"{test}-direct"] / r[f"{test}-{lookup}"] for r in by_rep.values()
                        if r.get(f"{test}-{lookup}") and f"{test}-direct" in r])

    def xdpr(self, key, dma):
        """bench_xdp_redirect's packets/s of scenario @key on backend @dma
        over the rounds (each round's figure: the program's median)."""
        return self.stat(f"xdp_redirect_{key}", dma, kind="pps", field="rate")

    def xdpr_ratio(self, num, den, dma):
        """Scenario @num / scenario @den packets/s on @dma, paired within
        each round (the program runs its scenarios one after the other, so
        the two of a round saw the same machine), over the rounds."""
        by_rep = {}
        for s in self.samples:
            if s["kind"] == "pps" and s["design"] == dma:
                by_rep.setdefault(s["rep"], {})[s["test"]] = s["rate"]
        n, d = f"xdp_redirect_{num}", f"xdp_redirect_{den}"
        return summary([r[n] / r[d] for r in by_rep.values() if r.get(d) and n in r])

    def dpdk_fast(self):
        """(median, test) of the faster of DPDK's single-object mempool
        forms, the fast path's reference; (None, None) without DPDK."""
        cands = [(s["median"], n) for n in ("dpdk_mempool_cache256_get_put",
                                             "dpdk_mempool_cache256_bulk1")
                 for s in (self.stat(n),) if s]
        return min(cands) if cands else (None, None)


def summarize(res):
    """The summary table's rows, in order: dicts of group, test, design,
    unit, median/min/max/n, median_ns, ref_name/ref/ratio and the kernel's
    figures."""
    rows = []
    fast_v, fast_name = res.dpdk_fast()

    def row(group, test, design, st, ns, ref_name="", ref=None, ratio=None, unit="cycles"):
        rows.append(dict(group=group, test=test, design=design, unit=unit,
                         median=st["median"] if st else None,
                         min=st["min"] if st else None, max=st["max"] if st else None,
                         n=st["n"] if st else 0, median_ns=ns["median"] if ns else None,
                         ref_name=ref_name, ref=ref, ratio=ratio,
                         kernel_e5=KERNEL_E5.get(test), kernel_epyc=KERNEL_EPYC.get(test)))

    for t in SIMPLE_TYPES:
        for d in res.ring_designs:
            st, ns = res.stat(t, d), res.stat(t, d, field="ns")
            ref_name, ref, ratio = "", None, None
            targets = dict(cycle_targets(d))
            if t == "tasklet_page_pool01_fast_path" and fast_v:
                ref_name, ref = f"{fast_name} (x{FAST_PATH_FACTOR})", fast_v
            elif t in targets:
                ref_name, ref = "target", float(targets[t])
            if ref and st:
                ratio = st["median"] / ref
            row("page_pool", t, d, st, ns, ref_name, ref, ratio)
    # Cross-CPU: pages per second, and per-thread cycles.
    dpdk_rate = res.stat("dpdk_mempool_cross_cpu", kind="rate", field="rate")
    for n in (1, 2):
        for d in res.ring_designs:
            st = res.stat("page_pool_cross_cpu", d, kind="rate", field="rate", returners=n)
            ratio = st["median"] / dpdk_rate["median"] if st and dpdk_rate else None
            over = n + 1 > res.ncpus
            label = f"page_pool_cross_cpu x{n}{' oversub.' if over else ''}"
            row("cross_cpu", label, d, st, None, "dpdk_mempool_cross_cpu objects/s",
                dpdk_rate["median"] if dpdk_rate else None, ratio, unit="pages/s")
            for role in ("returner", "rx"):
                st = res.stat("page_pool_cross_cpu", d, kind="cpu", returners=n, role=role)
                ns = res.stat("page_pool_cross_cpu", d, kind="cpu", field="ns",
                              returners=n, role=role)
                row("cross_cpu", f"  x{n} {'returner' if role == 'returner' else 'RX'} "
                    "cycles/page (CPU line)", d, st, ns)
    for v in BARE_VARIANTS:
        t = f"bare_cross_cpu_{v}"
        row("cross_cpu", t, "bare", res.stat(t, kind="rate", field="rate"), None,
            unit="pages/s")
        row("cross_cpu", f"  {v} B cycles/object (CPU line)", "bare",
            res.stat(t, kind="cpu", role="returner"),
            res.stat(t, kind="cpu", field="ns", role="returner"))
    row("cross_cpu", "dpdk_mempool_cross_cpu", "dpdk", dpdk_rate, None, unit="objects/s")
    for role in ("returner", "rx"):
        st = res.stat("dpdk_mempool_cross_cpu", kind="cpu", role=role)
        ns = res.stat("dpdk_mempool_cross_cpu", kind="cpu", field="ns", role=role)
        row("cross_cpu", f"  {'B (put)' if role == 'returner' else 'A (get)'} "
            "cycles/object (CPU line)", "dpdk", st, ns)
    for d in res.xdp_designs:
        lookup = XDP_TABLES[d][1]
        for t in XDP_TESTS:
            lk = res.stat(f"{t}-{lookup}", d)
            row("xdp", f"{t}-{lookup}", d, lk, res.stat(f"{t}-{lookup}", d, field="ns"))
            r = res.xdp_ratio(t, d)
            row("xdp", f"{t}-direct", d, res.stat(f"{t}-direct", d),
                res.stat(f"{t}-direct", d, field="ns"), f"{t}-{lookup}",
                lk["median"] if lk else None, r["median"] if r else None)
    # The direct generation's returns into each ring design.
    for d in res.ring_designs:
        for t in ("xdp_return_frame", "xdp_return_frame_bulk", "xdp_return_frame_bulk_2pools"):
            row("xdp_ring", f"{t}-direct", d, res.stat(f"{t}-direct", d),
                res.stat(f"{t}-direct", d, field="ns"))
    # bench_xdp_redirect: packets/s forwarded beside the 2018 series'
    # figure (ratio = ours / theirs; theirs were on hardware at a 13 Mpps
    # line rate, ours on a simulated NIC pair without one).
    # The <backend>_host rows: the same with the simulated device's time
    # taken out (what a NIC doing its DMA beside the host would leave).
    for key, letter, _, ref in XDPR_SCENARIOS:
        for d in XDPR_DMA + [f"{x}_host" for x in XDPR_DMA]:
            st = res.xdpr(key, d)
            if not st:
                continue
            row("xdp_redirect", f"xdp_redirect_{key} ({letter})", d, st, None,
                "2018 mlx5 series" if ref else "", ref,
                st["median"] / ref if ref else None, unit="pkts/s")
    for t in ALLOC_TYPES:
        row("page_alloc", t, "-", res.stat(t), res.stat(t, field="ns"))
    for t in PEER_TYPES:
        row("peers", t, "glibc" if t.startswith("glibc") else "dpdk", res.stat(t),
            res.stat(t, field="ns"))
    return rows


# The design table: one row per ring design, the columns the targets are
# about (DESIGN_COLUMNS: key, header, unit, the text table's short
# header), medians over the rounds.
DESIGN_COLUMNS = (
    ("fast", "fast path", "cycles", "fast"),
    ("put_refill", "non-direct put + refill", "cycles", "put+refill"),
    ("slow", "slow path", "cycles", "slow"),
    ("x1_rate", "cross-CPU 1 returner", "M pages/s", "xcpu1 M/s"),
    ("x1_wall", "cross-CPU 1 returner", "wall cycles/page", "xcpu1 cyc/pg"),
    ("x2_rate", "cross-CPU 2 returners", "M pages/s", "xcpu2 M/s"),
    ("xdp_bulk", "XDP bulk return", "cycles/frame", "xdp bulk"),
    ("fast_ratio", "fast path / DPDK", "ratio", "fast/DPDK"),
    ("x1_ratio", "cross-CPU / DPDK", "ratio", "xcpu1/DPDK"),
)


def _med(st):
    return st["median"] if st else None


def design_table(res):
    """The design table: dict(rows, notes). Each row: design, and per
    DESIGN_COLUMNS key a median (None: not measured, or no equivalent);
    rates in pages/s. The last row is DPDK's, from the same run, where a
    column has an equivalent: the fast path (its faster one-object mempool
    form) and the cross-CPU topology (dpdk_mempool_cross_cpu). Ratios are
    ours / DPDK. Notes: what the DPDK figures are, DPDK's cross-CPU figure
    per round (it is bimodal: a median hides which mode a run was in), the
    bare limit (bench_cross_cpu_bare: the topology without page_pool) and
    whether the 2-returner runs were oversubscribed."""
    tsc = res.tsc_hz
    fast_v, fast_name = res.dpdk_fast()
    dpdk_rate = _med(res.stat("dpdk_mempool_cross_cpu", kind="rate", field="rate"))

    def wall(rate):
        return tsc / rate if rate and tsc else None

    def ratio(a, b):
        return a / b if a is not None and b else None

    rows = []
    for d in res.ring_designs:
        x1 = _med(res.stat("page_pool_cross_cpu", d, kind="rate", field="rate", returners=1))
        fast = _med(res.stat("tasklet_page_pool01_fast_path", d))
        rows.append(dict(
            design=d, fast=fast,
            put_refill=_med(res.stat("tasklet_page_pool02_ptr_ring", d)),
            slow=_med(res.stat("tasklet_page_pool03_slow", d)),
            x1_rate=x1, x1_wall=wall(x1),
            x2_rate=_med(res.stat("page_pool_cross_cpu", d, kind="rate", field="rate",
                                  returners=2)),
            xdp_bulk=_med(res.stat(XDP_BULK_TEST, d)),
            fast_ratio=ratio(fast, fast_v), x1_ratio=ratio(x1, dpdk_rate)))
    if fast_v is not None or dpdk_rate is not None:
        rows.append(dict(design="DPDK mempool", fast=fast_v, put_refill=None, slow=None,
                         x1_rate=dpdk_rate, x1_wall=wall(dpdk_rate), x2_rate=None,
                         xdp_bulk=None, fast_ratio=None, x1_ratio=None))
    notes = []
    if fast_name:
        notes.append(f"DPDK fast path: {fast_name} (the faster of its one-object forms); "
                     "cross-CPU: dpdk_mempool_cross_cpu (get on A, SP/SC rte_ring to B, "
                     "put on B).")
    per_round = sorted((s["rep"], s["rate"]) for s in res.samples
                       if s["test"] == "dpdk_mempool_cross_cpu" and s["kind"] == "rate")
    if per_round:
        notes.append("DPDK cross-CPU per round (bimodal): "
                     + ", ".join(f"{r / 1e6:.1f}" for _, r in per_round) + " M objects/s.")
    bare = []
    for v in BARE_VARIANTS:
        r = _med(res.stat(f"bare_cross_cpu_{v}", kind="rate", field="rate"))
        if r:
            w = wall(r)
            bare.append(f"{v} {r / 1e6:.1f} M/s" + (f" ({w:.1f} wall cycles)" if w else ""))
    if bare:
        notes.append("bare limit (bench_cross_cpu_bare: the cross-CPU topology, no page_pool; "
                     "return channel one at a time, batches of 8 / 64, _touch: each side "
                     "writes a 64-byte descriptor): " + ", ".join(bare) + ".")
    if 3 > res.ncpus:
        notes.append(f"cross-CPU 2 returners: 3 threads on {res.ncpus} CPUs, oversubscribed "
                     "(they time-share: the scheduler's figure as much as the pool's).")
    return dict(rows=rows, notes=notes)
