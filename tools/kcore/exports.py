#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Kernel core mode: the names a kernel source file exports, or marks
injectable.

Prints one name per line for every EXPORT_SYMBOL*(name...) in the files
given; exits 1 if there is none (a file that is not the one expected).
With --error-injection, the functions marked ALLOW_ERROR_INJECTION(name,
type) instead, possibly none.
usage: exports.py [--error-injection] FILE.c [FILE.c ...]
"""
import re
import sys

args = sys.argv[1:]
injection = bool(args) and args[0] == '--error-injection'
if injection:
    args = args[1:]
pattern = (r'^\s*ALLOW_ERROR_INJECTION\(\s*(\w+)\s*,' if injection
           else r'^\s*EXPORT_SYMBOL\w*\(\s*(\w+)')
names = []
for path in args:
    with open(path, encoding='utf-8', errors='replace') as f:
        names += re.findall(pattern, f.read(), re.M)
if not names and not injection:
    sys.exit('exports.py: no EXPORT_SYMBOL in ' + ' '.join(args))
if names:
    print('\n'.join(sorted(set(names))))
