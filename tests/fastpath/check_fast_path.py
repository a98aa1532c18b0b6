#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Prove the page_pool fast path takes no lock and no atomic read-modify-write.

Runs PROBE N under callgrind with per-instruction counts, takes every
instruction of the probe's fast_path_loop() that executed at least N times
(the loop body as it actually ran: alloc from the cache + direct recycle),
disassembles them, prints them, and fails if any is lock-prefixed, an
xchg (implicitly locked), or a call (the fast path must stay inline).
usage: check_fast_path.py PROBE [N]
"""
import re
import subprocess
import sys
import tempfile

probe = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000

with tempfile.NamedTemporaryFile(suffix=".cg") as out:
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}",
                    "--dump-instr=yes", "--compress-strings=no", "--compress-pos=no",
                    probe, str(n)], check=True, capture_output=True)
    counts = {}
    in_probe = False
    for line in open(out.name):
        if line.startswith("fn="):
            in_probe = line.strip().endswith("fast_path_loop")
        elif in_probe and line.startswith("0x"):
            cols = line.split()		# address, source line, Ir
            counts[int(cols[0], 16)] = counts.get(int(cols[0], 16), 0) + int(cols[-1])

hot = {a for a, c in counts.items() if c >= n}
if not hot:
    sys.exit("no instruction of fast_path_loop executed N times: wrong probe?")

# Disassemble the probe's function. callgrind reports run-time addresses
# (the binary is position-independent): find the load bias that maps every
# hot address onto an instruction start of the function.
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", probe], check=True,
                     capture_output=True, text=True).stdout
body = re.search(r"<fast_path_loop>:\n(.*?)\n\n", dis, re.S).group(1).splitlines()
insns = [(int(l.split(":")[0], 16), l.split(":", 1)[1].strip()) for l in body if ":" in l]
addrs = {a for a, _ in insns}
bias = next((min(hot) - a for a, _ in insns
             if all(h - (min(hot) - a) in addrs for h in hot)), None)
if bias is None:
    sys.exit("cannot map callgrind addresses onto the disassembly")

bad = []
print(f"fast path: {len(hot)} instructions executed >= {n} times in fast_path_loop():")
for a, text in insns:
    if a + bias in hot:
        print(f"  {a:8x}: {text}")
        mnem = text.split()[0] if text else ""
        if mnem == "lock" or mnem.startswith("xchg") or mnem.startswith("call"):
            bad.append(text)
if bad:
    sys.exit(f"FAIL: the fast path executes {bad}")
print("PASS: no lock-prefixed instruction, no xchg, no call on the fast path")
