# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Which designs a build directory has compiled in, from its
include/generated/autoconf.h, and the ring designs' enum values, from the
source tree's include/pagepool/core.h (enum pp_ring_mode: the programs'
ring= values).

The ring designs the suite measures are the build's: every
CONFIG_PAGEPOOL_RING_<NAME> it defines (an all-designs build defines one
per design it compiled in), in the enum's order; a design added to the
library shows up here with no change to the suite.

A build configured with -Ddesigns=all (CONFIG_PAGEPOOL_ALL_DESIGNS) has
every design of every axis and picks one at run time: the suite's same-run
A/B rows (lanes vs ptr_ring, the XDP return paths direct vs lookup) need
such a build. A default build has one design per axis (CONFIG_PAGEPOOL_RING_LANES
or _PTR_RING, ...): the suite runs what it has and skips the rest, saying
so. A tree older than the build-time designs defines none of these symbols
and has every design; so does a build directory whose header cannot be
read (the programs then say for themselves what they lack).
"""
import os
import re

ALL_DESIGNS = "CONFIG_PAGEPOOL_ALL_DESIGNS"
# A symbol of one design of one axis: a build that defines none has every
# design (it predates the choice).
_DESIGN_SYMBOL = re.compile(r"CONFIG_PAGEPOOL_(RING|DMA_TRACK|XDP_RETURN|XDP_TABLE)_\w+")
_DEFINE = re.compile(r"^\s*#\s*define\s+(CONFIG_\w+)", re.M)


_RING_SYMBOL = re.compile(r"CONFIG_PAGEPOOL_RING_(\w+)")
_RING_ENUM = re.compile(r"enum\s+pp_ring_mode\s*\{(.*?)\}", re.S)
_RING_VALUE = re.compile(r"\bPP_RING_(\w+)\b")
CORE_H = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "include", "pagepool", "core.h")


def parse_ring_enum(text):
    """The ring designs' names in enum pp_ring_mode order (the index is the
    value), from <pagepool/core.h>; [] if it has no such enum."""
    m = _RING_ENUM.search(text)
    if not m:
        return []
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    return [v.lower() for v in _RING_VALUE.findall(body) if not v.startswith("_")]


def ring_enum(path=CORE_H):
    try:
        with open(path) as f:
            return parse_ring_enum(f.read())
    except OSError:
        return []


def header_path(build):
    return os.path.join(build, "include", "generated", "autoconf.h")


def parse_config(text):
    """The CONFIG_ symbols an autoconf.h defines."""
    return set(_DEFINE.findall(text))


class BuildConfig:
    """The configuration symbols of a build; has() answers for a design's
    symbols."""

    def __init__(self, symbols, path=None):
        self.symbols = symbols      # None: unknown, everything assumed
        self.path = path

    @classmethod
    def read(cls, build):
        path = header_path(build)
        try:
            with open(path) as f:
                return cls(parse_config(f.read()), path)
        except OSError:
            return cls(None, path)

    @property
    def all_designs(self):
        """Every design compiled in, chosen at run time."""
        s = self.symbols
        return s is None or ALL_DESIGNS in s or not any(_DESIGN_SYMBOL.fullmatch(x) for x in s)

    def has(self, *needs):
        return self.all_designs or all(n in self.symbols for n in needs)

    def ring_designs(self, enum):
        """(name, ring= value or None) of each ring design the build has:
        its CONFIG_PAGEPOOL_RING_<NAME> symbols in @enum's order, then any
        the enum does not name (run through PAGEPOOL_RING alone). A header
        that cannot be read, or one of a tree that predates the symbols:
        every design of @enum (the programs say for themselves, with exit
        status 77, which they lack)."""
        names = [m.group(1).lower() for m in map(_RING_SYMBOL.fullmatch, self.symbols or ())
                 if m and m.group(1) != "DEFAULT"]
        if not names:
            return [(d, i) for i, d in enumerate(enum)]
        known = [(d, i) for i, d in enumerate(enum) if d in names]
        return known + [(d, None) for d in sorted(names) if d not in enum]
