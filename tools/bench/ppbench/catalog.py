# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""What the suite runs and what it compares against: the tests each program
must print, the designs under test and the build configuration symbols they
need, the loop counts, the kernel's published figures and the acceptance
targets. Data only."""

# The return ring's designs are the build's (buildcfg: its
# CONFIG_PAGEPOOL_RING_* symbols, in enum pp_ring_mode's order, which gives
# the programs' ring= value). The kernel's design has its own target.
KERNEL_RING = "ptr_ring"

# The kernel's published x86 figures, TSC cycles, as Jesper Brouer posted
# them with the kernel's page_pool benchmark module: Intel Xeon E5-1650 v4
# @ 3.60GHz, 6.13.0-rc6 net-next, loops=100M; AMD EPYC 9684X with
# spec_rstack_overflow=ibpb.
KERNEL_E5 = {
    "for_loop": 1, "atomic_inc": 17, "lock": 37,
    "no-softirq-page_pool01": 20, "no-softirq-page_pool02": 56, "no-softirq-page_pool03": 225,
    "tasklet_page_pool01_fast_path": 19, "tasklet_page_pool02_ptr_ring": 54,
    "tasklet_page_pool03_slow": 238,
}
KERNEL_EPYC = {
    "tasklet_page_pool01_fast_path": 14, "tasklet_page_pool02_ptr_ring": 31,
    "tasklet_page_pool03_slow": 95,
}

SIMPLE_TYPES = ["for_loop", "atomic_inc", "lock", "rcu",
                "no-softirq-page_pool01", "no-softirq-page_pool02", "no-softirq-page_pool03",
                "tasklet_page_pool01_fast_path", "tasklet_page_pool02_ptr_ring",
                "tasklet_page_pool03_slow", "tasklet_page_pool04_napi_aware"]
ALLOC_TYPES = ["page_alloc_pcp", "page_alloc_pcp_refill_drain", "page_alloc_zone_lock",
               "page_alloc_zone_lock_split_merge", "dma_map_unmap_direct",
               "dma_map_unmap_iommu", "dma_map_unmap_direct_debug",
               "dma_map_unmap_iommu_debug"]
PEER_TYPES = ["dpdk_mempool_cache256_get_put", "dpdk_mempool_cache256_bulk1",
              "dpdk_mempool_cache256_bulk32", "dpdk_mempool_nocache_bulk1",
              "dpdk_mempool_nocache_bulk32", "dpdk_ring_spsc_bulk1", "dpdk_ring_spsc_bulk32",
              "dpdk_ring_mpmc_bulk1", "dpdk_ring_mpmc_bulk32", "glibc_malloc_free_4k",
              "glibc_malloc_free_4k_batch256"]

# bench_cross_cpu_bare: the cross-CPU topology with no page_pool, one row
# per return channel (its variants= bits, in order).
BARE_VARIANTS = ["spsc", "batch8", "batch64", "spsc_touch", "batch64_touch"]

# bench_xdp_return: its tests, and the id -> allocator table its lookup
# generation reads, as a design: "id" pagepool's id table (table=0), "lfht"
# liburcu's rculfhash (table=1), a general-purpose RCU hash table of the
# kind the kernel's rhashtable is - what the lookup generation read before
# the direct generation took the pool from the page.
XDP_TESTS = ["xdp_return_frame_rx_napi", "xdp_return_frame", "xdp_return_frame_bulk",
             "xdp_return_frame_bulk_2pools", "no-softirq-xdp_return_frame"]
XDP_TABLES = {"id": (0, "lookup"), "lfht": (1, "lookup_rculfhash")}
# The program compares the two XDP return paths within one run, so it needs
# both compiled in, and the table its lookup reads.
XDP_CONFIG = {"id": ("CONFIG_PAGEPOOL_XDP_RETURN_DIRECT", "CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP",
                     "CONFIG_PAGEPOOL_XDP_TABLE_ID"),
              "lfht": ("CONFIG_PAGEPOOL_XDP_RETURN_DIRECT", "CONFIG_PAGEPOOL_XDP_RETURN_LOOKUP",
                       "CONFIG_PAGEPOOL_XDP_TABLE_RCULFHASH")}
# The target, direct <= 0.7 x lookup per frame, applies to the returns
# whose per-frame lookup the direct path removed. The one-pool bulk is
# reported, not judged: the lookup generation's bulk API already looked the
# id up once per change of pool, not per frame, so both generations do the
# same work per frame there (docs/XDP.md).
XDP_TARGET = 0.7
XDP_JUDGED = ["xdp_return_frame_rx_napi", "xdp_return_frame", "no-softirq-xdp_return_frame",
              "xdp_return_frame_bulk_2pools"]


def xdp_expect(design):
    """The test names bench_xdp_return prints for a lookup table, or for a
    ring design (the direct generation alone, gens=1)."""
    if design not in XDP_TABLES:
        return [f"{t}-direct" for t in XDP_TESTS]
    lookup = XDP_TABLES[design][1]
    return [f"{t}-{g}" for t in XDP_TESTS for g in (lookup, "direct")]


# The design table's XDP column: the bulk return (xdp_return_frame_bulk +
# flush, one pool) of the direct generation, which puts a pool's frames
# into its ring with one bulk put per flush.
XDP_BULK_TEST = "xdp_return_frame_bulk-direct"


# Loop counts: full runs are sized so `make bench` stays well under 3 minutes
# on a 2-vCPU VM; short runs only prove that everything runs and parses.
# The cross-CPU runs use 200000 pages per returner (the module's default is
# 10^6): about 10 ms, short enough to usually run between the scheduler's
# interruptions on a shared machine, where both threads must run at once.
# bench_xdp_redirect runs for a time instead of a count: per scenario and
# backend a warm-up, then reps timed windows (16 of each per program run:
# about 2.5 s per repetition in a full run).
LOOPS = {
    "full": {"simple": 5_000_000, "alloc": 3_000_000, "cross": 200_000,
             "peers": 10_000_000, "peers_cross": 200_000, "xdp": 2_000_000,
             "xdp_ring": 1_000_000, "bare": 200_000,
             "xdpr": dict(reps=3, warmup_ms=20, window_ms=100)},
    "short": {"simple": 20_000, "alloc": 20_000, "cross": 20_000,
              "peers": 64_000, "peers_cross": 20_000, "xdp": 20_480,
              "xdp_ring": 20_480, "bare": 20_000,
              "xdpr": dict(reps=1, warmup_ms=5, window_ms=10)},
}

# The acceptance targets: the fast path at most FAST_PATH_CYCLES and at most
# FAST_PATH_FACTOR x DPDK's faster single-object mempool form; the
# non-direct put + refill (tasklet02) and the slow path in absolute
# cycles, the kernel's ptr_ring design with its own put + refill target;
# the cross-CPU return rate (1 returner) at least CROSS_RATE_TARGET pages/s
# and CROSS_DPDK_FACTOR x DPDK's mempool in the same topology.
FAST_PATH_CYCLES = 3.5
FAST_PATH_FACTOR = 0.55
PUT_REFILL_TEST = "tasklet_page_pool02_ptr_ring"
PUT_REFILL_TARGET = 10
PUT_REFILL_TARGET_KERNEL_RING = 20
SLOW_TEST = "tasklet_page_pool03_slow"
SLOW_TARGET = 50
CROSS_RATE_TARGET = 100e6
CROSS_DPDK_FACTOR = 2.0


def cycle_targets(design):
    """(test, target cycles) of a ring design's absolute cycle targets."""
    put = PUT_REFILL_TARGET_KERNEL_RING if design == KERNEL_RING else PUT_REFILL_TARGET
    return ((PUT_REFILL_TEST, put), (SLOW_TEST, SLOW_TARGET))

