#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""bench_page_pool_simple runs on this build's target and says its time unit.

usage: check_time_unit.py ARCH PROGRAM [ARGS...]
Runs PROGRAM (meson runs it through a cross build's exe wrapper: the
wrapper's words come first in PROGRAM's place, see bench/meson.build),
then checks that every time_bench result line parses as the kernel's
format, that the page_pool tests ran, and the unit: on x86_64 the lines'
cycles(tsc) are TSC cycles and no unit line is printed (the kernel's
output, byte for byte); on aarch64 a "time unit:" line names the counter
(cntvct_el0) and a non-zero frequency read from cntfrq_el0.
"""
import re
import subprocess
import sys

arch, cmd = sys.argv[1], sys.argv[2:]
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
line_re = re.compile(r"^time_bench: Type:(\S+) Per elem: (\d+) cycles\(tsc\) (\d+)\.(\d{3}) ns ")
types = [m.group(1) for m in map(line_re.match, out.splitlines()) if m]
if not any("page_pool01" in t for t in types) or not any("page_pool03" in t for t in types):
    sys.exit(f"FAIL: the page_pool tests did not all report (types {types})\n{out}")
unit = [l for l in out.splitlines() if "time unit:" in l]
if arch == "aarch64":
    m = re.search(r"cntvct_el0 ticks at (\d+) Hz", unit[0]) if unit else None
    if not m or int(m.group(1)) == 0:
        sys.exit(f"FAIL: no time unit line with the counter frequency\n{out}")
    print(f"PASS: {len(types)} result lines; {unit[0].strip()}")
elif arch == "x86_64":
    if unit:
        sys.exit(f"FAIL: x86-64 output has a unit line the kernel's does not: {unit}")
    print(f"PASS: {len(types)} result lines in TSC cycles")
else:
    sys.exit(f"unknown target {arch}")
