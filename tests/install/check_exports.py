#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The shared library exports exactly what src/libpagepool.map lists, and
every function the installed headers declare.

(a) `nm -D --defined-only` of libpagepool.so, version node aside, is the
    map's global list, name for name; and no library-internal name
    (pprt_, ppmm_, ppdma_, ppcore_, ppxdp_ prefixes, page_pool_list) is in
    either.
(b) Every non-inline function declared by an installed header is exported
    (pp_kmod_main: defined by libpagepool-kmod.a instead). The declarations
    come from gcc's -aux-info, which prints each function declaration the
    compiler saw, with its file and line, after preprocessing: no C parsing
    here, and #if branches are the ones a user's build takes. The headers
    are compiled twice, at -O0 and -O2, since <linux/build_bug.h> declares
    its error function only when optimizing. Static inline functions are
    definitions ("F" in the aux line) and have no symbol; they are skipped.

--layers L1,L2,... restricts (b) to the headers whose "Layer:" line names
one of those layers: the runtime-only library (libpagepool-runtime.so)
exports what the runtime, mm and dma headers declare, and nothing of the
core's (--kmod-lib is then not needed).

--plant KIND makes one check see a planted error, and the run succeeds
only if the checks fail on it and on nothing else: the test suite shows
each check failing (tests/install/meson.build):
  unlisted    an exported name is dropped from the map      -> (a) fails
  leak        the library also exports page_pool_list        -> (a) fails
  undeclared  a header declares a function nobody defines    -> (b) fails

Usage: check_exports.py --lib SO --map MAP [--kmod-lib A] --include DIR
       [--include DIR]... [--cc GCC] [--layers L,...] [--plant KIND]
The first --include is the installed headers' root (every *.h under it is
checked); the others only go on the -I list (<generated/autoconf.h>).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INTERNAL = re.compile(r'^(pprt_|ppmm_|ppdma_|ppcore_|ppxdp_)|^page_pool_list$')
# Declared for the user's module to define: module_init()/module_exit()
# make them aliases of the module's functions (<linux/module.h>).
USER_DEFINED = {'__pp_module_init', '__pp_module_exit'}


def map_symbols(path):
    text = re.sub(r'/\*.*?\*/', ' ', open(path).read(), flags=re.S)
    m = re.search(r'global:(.*?)local:', text, flags=re.S)
    if not m:
        sys.exit(f'{path}: no global: ... local: section')
    return {s.strip() for s in m.group(1).split(';') if s.strip()}


def defined_dynamic(lib):
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[1] == 'A':	# A: the version node
            continue
        syms.add(parts[2].split('@')[0])
    return syms


def defined_static(archive):
    out = subprocess.run(['nm', '--defined-only', '-g', archive], check=True,
                         capture_output=True, text=True).stdout
    return {l.split()[2] for l in out.splitlines() if len(l.split()) == 3}


# "/* FILE:LINE:NC */ extern int foo (int, void (*) (int));": the name is
# the first identifier followed by " (" that is not "(*" (a return type of
# pointer-to-function type puts the name after "(*").
AUX = re.compile(r'^/\* (?P<file>[^:]+):(?P<line>\d+):(?P<kind>[NO][CF]) \*/ (?P<decl>.*)$')
NAME = re.compile(r'(?<!\w)([A-Za-z_]\w*) \((?!\*)')


LAYER = re.compile(r'^ \* Layer: (\w+)', re.M)


def header_layer(path):
    m = LAYER.search(open(path, encoding='utf-8', errors='replace').read())
    return m.group(1) if m else None


