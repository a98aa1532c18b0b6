# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Running the benchmark programs of a build directory: their command
lines (loop counts, designs, pinning: the RX / pool owner thread on one
host CPU, the returning thread on another), a discarded warm-up round and
then the measured rounds, each running every program once in the same
order so ours and the peers see the same machine; bounding the cross-CPU
runs on a busy machine; skipping the designs the build lacks. Every
output goes to bench-raw.txt with its command line, and replay() reads
such a file back instead of running anything."""
import os
import re
import subprocess
import sys
import time

from . import BenchError
from .buildcfg import ALL_DESIGNS, BuildConfig, ring_enum
from .catalog import (ALLOC_TYPES, CROSS_MIN_LOOPS, CROSS_SECONDS, LOOPS, PEER_TYPES,
                      SIMPLE_TYPES, XDP_CONFIG, XDP_TABLES, xdp_expect, xdpr_expect)
from .parse import parse_output, rates


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def host_cpus():
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


def program_params(binary):
    """The key=value names a benchmark program takes: a bare argument makes
    bench_parse_params() print its usage (one "  name  help" line each) and
    exit 2 before any set-up."""
    try:
        r = subprocess.run([binary, "-h"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {m.group(1) for m in re.finditer(r"^  (\S+)\s", r.stderr, re.M)}


# A program's exit status for "this build does not have that design".
NOT_IN_BUILD = 77


class NotInBuild(Exception):
    """A program said (exit status 77) that the build lacks the design it
    was asked for."""


class Runner:
    def __init__(self, build, short, reps, verbose, results):
        self.build = build
        self.short = short
        self.reps = reps
        self.verbose = verbose
        self.res = results
        self.loops = LOOPS["short" if short else "full"]
        self.bindir = os.path.join(build, "bench")
        self.raw_outputs = []   # (program, design, rep, cmd, stdout)
        self.cfg = BuildConfig.read(build)
        self.choose_designs(self.cfg)

    def choose_designs(self, cfg):
        """The designs to measure: those the build has. The same-run A/B
        rows need an all-designs build; a default build gets its own
        design's rows, and the report says what was skipped."""
        res = self.res
        enum = ring_enum()
        self.ring_index = dict(cfg.ring_designs(enum))
        res.ring_designs = list(self.ring_index)
        res.xdp_designs = [d for d in XDP_TABLES if cfg.has(*XDP_CONFIG[d])]
        skipped = [f"ring design {d}" for d in enum if d not in res.ring_designs]
        skipped += [f"bench_xdp_return table {d} (direct vs lookup)" for d in XDP_TABLES
                    if d not in res.xdp_designs]
        if skipped and cfg.symbols is not None and ALL_DESIGNS in cfg.symbols:
            res.skipped = [f"{', '.join(skipped)}: not compiled into {self.build} "
                           "(its all-designs build has the designs of this tree)"]
        elif skipped:
            res.skipped = [f"{', '.join(skipped)}: the same-run A/B rows need an all-designs "
                           f"build ({self.build} is configured without "
                           f"CONFIG_PAGEPOOL_ALL_DESIGNS: meson configure {self.build} "
                           "-Ddesigns=all)"]

    def programs(self):
        L = self.loops
        b = self.bindir
        cpu = self.res.rx_cpu
        progs = []
        # The ring design: PAGEPOOL_RING sets the library's default; a
        # program with a ring= parameter sets it itself (and exits 77 when
        # the build lacks it), so pass that too where the design has an
        # enum value and the program takes the parameter.
        takes_ring = {p: "ring" in program_params(f"{b}/{p}")
                      for p in ("bench_page_pool_simple", "bench_page_pool_cross_cpu",
                                "bench_xdp_return")}

        def ring_prog(name, d, argv, **kw):
            idx = self.ring_index.get(d)
            ring = [f"ring={idx}"] if idx is not None and takes_ring[name] else []
            return dict(name=name, design=d, ring=d, argv=[f"{b}/{name}"] + argv + ring,
                        env={"PAGEPOOL_RING": d}, **kw)

        for d in self.res.ring_designs:
            progs.append(ring_prog("bench_page_pool_simple", d,
                                   [f"loops={L['simple']}", f"cpu={cpu}"],
                                   expect=SIMPLE_TYPES))
        for n in (1, 2):
            for d in self.res.ring_designs:
                progs.append(ring_prog("bench_page_pool_cross_cpu", d,
                                       [f"loops={L['cross']}", f"returning_cpus={n}",
                                        f"rx_cpu={cpu}"], returners=n, expect=[]))
        # The same topology with no page_pool: what bounds the figure.
        progs.append(dict(name="bench_cross_cpu_bare", design="-",
                          argv=[f"{b}/bench_cross_cpu_bare", f"loops={L['bare']}",
                                f"rx_cpu={cpu}"], env={}, expect=[]))
        progs.append(dict(name="bench_page_alloc", design="-",
                          argv=[f"{b}/bench_page_alloc", f"loops={L['alloc']}",
                                f"cpu={cpu}"], env={}, expect=ALLOC_TYPES))
        progs.append(dict(name="bench_peers", design="-",
                          argv=[f"{b}/bench_peers", f"loops={L['peers']}",
                                f"cross_loops={L['peers_cross']}", f"cpu={cpu}",
                                f"peer_cpu={self.res.ret_cpu}"], env={}, expect=PEER_TYPES))
        for d in self.res.xdp_designs:
            progs.append(dict(name="bench_xdp_return", design=d,
                              argv=[f"{b}/bench_xdp_return", f"loops={L['xdp']}",
                                    f"table={XDP_TABLES[d][0]}", f"cpu={cpu}"],
                              env={}, expect=xdp_expect(d)))
        # The XDP bulk return into each ring design: the direct generation
        # alone (the lookup generation's A/B is the runs above).
        if takes_ring["bench_xdp_return"]:
            for d in self.res.ring_designs:
                progs.append(ring_prog("bench_xdp_return", d,
                                       [f"loops={L['xdp_ring']}", "gens=1", f"cpu={cpu}"],
                                       expect=xdp_expect(d)))
        # XDP_REDIRECT through the simulated NIC pair: RX on host CPU
        # rx_cpu, the other logical CPU (cross-CPU TX completion, the
        # second flow) on ret_cpu. Its lookup scenarios need both
        # xdp_return generations; they read liburcu's rculfhash where the
        # build has it: a general-purpose RCU hash table, as the
        # rhashtable was whose lookup the 2019 page->pp series removed.
        both = self.cfg.has("CONFIG_PAGEPOOL_XDP_RETURN_DIRECT",
                            "CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP")
        table = 1 if self.cfg.has("CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH") else -1
        X = L["xdpr"]
        progs.append(dict(name="bench_xdp_redirect", design="-",
                          argv=[f"{b}/bench_xdp_redirect", f"reps={X['reps']}",
                                f"warmup_ms={X['warmup_ms']}", f"window_ms={X['window_ms']}",
                                f"table={table}", f"rx_cpu={cpu}",
                                # Timing as the 2018 kernel (no
                                # CONFIG_DMA_API_DEBUG); the short run
                                # (CI) keeps DMA-API debug on.
                                f"dma_debug={1 if self.short else 0}",
                                f"other_cpu={self.res.ret_cpu}"],
                          env={}, expect=xdpr_expect(both)))
        for p in progs:
            if not os.access(p["argv"][0], os.X_OK):
                hint = (" (libdpdk not found when the build directory was configured: "
                        "install libdpdk-dev and re-run meson setup --reconfigure)"
                        if p["name"] == "bench_peers" else "")
                raise BenchError(f"{p['argv'][0]} is missing{hint}")
        return progs

    def run_one(self, prog):
        env = dict(os.environ)
        env.update(prog["env"])
        timeout = 30 if self.short else 120
        cmd = " ".join(f"{k}={v}" for k, v in prog["env"].items())
        cmd = (cmd + " " if cmd else "") + " ".join(prog["argv"])
        try:
            r = subprocess.run(prog["argv"], env=env, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            raise BenchError(f"timed out after {timeout} s: {cmd}")
        if r.returncode == NOT_IN_BUILD:
            raise NotInBuild(f"{cmd}: {r.stderr.strip()}")
        if r.returncode != 0:
            sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
            raise BenchError(f"exit status {r.returncode}: {cmd}")
        if self.verbose:
            sys.stdout.write(f"--- {cmd}\n{r.stdout}")
        return cmd, r.stdout

    def run(self):
        res = self.res
        res.load.append(loadavg())
        try:
            if float(res.load[0]) > res.ncpus:
                print(f"pagepool bench: WARNING: load average {res.load[0]} on "
                      f"{res.ncpus} CPUs: other work competes with the benchmarks, "
                      "the figures will be inflated (cross-CPU ones most)", flush=True)
        except ValueError:
            pass
        for what in res.skipped:
            print(f"pagepool bench: not run: {what}", flush=True)
        progs = self.programs()
        warmup = 0 if self.short else 1
        total = warmup + self.reps
        for r in range(total):
            rep = r - warmup    # -1: the warm-up round, discarded
            t0 = time.monotonic()
            for p in list(progs):
                if p not in progs:      # its design was dropped in this round
                    continue
                try:
                    cmd, out = self.run_one(p)
                except NotInBuild as e:
                    self.drop_design(progs, p, e)
                    continue
                self.raw_outputs.append((p["name"], p["design"], rep, cmd, out))
                if rep >= 0:
                    res.add(p, rep, parse_output(p, rep, cmd, out))
            label = "warm-up round (discarded)" if rep < 0 else f"round {rep + 1}/{self.reps}"
            print(f"pagepool bench: {label}: {time.monotonic() - t0:.1f} s, load average "
                  f"{loadavg()}", flush=True)
            if rep < 0:
                self.fit_cross_loops(progs)
        res.load.append(loadavg())

    def drop_design(self, progs, prog, why):
        """A program said the build lacks its design (exit status 77):
        that design is not measured, by any program. Anything else that
        says so is a failure: the suite asked for what the build has."""
        d = prog.get("ring")
        if not d:
            raise BenchError(f"exit status {NOT_IN_BUILD} (not in this build): {why}")
        progs[:] = [p for p in progs if p.get("ring") != d]
        self.res.ring_designs = [x for x in self.res.ring_designs if x != d]
        self.res.samples = [s for s in self.res.samples if s["design"] != d]
        self.res.skipped.append(f"ring design {d}: {why}")
        print(f"pagepool bench: not run: ring design {d}: {why}", flush=True)

    def fit_cross_loops(self, progs):
        """Keep the suite's wall time bounded on a busy machine. The cross-CPU
        runs need both CPUs at once and slow down most (up to 100x) when
        other work competes: when one of the warm-up round's cross-CPU runs
        (2 returners: twice the pages) would take more than CROSS_SECONDS,
        every cross-CPU run, ours, DPDK's and the bare topology's alike so
        that they stay comparable, uses CROSS_MIN_LOOPS. Said in the
        output; the loop counts are in bench-raw.txt."""
        seen = [x for _, _, rep, _, out in self.raw_outputs if rep < 0 for x in rates(out)]
        default = self.loops["cross"]
        if not seen or min(seen) * CROSS_SECONDS >= 2 * default or default <= CROSS_MIN_LOOPS:
            return
        loops = CROSS_MIN_LOOPS
        print(f"pagepool bench: the machine is busy (slowest cross-CPU warm-up run: "
              f"{min(seen) / 1e6:.2f} M/s): cross-CPU runs use {loops} loops instead of "
              f"{default}", flush=True)
        for p in progs:
            if p["name"] in ("bench_page_pool_cross_cpu", "bench_cross_cpu_bare"):
                p["argv"] = [f"loops={loops}" if a.startswith("loops=") else a
                             for a in p["argv"]]
            elif p["name"] == "bench_peers":
                p["argv"] = [f"cross_loops={loops}" if a.startswith("cross_loops=") else a
                             for a in p["argv"]]

    def dump_raw(self, path):
        with open(path, "w") as f:
            if self.res.load:
                f.write(f"### load: {' '.join(self.res.load)}\n")
            for name, design, rep, cmd, out in self.raw_outputs:
                tag = "warm-up" if rep < 0 else f"round {rep + 1}"
                f.write(f"### {tag}: {cmd}\n{out}\n")


def prog_from_cmd(cmd):
    """The program description behind a command line of bench-raw.txt."""
    words = cmd.split()
    env = dict(w.split("=", 1) for w in words if "=" in w and "/" not in w
               and w.split("=", 1)[0].isupper())
    argv = [w for w in words if not ("=" in w and w.split("=", 1)[0].isupper())]
    name = os.path.basename(argv[0])
    params = dict(w.split("=", 1) for w in argv[1:] if "=" in w)
    expect = {"bench_page_pool_simple": SIMPLE_TYPES, "bench_page_alloc": ALLOC_TYPES,
              "bench_peers": PEER_TYPES}.get(name, [])
    prog = dict(name=name, design=env.get("PAGEPOOL_RING", "-"), argv=argv, env=env,
                expect=expect)
    if "PAGEPOOL_RING" in env:
        prog["ring"] = env["PAGEPOOL_RING"]
    if name == "bench_page_pool_cross_cpu":
        prog["returners"] = int(params.get("returning_cpus", 1))
    if name == "bench_xdp_return":
        # A ring design's run (PAGEPOOL_RING, direct generation alone), or
        # a lookup table's A/B.
        if "ring" not in prog:
            table = int(params.get("table", 0))
            prog["design"] = next(d for d, (t, _) in XDP_TABLES.items() if t == table)
        prog["expect"] = xdp_expect(prog["design"])
    return prog


def replay(path, res):
    """Parse a bench-raw.txt again (to re-render the table and chart) into
    @res: its measured rounds, its load figures, and the designs it ran."""
    with open(path) as f:
        text = f.read()
    chunks = re.split(r"^### (warm-up|round (\d+)): (.*)$", text, flags=re.M)
    reps = 0
    res.had_warmup = "### warm-up: " in text
    m = re.search(r"^### load: (.*)$", text, re.M)
    if m:
        res.load = m.group(1).split()
    res.mode = "replay"
    rings, tables = [], set()
    # re.split gives [pre, tag, round, cmd, body, tag, round, cmd, body, ...]
    for i in range(1, len(chunks) - 3, 4):
        tag, rnd, cmd, out = chunks[i:i + 4]
        if tag == "warm-up":
            continue
        rep = int(rnd) - 1
        reps = max(reps, rep + 1)
        prog = prog_from_cmd(cmd)
        if "ring" in prog:
            if prog["ring"] not in rings:
                rings.append(prog["ring"])
        elif prog["name"] == "bench_xdp_return":
            tables.add(prog["design"])
        res.add(prog, rep, parse_output(prog, rep, cmd, out))
    if not reps:
        raise BenchError(f"no measured rounds in {path}")
    res.reps = reps
    enum = ring_enum()
    res.ring_designs = sorted(rings, key=lambda d: enum.index(d) if d in enum else len(enum))
    res.xdp_designs = [d for d in XDP_TABLES if d in tables]
