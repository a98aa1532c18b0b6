#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The API reference and its checks (make docs).

(a) Every function an installed header (include/) declares and the
    library exports (src/libpagepool.map) has a kernel-doc comment: the
    block ends right above the declaration and names the function
    ("name() - summary"), with an "@param:" line for each parameter and
    no other, and a "Return:" section unless it returns void. A function
    the header declares through a macro
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
  noparam       one whose comment lacks @x: and Return:    -> (a) fails
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
PLANTED_NOPARAM = '''/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Planted by check-apidocs.py --plant noparam.
 */
/**
 * pp_planted_noparam() - a comment without its parameter or Return:
 */
int pp_planted_noparam(int x);
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


def declaration(lines, k):
    """The text of the declaration whose name is on line k, to its ';'."""
    first = decl_start(lines, k)
    last = k
    while last < len(lines) - 1 and ';' not in lines[last]:
        last += 1
    return ' '.join(l.strip() for l in lines[first:last + 1])


ATTRS = re.compile(r'\b(?:extern|__cold|__must_check|__noreturn|__always_inline|__pure)\b')


def strip_attrs(decl):
    """The declaration without __attribute__((...)) and __printf(...)
    (balanced parentheses) and the attribute macros."""
    while True:
        m = re.search(r'\b(?:__attribute__|__printf)\s*\(', decl)
        if not m:
            return ATTRS.sub(' ', decl)
        depth, i = 1, m.end()
        while i < len(decl) and depth:
            depth += {'(': 1, ')': -1}.get(decl[i], 0)
            i += 1
        decl = decl[:m.start()] + ' ' + decl[i:]


def check_params(name, where, b, decl, errors):
    """Kernel-doc's rule: an @name: line for every parameter and no
    other, and a Return: section unless the function returns void.
    (Doxygen reports a wrong name and a partly documented list; this also
    finds a comment that documents none.)"""
    decl = strip_attrs(decl)
    m = re.search(rf'\b{name}\s*\(', decl)
    if not m:
        errors.append(f'{where}: {name}: cannot read the declaration: {decl}')
        return
    ret = decl[:m.start()].strip()
    depth, i = 1, m.end()
    while i < len(decl) and depth:
        depth += {'(': 1, ')': -1}.get(decl[i], 0)
        i += 1
    arglist = decl[m.end():i - 1]
    args, depth, cur = [], 0, ''
    for c in arglist:
        if c == ',' and depth == 0:
            args.append(cur)
            cur = ''
            continue
        depth += {'(': 1, ')': -1}.get(c, 0)
        cur += c
    args.append(cur)
    names = []
    for a in (x.strip() for x in args):
        if a in ('', 'void'):
            continue
        if a == '...':
            names.append('...')
            continue
        fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', a)
        ids = re.findall(r'[A-Za-z_]\w*', re.sub(r'\[[^]]*\]', '', a))
        names.append(fp.group(1) if fp else (ids[-1] if ids else a))
    documented = [p for p, _ in b.params]
    for p in names:
        if p not in documented:
            errors.append(f'{where}: {name}: parameter {p} has no @{p}: line')
    for p in documented:
        if p not in names:
            errors.append(f'{where}: {name}: @{p}: names no parameter')
    if re.sub(r'\s+', ' ', ret) != 'void' and 'Return' not in b.sections:
        errors.append(f'{where}: {name}: returns {ret} but its comment has no Return: section')


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
            # doxygen's line numbers are the header's only if the filter
            # keeps every line on its line.
            if any(len(kdoc.filter_text(lines, 'x.h', g)) != len(lines) for g in (None, 'g')):
                errors.append(f'{path}: tools/kerneldoc-filter.py changes its line count')
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
        else:
            check_params(name, where, b, declaration(lines, k), errors)
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


def run_doxygen(inputs, out, errors, mainpage=''):
    """(b): doxygen over @inputs (and the @mainpage file) into @out; every
    warning is an error."""
    env = dict(os.environ, PP_SRCDIR=ROOT, PP_APIDIR=os.path.abspath(out),
               PP_INPUT=' '.join(inputs), PP_MAINPAGE=mainpage)
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
    ap.add_argument('--plant', choices=['undocumented', 'noparam', 'docwarn'])
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
        if a.plant in ('undocumented', 'noparam'):
            text = PLANTED_UNDOC if a.plant == 'undocumented' else PLANTED_NOPARAM
            with open(os.path.join(planted, 'pagepool/planted_apidocs.h'), 'w') as f:
                f.write(text)
            roots.append(planted)
            exported.add(f'pp_planted_{a.plant}')
        if a.plant == 'docwarn':
            with open(os.path.join(planted, 'pagepool/planted_apidocs.h'), 'w') as f:
                f.write(PLANTED_DOCWARN)
            nwarn = run_doxygen([planted], os.path.join(tmp, 'api'), errors)
            n = 0
        else:
            n = check_comments(roots, incs, a.cc, exported, errors)
            nwarn = None
            if not a.no_doxygen and not a.plant:
                if not shutil.which('doxygen'):
                    sys.exit('check-apidocs.py: no doxygen (make docs installs it)')
                nwarn = run_doxygen([include], a.out, errors,
                                    os.path.join(ROOT, 'docs/api-mainpage.dox'))

    for e in errors:
        print(e)
    if a.plant:
        name = f'pp_planted_{a.plant}'
        caught = errors and all(name in e for e in errors)
        if a.plant == 'noparam':	# both rules, not one
            caught = caught and len(errors) == 2
        print(f'planted {a.plant} ({name}): '
              f'{"caught" if caught else "NOT caught, or other errors"}')
        return 0 if caught else 1
    dox = '' if nwarn is None else f', doxygen {nwarn} warnings, HTML in {a.out}/index.html'
    print(f'{n} exported functions declared by the installed headers{dox}: '
          f'{"OK" if not errors else f"{len(errors)} errors"}')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
