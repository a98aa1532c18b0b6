# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The suite's text outputs: the summary table with its header (machine,
pinning, load, what was skipped) and legend, the acceptance block, and
<out>/bench.csv (one row per record, per table line and per verdict).
run_bench.py writes the table to <out>/bench-summary.txt and prints it."""
import csv
import platform

from .catalog import XDPR_LINE_RATE
from .stats import DESIGN_COLUMNS
from .verdicts import label


def fmt(x, digits=2):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    return f"{x:.{digits}f}"


def _r(x):
    if x is None:
        return ""
    return f"{x:.4f}" if isinstance(x, float) else x


def machine(res):
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                info.setdefault(k.strip(), v.strip())
                if not line.strip():
                    break
    except OSError:
        pass
    model = info.get("model name", "?")
    if "cpu family" in info:
        model += (f" (family {info['cpu family']} model {info.get('model', '?')} "
                  f"stepping {info.get('stepping', '?')})")
    tsc = f"{res.tsc_hz / 1e9:.3f} GHz" if res.tsc_hz else "?"
    try:
        glibc = " ".join(platform.libc_ver())
    except Exception:
        glibc = "?"
    return (f"{model}, {res.ncpus} CPUs, TSC {tsc} (time_bench_tsc_hz), "
            f"kernel {platform.release()}, {res.dpdk_version or 'DPDK ?'}, {glibc}")


def _plural(reps):
    return f"{reps} run{'s' if reps > 1 else ''}"


def _cell(key, x):
    """A design table cell: rates in M pages/s, ratios with an x."""
    if x is None:
        return "-"
    if key.endswith("_rate"):
        return f"{x / 1e6:.1f}"
    if key.endswith("_ratio"):
        return f"{x:.2f}x"
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def _design_header(res, short=False):
    over = " (oversub.)" if 3 > res.ncpus else ""
    if short:
        return ["design"] + [s + ("*" if k == "x2_rate" and over else "")
                             for k, _, _, s in DESIGN_COLUMNS]
    return ["design"] + [f"{h}{over if k == 'x2_rate' else ''}, {u}" if u != "ratio" else h
                         for k, h, u, _ in DESIGN_COLUMNS]


def design_table_text(res, dt):
    """The design table as plain text for bench-summary.txt."""
    hdr = _design_header(res, short=True)
    cells = [[r["design"]] + [_cell(k, r[k]) for k, *_ in DESIGN_COLUMNS] for r in dt["rows"]]
    widths = [max(len(c) for c in col) for col in zip(*([hdr] + cells))]
    out = [f"Design table (medians of {_plural(res.reps)}): "
           + "; ".join(f"{s} = {h}" + ("" if u == "ratio" else f", {u}")
                       for _, h, u, s in DESIGN_COLUMNS)
           + ("; * oversubscribed" if 3 > res.ncpus else "")
           + "; cycles = TSC cycles, ratios = ours / DPDK."]
    for c in [hdr] + cells:
        out.append("  " + "  ".join(x.ljust(w) if i == 0 else x.rjust(w)
                                    for i, (x, w) in enumerate(zip(c, widths))))
        if c is hdr:
            out.append("  " + "  ".join("-" * w for w in widths))
    out += [f"  note: {n}" for n in dt["notes"]]
    return "\n".join(out)


def design_table_markdown(res, dt):
    """The design table as markdown (docs/BENCHMARKS.md), its notes as a list."""
    hdr = _design_header(res)
    out = ["| " + " | ".join(hdr) + " |",
           "|" + "|".join(["---"] + ["---:"] * (len(hdr) - 1)) + "|"]
    for r in dt["rows"]:
        out.append("| " + " | ".join([r["design"]] + [_cell(k, r[k]) for k, *_ in
                                                      DESIGN_COLUMNS]) + " |")
    out.append("")
    out.append(f"Medians of {_plural(res.reps)} on {machine(res)}.")
    out += [f"- {n}" for n in dt["notes"]]
    return "\n".join(out)


def table(res, rows, accept, design_table_rows):
    lines = []
    warm = ", after a discarded warm-up" if res.had_warmup else ""
    lines.append(f"pagepool benchmark summary ({res.mode}: medians of {_plural(res.reps)}{warm})")
    lines.append(f"machine: {machine(res)}")
    lines.append(f"pinning: RX / pool owner on host CPU {res.rx_cpu}, returning thread on "
                 f"host CPU {res.ret_cpu}")
    lines.append("glibc malloc: M_TRIM_THRESHOLD=1 GiB, M_TOP_PAD=64 MiB, "
                 "M_MMAP_THRESHOLD=1 GiB (heap trimming off), heap warmed")
    if res.load:
        lines.append(f"machine load: 1-minute load average {res.load[0]} before the suite, "
                     f"{res.load[-1]} after ({res.ncpus} CPUs; other work on the "
                     "machine inflates every figure, the cross-CPU ones most)")
    for what in res.skipped:
        lines.append(f"not run: {what}")
    lines.append("")
    hdr = (f"{'test':<46} {'design':<11} {'median':>10} {'ns':>8} {'[min-max]':>21} "
           f"{'ref':>9} {'ratio':>6}  {'kernel E5-1650v4':>16} {'EPYC 9684X':>10}")
    lines.append(hdr)
    lines.append("-" * len(hdr))
    group = None
    for r in rows:
        if group is not None and r["group"] != group:
            lines.append("")
        group = r["group"]
        if r["unit"] == "cycles":
            med, lo, hi = fmt(r["median"]), fmt(r["min"]), fmt(r["max"])
        else:
            def M(x):
                return "-" if x is None else f"{x / 1e6:.2f}M"
            med, lo, hi = M(r["median"]), M(r["min"]), M(r["max"])
        rng = f"[{lo}-{hi}]" if r["median"] is not None else "-"
        if r["ref"] is None:
            ref = ""
        elif r["unit"] == "cycles":
            ref = fmt(r["ref"])
        else:
            ref = f"{r['ref'] / 1e6:.2f}M"
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] is not None else ""
        unit = "" if r["unit"] == "cycles" else f" {r['unit']}"
        lines.append(f"{(r['test'] + unit)[:46]:<46} {r['design']:<11} {med:>10} "
                     f"{fmt(r['median_ns']):>8} {rng:>21} {ref:>9} {ratio:>6}  "
                     f"{fmt(r['kernel_e5'], 0) if r['kernel_e5'] else '':>16} "
                     f"{fmt(r['kernel_epyc'], 0) if r['kernel_epyc'] else '':>10}")
    lines.append("")
    lines.append("cycles = TSC cycles per element (tsc_interval / invoke count); ns = "
                 "time_interval / invoke count; pages/s, objects/s = returned / wall time.")
    lines.append(f"ref: fast_path -> the faster DPDK single-object form "
                 f"({res.dpdk_fast()[1] or '?'}); ptr_ring (non-direct put + refill), slow -> "
                 "absolute targets; cross-CPU -> DPDK's get / SP-SC ring / put topology "
                 "(ratio = ours / ref).")
    lines.append("kernel: Jesper Brouer's published figures (Xeon E5-1650 v4 @ 3.60GHz, "
                 "6.13.0-rc6; EPYC 9684X); different CPUs and TSC rates: compare ratios, "
                 "not cycles.")
    if res.xdp_designs:
        lines.append("")
        lines.append("xdp: bench_xdp_return, direct generation vs lookup generation per frame; "
                     "design id = pagepool's id table, lfht = liburcu's rculfhash (a "
                     "general-purpose RCU hash table, the kind the lookup generation read in "
                     "the kernel); ratio = median over the runs of direct / lookup within a "
                     "run.")
    if any(s["kind"] == "pps" for s in res.samples):
        lines.append("")
        lines.append("xdp_redirect: bench_xdp_redirect, the 2018 mlx5 page_pool conversion's "
                     "XDP_REDIRECT test on a simulated NIC pair (drivers/simnic): packets/s "
                     "forwarded (TX completions) per scenario, design = DMA backend; each "
                     "round's figure is the median of the program's own repetitions. ref = the "
                     f"2018 series on hardware ({XDPR_LINE_RATE / 1e6:.0f} Mpps line rate; ours "
                     "has none), ratio = ours / theirs; two flows = both flows' sum. "
                     "Letters: docs/BENCHMARKS.md.")
    lines.append("")
    lines.append(design_table_text(res, design_table_rows))
    lines.append("")
    lines.append("Acceptance (page_pool against DPDK, XDP direct against lookup, the "
                 "XDP_REDIRECT scenarios against each other; medians of "
                 f"{_plural(res.reps)}; targets are reported, not enforced; INFO = "
                 "reported, not judged - see docs/XDP.md, docs/BENCHMARKS.md):")
    for d, what, ok, detail in accept:
        lines.append(f"  {label(ok)}  [{d:<8}] {what}: {detail}")
    return "\n".join(lines)


def write_csv(path, res, rows, accept):
    fields = ["kind", "program", "design", "returners", "test", "rep", "cpu", "role",
              "step", "cycles", "ns", "invoke_count", "tsc_interval", "time_interval_ns",
              "rate_per_sec", "median", "min", "max", "median_ns", "unit", "n",
              "ref_name", "ref", "ratio", "kernel_e5_1650v4", "kernel_epyc_9684x",
              "verdict"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for s in res.samples:
            w.writerow(dict(kind=s["kind"], program=s["program"], design=s["design"],
                            returners=s["returners"], test=s["test"], rep=s["rep"] + 1,
                            cpu=s["cpu"], role=s["role"], step=s["step"],
                            cycles=_r(s["cycles"]), ns=_r(s["ns"]), invoke_count=s["invoke"],
                            tsc_interval=s["tsc_interval"],
                            time_interval_ns=s["time_interval"], rate_per_sec=s["rate"]))
        for r in rows:
            w.writerow(dict(kind="summary", design=r["design"], test=r["test"],
                            median=_r(r["median"]), min=_r(r["min"]), max=_r(r["max"]),
                            median_ns=_r(r["median_ns"]), unit=r["unit"], n=r["n"],
                            ref_name=r["ref_name"], ref=_r(r["ref"]), ratio=_r(r["ratio"]),
                            kernel_e5_1650v4=r["kernel_e5"] or "",
                            kernel_epyc_9684x=r["kernel_epyc"] or ""))
        for d, what, ok, detail in accept:
            w.writerow(dict(kind="acceptance", design=d, test=what, verdict=label(ok),
                            ref_name=detail))
