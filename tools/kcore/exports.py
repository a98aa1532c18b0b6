#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Kernel core mode: the names a kernel source file exports.

Prints one name per line for every EXPORT_SYMBOL*(name...) in the files
given; exits 1 if there is none (a file that is not the one expected).
usage: exports.py FILE.c [FILE.c ...]
"""
import re
import sys

names = []
for path in sys.argv[1:]:
    with open(path, encoding='utf-8', errors='replace') as f:
        names += re.findall(r'^\s*EXPORT_SYMBOL\w*\(\s*(\w+)', f.read(), re.M)
if not names:
    sys.exit('exports.py: no EXPORT_SYMBOL in ' + ' '.join(sys.argv[1:]))
print('\n'.join(sorted(set(names))))