def declared_functions(roots, incs, cc, workdir, layers=None):
    root = os.path.realpath(roots[0])
    headers = []
    for r in roots:
        for d, _, files in os.walk(r):
            headers += [os.path.relpath(os.path.join(d, f), r)
                        for f in files if f.endswith('.h')]
    # With layers: only the declarations of those layers' headers count
    # (all headers are still compiled, as a user's program includes them).
    kept = None
    if layers is not None:
        kept = {os.path.realpath(os.path.join(r, h)) for r in roots for h in headers
                if os.path.exists(os.path.join(r, h)) and
                header_layer(os.path.join(r, h)) in layers}
    tu = os.path.join(workdir, 'all_headers.c')
    with open(tu, 'w') as f:
        f.writelines(f'#include <{h}>\n' for h in sorted(headers))
    decls = {}
    for opt in ('-O0', '-O2'):
        aux = os.path.join(workdir, f'aux{opt}.txt')
        cmd = [cc, '-std=gnu11', opt, '-fsyntax-only', '-aux-info', aux]
        cmd += [f'-I{i}' for i in roots + incs] + [tu]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit(f'{" ".join(cmd)} failed:\n{r.stderr}')
        for line in open(aux):
            m = AUX.match(line)
            if not m or m['kind'][1] != 'C':
                continue
            path = os.path.realpath(m['file'])
            if not any(path.startswith(os.path.realpath(r) + os.sep) for r in roots):
                continue		# a system header
            if kept is not None and path not in kept:
                continue		# another layer's header
            decl = m['decl']
            if re.search(r'\bstatic\b', decl):
                continue
            n = NAME.search(decl)
            if not n:
                sys.exit(f'cannot find the name in: {line.strip()}')
            rel = os.path.relpath(path, root) if path.startswith(root) else path
            decls.setdefault(n.group(1), f'{rel}:{m["line"]}')
    return decls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--lib', required=True)
    ap.add_argument('--map', required=True)
    ap.add_argument('--kmod-lib')
    ap.add_argument('--layers')
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--plant', choices=['unlisted', 'leak', 'undeclared'])
    a = ap.parse_args()

    listed = map_symbols(a.map)
    exported = defined_dynamic(a.lib)
    if a.plant == 'unlisted':
        listed.discard('page_pool_create')
    if a.plant == 'leak':
        exported.add('page_pool_list')
    errors = []

    # (a)
    for s in sorted(exported - listed):
        errors.append(f'{a.lib}: exports {s}, which {a.map} does not list')
    for s in sorted(listed - exported):
        errors.append(f'{a.map}: lists {s}, which {a.lib} does not export')
    for s in sorted((exported | listed)):
        if INTERNAL.search(s):
            errors.append(f'{s}: a library-internal name is exported or listed')

    # (b)
    with tempfile.TemporaryDirectory() as tmp:
        roots = [a.include[0]]
        if a.plant == 'undeclared':
            os.makedirs(os.path.join(tmp, 'planted/pagepool'))
            with open(os.path.join(tmp, 'planted/pagepool/planted.h'), 'w') as f:
                f.write('int pp_planted_nowhere_defined(void);\n')
            roots.append(os.path.join(tmp, 'planted'))
        layers = set(a.layers.split(',')) if a.layers else None
        decls = declared_functions(roots, a.include[1:], a.cc, tmp, layers)
    kmod = defined_static(a.kmod_lib) if a.kmod_lib else set()
    def order(kv):
        f, _, n = kv[1].rpartition(':')
        return (f, int(n))
    for name, where in sorted(decls.items(), key=order):
        if name in USER_DEFINED:
            continue
        if name in kmod:
            if name in exported:
                errors.append(f'{where}: {name} is defined by both {a.kmod_lib} and {a.lib}')
            continue
        if name not in exported:
            errors.append(f'{where}: {name} is declared but {a.lib} does not export it')

    for e in errors:
        print(e)
    if a.plant:
        # The self-test passes when the checks fail on the planted error,
        # and on nothing else.
        planted = {'unlisted': 'page_pool_create', 'leak': 'page_pool_list',
                   'undeclared': 'pp_planted_nowhere_defined'}[a.plant]
        caught = errors and all(planted in e for e in errors)
        print(f'planted {a.plant} ({planted}): '
              f'{"caught" if caught else "NOT caught, or other errors"}')
        return 0 if caught else 1
    print(f'{len(exported)} exported, {len(listed)} listed, '
          f'{len(decls)} functions declared by the headers: '
          f'{"OK" if not errors else f"{len(errors)} errors"}')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
