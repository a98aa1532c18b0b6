# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""ppbench.stats, ppbench.verdicts and ppbench.buildcfg on made-up records."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ppbench.buildcfg import BuildConfig, parse_config  # noqa: E402
from ppbench.stats import Results, median, spread, summarize  # noqa: E402
from ppbench.verdicts import judge  # noqa: E402


def rec(test, cycles, design="-", rep=0, program="bench_x", kind="elem"):
    return dict(kind=kind, program=program, design=design, rep=rep, returners="", test=test,
                cpu="", role="", step=0, invoke=1, tsc_interval=cycles, time_interval=cycles,
                cycles=cycles, ns=cycles / 2, rate=None)


def results(samples):
    r = Results("full", 3, True, 0, 1, 2)
    r.samples = samples
    r.ring_designs = ["lanes", "ptr_ring"]
    return r


class StatsTest(unittest.TestCase):
    def test_median(self):
        self.assertEqual(median([5, 1, 3]), 3)
        self.assertEqual(median([4, 1, 3, 2]), 2.5)
        self.assertEqual(median([7.5]), 7.5)
        self.assertIsNone(median([]))

    def test_stat_selects_and_summarizes(self):
        r = results([rec("lock", c, "lanes", i) for i, c in enumerate((30, 10, 20))]
                    + [rec("lock", 99, "ptr_ring"), rec("rcu", 99, "lanes")])
        self.assertEqual(r.stat("lock", "lanes"), dict(median=20, min=10, max=30, n=3))
        self.assertIsNone(r.stat("lock", "-"))
        self.assertEqual(r.stat("lock", "lanes", field="ns")["median"], 10)

    def test_spread(self):
        self.assertEqual(spread(dict(min=10, max=30), None, dict(min=2, max=3)), 3)
        self.assertEqual(spread(None), 1)

    def test_xdp_ratio_paired_per_round(self):
        # Round 0: 10 / 20, round 1: 30 / 40, round 2: 6 / 24: the ratio is
        # the median of the rounds' ratios (0.5), not median / median
        # (10 / 24).
        s = []
        for rep, (d, lk) in enumerate(((10, 20), (30, 40), (6, 24))):
            s.append(rec("xdp_return_frame-direct", d, "lfht", rep, "bench_xdp_return"))
            s.append(rec("xdp_return_frame-lookup_rculfhash", lk, "lfht", rep,
                         "bench_xdp_return"))
        r = results(s)
        self.assertEqual(r.xdp_ratio("xdp_return_frame", "lfht"),
                         dict(median=0.5, min=0.25, max=0.75, n=3))
        (v,) = [v for v in judge(r) if v[1].startswith("xdp_return_frame direct")]
        self.assertEqual(v[:3], ("lfht", "xdp_return_frame direct <= 0.7 x lookup_rculfhash "
                                 "per frame", True))

    def test_fast_path_reference_is_the_faster_dpdk_form(self):
        r = results([rec("dpdk_mempool_cache256_get_put", 10),
                     rec("dpdk_mempool_cache256_bulk1", 8),
                     rec("tasklet_page_pool01_fast_path", 11, "lanes")])
        self.assertEqual(r.dpdk_fast(), (8, "dpdk_mempool_cache256_bulk1"))
        (row,) = [x for x in summarize(r) if x["test"] == "tasklet_page_pool01_fast_path"
                  and x["design"] == "lanes"]
        self.assertEqual((row["ref"], row["ratio"]), (8, 11 / 8))
        (v,) = [v for v in judge(r) if v[1].startswith("tasklet_page_pool01")
                and "DPDK" in v[1]]
        self.assertEqual((v[0], v[2]), ("lanes", False))    # 11 > 0.55 x 8


class BuildConfigTest(unittest.TestCase):
    def test_designs(self):
        hdr = "#pragma once\n#define CONFIG_PAGE_POOL 1\n#  define CONFIG_PAGEPOOL_RING_LANES 1\n"
        default = BuildConfig(parse_config(hdr))
        self.assertFalse(default.all_designs)
        self.assertTrue(default.has("CONFIG_PAGEPOOL_RING_LANES"))
        self.assertFalse(default.has("CONFIG_PAGEPOOL_RING_PTR_RING"))
        every = BuildConfig(parse_config(hdr + "#define CONFIG_PAGEPOOL_ALL_DESIGNS 1\n"))
        self.assertTrue(every.has("CONFIG_PAGEPOOL_RING_PTR_RING"))
        # A tree without build-time designs has them all.
        self.assertTrue(BuildConfig(parse_config("#define CONFIG_PAGE_POOL 1\n")).all_designs)
        self.assertTrue(BuildConfig(None).all_designs)


if __name__ == "__main__":
    unittest.main()
