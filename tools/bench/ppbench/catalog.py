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
LOOPS = {
    "full": {"simple": 5_000_000, "alloc": 3_000_000, "cross": 200_000,
             "peers": 10_000_000, "peers_cross": 200_000, "xdp": 2_000_000,
             "xdp_ring": 1_000_000, "bare": 200_000},
    "short": {"simple": 20_000, "alloc": 20_000, "cross": 20_000,
              "peers": 64_000, "peers_cross": 20_000, "xdp": 20_480,
              "xdp_ring": 20_480, "bare": 20_000},
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
