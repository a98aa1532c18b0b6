#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The API reference and its checks (make docs).

(a) Every function an installed header (include/) declares and the
    library exports (src/libpagepool.map) has a kernel-doc comment: the
    block ends right above the declaration and names the function
    ("name() - summary"). A function the header declares through a macro
    (moduleparam.h's __PP_STD_PARAM()) is documented by the macro's
    kernel-doc block, at its #define. The declarations
    come from gcc's -aux-info, as tests/install/check_exports.py reads
    them (its declared_functions()), so the #if branches are a user's.
    A "/**" block that is not kernel-doc is an error too: the filter
    would drop it from the reference without a word.
(b) doxygen (docs/Doxyfile, with tools/kerneldoc-filter.py as its input
    filter) builds the HTML reference into --out and reports no warning:
    no @param naming a parameter the function does not have, no function
    with an undocumented parameter or return value, no markup error.

--plant KIND makes one check see a planted error; the run succeeds only
if the check fails on it and on nothing else (tests/docs/meson.build):
  undocumented  an exported function without a comment     -> (a) fails
  docwarn       a comment naming a parameter that does not
                exist (doxygen runs on the planted header)  -> (b) fails
--no-doxygen runs (a) only (the test suite: doxygen is make docs' package).

Usage: check-apidocs.py --build DIR [--out DIR] [--cc GCC]
       [--plant KIND] [--no-doxygen]
--build: a configured build directory (<generated/autoconf.h>).
Layer: tools.
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


kdoc = load('tools/kerneldoc-filter.py', 'kerneldoc_filter')
exports = load('tests/install/check_exports.py', 'check_exports')

PLANTED_UNDOC = '''/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Planted by check-apidocs.py --plant undocumented.
 */
int pp_planted_undocumented(int x);
'''
PLANTED_DOCWARN = '''/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Planted by check-apidocs.py --plant docwarn.
 */
/**
 * pp_planted_docwarn() - a comment with a parameter the function lacks
 * @nosuch: not a parameter of pp_planted_docwarn()
 *
 * Return: 0.
 */
int pp_planted_docwarn(int x);
'''


def decl_start(lines, k):
    """The first line of the declaration whose name is on line k (0-based):
    the lines above it that carry on the same declaration (its return
    type, attributes) are not blank, end no statement or comment and are
    no preprocessor line."""
    while k > 0:
        prev = lines[k - 1].strip()
        if not prev or prev.startswith('#') or prev.endswith((';', '}', '{', '*/', '\\')):
            break
        if k > 1 and lines[k - 2].rstrip().endswith('\\'):
            break		# the last line of a macro's definition
        k -= 1
    return k


def check_comments(roots, incs, cc, exported, errors):
    """(a); returns how many exported functions were checked."""
    with tempfile.TemporaryDirectory() as tmp:
        decls = exports.declared_functions(roots, incs, cc, tmp)
    files = {}

    def blocks(path):
        if path not in files:
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            files[path] = (lines, {b.last: b for b in kdoc.parse_blocks(lines)})
        return files[path]

    def resolve(rel):
        for r in roots:
            p = os.path.join(r, rel)
            if os.path.exists(p):
                return p
        return rel

    def order(kv):
        f, _, line = kv[1].rpartition(':')
        return (f, int(line))
    n = 0
    for name, where in sorted(decls.items(), key=order):
        if name not in exported:
            continue
        n += 1
        rel, _, line = where.rpartition(':')
        path = resolve(rel)
        lines, by_last = blocks(path)
        k = int(line) - 1
        m = re.match(r'^\s*(\w+)\s*\(', lines[k])
        if not re.search(rf'\b{name}\b', lines[k]) and m:
            # Declared by a macro's expansion: the macro's block documents it.
            macro = m.group(1)
            if not any(b.kind == 'function' and b.name == macro
                       for b in by_last.values()):
                errors.append(f'{where}: {name} is exported and declared by {macro}(), '
                              f'which has no kernel-doc comment')
            continue
        b = by_last.get(decl_start(lines, k) - 1)
        want = name
        if b is None:
            errors.append(f'{where}: {name} is exported but has no kernel-doc comment '
                          f'right above its declaration')
        elif b.kind != 'function' or b.name != want:
            errors.append(f'{where}: {name}: the kernel-doc comment above it documents '
                          f'"{b.name or "?"}" ({b.kind}), not {want}()')
    # Blocks the filter would drop without a word.
    for r in roots:
        for d, _, fs in os.walk(r):
            for f in sorted(fs):
                if not f.endswith('.h'):
                    continue
                path = os.path.join(d, f)
                for b in blocks(path)[1].values():
                    if b.kind == 'none':
                        errors.append(f'{os.path.relpath(path, r)}:{b.first + 1}: a "/**" '
                                      f'comment that is not kernel-doc ("name() - summary", '
                                      f'"struct name - summary", "DOC: title", ...)')
    return n


def run_doxygen(inputs, build, out, errors):
    """(b): doxygen over @inputs into @out; every warning is an error."""
    env = dict(os.environ, PP_SRCDIR=ROOT, PP_BUILDDIR=os.path.abspath(build),
               PP_APIDIR=os.path.abspath(out), PP_INPUT=' '.join(inputs))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    r = subprocess.run(['doxygen', os.path.join(ROOT, 'docs/Doxyfile')], env=env,
                       capture_output=True, text=True)
    # One warning per line; doxygen continues one with indented lines.
    warnings = []
    for line in (r.stdout + r.stderr).splitlines():
        if line[:1].isspace() and warnings:
            warnings[-1] += ' ' + line.strip()
        elif line.strip():
            warnings.append(line.strip())
    errors += [f'doxygen: {w}' for w in warnings]
    if r.returncode and not warnings:
        errors.append(f'doxygen: exit status {r.returncode}')
    return len(warnings)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs/api'))
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--plant', choices=['undocumented', 'docwarn'])
    ap.add_argument('--no-doxygen', action='store_true')
    a = ap.parse_args()

    include = os.path.join(ROOT, 'include')
    incs = [os.path.join(os.path.abspath(a.build), 'include')]
    exported = exports.map_symbols(os.path.join(ROOT, 'src/libpagepool.map'))
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        planted = os.path.join(tmp, 'include')
        os.makedirs(os.path.join(planted, 'pagepool'))
        roots = [include]
        if a.plant == 'undocumented':
            with open(os.path.join(planted, 'pagepool/planted_apidocs.h'), 'w') as f:
                f.write(PLANTED_UNDOC)
            roots.append(planted)
            exported.add('pp_planted_undocumented')
        if a.plant == 'docwarn':
            with open(os.path.join(planted, 'pagepool/planted_apidocs.h'), 'w') as f:
                f.write(PLANTED_DOCWARN)
            nwarn = run_doxygen([planted], a.build, os.path.join(tmp, 'api'), errors)
            n = 0
        else:
            n = check_comments(roots, incs, a.cc, exported, errors)
            nwarn = None
            if not a.no_doxygen and not a.plant:
                if not shutil.which('doxygen'):
                    sys.exit('check-apidocs.py: no doxygen (make docs installs it)')
                nwarn = run_doxygen([include], a.build, a.out, errors)

    for e in errors:
        print(e)
    if a.plant:
        name = {'undocumented': 'pp_planted_undocumented',
                'docwarn': 'pp_planted_docwarn'}[a.plant]
        caught = errors and all(name in e for e in errors)
        print(f'planted {a.plant} ({name}): '
              f'{"caught" if caught else "NOT caught, or other errors"}')
        return 0 if caught else 1
    dox = '' if nwarn is None else f', doxygen {nwarn} warnings, HTML in {a.out}/index.html'
    print(f'{n} exported functions declared by the installed headers{dox}: '
          f'{"OK" if not errors else f"{len(errors)} errors"}')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
