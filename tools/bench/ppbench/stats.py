# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The records of a run and the figures made of them: medians, minima and
maxima over the measured rounds, the XDP direct / lookup ratio paired
within each round, the spread (max / min) of a figure, and the summary
table's rows (each test's median beside its reference and the kernel's
published figure). Results also carries what the run said about itself
(mode, rounds, warm-up, pinning, load, machine facts), for the report."""
import statistics

from .catalog import (ALLOC_TYPES, CYCLE_TARGETS, DESIGNS, FAST_PATH_FACTOR, KERNEL_E5,
                      KERNEL_EPYC, PEER_TYPES, SIMPLE_TYPES, XDP_TABLES, XDP_TESTS)


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
        # The designs measured (a build without some runs the others).
        self.ring_designs = list(DESIGNS)
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

    targets = dict(CYCLE_TARGETS)
    for t in SIMPLE_TYPES:
        for d in res.ring_designs:
            st, ns = res.stat(t, d), res.stat(t, d, field="ns")
            ref_name, ref, ratio = "", None, None
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
    for t in ALLOC_TYPES:
        row("page_alloc", t, "-", res.stat(t), res.stat(t, field="ns"))
    for t in PEER_TYPES:
        row("peers", t, "glibc" if t.startswith("glibc") else "dpdk", res.stat(t),
            res.stat(t, field="ns"))
    return rows
