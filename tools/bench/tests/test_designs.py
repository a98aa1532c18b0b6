# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The ring designs of a build, the bare topology's output, the design table
and the targets' verdicts (ppbench.buildcfg, parse, runner, stats, report,
verdicts), on recorded lines and made-up records."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ppbench import BenchError  # noqa: E402
from ppbench.buildcfg import BuildConfig, parse_config, parse_ring_enum, ring_enum  # noqa: E402
from ppbench.catalog import BARE_VARIANTS  # noqa: E402
from ppbench.parse import parse_output  # noqa: E402
from ppbench.report import design_table_markdown, design_table_text  # noqa: E402
from ppbench.runner import NotInBuild, Runner, prog_from_cmd  # noqa: E402
from ppbench.stats import DESIGN_COLUMNS, Results, design_table  # noqa: E402
from ppbench.verdicts import judge  # noqa: E402

ENUM = ["lanes", "ptr_ring", "llist", "llist_batch", "magazine"]

# bench_cross_cpu_bare, recorded (loops=20000): B's CPU line, A's, the Sum
# line and the rate line of each variant.
_BARE_VARIANT = """\
time_bench: Type:bare_cross_cpu_{v} CPU(1) 24 cycles(tsc) 12.169 ns (step:0) - (measurement period time:0.000243389 sec time_interval:243389) - (invoke count:20000 tsc_interval:{b_tsc})
time_bench: Type:bare_cross_cpu_{v} CPU(0) 23 cycles(tsc) 11.887 ns (step:0) - (measurement period time:0.000237761 sec time_interval:237761) - (invoke count:20001 tsc_interval:474320)
time_bench: Sum Type:bare_cross_cpu_{v} Average: 23 cycles(tsc) CPUs:2 step:0
Type:bare_cross_cpu_{v} pages/sec: {rate} (returned:20000 in 0.000243389 sec, returning_cpus:1 ring:{v} oversubscribed:no)
bare_cross_cpu_{v}: A queue_full:6228 refill_empty:0 - B empty_polls:0
"""
BARE = ("bench_cross_cpu_bare: Loaded\n"
        "bench_cross_cpu_bare: A on host CPU 0, B on host CPU 1; loops:20000, 4096 objects, "
        "queue 1024 slots, refill 64\n"
        + "".join(_BARE_VARIANT.format(v=v, b_tsc=486006 + i, rate=82172982 - i)
                  for i, v in enumerate(BARE_VARIANTS)))
BARE_PROG = dict(name="bench_cross_cpu_bare", design="-", expect=[])

CROSS_LINE = ("Type:page_pool_cross_cpu pages/sec: 24780000 (returned:20000 in 0.000807102 sec, "
              "returning_cpus:1 ring:llist_batch oversubscribed:no)")
XDP_RING = ("bench_xdp_return: Loaded\n"
            "bench_xdp_return: designs: ring magazine\n"
            "time_bench: Type:xdp_return_frame_bulk-direct Per elem: 21 cycles(tsc) 10.1014 ns "
            "(step:16) - (measurement period time:0.000225095 sec time_interval:225095) - "
            "(invoke count:20480 tsc_interval:450188)\n")


def rec(test, value, design="-", rep=0, kind="elem", returners="", role="", program="bench_x"):
    rate = value if kind == "rate" else None
    cycles = None if kind == "rate" else value
    return dict(kind=kind, program=program, design=design, rep=rep, returners=returners,
                test=test, cpu="", role=role, step=0, invoke=1, tsc_interval=value,
                time_interval=value, cycles=cycles, ns=cycles / 2 if cycles else None,
                rate=rate)


def results(samples, designs=("lanes", "ptr_ring"), ncpus=2, tsc_hz=2_000_000_000):
    r = Results("full", 3, True, 0, 1, ncpus)
    r.samples = samples
    r.ring_designs = list(designs)
    r.tsc_hz = tsc_hz
    return r


