#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The fast-path proof on arm64: no atomic, no barrier, no call.

valgrind does not run aarch64 code here, so the instructions executed come
from qemu-user: `-d in_asm,exec,nochain` logs each translated block of
guest code (its instructions) and, with block chaining off, every
execution of a block; -dfilter keeps the log to fast_path_loop(). Each
instruction of a block is counted once per execution of the block; the
ones executed at least N times are the loop body as it ran (alloc from the
cache + direct recycle). They are disassembled with objdump, printed, and
the proof fails on an exclusive (ldxr/ldaxr/stxr/stlxr and their b/h/p
forms), an LSE atomic (ldadd*, ldclr*, ldeor*, ldset*, ld[su]max*,
ld[su]min*, swp*, cas*, casp*, stadd*/stclr*/... aliases), a barrier
(dmb, dsb: a relaxed fast path has none) or a call (bl, blr: the fast
path must stay inline).
usage: check_fast_path_arm64.py WRAPPER OBJDUMP NM PROBE [N]
  WRAPPER  the qemu-user command, space-separated (meson's exe_wrapper)
"""
import os
import re
import subprocess
import sys
import tempfile

wrapper = sys.argv[1].split()
objdump, nm, probe = sys.argv[2], sys.argv[3], sys.argv[4]
n = int(sys.argv[5]) if len(sys.argv) > 5 else 20000

# qemu-user loads a position-independent executable at this bias on a
# 64-bit host; the labels of the logged blocks confirm it below.
BIAS = 0x5500000000

BAD = re.compile(r"^(ld[a]?x[rp][bh]?|st[l]?x[rp][bh]?|"
                 r"ld(add|clr|eor|set|smax|smin|umax|umin)[al]*[bh]?|"
                 r"st(add|clr|eor|set|smax|smin|umax|umin)[l]?[bh]?|"
                 r"swp[al]*[bh]?|cas[al]*[bh]?|casp[al]*|"
                 r"dmb|dsb|bl|blr|blraa|blrab|blraaz|blrabz)$")

def bad(mnem):
    return bool(BAD.match(mnem))

if os.environ.get("PP_FASTPATH_SELFTEST"):
    # The classifier itself: what must fail and what must not.
    must = ["ldxr", "ldaxr", "stxr", "stlxr", "ldxrb", "stlxrh", "ldaxp", "stlxp",
            "ldadd", "ldaddal", "ldclrl", "ldeora", "ldsetb", "ldsmaxh", "lduminal",
            "stadd", "staddl", "swp", "swpal", "swpb", "cas", "casal", "casb", "casp",
            "caspal", "dmb", "dsb", "bl", "blr"]
    must_not = ["ldr", "ldrb", "ldp", "str", "stp", "ldar", "stlr", "b", "b.ne",
                "cbz", "ret", "br", "add", "ldur", "stur", "cmp", "csel", "yield"]
    wrong = [m for m in must if not bad(m)] + [m for m in must_not if bad(m)]
    sys.exit(f"classifier wrong on {wrong}" if wrong else 0)

sym = None
for line in subprocess.run([nm, "-S", probe], check=True, capture_output=True,
                           text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 4 and f[3] == "fast_path_loop":
        sym = (int(f[0], 16), int(f[1], 16))
if not sym:
    sys.exit("fast_path_loop not found in the probe")
start, size = sym

with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "qemu.log")
    subprocess.run(wrapper + ["-d", "in_asm,exec,nochain", "-D", log,
                              "-dfilter", f"{BIAS + start:#x}+{size:#x}",
                              probe, str(n)],
                   check=True, capture_output=True)
    blocks = {}		# block start -> its instruction addresses
    execs = {}		# block start -> executions
    cur = None
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("IN:"):
                cur = [] if line.split(":", 1)[1].strip() == "fast_path_loop" else None
            elif cur is not None and line.startswith("0x"):
                a = int(line.split(":")[0], 16)
                if not cur:
                    blocks[a] = cur
                cur.append(a)
            elif line.startswith("Trace "):
                m = re.search(r"\[[0-9a-f]+/([0-9a-f]+)/", line)
                if m:
                    pc = int(m.group(1), 16)
                    execs[pc] = execs.get(pc, 0) + 1
            elif not line.strip():
                cur = None
counts = {}
for pc, insns in blocks.items():
    for a in insns:
        counts[a - BIAS] = counts.get(a - BIAS, 0) + execs.get(pc, 0)
hot = {a for a, c in counts.items() if c >= n}
if not hot:
    sys.exit("no instruction of fast_path_loop executed N times: wrong probe or load bias?")

dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", probe], check=True,
                     capture_output=True, text=True).stdout
body = re.search(r"<fast_path_loop>:\n(.*?)\n\n", dis, re.S).group(1).splitlines()
insns = [(int(l.split(":")[0], 16), l.split(":", 1)[1].strip()) for l in body if ":" in l]
if not hot <= {a for a, _ in insns}:
    sys.exit("qemu's addresses do not map onto the disassembly")

found = []
print(f"fast path: {len(hot)} instructions executed >= {n} times in fast_path_loop():")
for a, text in insns:
    if a in hot:
        print(f"  {a:8x}: {text}")
        if bad(text.split()[0] if text else ""):
            found.append(text)
# PP_FASTPATH_EXPECT (the planted probes): the run passes only if the
# proof caught an instruction starting with that mnemonic, so a probe that
# did not run, or a trace that mapped nothing, cannot pass for a catch.
expect = os.environ.get("PP_FASTPATH_EXPECT")
if expect:
    if any(t.split()[0].startswith(expect) for t in found):
        print(f"PASS: the planted {expect} was caught: {found}")
        sys.exit(0)
    sys.exit(f"FAIL: the planted {expect} was not caught (found {found})")
if found:
    sys.exit(f"FAIL: the fast path executes {found}")
print("PASS: no exclusive, no LSE atomic, no dmb/dsb, no call on the fast path")
