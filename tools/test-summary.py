#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Print one 'N passed, N failed' line from a meson testlog.json; exit 1 on any failure.

Usage: test-summary.py TESTLOG [LABEL] [--suite NAME]
--suite: only the tests of that meson suite, and for each skipped one the
reason it printed (its last line starting with "SKIP:"), and the tests
that failed as they are declared to (meson should_fail), which count as
passed.
"""
import json
import sys

args = sys.argv[1:]
suite = None
if "--suite" in args:
    i = args.index("--suite")
    suite = args[i + 1]
    del args[i:i + 2]

passed = failed = skipped = 0
names = []
reasons = []
expected = []
with open(args[0]) as f:
    for line in f:
        if not line.strip():
            continue
        t = json.loads(line)
        # meson names a test "project:suite[+suite...] / name".
        suites = t.get("name", "").split(" / ")[0].split(":")[-1].split("+")
        if suite is not None and suite not in suites:
            continue
        r = t.get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
            if r == "EXPECTEDFAIL" and suite is not None:
                expected.append(t.get("name"))
        elif r == "SKIP":
            skipped += 1
            why = [l for l in (t.get("stdout") or "").splitlines() if l.startswith("SKIP:")]
            if suite is not None:
                reasons.append(f'{t.get("name")}: {why[-1] if why else "SKIP"}')
        else:
            failed += 1
            names.append(f'{t.get("name")} ({r})')
label = args[1] + ": " if len(args) > 1 else ""
for n in names:
    print(f"{label}FAILED {n}")
for n in reasons:
    print(f"{label}skipped {n}")
for n in expected:
    print(f"{label}failed as expected {n}")
print(f"{label}{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