class BuildDesignsTest(unittest.TestCase):
    def test_ring_enum_of_the_tree(self):
        # The programs' ring= values: enum pp_ring_mode of this tree.
        self.assertEqual(ring_enum()[:2], ["lanes", "ptr_ring"])
        self.assertEqual(parse_ring_enum(
            "enum pp_ring_mode {\n\tPP_RING_LANES,\n\t/* PP_RING_OLD, */ PP_RING_PTR_RING,\n"
            "\tPP_RING_LLIST,\n\t__PP_RING_NR,\n};\nenum other { PP_RING_NOT_THIS };"),
            ["lanes", "ptr_ring", "llist"])
        self.assertEqual(parse_ring_enum("int x;"), [])

    def test_ring_designs_are_the_builds(self):
        hdr = ("#define CONFIG_PAGEPOOL_ALL_DESIGNS 1\n#define CONFIG_PAGEPOOL_RING_MAGAZINE 1\n"
               "#define CONFIG_PAGEPOOL_RING_LANES 1\n#define CONFIG_PAGEPOOL_RING_DEFAULT 0\n")
        cfg = BuildConfig(parse_config(hdr))
        # In the enum's order, with its values; an all-designs build has
        # only the designs it defines.
        self.assertEqual(cfg.ring_designs(ENUM), [("lanes", 0), ("magazine", 4)])
        # One the enum does not name runs without ring=.
        cfg = BuildConfig(parse_config(hdr + "#define CONFIG_PAGEPOOL_RING_NEWONE 1\n"))
        self.assertEqual(cfg.ring_designs(ENUM)[-1], ("newone", None))
        # Nothing known: every design (the programs say what they lack).
        self.assertEqual(BuildConfig(None).ring_designs(ENUM), list(zip(ENUM, range(5))))

    def test_choose_designs(self):
        r = Runner.__new__(Runner)
        r.res, r.build = results([], designs=()), "b"
        r.choose_designs(BuildConfig(parse_config(
            "#define CONFIG_PAGEPOOL_ALL_DESIGNS 1\n#define CONFIG_PAGEPOOL_RING_PTR_RING 1\n"
            "#define CONFIG_PAGEPOOL_RING_LANES 1\n")))
        self.assertEqual(r.res.ring_designs, ["lanes", "ptr_ring"])
        self.assertEqual(r.ring_index, {"lanes": 0, "ptr_ring": 1})
        if len(ring_enum()) > 2:
            self.assertIn("ring design llist", r.res.skipped[0])

    def test_exit_77_drops_the_design(self):
        r = Runner.__new__(Runner)
        r.res = results([rec("lock", 1, "llist"), rec("lock", 2, "lanes")],
                        designs=("lanes", "llist"))
        progs = [dict(name="a", ring="lanes"), dict(name="a", ring="llist"),
                 dict(name="b", ring="llist"), dict(name="c")]
        with open(os.devnull, "w") as null:
            saved, sys.stdout = sys.stdout, null
            try:
                r.drop_design(progs, progs[1], "not in this build")
            finally:
                sys.stdout = saved
        self.assertEqual(progs, [dict(name="a", ring="lanes"), dict(name="c")])
        self.assertEqual(r.res.ring_designs, ["lanes"])
        self.assertEqual([s["design"] for s in r.res.samples], ["lanes"])
        # A program with no ring design to drop has failed.
        with self.assertRaisesRegex(BenchError, "exit status 77"):
            r.drop_design(progs, progs[1], "?")

    def test_exit_77_in_a_round(self):
        # The first program of a design the build lacks drops the design:
        # its other programs do not run, in this round or the next.
        r = Runner.__new__(Runner)
        r.res = results([], designs=("lanes", "llist"))
        r.res.mode, r.short, r.reps, r.verbose, r.raw_outputs = "short", True, 2, False, []
        progs = [dict(name=n, design=d, ring=d, expect=[]) for n in ("a", "b")
                 for d in ("lanes", "llist")]
        ran = []

        def run_one(p):
            ran.append((p["name"], p["ring"]))
            if p["ring"] == "llist":
                raise NotInBuild("not in this build")
            return "cmd", ""
        r.programs, r.run_one = lambda: progs, run_one
        with open(os.devnull, "w") as null:
            saved, sys.stdout = sys.stdout, null
            try:
                r.run()
            finally:
                sys.stdout = saved
        self.assertEqual(ran, [("a", "lanes"), ("a", "llist"), ("b", "lanes"),
                               ("a", "lanes"), ("b", "lanes")])
        self.assertEqual(r.res.ring_designs, ["lanes"])
        self.assertEqual(len(r.res.skipped), 1)

    def test_replayed_command_lines(self):
        p = prog_from_cmd("PAGEPOOL_RING=magazine b/bench/bench_xdp_return loops=20480 gens=1 "
                          "cpu=0 ring=4")
        self.assertEqual((p["design"], p["ring"]), ("magazine", "magazine"))
        self.assertEqual(p["expect"][0], "xdp_return_frame_rx_napi-direct")
        self.assertFalse([t for t in p["expect"] if "lookup" in t])
        p = prog_from_cmd("b/bench/bench_xdp_return loops=20480 table=1 cpu=0")
        self.assertEqual(p["design"], "lfht")
        self.assertNotIn("ring", p)


