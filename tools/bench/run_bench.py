#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The benchmark suite behind `make bench` and `make bench-short`.

Runs the benchmark programs of a build directory pinned (the RX / pool
owner thread on one CPU, the returning thread on another), a discarded
warm-up round and then N rounds, each round running every program once in
the same order, so ours and the peers see the same machine. Parses every
time_bench line (fractional cycles from tsc_interval / invoke count, ns from
time_interval / invoke count), prints a summary table with medians,
[min-max], ratios to the DPDK peer or to the absolute targets, the kernel's
published x86 figures, and the acceptance verdicts (page_pool against
DPDK, the XDP return paths direct against lookup), and writes
<out>/bench.csv, <out>/bench-summary.txt (with the design table: one row
per ring design, the columns the targets are about, DPDK's figures of the
same run as the last row), <out>/bench-designs.md (that table in
markdown, for docs/BENCHMARKS.md; --markdown prints it too),
<out>/bench-raw.txt and <out>/bench.png (gnuplot). The ring designs are
the build's (its CONFIG_PAGEPOOL_RING_* symbols); the same-run A/B rows
(the ring designs, the two XDP return paths) need a build configured with
-Ddesigns=all; a default build runs its own designs and says what it
skipped.

The work is in the ppbench package beside this file (its docstring lists
the modules). Exit status: 0 when every program ran and every line parsed,
whatever the numbers (targets are reported, never asserted); 1 otherwise.
Python 3 standard library only.
"""
import argparse
import datetime
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ppbench import BenchError  # noqa: E402
from ppbench.plot import plot  # noqa: E402
from ppbench.report import design_table_markdown, machine, table, write_csv  # noqa: E402
from ppbench.runner import Runner, host_cpus, replay  # noqa: E402
from ppbench.stats import Results, design_table, summarize  # noqa: E402
from ppbench.verdicts import judge  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="meson build directory")
    ap.add_argument("--out", default="results", help="output directory")
    ap.add_argument("--reps", type=int, default=5, help="measured rounds (default 5)")
    ap.add_argument("--short", action="store_true",
                    help="tiny loop counts, 1 round, no warm-up (CI: proves it runs)")
    ap.add_argument("--verbose", action="store_true", help="echo every program's output")
    ap.add_argument("--replay", metavar="RAW",
                    help="run nothing: parse a saved bench-raw.txt and write the outputs again")
    ap.add_argument("--markdown", action="store_true",
                    help="print the design table as markdown (docs/BENCHMARKS.md) at the end")
    args = ap.parse_args()
    if args.short:
        args.reps = 1
    if args.reps < 1:
        ap.error("--reps must be >= 1")

    t0 = time.monotonic()
    os.makedirs(args.out, exist_ok=True)
    cpus = host_cpus()
    res = Results("short" if args.short else "full", args.reps, not args.short,
                  cpus[0], cpus[1] if len(cpus) > 1 else cpus[0], len(cpus))
    what = (f"replay of {args.replay}" if args.replay else
            "short mode" if args.short else f"{args.reps} rounds + 1 warm-up")
    print(f"pagepool bench: {datetime.datetime.now().isoformat(timespec='seconds')}, "
          f"{what}, build {args.build}, output {args.out}/", flush=True)
    try:
        if args.replay:
            replay(args.replay, res)
        else:
            runner = Runner(args.build, args.short, args.reps, args.verbose, res)
            try:
                runner.run()
            finally:
                runner.dump_raw(os.path.join(args.out, "bench-raw.txt"))
        rows = summarize(res)
        accept = judge(res)
        dt = design_table(res)
        text = table(res, rows, accept, dt)
        md = design_table_markdown(res, dt)
        with open(os.path.join(args.out, "bench-summary.txt"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(args.out, "bench-designs.md"), "w") as f:
            f.write(md + "\n")
        write_csv(os.path.join(args.out, "bench.csv"), res, rows, accept)
        png = plot(res, args.out, machine(res))
    except BenchError as e:
        print(f"pagepool bench: FAILED: {e}", file=sys.stderr)
        return 1
    print()
    print(text)
    print()
    if args.markdown:
        print(md)
        print()
    raw = "" if args.replay else f"{args.out}/bench-raw.txt, "
    print(f"pagepool bench: wrote {args.out}/bench.csv, {args.out}/bench-summary.txt, "
          f"{args.out}/bench-designs.md, {raw}{png}; {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
