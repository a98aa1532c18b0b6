# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""One benchmark program's output -> records.

Owns the line formats: time_bench's (bench/time_bench.c) per-element,
per-CPU and sum lines, the cross-CPU programs' rate line, the lines that
give the TSC rate and the DPDK version, and the kernel selftest's regex.
parse_output() is pure: a program description, the round, the command
line and the output in; a Parsed out, or BenchError when a line claims to
be a result and does not parse, a test the program must print is missing,
or the program ran another ring design than it was asked for.

A program description (prog) may name the ring design it was asked for
(key "ring"): its rate line and its "designs: ring" line must then say
that design.

A record is a dict: kind (elem, cpu, rate; pps and pps_run for
bench_xdp_redirect's median and each of its repetitions), program, design, rep,
returners, test, cpu, role (rx / returner for cpu records), step, invoke,
tsc_interval, time_interval, and cycles = tsc_interval / invoke,
ns = time_interval / invoke (fractional: the line's own integer figures
are truncated), rate (pages, objects or packets per second). A
bench_xdp_redirect record's design is the DMA backend of its line (iommu,
direct), its step the repetition (pps_run), its invoke the packets
forwarded, and "info" the line's key:value words.
"""
import re

from . import BenchError
from .catalog import BARE_VARIANTS

# time_bench's lines, byte for byte. The ns "decimal" is printed with %03llu
# but computed as remainder / (invoke count / 1000), so it can have 4
# digits when the count is not a multiple of 1000 (the kernel's arithmetic
# too); the figures here come from the intervals anyway.
_TAIL = (r"(\d+) cycles\(tsc\) (\d+)\.(\d{3,}) ns \(step:(-?\d+)\) - "
         r"\(measurement period time:(\d+)\.(\d{9}) sec time_interval:(\d+)\) - "
         r"\(invoke count:(\d+) tsc_interval:(\d+)\)")
RE_ELEM = re.compile(r"^time_bench: Type:(\S+) Per elem: " + _TAIL + r"$")
RE_CPU = re.compile(r"^time_bench: Type:(\S+) CPU\((\d+)\) " + _TAIL + r"$")
RE_SUM = re.compile(r"^time_bench: Sum Type:(\S+) Average: (\d+) cycles\(tsc\) "
                    r"CPUs:(\d+) step:(-?\d+)$")
# The cross-CPU programs' own line.
RE_RATE = re.compile(r"^(?:time_bench: )?Type:(\S+) (pages|objects)/sec: (\d+) "
                     r"\(returned:(\d+) in (\d+\.\d{9}) sec, returning_cpus:(\d+) "
                     r"ring:(\S+?)(?: oversubscribed:(yes|no))?\)$")
# bench_xdp_redirect's line: one per scenario and DMA backend, the median
# of the program's own repetitions, each repetition's figure, the packets
# forwarded and the seconds over all repetitions, then what the scenario
# was (key:value words).
RE_XDPR = re.compile(r"^Type:(xdp_redirect_\w+)-(\w+) Mpps: (\d+\.\d+) \(median of (\d+): "
                     r"(\d+\.\d+(?: \d+\.\d+)*); forwarded:(\d+) in (\d+\.\d{9}) sec, "
                     r"([^()]*)\)$")
# Anything that claims to be a result line must parse.
RE_CLAIM = re.compile(r"^(time_bench: )?(Sum )?Type:")
# The kernel selftest's regex (tools/testing/selftests/net/bench/test_bench_page_pool.sh).
RE_SELFTEST = re.compile(r"no-softirq-page_pool0[123] Per elem: ([0-9]+) cycles\(tsc\) "
                         r"([0-9]+\.[0-9]+) ns")
# The ring design a program's pools get (bench_page_pool_simple's and
# bench_xdp_return's set-up line).
RE_RING = re.compile(r"^bench_\w+: designs: ring (\w+)")
RE_TSC = re.compile(r"TSC (\d+) Hz")
RE_DPDK = re.compile(r"bench_peers: Loaded \((DPDK [^,]+),")


class Parsed:
    """What one program's output gave: its records, and what it said about
    the machine (None where it said nothing)."""

    def __init__(self):
        self.samples = []
        self.tsc_hz = None
        self.dpdk_version = None
        self.selftest = None    # bench_page_pool_simple: the tests the selftest regex matched


def _timed(base, kind, m, at, **extra):
    """A record from a per-element or per-CPU line; @at: the group of the
    line's tail in @m."""
    inv, tsc, tint = int(m.group(at + 7)), int(m.group(at + 8)), int(m.group(at + 6))
    return dict(base, kind=kind, test=m.group(1), step=int(m.group(at + 3)), invoke=inv,
                tsc_interval=tsc, time_interval=tint, cycles=tsc / inv, ns=tint / inv,
                rate=None, **extra)