class ParseDesignsTest(unittest.TestCase):
    def test_bare_topology(self):
        p = parse_output(BARE_PROG, 1, "cmd", BARE)
        rates = [s for s in p.samples if s["kind"] == "rate"]
        self.assertEqual([s["test"] for s in rates],
                         [f"bare_cross_cpu_{v}" for v in BARE_VARIANTS])
        self.assertEqual(rates[2]["rate"], 82172980)
        cpu = [s for s in p.samples if s["kind"] == "cpu"]
        # B's line then A's, per variant: the roles are per test.
        self.assertEqual([s["role"] for s in cpu], ["returner", "rx"] * len(BARE_VARIANTS))
        self.assertEqual(cpu[2]["tsc_interval"], 486007)

    def test_bare_missing_variant(self):
        text = "\n".join(l for l in BARE.splitlines() if "batch64_touch pages/sec" not in l)
        with self.assertRaisesRegex(BenchError, "no result for bare_cross_cpu_batch64_touch:rate"):
            parse_output(BARE_PROG, 0, "cmd", text)

    def test_ring_names_checked(self):
        prog = dict(name="bench_xdp_return", design="magazine", ring="magazine",
                    expect=["xdp_return_frame_bulk-direct"])
        p = parse_output(prog, 0, "cmd", XDP_RING)
        self.assertEqual(p.samples[0]["design"], "magazine")
        with self.assertRaisesRegex(BenchError, "ran with ring magazine, not llist"):
            parse_output(dict(prog, design="llist", ring="llist"), 0, "cmd", XDP_RING)
        with self.assertRaisesRegex(BenchError, "no result for designs:ring"):
            parse_output(prog, 0, "cmd", XDP_RING.replace("designs: ring magazine", ""))
        cross = dict(name="bench_page_pool_cross_cpu", design="llist_batch",
                     ring="llist_batch", returners=1, expect=[])
        text = "time_bench: Sum Type:page_pool_cross_cpu Average: 1 cycles(tsc) CPUs:2 step:0\n"
        (s,) = parse_output(cross, 0, "cmd", text + CROSS_LINE).samples
        self.assertEqual(s["rate"], 24780000)
        with self.assertRaisesRegex(BenchError, "ran with ring:llist_batch, not llist"):
            parse_output(dict(cross, ring="llist"), 0, "cmd", text + CROSS_LINE)


def table_results(ncpus=2):
    s = []
    for d, fast, put, slow, x1, x2, bulk in (("lanes", 3.0, 9.0, 40.0, 50e6, 20e6, 12.0),
                                             ("ptr_ring", 4.0, 19.0, 60.0, 2e6, 1e6, 20.0)):
        for rep in range(3):
            s.append(rec("tasklet_page_pool01_fast_path", fast + rep, d, rep))
            s.append(rec("tasklet_page_pool02_ptr_ring", put, d, rep))
            s.append(rec("tasklet_page_pool03_slow", slow, d, rep))
            s.append(rec("page_pool_cross_cpu", x1 * (rep + 1), d, rep, "rate", 1))
            s.append(rec("page_pool_cross_cpu", x2, d, rep, "rate", 2))
            s.append(rec("xdp_return_frame_bulk-direct", bulk, d, rep))
    for rep, dr in enumerate((40e6, 10e6, 38e6)):
        s.append(rec("dpdk_mempool_cross_cpu", dr, rep=rep, kind="rate"))
        s.append(rec("dpdk_mempool_cache256_get_put", 12.0, rep=rep))
        s.append(rec("dpdk_mempool_cache256_bulk1", 8.0, rep=rep))
        s.append(rec("bare_cross_cpu_batch64", 80e6, rep=rep, kind="rate"))
    return results(s, ncpus=ncpus)


