# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Which designs a build directory has compiled in, from its
include/generated/autoconf.h.

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
