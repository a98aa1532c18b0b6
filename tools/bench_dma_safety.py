#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The DMA-safety fixes' before/after tables, in one run: bench_page_pool_simple with DMA
tracking off / index / items (DMA-mapped pool on a direct device), and with
the napi_local RCU fix off / on (the napi-aware test, where the fix's
read-side section is taken). Variants are interleaved and repeated; the
table shows medians of fractional TSC cycles per element (tsc_interval /
invoke count) and the overhead against the "off" variant.

Needs an all-designs build (meson -Ddesigns=all): tracking off and the
fix off exist only there.

usage: bench_dma_safety.py BENCH_BINARY [reps=7] [loops=5000000] [cpu=0]
"""
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"time_bench: Type:(\S+) Per elem: \d+ cycles\(tsc\) ([0-9.]+) ns .*"
                  r"invoke count:(\d+) tsc_interval:(\d+)\)")

def run(binary, args):
    out = subprocess.run([binary] + args, check=True, capture_output=True, text=True).stdout
    res = {}
    for m in LINE.finditer(out):
        res[m.group(1)] = (int(m.group(4)) / int(m.group(3)), float(m.group(2)))
    return res

def main():
    binary = sys.argv[1]
    kw = dict(a.split("=", 1) for a in sys.argv[2:])
    reps, loops, cpu = int(kw.get("reps", 7)), kw.get("loops", "5000000"), kw.get("cpu", "0")
    base = [f"loops={loops}", f"cpu={cpu}"]
    tracking = {"off": "2", "index": "0", "items": "1"}
    groups = [
        ("DMA tracking (dma=1: PP_FLAG_DMA_MAP on a direct device)",
         [(name, base + ["run_flags=0x70", "dma=1", f"tracking={t}"]) for name, t in tracking.items()],
         ["tasklet_page_pool01_fast_path", "tasklet_page_pool02_ptr_ring", "tasklet_page_pool03_slow"],
         "off"),
        ("napi_local RCU fix (the put takes the fix's section only for napi-local-capable pools)",
         [(name, base + ["run_flags=0xa0", f"fixes={f}"]) for name, f in (("fix off", "0"), ("fix on", "1"))],
         ["tasklet_page_pool04_napi_aware", "tasklet_page_pool02_ptr_ring"],
         "fix off"),
    ]
    for title, variants, tests, ref in groups:
        samples = {v: {t: [] for t in tests} for v, _ in variants}
        subprocess.run([binary] + variants[0][1], check=True, capture_output=True)  # warm-up
        for _ in range(reps):
            for v, args in variants:
                res = run(binary, args)
                for t in tests:
                    samples[v][t].append(res[t][0])
        print(f"\n{title}; medians of {reps} runs, loops={loops}")
        print(f"{'test':34s}" + "".join(f"{v:>22s}" for v, _ in variants))
        for t in tests:
            row = f"{t:34s}"
            r = statistics.median(samples[ref][t])
            for v, _ in variants:
                m = statistics.median(samples[v][t])
                row += f"{m:10.2f} cyc ({(m / r - 1) * 100:+5.1f}%)"
            print(row)

if __name__ == "__main__":
    main()
