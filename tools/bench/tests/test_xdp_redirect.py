# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""bench_xdp_redirect's lines through ppbench: the parser, the table rows,
the ratios paired within a round, the verdicts, the CSV, the runner's
command line and expected lines, and a replay of a saved run."""
import csv
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ppbench import BenchError  # noqa: E402
from ppbench.catalog import XDPR_SCENARIOS, xdpr_expect  # noqa: E402
from ppbench.parse import parse_output  # noqa: E402
from ppbench.report import table, write_csv  # noqa: E402
from ppbench.runner import replay  # noqa: E402
from ppbench.stats import Results, design_table, summarize  # noqa: E402
from ppbench.verdicts import judge  # noqa: E402

PROG = dict(name="bench_xdp_redirect", design="-", expect=[])


def line(key, dma, runs, fwd=1000000, sec="0.100000000", info="flows:1 txc:same_cpu"):
    med = sorted(runs)[len(runs) // 2]
    return (f"Type:xdp_redirect_{key}-{dma} Mpps: {med:.3f} (median of {len(runs)}: "
            + " ".join(f"{r:.3f}" for r in runs) + f"; forwarded:{fwd} in {sec} sec, {info})")


# Rates per round (M packets/s), the same on both backends but the IOMMU
# backend's alloc, which maps per packet.
ROUNDS = [
    {"alloc": 4.0, "pool_norecycle": 3.0, "pool": 8.0, "pool_lookup": 7.0, "pool_xcpu": 7.0,
     "pool_xcpu_lookup": 6.9, "alloc_2flows": 5.0, "pool_2flows": 15.0},
    {"alloc": 5.0, "pool_norecycle": 3.5, "pool": 9.0, "pool_lookup": 8.0, "pool_xcpu": 9.0,
     "pool_xcpu_lookup": 8.0, "alloc_2flows": 6.0, "pool_2flows": 14.0},
    {"alloc": 6.0, "pool_norecycle": 4.0, "pool": 10.0, "pool_lookup": 9.0, "pool_xcpu": 7.5,
     "pool_xcpu_lookup": 7.4, "alloc_2flows": 6.0, "pool_2flows": 19.0},
]


def output(rnd, dmas=("iommu", "direct")):
    out = ["bench_xdp_redirect: Loaded (TSC 2000000000 Hz)",
           "xdp_redirect: end state xdp_redirect_alloc-iommu rep 1: ok (lost pages 0, ...)"]
    for key, *_ in XDPR_SCENARIOS:
        for d in dmas:
            v = rnd[key] * (0.5 if key == "alloc" and d == "iommu" else 1)
            out.append(line(key, d, [v * 0.99, v, v * 1.01]))
    out.append("xdp_redirect:   (a) alloc  2.00  4.00  6")
    return "\n".join(out) + "\n"


def results(rounds=ROUNDS):
    r = Results("full", len(rounds), True, 0, 1, 2)
    prog = dict(PROG, expect=xdpr_expect(True))
    for i, rnd in enumerate(rounds):
        r.add(prog, i, parse_output(prog, i, "cmd", output(rnd)))
    return r


class ParseTest(unittest.TestCase):
    def test_line(self):
        p = parse_output(PROG, 2, "cmd", line("pool_xcpu", "iommu", [9.5, 10.25, 11.0],
                                              fwd=3075000, sec="0.300000123",
                                              info="flows:1 txc:other_cpu return:direct"))
        med, *runs = p.samples
        self.assertEqual((med["kind"], med["test"], med["design"], med["rep"]),
                         ("pps", "xdp_redirect_pool_xcpu", "iommu", 2))
        self.assertEqual(med["rate"], 10.25e6)
        self.assertEqual((med["invoke"], med["time_interval"]), (3075000, 300000123))
        self.assertEqual(med["info"], {"flows": "1", "txc": "other_cpu", "return": "direct"})
        self.assertEqual([(s["kind"], s["step"], s["rate"]) for s in runs],
                         [("pps_run", 0, 9.5e6), ("pps_run", 1, 10.25e6),
                          ("pps_run", 2, 11e6)])

    def test_host_line(self):
        # The rate without the device model's time: its own design, and a
        # row of its own beside the backend's.
        out = (line("pool", "iommu", [2.0, 2.1, 2.2]) + "\n"
               + line("pool", "iommu_host", [3.0, 3.1, 3.2], info="device_share:0.380") + "\n")
        r = Results("full", 1, True, 0, 1, 2)
        r.add(PROG, 0, parse_output(PROG, 0, "cmd", out))
        self.assertEqual(r.xdpr("pool", "iommu_host")["median"], 3.1e6)
        rows = [x for x in summarize(r) if x["test"].startswith("xdp_redirect_pool (c)")]
        self.assertEqual(sorted(x["design"] for x in rows), ["iommu", "iommu_host"])

    def test_bad_lines(self):
        # A line that claims to be a result and does not parse, or that
        # gives fewer repetitions than it announces, fails the suite.
        bad = line("pool", "iommu", [1.0]).replace("Mpps: ", "Mpps ")
        with self.assertRaisesRegex(BenchError, "unparsable"):
            parse_output(PROG, 0, "cmd", bad)
        with self.assertRaisesRegex(BenchError, "2 repetitions announced"):
            parse_output(PROG, 0, "cmd", line("pool", "iommu", [1.0]).replace(
                "median of 1", "median of 2"))

    def test_expected_lines(self):
        # Every scenario on both backends; the lookup ones only where the
        # build has both generations.
        self.assertEqual(len(xdpr_expect(True)), 16)
        self.assertNotIn("xdp_redirect_pool_lookup-iommu:pps", xdpr_expect(False))
        prog = dict(PROG, expect=xdpr_expect(True))
        out = output(ROUNDS[0]).replace("Type:xdp_redirect_pool_2flows-direct", "#")
        with self.assertRaisesRegex(BenchError, "xdp_redirect_pool_2flows-direct:pps"):
            parse_output(prog, 0, "cmd", out)
        parse_output(dict(PROG, expect=xdpr_expect(False)), 0, "cmd",
                     "\n".join(x for x in output(ROUNDS[0]).splitlines()
                               if "_lookup-" not in x))


class FiguresTest(unittest.TestCase):
    def test_rows(self):
        rows = [r for r in summarize(results()) if r["group"] == "xdp_redirect"]
        self.assertEqual(len(rows), 16)
        pool = next(r for r in rows if r["test"] == "xdp_redirect_pool (c)"
                    and r["design"] == "iommu")
        # The median of the rounds' medians, beside the 2018 figure.
        self.assertEqual((pool["median"], pool["min"], pool["max"], pool["n"]),
                         (9e6, 8e6, 10e6, 3))
        self.assertEqual((pool["ref"], pool["ratio"]), (10e6, 0.9))
        b = next(r for r in rows if r["test"].startswith("xdp_redirect_pool_norecycle"))
        self.assertIsNone(b["ref"])

    def test_ratios_paired_within_a_round(self):
        r = results()
        # pool_xcpu / pool per round: 7/8, 9/9, 7.5/10 -> median 0.875;
        # the ratio of the medians (7.5 / 9) would be another figure.
        st = r.xdpr_ratio("pool_xcpu", "pool", "direct")
        self.assertAlmostEqual(st["median"], 0.875)
        self.assertAlmostEqual(st["min"], 0.75)
        # The IOMMU backend's alloc is half: (c) / (a) per round 4, 3.6, 3.33.
        self.assertAlmostEqual(r.xdpr_ratio("pool", "alloc", "iommu")["median"], 3.6)

    def test_verdicts(self):
        v = {(d, what): (ok, detail) for d, what, ok, detail in judge(results())}
        ca = "xdp_redirect page_pool (c) vs no page_pool (a): pool >= 1.6 x alloc"
        self.assertTrue(v[("iommu", ca)][0])
        # On the direct backend the (c) / (a) target is reported only.
        self.assertIsNone(v[("direct", ca + " (reported, judged on iommu)")][0])
        dc = "xdp_redirect TX completion cross-CPU (d) vs same CPU (c): pool_xcpu >= 0.8 x pool"
        self.assertTrue(v[("direct", dc)][0])
        self.assertIn("ratio 0.88 [0.75-1.00]", v[("direct", dc)][1])
        two = "xdp_redirect page_pool two flows vs one (e): pool_2flows >= 1.8 x pool"
        self.assertTrue(v[("iommu", two)][0])      # 15/8, 14/9, 19/10 -> 1.875
        za = ("xdp_redirect page allocator two flows vs one (e; its zone lock): "
              "alloc_2flows / alloc (reported, no target)")
        self.assertIsNone(v[("direct", za)][0])
        f = ("xdp_redirect direct __xdp_return() vs mem-id lookup, TX completion cross-CPU "
             "(f): pool_xcpu >= 1.05 x pool_xcpu_lookup")
        self.assertFalse(v[("iommu", f)][0])        # 7/6.9, 9/8, 7.5/7.4
        f = ("xdp_redirect direct __xdp_return() vs mem-id lookup, TX completion same CPU "
             "(f): pool >= 1.05 x pool_lookup")
        self.assertTrue(v[("iommu", f)][0])

    def test_no_lookup_no_verdict(self):
        r = Results("full", 1, True, 0, 1, 2)
        prog = dict(PROG, expect=xdpr_expect(False))
        out = "\n".join(x for x in output(ROUNDS[0]).splitlines() if "_lookup-" not in x)
        r.add(prog, 0, parse_output(prog, 0, "cmd", out))
        whats = [what for _, what, _, _ in judge(r)]
        self.assertFalse([w for w in whats if "lookup" in w])
        self.assertTrue([w for w in whats if "(c) vs no page_pool" in w])

    def test_table_and_csv(self):
        r = results()
        rows, accept = summarize(r), judge(r)
        text = table(r, rows, accept, design_table(r))
        self.assertIn("xdp_redirect_pool_xcpu (d) pkts/s", text)
        self.assertIn("12.00M", text)       # the 2018 figure of (d)
        self.assertIn("xdp_redirect: bench_xdp_redirect", text)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bench.csv")
            write_csv(path, r, rows, accept)
            with open(path) as f:
                got = list(csv.DictReader(f))
        kinds = {(x["kind"], x["test"]) for x in got}
        self.assertIn(("pps", "xdp_redirect_pool"), kinds)
        self.assertIn(("pps_run", "xdp_redirect_pool"), kinds)
        self.assertTrue([x for x in got if x["kind"] == "acceptance"
                         and x["test"].startswith("xdp_redirect")])

    def test_replay(self):
        with tempfile.TemporaryDirectory() as tmp:
            raw = os.path.join(tmp, "bench-raw.txt")
            with open(raw, "w") as f:
                for i, rnd in enumerate(ROUNDS):
                    f.write(f"### round {i + 1}: build/bench/bench_xdp_redirect reps=3 "
                            f"table=1\n{output(rnd)}\n")
            r = Results("replay", 0, False, 0, 1, 2)
            replay(raw, r)
        self.assertEqual(r.reps, 3)
        self.assertEqual(r.xdpr("pool", "iommu")["median"], 9e6)


if __name__ == "__main__":
    unittest.main()