def expected(prog):
    """The tests @prog must print a result for (":sum" a sum line, ":rate"
    a rate line)."""
    expect = list(prog["expect"])
    if prog["name"] == "bench_page_pool_cross_cpu":
        expect += ["page_pool_cross_cpu:sum", "page_pool_cross_cpu:rate"]
    if prog["name"] == "bench_peers":
        expect += ["dpdk_mempool_cross_cpu:sum", "dpdk_mempool_cross_cpu:rate"]
    if prog["name"] == "bench_cross_cpu_bare":
        expect += [f"bare_cross_cpu_{v}:{k}" for v in BARE_VARIANTS for k in ("sum", "rate")]
    if prog.get("ring") and prog["name"] in ("bench_page_pool_simple", "bench_xdp_return"):
        expect += ["designs:ring"]
    return expect


def parse_output(prog, rep, cmd, out):
    res = Parsed()
    seen = set()
    cpu_recs = {}      # the per-CPU records of each concurrent test
    ring = prog.get("ring")
    base = dict(program=prog["name"], design=prog["design"], rep=rep,
                returners=prog.get("returners", ""))
    for line in out.splitlines():
        line = line.rstrip()
        m = RE_ELEM.match(line)
        if m:
            res.samples.append(_timed(base, "elem", m, 2, cpu="", role=""))
            seen.add(m.group(1))
            continue
        m = RE_CPU.match(line)
        if m:
            rec = _timed(base, "cpu", m, 3, cpu=int(m.group(2)), role="")
            res.samples.append(rec)
            cpu_recs.setdefault(rec["test"], []).append(rec)
            continue
        m = RE_SUM.match(line)
        if m:
            seen.add(m.group(1) + ":sum")
            continue
        m = RE_RATE.match(line)
        if m:
            if ring and m.group(7) != ring:
                raise BenchError(f"{cmd} ran with ring:{m.group(7)}, not {ring}")
            res.samples.append(dict(base, kind="rate", test=m.group(1), cpu="", role="",
                                    step="", invoke=int(m.group(4)), tsc_interval="",
                                    time_interval=round(float(m.group(5)) * 1e9),
                                    cycles=None, ns=None, rate=int(m.group(3))))
            seen.add(m.group(1) + ":rate")
            continue
        m = RE_XDPR.match(line)
        if m:
            runs = [float(x) * 1e6 for x in m.group(5).split()]
            if len(runs) != int(m.group(4)):
                raise BenchError(f"{cmd}: {m.group(4)} repetitions announced, "
                                 f"{len(runs)} given:\n  {line}")
            info = dict(w.split(":", 1) for w in m.group(8).split() if ":" in w)
            xb = dict(base, design=m.group(2), test=m.group(1), cpu="", role="",
                      tsc_interval="", cycles=None, ns=None, info=info)
            res.samples.append(dict(xb, kind="pps", step="", invoke=int(m.group(6)),
                                    time_interval=round(float(m.group(7)) * 1e9),
                                    rate=float(m.group(3)) * 1e6))
            for i, r in enumerate(runs):
                res.samples.append(dict(xb, kind="pps_run", step=i, invoke="",
                                        time_interval="", rate=r))
            seen.add(f"{m.group(1)}-{m.group(2)}:pps")
            continue
        if RE_CLAIM.match(line):
            raise BenchError(f"unparsable result line from {cmd}:\n  {line}")
        m = RE_RING.match(line)
        if m:
            if ring and m.group(1) != ring:
                raise BenchError(f"{cmd} ran with ring {m.group(1)}, not {ring}")
            seen.add("designs:ring")
        m = RE_TSC.search(line)
        if m and prog["name"] == "bench_page_alloc":
            res.tsc_hz = int(m.group(1))
        m = RE_DPDK.search(line)
        if m:
            res.dpdk_version = m.group(1)
    # Per-CPU lines come in thread order, per test: the returning threads,
    # then the RX / producing thread.
    for recs in cpu_recs.values():
        for i, rec in enumerate(recs):
            rec["role"] = "rx" if i == len(recs) - 1 else "returner"
    missing = [t for t in expected(prog) if t not in seen]
    if missing:
        raise BenchError(f"no result for {', '.join(missing)} from {cmd}")
    if prog["name"] == "bench_page_pool_simple":
        res.selftest = {m.group(0).split(" ")[0] for m in RE_SELFTEST.finditer(out)}
    return res


def rates(out):
    """The pages/objects per second of every rate line of an output."""
    return [int(m.group(3)) for m in (RE_RATE.match(line) for line in out.splitlines()) if m]