# Acceptance verdicts whose inputs spread more than this (max/min over the
# rounds) are flagged as noisy.
NOISY_SPREAD = 2.0

# Bounding the cross-CPU runs on a busy machine (Runner.fit_cross_loops).
CROSS_SECONDS = 1.0
CROSS_MIN_LOOPS = 100_000

# bench_xdp_redirect: the 2018 mlx5 page_pool conversion's XDP_REDIRECT
# test on two simulated NICs (drivers/simnic): RX on one, an XDP program
# that redirects every packet to the other through a devmap, the frames
# back to the RX page_pool from the second NIC's TX completion. Its
# figures are packets per second forwarded (TX completions), one line per
# scenario and DMA backend. XDPR_SCENARIOS, in the program's order (its
# scenarios= bits): (key, the scenario's letter in docs/BENCHMARKS.md,
# what it is, the 2018 series' figure in packets/s or None). The two-flow
# figures are the sum of both flows.
XDPR_DMA = ["iommu", "direct"]
XDPR_SCENARIOS = (
    ("alloc", "a", "no page_pool (page allocator + map per packet)", 6e6),
    ("pool_norecycle", "b", "page_pool, no recycling", None),
    ("pool", "c", "page_pool, TX completion on the RX CPU", 10e6),
    ("pool_lookup", "f", "(c) with the mem-id lookup xdp_return", None),
    ("pool_xcpu", "d", "page_pool, TX completion on the other CPU", 12e6),
    ("pool_xcpu_lookup", "f", "(d) with the mem-id lookup xdp_return", None),
    ("alloc_2flows", "e", "(a), two flows, one per CPU", 4e6),
    ("pool_2flows", "e", "(c), two flows, one per CPU", None),
)
# The scenarios that need both xdp_return generations compiled in.
XDPR_NEEDS_LOOKUP = ("pool_lookup", "pool_xcpu_lookup")
XDPR_LINE_RATE = 13e6       # the 2018 generator's line rate, packets/s
# The acceptance targets (reported, never asserted):
#   (c) >= 1.6 x (a), on the IOMMU backend (where mapping per packet costs
#       what it cost the 2018 driver);
#   (d) >= 0.8 x (c);
#   two flows with page_pool >= 1.8 x its one flow; the page allocator
#       path's two-flow / one-flow ratio beside it (its zone lock; the 2018
#       series: 4 Mpps on two flows against 6 on one);
#   (f) direct __xdp_return() >= 1.05 x the mem-id lookup (the 2019
#       page->pp series: +6.5 % packets per second end to end).
XDPR_TARGETS = (
    # (numerator, denominator, target or None (reported only), the backends
    # it is judged on (reported on the others), what)
    ("pool", "alloc", 1.6, ("iommu",), "page_pool (c) vs no page_pool (a)"),
    ("pool_xcpu", "pool", 0.8, ("iommu", "direct"), "TX completion cross-CPU (d) vs same CPU (c)"),
    ("pool_2flows", "pool", 1.8, ("iommu", "direct"), "page_pool two flows vs one (e)"),
    ("alloc_2flows", "alloc", None, ("iommu", "direct"),
     "page allocator two flows vs one (e; its zone lock)"),
    ("pool", "pool_lookup", 1.05, ("iommu", "direct"),
     "direct __xdp_return() vs mem-id lookup, TX completion same CPU (f)"),
    ("pool_xcpu", "pool_xcpu_lookup", 1.05, ("iommu", "direct"),
     "direct __xdp_return() vs mem-id lookup, TX completion cross-CPU (f)"),
)


def xdpr_tests():
    """The test names bench_xdp_redirect prints, one per scenario."""
    return [f"xdp_redirect_{k}" for k, *_ in XDPR_SCENARIOS]


def xdpr_expect(with_lookup):
    """The lines bench_xdp_redirect must print: every scenario on every
    backend (the lookup scenarios only in a build with both xdp_return
    generations)."""
    return [f"xdp_redirect_{k}-{d}:pps" for k, *_ in XDPR_SCENARIOS for d in XDPR_DMA
            if with_lookup or k not in XDPR_NEEDS_LOOKUP]
