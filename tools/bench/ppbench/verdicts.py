# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The acceptance judgements the suite prints, per design measured: page_pool
against its targets and DPDK (the fast path in absolute cycles and against
DPDK's faster single-object mempool form, the non-direct put + refill and
the slow path against absolute cycle targets - the kernel's ptr_ring
design with its own put + refill target -, the cross-CPU return rate
absolute and against DPDK's topology; catalog.py has the figures), the
kernel selftest's regex on the simple program's output, the XDP
return paths (direct against lookup, per frame), and the XDP_REDIRECT
forwarding rates of bench_xdp_redirect against each other (the 2018 mlx5
page_pool conversion's and the 2019 page->pp series' ratios).

A verdict is (design, what, ok, detail): ok True (PASS), False (MISS) or
None (INFO: reported, not judged). Targets are reported, never enforced.
A verdict whose inputs spread by more than NOISY_SPREAD (max/min over the
rounds) is flagged: the machine was busy and the median may not mean much.
"""
from .catalog import (CROSS_DPDK_FACTOR, CROSS_RATE_TARGET, FAST_PATH_CYCLES,
                      FAST_PATH_FACTOR, NOISY_SPREAD, XDP_JUDGED, XDP_TABLES, XDP_TARGET,
                      XDP_TESTS, XDPR_DMA, XDPR_TARGETS, cycle_targets)
from .stats import spread

SELFTEST_TESTS = {"no-softirq-page_pool01", "no-softirq-page_pool02", "no-softirq-page_pool03"}


def _noisy(*stats):
    worst = spread(*stats)
    return f" [noisy: max/min {worst:.1f}x over the rounds]" if worst > NOISY_SPREAD else ""


def judge(res):
    out = []
    fast_v, fast_name = res.dpdk_fast()
    fast_st = res.stat(fast_name) if fast_name else None
    for d in res.ring_designs:
        st = res.stat("tasklet_page_pool01_fast_path", d)
        if not st:
            continue
        out.append((d, f"tasklet_page_pool01_fast_path <= {FAST_PATH_CYCLES} TSC cycles",
                    st["median"] <= FAST_PATH_CYCLES,
                    f"{st['median']:.2f} cycles; {st['median'] / FAST_PATH_CYCLES:.2f}x the "
                    "target" + _noisy(st)))
        if fast_v:
            lim = FAST_PATH_FACTOR * fast_v
            out.append((d, f"tasklet_page_pool01_fast_path <= {FAST_PATH_FACTOR} x DPDK mempool "
                        "cache-256 get+put of one object (faster form)",
                        st["median"] <= lim,
                        f"{st['median']:.2f} cycles vs {FAST_PATH_FACTOR} x {fast_v:.2f} "
                        f"({fast_name}) = {lim:.2f}; ratio {st['median'] / fast_v:.2f}x"
                        + _noisy(st, fast_st)))
    for i in range(2):
        for d in res.ring_designs:
            t, target = cycle_targets(d)[i]
            st = res.stat(t, d)
            if st:
                out.append((d, f"{t} <= {target} TSC cycles", st["median"] <= target,
                            f"{st['median']:.2f} cycles; {st['median'] / target:.2f}x "
                            "the target" + _noisy(st)))
    dpdk_rate = res.stat("dpdk_mempool_cross_cpu", kind="rate", field="rate")
    for d in res.ring_designs:
        st = res.stat("page_pool_cross_cpu", d, kind="rate", field="rate", returners=1)
        if not st:
            continue
        out.append((d, f"cross-CPU, 1 returning thread: >= {CROSS_RATE_TARGET / 1e6:.0f} M "
                    "pages/s", st["median"] >= CROSS_RATE_TARGET,
                    f"{st['median'] / 1e6:.2f} M pages/s; "
                    f"{st['median'] / CROSS_RATE_TARGET:.2f}x the target" + _noisy(st)))
        if dpdk_rate:
            lim = CROSS_DPDK_FACTOR * dpdk_rate["median"]
            out.append((d, f"cross-CPU, 1 returning thread: pages/s >= {CROSS_DPDK_FACTOR:g} x "
                        "DPDK topology objects/s", st["median"] >= lim,
                        f"{st['median'] / 1e6:.2f} M pages/s vs {CROSS_DPDK_FACTOR:g} x "
                        f"{dpdk_rate['median'] / 1e6:.2f} M objects/s; ratio "
                        f"{st['median'] / dpdk_rate['median']:.2f}x"
                        + _noisy(st, dpdk_rate)))
    for d in res.ring_designs:
        runs = [got for dd, _, got in res.selftest if dd == d]
        ok = bool(runs) and all(got == SELFTEST_TESTS for got in runs)
        out.append((d, "kernel selftest regex matches no-softirq-page_pool0[123]", ok,
                    f"all three matched in {sum(got == SELFTEST_TESTS for got in runs)}/"
                    f"{len(runs)} runs (Python re on the programs' output)"))
    # The XDP return paths: judged against the general-purpose table; the
    # id table and the one-pool bulk are reported (None: information).
    for d in res.xdp_designs:
        lookup = XDP_TABLES[d][1]
        for t in XDP_TESTS:
            r = res.xdp_ratio(t, d)
            if not r:
                continue
            judged = d == "lfht" and t in XDP_JUDGED
            dc, lc = res.stat(f"{t}-direct", d), res.stat(f"{t}-{lookup}", d)
            out.append((d, f"{t} direct <= {XDP_TARGET} x {lookup} per frame"
                        + ("" if judged else " (reported, not judged)"),
                        r["median"] <= XDP_TARGET if judged else None,
                        f"ratio {r['median']:.2f} [{r['min']:.2f}-{r['max']:.2f}]; "
                        f"{dc['median']:.1f} vs {lc['median']:.1f} cycles"))
    out += judge_xdp_redirect(res)
    return out


def judge_xdp_redirect(res):
    """bench_xdp_redirect's ratios, paired within each round; a target on a
    backend it is not about, or a ratio without a target, is INFO."""
    out = []
    for num, den, target, judged_on, what in XDPR_TARGETS:
        for d in XDPR_DMA:
            r = res.xdpr_ratio(num, den, d)
            if not r:
                continue
            ns, ds = res.xdpr(num, d), res.xdpr(den, d)
            judged = target is not None and d in judged_on
            if target is None:
                head = f"xdp_redirect {what}: {num} / {den} (reported, no target)"
            else:
                head = (f"xdp_redirect {what}: {num} >= {target:g} x {den}"
                        + ("" if judged else " (reported, judged on "
                           + ", ".join(judged_on) + ")"))
            out.append((d, head, r["median"] >= target if judged else None,
                        f"ratio {r['median']:.2f} [{r['min']:.2f}-{r['max']:.2f}]; "
                        f"{ns['median'] / 1e6:.2f} vs {ds['median'] / 1e6:.2f} Mpps"
                        + _noisy(ns, ds)))
    return out


def label(ok):
    return "INFO" if ok is None else "PASS" if ok else "MISS"
