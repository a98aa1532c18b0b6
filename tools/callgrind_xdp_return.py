#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Instructions per returned frame of each bench_xdp_return test and
generation, counted by callgrind (deterministic, unlike cycles on a shared VM).

Each (test, generation) runs alone (bench_xdp_return gens=1 or gens=2). The
count is the inclusive cost of the calls that measure_pair() - the bench's
timed loop - makes to the XDP return API and to the RCU read side, divided
by the number of frames returned; frame preparation is not in it.

usage: callgrind_xdp_return.py [BENCH_BINARY] [loops=N] [models=N]
"""
import os
import re
import subprocess
import sys
import tempfile

TESTS = [
    ("xdp_return_frame_rx_napi", "xdp_return_frame_rx_napi"),
    ("xdp_return_frame", "xdp_return_frame"),
    ("xdp_return_frame_bulk", "xdp_return_frame_bulk"),
    ("xdp_return_frame_bulk_2pools", "xdp_return_frame_bulk"),
    ("no-softirq-xdp_return_frame", "xdp_return_frame"),
]
GENS = [("direct", "gens=1 table=0"),
        ("lookup", "gens=2 table=0"),
        ("lookup_rculfhash", "gens=2 table=1")]
# Callees of measure_pair() that belong to the timed region.
TIMED = re.compile(r"^(xdp_return_frame\w*|xdp_flush_frame_bulk|\w*rcu_read_\w+)$")


def edges_from(path, caller):
    """{callee: [calls, inclusive Ir]} for the calls @caller makes."""
    names = {}
    out = {}
    cur = None
    callee = None
    want_cost = False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
            if m:
                kind, ident, name = m.groups()
                if name:
                    names[ident] = name
                if kind == "fn":
                    cur = names.get(ident)
                else:
                    callee = names.get(ident)
                continue
            if line.startswith("calls="):
                calls = int(line.split()[0][6:])
                if cur == caller:
                    e = out.setdefault(callee, [0, 0])
                    e[0] += calls
                    want_cost = True
                continue
            if want_cost:
                want_cost = False
                parts = line.split()
                e = out[callee]
                e[1] += int(parts[1]) if len(parts) > 1 else 0
    return out


def measure(binary, test_idx, gen_args, extra):
    fd, out = tempfile.mkstemp(prefix="cg-xdp-")
    os.close(fd)
    try:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
               binary, "run_flags=%d" % (1 << test_idx), "cpu=-1"] + \
            gen_args.split() + extra
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
        if rc == 77:
            return None, 0      # a design this build does not have
        if rc:
            raise SystemExit("%s: exit %d" % (" ".join(cmd), rc))
        edges = edges_from(out, "measure_pair")
    finally:
        os.unlink(out)
    primary = TESTS[test_idx][1]
    frames = edges.get(primary, [0, 0])[0]
    if not frames:
        # The program left the row out: a generation or table this build
        # does not have (it says so on its output).
        return None, 0
    ir = sum(c[1] for n, c in edges.items() if n and TIMED.match(n))
    return ir / frames, frames


def main():
    args = sys.argv[1:]
    binary = "build/bench/bench_xdp_return"
    if args and "=" not in args[0]:
        binary = args.pop(0)
    extra = args if any(a.startswith("loops=") for a in args) else ["loops=20480"] + args
    print("instructions per frame (callgrind), %s %s" % (binary, " ".join(extra)))
    print("%-30s %8s %8s %8s %8s %8s" % ("test", "direct", "lookup", "ratio",
                                          "rculfhash", "ratio"))
    def num(v):
        return "%8.1f" % v if v is not None else "%8s" % "-"

    def ratio(a, b):
        return "%8.3f" % (a / b) if a is not None and b is not None else "%8s" % "-"

    missing = False
    for i, (name, _) in enumerate(TESTS):
        per = {g: measure(binary, i, a, extra)[0] for g, a in GENS}
        missing |= None in per.values()
        print("%-30s %s %s %s %s %s" % (
            name, num(per["direct"]), num(per["lookup"]), ratio(per["direct"], per["lookup"]),
            num(per["lookup_rculfhash"]), ratio(per["direct"], per["lookup_rculfhash"])))
    if missing:
        print("-: not in this build (the other generation or table: meson -Ddesigns=all)")


if __name__ == "__main__":
    main()
