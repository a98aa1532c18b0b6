#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Print one 'N passed, N failed' line from a meson testlog.json; exit 1 on any failure."""
import json
import sys

passed = failed = skipped = 0
names = []
with open(sys.argv[1]) as f:
    for line in f:
        if not line.strip():
            continue
        t = json.loads(line)
        r = t.get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
            names.append(f'{t.get("name")} ({r})')
label = sys.argv[2] + ": " if len(sys.argv) > 2 else ""
for n in names:
    print(f"{label}FAILED {n}")
print(f"{label}{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
