# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""ppbench.parse on lines recorded from the benchmark programs."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ppbench import BenchError  # noqa: E402
from ppbench.parse import parse_output, rates  # noqa: E402

# bench_page_pool_cross_cpu, ring ptr_ring, 2 returning threads.
CROSS = """\
bench_page_pool_cross_cpu: Loaded
time_bench: Type:page_pool_cross_cpu CPU(1) 227 cycles(tsc) 113.779 ns (step:2) - (measurement period time:0.002275593 sec time_interval:2275593) - (invoke count:20000 tsc_interval:4550968)
time_bench: Type:page_pool_cross_cpu CPU(1) 212 cycles(tsc) 106.369 ns (step:2) - (measurement period time:0.002127387 sec time_interval:2127387) - (invoke count:20000 tsc_interval:4253536)
time_bench: Type:page_pool_cross_cpu CPU(0) 107 cycles(tsc) 53.934 ns (step:2) - (measurement period time:0.002157478 sec time_interval:2157478) - (invoke count:40002 tsc_interval:4313904)
time_bench: Sum Type:page_pool_cross_cpu Average: 182 cycles(tsc) CPUs:3 step:2
Type:page_pool_cross_cpu pages/sec: 17577835 (returned:40000 in 0.002275593 sec, returning_cpus:2 ring:ptr_ring oversubscribed:yes)
page_pool_cross_cpu: alloc fast:229826 slow:31 refill:675 empty:31 - recycle cached:190274
"""
CROSS_PROG = dict(name="bench_page_pool_cross_cpu", design="ptr_ring", ring="ptr_ring",
                  returners=2, expect=[])

ELEM = ("time_bench: Type:tasklet_page_pool02_ptr_ring Per elem: 18 cycles(tsc) 9.394 ns "
        "(step:0) - (measurement period time:0.000187887 sec time_interval:187887) - "
        "(invoke count:20000 tsc_interval:375614)")
# The ns decimal with 4 digits (invoke count not a multiple of 1000).
ELEM4 = ("time_bench: Type:xdp_return_frame-direct Per elem: 16 cycles(tsc) 8.1234 ns "
         "(step:0) - (measurement period time:0.000166338 sec time_interval:166338) - "
         "(invoke count:20480 tsc_interval:332412)")
SELFTEST = "\n".join(
    f"time_bench: Type:no-softirq-page_pool0{i} Per elem: {c} cycles(tsc) 5.198 ns (step:0) - "
    f"(measurement period time:0.000103975 sec time_interval:103975) - "
    f"(invoke count:20000 tsc_interval:207282)" for i, c in ((1, 10), (2, 17), (3, 92)))


def prog(name="bench_page_pool_simple", design="lanes", expect=()):
    return dict(name=name, design=design, expect=list(expect))


class ParseTest(unittest.TestCase):
    def test_elem_figures_from_the_intervals(self):
        p = parse_output(prog(expect=["tasklet_page_pool02_ptr_ring"]), 0, "cmd", ELEM + "\n")
        (s,) = p.samples
        self.assertEqual(s["kind"], "elem")
        self.assertEqual(s["test"], "tasklet_page_pool02_ptr_ring")
        self.assertEqual((s["invoke"], s["tsc_interval"], s["time_interval"], s["step"]),
                         (20000, 375614, 187887, 0))
        # Fractional, not the line's truncated 18 cycles / 9.394 ns.
        self.assertAlmostEqual(s["cycles"], 18.7807)
        self.assertAlmostEqual(s["ns"], 9.39435)

    def test_four_digit_ns_decimal(self):
        p = parse_output(prog("bench_xdp_return", "id"), 0, "cmd", ELEM4)
        self.assertAlmostEqual(p.samples[0]["cycles"], 332412 / 20480)

    def test_cross_cpu_roles_rate_and_sum(self):
        p = parse_output(CROSS_PROG, 2, "cmd", CROSS)
        cpu = [s for s in p.samples if s["kind"] == "cpu"]
        self.assertEqual([s["role"] for s in cpu], ["returner", "returner", "rx"])
        self.assertEqual([s["cpu"] for s in cpu], [1, 1, 0])
        self.assertEqual(cpu[2]["invoke"], 40002)
        self.assertTrue(all(s["rep"] == 2 and s["returners"] == 2 for s in p.samples))
        (rate,) = [s for s in p.samples if s["kind"] == "rate"]
        self.assertEqual((rate["rate"], rate["invoke"], rate["time_interval"]),
                         (17577835, 40000, 2275593))
        self.assertEqual(rates(CROSS), [17577835])

    def test_cross_cpu_wrong_ring(self):
        with self.assertRaisesRegex(BenchError, "ran with ring:ptr_ring, not lanes"):
            parse_output(dict(CROSS_PROG, design="lanes", ring="lanes"), 0, "cmd", CROSS)

    def test_missing_sum_line(self):
        text = "\n".join(l for l in CROSS.splitlines() if "Sum" not in l)
        with self.assertRaisesRegex(BenchError, "no result for page_pool_cross_cpu:sum"):
            parse_output(CROSS_PROG, 0, "cmd", text)

    def test_missing_test(self):
        with self.assertRaisesRegex(BenchError, "no result for lock from"):
            parse_output(prog(expect=["tasklet_page_pool02_ptr_ring", "lock"]), 0, "cmd", ELEM)

    def test_claimed_result_must_parse(self):
        with self.assertRaisesRegex(BenchError, "unparsable result line"):
            parse_output(prog(), 0, "cmd", ELEM.replace("(step:0)", "(step:x)"))

    def test_machine_facts(self):
        text = ("bench_page_alloc: TSC 2000012345 Hz (time_bench_tsc_hz)\n"
                "bench_peers: Loaded (DPDK 22.11.11, EAL on lcore 0)\n")
        p = parse_output(prog("bench_page_alloc", "-"), 0, "cmd", text)
        self.assertEqual((p.tsc_hz, p.dpdk_version), (2000012345, "DPDK 22.11.11"))
        # The TSC rate is bench_page_alloc's to give.
        self.assertIsNone(parse_output(prog("bench_page_pool_simple"), 0, "cmd", text).tsc_hz)

    def test_selftest_regex(self):
        p = parse_output(prog(), 0, "cmd", SELFTEST)
        self.assertEqual(p.selftest, {"no-softirq-page_pool01", "no-softirq-page_pool02",
                                      "no-softirq-page_pool03"})
        self.assertIsNone(parse_output(prog("bench_page_alloc", "-"), 0, "cmd", SELFTEST).selftest)


if __name__ == "__main__":
    unittest.main()
