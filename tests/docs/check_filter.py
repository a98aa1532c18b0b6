#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""tools/kerneldoc-filter.py on tests/docs/sample/kerneldoc_sample.h, which
has every kernel-doc form the filter translates.

(1) The filter's output: every line on its line, and the doxygen markup
    expected for each form (name line, parameters, sections, references,
    escapes; DOC: a plain comment).
(2) With --doxygen: doxygen with docs/Doxyfile over the sample reports no
    warning, and the HTML says what the comments say: the summaries, the
    parameters, the Context: paragraph, the struct's members, and the
    escaped characters as text.
One line per failed expectation; the exit status is their number (0: all
held).

Usage: check_filter.py [--doxygen]
Layer: tests.
"""
import html
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, 'tests/docs/sample/kerneldoc_sample.h')

spec = importlib.util.spec_from_file_location(
    'kerneldoc_filter', os.path.join(ROOT, 'tools/kerneldoc-filter.py'))
kdoc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kdoc)

# (line of the sample, text the filtered line must contain)
FILTERED = [
    ('* DOC: Sample', None),		# None: the block is a plain comment
    ('* struct sample_pool - ', '@brief a pool of samples'),
    ('* @count: ', '@li @c count: how many are in it'),
    ('* @name: what', r'what \<linux/mm.h\> calls it'),
    ('* @SAMPLE_SLOW: ', r'@li @c SAMPLE_SLOW: the slow way, 50\% of the time'),
    ('* typedef sample_fn - ', '@brief a callback over samples'),
    ('* SAMPLE_MAX - ', '@brief the most samples a pool holds'),
    ('* SAMPLE_COUNT() - ', '@brief the samples in a pool'),
    ('* @p: the pool', '@param p the pool'),
    ('* sample_take() - ', '@brief take samples from a struct sample_pool'),
    ('* @pool: the pool; %NULL', '@param pool the pool; @c NULL is -EINVAL'),
    ('* @mode: ', '@param mode enum sample_mode'),
    ('* @...: ', r'@param ... printf arguments, \# of them \$free, a \\ and a \& alone'),
    ('* Takes @nr samples', 'Takes @p nr samples from @p pool'),
    ('* sample@example.org', r'sample\@example.org'),
    ('* Context: any context.', '@ppcontext any context.'),
    ('* Note: a note.', '@note a note.'),
    ('* Return: the samples', '@return the samples taken, or -EINVAL.'),
]

# Text the HTML must show (tags removed, entities decoded, spaces joined).
HTML = [
    'take samples from a struct sample_pool',
    'pool the pool; NULL is -EINVAL',
    'Context: any context.',
    'Note a note.',
    'Returns the samples taken, or -EINVAL.',
    'count: how many are in it',
    'name: what <linux/mm.h> calls it',
    'the slow way, 50% of the time',
    'printf arguments, # of them $free, a \\ and a & alone',
    'Mail sample@example.org.',
    'give samples back',
    'Context: process context.',
]


def check_filtered(fails):
    with open(SAMPLE, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out = kdoc.filter_text(lines, 'kerneldoc_sample.h')
    if len(out) != len(lines):
        fails.append(f'filter: {len(lines)} lines in, {len(out)} out')
        return
    for key, want in FILTERED:
        idx = [i for i, l in enumerate(lines) if key in l]
        if not idx:
            fails.append(f'sample: no line with {key!r}')
            continue
        i = idx[0]
        if want is None:
            if out[i - 1].strip() != '/*' or out[i] != lines[i]:
                fails.append(f'filter: line {i}: want a plain comment, got {out[i - 1]!r}')
        elif want not in out[i]:
            fails.append(f'filter: line {i + 1}: want {want!r}, got {out[i]!r}')


def check_doxygen(fails):
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PP_SRCDIR=ROOT, PP_APIDIR=os.path.join(tmp, 'api'),
                   PP_INPUT=os.path.dirname(SAMPLE))
        os.makedirs(env['PP_APIDIR'])
        r = subprocess.run(['doxygen', os.path.join(ROOT, 'docs/Doxyfile')], env=env,
                           capture_output=True, text=True)
        for line in (r.stdout + r.stderr).splitlines():
            if line.strip():
                fails.append(f'doxygen: {line.strip()}')
        # The file's page, and the struct's (its comment goes there).
        text = ''
        for name in ('kerneldoc__sample_8h.html', 'structsample__pool.html'):
            page = os.path.join(env['PP_APIDIR'], name)
            if not os.path.exists(page):
                fails.append(f'doxygen: no {name}')
                return
            text += open(page, encoding='utf-8').read()
    text = html.unescape(re.sub(r'<[^>]+>', ' ', text))
    text = re.sub(r'\s+', ' ', text)
    for want in HTML:
        if re.sub(r'\s+', ' ', want) not in text:
            fails.append(f'html: no {want!r}')


def main():
    fails = []
    check_filtered(fails)
    if '--doxygen' in sys.argv[1:]:
        check_doxygen(fails)
    for f in fails:
        print(f)
    print(f'check_filter: {len(FILTERED)} filtered lines'
          f'{", " + str(len(HTML)) + " HTML texts" if "--doxygen" in sys.argv else ""}: '
          f'{"OK" if not fails else f"{len(fails)} failed"}')
    return min(len(fails), 100)


if __name__ == '__main__':
    sys.exit(main())