class DesignTableTest(unittest.TestCase):
    def test_rows_medians_and_dpdk(self):
        dt = design_table(table_results())
        rows = {r["design"]: r for r in dt["rows"]}
        self.assertEqual([r["design"] for r in dt["rows"]], ["lanes", "ptr_ring", "DPDK mempool"])
        lanes = rows["lanes"]
        self.assertEqual((lanes["fast"], lanes["put_refill"], lanes["slow"]), (4.0, 9.0, 40.0))
        self.assertEqual((lanes["x1_rate"], lanes["x2_rate"], lanes["xdp_bulk"]),
                         (100e6, 20e6, 12.0))
        self.assertAlmostEqual(lanes["x1_wall"], 20.0)       # 2 GHz / 100 M pages/s
        # Ratios to DPDK: its faster one-object form (8), its cross-CPU median (38 M).
        self.assertAlmostEqual(lanes["fast_ratio"], 4.0 / 8.0)
        self.assertAlmostEqual(lanes["x1_ratio"], 100e6 / 38e6)
        dpdk = rows["DPDK mempool"]
        self.assertEqual((dpdk["fast"], dpdk["x1_rate"], dpdk["put_refill"], dpdk["x2_rate"]),
                         (8.0, 38e6, None, None))
        notes = "\n".join(dt["notes"])
        self.assertIn("dpdk_mempool_cache256_bulk1", notes)
        self.assertIn("per round (bimodal): 40.0, 10.0, 38.0 M objects/s", notes)
        self.assertIn("bare limit", notes)
        self.assertIn("batch64 80.0 M/s (25.0 wall cycles)", notes)
        self.assertIn("oversubscribed", notes)
        self.assertNotIn("oversubscribed", "\n".join(design_table(table_results(4))["notes"]))

    def test_no_dpdk_no_last_row(self):
        r = table_results()
        r.samples = [s for s in r.samples if not s["test"].startswith("dpdk")]
        dt = design_table(r)
        self.assertEqual([x["design"] for x in dt["rows"]], ["lanes", "ptr_ring"])
        self.assertIsNone(dt["rows"][0]["fast_ratio"])

    def test_text_and_markdown(self):
        r = table_results()
        dt = design_table(r)
        md = design_table_markdown(r, dt).splitlines()
        ncols = len(DESIGN_COLUMNS) + 1
        self.assertEqual([l.count("|") for l in md[:5]], [ncols + 1] * 5)
        self.assertEqual(md[2].split(" | ")[:4], ["| lanes", "4.00", "9.00", "40.00"])
        self.assertIn("| 100.0 | 20.00 | 20.0 | 12.00 | 0.50x | 2.63x |", md[2])
        self.assertTrue(md[4].startswith("| DPDK mempool | 8.00 | - | - | 38.0 |"))
        self.assertIn("oversub.", md[0])
        text = design_table_text(r, dt).splitlines()
        self.assertEqual(text[1].split()[:4], ["design", "fast", "put+refill", "slow"])
        self.assertEqual(text[3].split()[:5], ["lanes", "4.00", "9.00", "40.00", "100.0"])


class TargetsTest(unittest.TestCase):
    def test_targets(self):
        v = {(d, what): ok for d, what, ok, _ in judge(table_results())}
        # Fast path: 3.5 cycles (lanes 4.0 misses) and 0.55 x DPDK's 8 = 4.4.
        self.assertFalse(v[("lanes", "tasklet_page_pool01_fast_path <= 3.5 TSC cycles")])
        self.assertTrue(v[("lanes", "tasklet_page_pool01_fast_path <= 0.55 x DPDK mempool "
                                    "cache-256 get+put of one object (faster form)")])
        # Put + refill: 10 cycles, the kernel's ptr_ring design 20.
        self.assertTrue(v[("lanes", "tasklet_page_pool02_ptr_ring <= 10 TSC cycles")])
        self.assertTrue(v[("ptr_ring", "tasklet_page_pool02_ptr_ring <= 20 TSC cycles")])
        self.assertNotIn(("ptr_ring", "tasklet_page_pool02_ptr_ring <= 10 TSC cycles"), v)
        self.assertTrue(v[("lanes", "tasklet_page_pool03_slow <= 50 TSC cycles")])
        self.assertFalse(v[("ptr_ring", "tasklet_page_pool03_slow <= 50 TSC cycles")])
        # Cross-CPU: 100 M pages/s (lanes' median is 100 M) and 2 x DPDK (76 M).
        self.assertTrue(v[("lanes", "cross-CPU, 1 returning thread: >= 100 M pages/s")])
        self.assertTrue(v[("lanes", "cross-CPU, 1 returning thread: pages/s >= 2 x DPDK "
                                    "topology objects/s")])
        self.assertFalse(v[("ptr_ring", "cross-CPU, 1 returning thread: >= 100 M pages/s")])


if __name__ == "__main__":
    unittest.main()
