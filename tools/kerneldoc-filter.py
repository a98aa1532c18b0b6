#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Doxygen INPUT_FILTER: kernel-doc comments to doxygen markup.

Doxygen runs it as "kerneldoc-filter.py FILE" and reads FILE's text from
its standard output. Every line stays on its line (doxygen's warnings
and its "Definition at line N" name the header's real lines); only the
text inside kernel-doc blocks changes:

  /**                                   /**
   * name() - summary                    * @brief summary
   * @arg: what it is                    * @param arg what it is
   *                                     *
   * Body, naming @arg, %CONST and       * Body, naming @p arg, @c CONST and
   * &struct page_pool.                  * struct page_pool.
   * Context: any context.               * @ppcontext any context.
   * Return: 0 or -EINVAL.               * @return 0 or -EINVAL.
   */                                    */

"struct|union|enum NAME - summary" blocks list their "@member:" lines as
items; "typedef NAME - " and "NAME - " (an object-like macro) read like
a function's. A "DOC:" block and any "/**" block that is not kernel-doc
become plain comments, which doxygen skips (tools/check-apidocs.py
reports the latter). Characters doxygen would read as markup in the
prose (\\ < > # $ & % @) are escaped, so "<linux/mm.h>" and "50%" stay
text. The header's opening comment becomes the file's description
(doxygen lists a file's functions only when the file is documented;
filter_text() says when it is a group instead).
@ppcontext is an alias (docs/Doxyfile) for a "Context:" paragraph.

parse_blocks() is also what tools/check-apidocs.py reads the headers with.
Layer: tools.
"""
import os
import re
import sys

HEAD_AGGR = re.compile(r'^(?P<kind>struct|union|enum)\s+(?P<name>\w+)\s*-\s*(?P<summary>.*)$')
HEAD_TYPEDEF = re.compile(r'^typedef\s+(?P<name>\w+)\s*-\s*(?P<summary>.*)$')
HEAD_FUNC = re.compile(r'^(?P<name>\w+)\s*\(\)\s*-\s*(?P<summary>.*)$')
HEAD_OBJ = re.compile(r'^(?P<name>\w+)\s*-\s*(?P<summary>.*)$')
HEAD_DOC = re.compile(r'^DOC:\s*(?P<summary>.*)$')
PARAM = re.compile(r'^@(?P<name>\w+|\.\.\.)\s*:\s*(?P<text>.*)$')
SECTION = re.compile(r'^(?P<sec>Context|Returns?|Note|Notes|Warning|Example|Locking)\s*:\s*(?P<text>.*)$')
SECTION_CMD = {'Context': '@ppcontext', 'Return': '@return', 'Returns': '@return',
               'Note': '@note', 'Notes': '@note', 'Warning': '@warning',
               'Example': '@ppexample', 'Locking': '@pplocking'}

PROSE = re.compile(r'(?P<amp>&(?P<kw>(?:struct|union|enum|typedef)\s+)?(?P<aname>[A-Za-z_]\w*))'
                   r'|(?P<const>%(?P<cname>[A-Za-z_]\w*))'
                   r'|(?P<ref>(?<![\w.])@(?P<rname>[A-Za-z_]\w*|\.\.\.))'
                   r'|(?P<special>[\\<>#$&%@])')


def prose(text):
    """Kernel-doc prose as doxygen text: references and escapes."""
    def sub(m):
        if m['amp']:
            return (m['kw'] or '') + m['aname']
        if m['const']:
            return '@c ' + m['cname']
        if m['ref']:
            return '...' if m['rname'] == '...' else '@p ' + m['rname']
        return '\\' + m['special']
    return PROSE.sub(sub, text)


class Block:
    """One /** ... */ comment: its lines (0-based first..last), kind and name."""

    def __init__(self, first, last, lines):
        self.first, self.last, self.lines = first, last, lines
        self.kind = self.name = self.summary = None
        self.params = []		# (name, line index) of @name: lines
        self.sections = set()
        self.head = None		# index of the name line in lines

    def content(self, i):
        """Line i of the block without the comment's framing, and the framing."""
        line = self.lines[i]
        if i == 0:
            m = re.match(r'^(\s*/\*\*)(.*)$', line)
        else:
            m = re.match(r'^(\s*\*(?!/)\s?)(.*)$', line) or re.match(r'^(\s*)(.*)$', line)
        pre, rest = m.group(1), m.group(2)
        post = ''
        k = rest.find('*/')
        if k >= 0:
            rest, post = rest[:k], rest[k:]
        return pre, rest, post


def parse_block(first, last, lines):
    b = Block(first, last, lines)
    for i in range(len(lines)):
        _, text, _ = b.content(i)
        text = text.strip()
        if not text:
            continue
        if b.head is None:
            b.head = i
            for kind, pat in (('aggregate', HEAD_AGGR), ('typedef', HEAD_TYPEDEF),
                              ('function', HEAD_FUNC), ('doc', HEAD_DOC),
                              ('object', HEAD_OBJ)):
                m = pat.match(text)
                if m:
                    b.kind = kind
                    b.name = m.groupdict().get('name')
                    b.summary = m['summary'].strip()
                    if kind == 'aggregate':
                        b.kind = m['kind']
                    break
            else:
                b.kind = 'none'
            continue
        m = PARAM.match(text)
        if m:
            b.params.append((m['name'], i))
            continue
        m = SECTION.match(text)
        if m:
            b.sections.add('Return' if m['sec'] == 'Returns' else m['sec'])
    if b.head is None:
        b.kind = 'none'
    return b


def parse_blocks(lines):
    """Every /** block of a file (lines without their newlines)."""
    blocks = []
    i = 0
    while i < len(lines):
        if re.match(r'^\s*/\*\*(?![*/])', lines[i]):
            j = i
            while '*/' not in lines[j][lines[j].index('/**') + 3 if j == i else 0:]:
                j += 1
                if j == len(lines):
                    return blocks	# unterminated: the compiler says so
            blocks.append(parse_block(i, j, lines[i:j + 1]))
            i = j + 1
        else:
            i += 1
    return blocks


def convert(b):
    """The block's lines in doxygen markup, as many as it had."""
    out = []
    plain = b.kind in ('none', 'doc')
    aggregate = b.kind in ('struct', 'union', 'enum')
    for i, line in enumerate(b.lines):
        pre, text, post = b.content(i)
        if plain:
            if i == 0:
                pre = pre.replace('/**', '/* ')
            out.append(pre + text + post)
            continue
        body = text.strip()
        if i == b.head:
            m = re.match(r'^\s*', text)
            conv = m.group(0) + '@brief ' + prose(b.summary) + ' '
        elif not body:
            conv = text
        elif PARAM.match(body):
            m = PARAM.match(body)
            if aggregate:
                conv = '@li @c ' + m['name'] + ': ' + prose(m['text'])
            else:
                conv = '@param ' + m['name'] + ' ' + prose(m['text'])
        elif SECTION.match(body):
            m = SECTION.match(body)
            conv = SECTION_CMD[m['sec']] + ' ' + prose(m['text'])
        else:
            conv = prose(text)
        out.append(pre + conv + post)
    return out


def file_comment(lines):
    """The header's opening comment, after the SPDX line: (first, last)
    line, or None."""
    i = 0
    while i < len(lines) and i < 5 and 'SPDX-License-Identifier' not in lines[i]:
        i += 1
    i += 1
    if i >= len(lines) or not re.match(r'^/\*(?![*])\s*$', lines[i]):
        return None
    for j in range(i + 1, len(lines)):
        if '*/' in lines[j]:
            return i, j
    return None


def filter_text(lines, name, group=None):
    """The file in doxygen markup. The opening comment becomes the file's
    description: "@file NAME", or with @p group set, a group of that name
    around the whole file (doxygen 1.9 refuses "@file" in a header whose
    base name another input shares, whatever path it is given:
    linux/bpf.h and uapi/linux/bpf.h)."""
    out = list(lines)
    for b in parse_blocks(lines):
        out[b.first:b.last + 1] = convert(b)
    head = f'@defgroup {group} {name}' if group else f'@file {name}'
    fc = file_comment(lines)
    if fc:
        first, last = fc
        out[first] = '/** ' + head
        for j in range(first + 1, last + 1):
            m = re.match(r'^(\s*\*(?!/)\s?)(.*)$', lines[j])
            if m:
                text, post = m.group(2), ''
                k = text.find('*/')
                if k >= 0:
                    text, post = text[:k], text[k:]
                out[j] = m.group(1) + prose(text) + post
        if group:
            out[last] += ' /** @{ */'
    else:
        out[0] += ' /** ' + head + (' @{ */' if group else ' */')
    if group:
        last = max((i for i, l in enumerate(out) if l.strip()), default=0)
        out[last] += ' /** @} */'
    return out


def shared_basename(path):
    """Does another header under $PP_INPUT have @p path's base name?"""
    base = os.path.basename(path)
    n = 0
    for root in os.environ.get('PP_INPUT', '').split():
        for _, _, files in os.walk(root):
            n += base in files
    return n > 1


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: kerneldoc-filter.py FILE')
    with open(sys.argv[1], encoding='utf-8') as f:
        lines = f.read().split('\n')
    path = os.path.abspath(sys.argv[1])
    name = path.replace(os.sep, '/').rsplit('/include/', 1)[-1]
    group = None
    if shared_basename(path):
        group = 'hdr_' + re.sub(r'\W', '_', name)
    sys.stdout.write('\n'.join(filter_text(lines, name, group)))


if __name__ == '__main__':
    main()
