/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * bench_page_alloc: what page_pool's slow path and its DMA mapping cost
 * underneath, in the kernel time_bench line format. One iteration of each
 * Type (every Type is an alloc+free or map+unmap *pair*):
 *
 *   page_alloc_pcp              alloc_page() + __free_page() with this CPU's
 *                               order-0 list warm: a list pop and a list
 *                               push, no lock, no atomic (the kernel's pcp
 *                               fast path).
 *   page_alloc_pcp_refill_drain alloc_page() x1024, then __free_page() x1024
 *                               (step:1024, per page): the per-CPU list
 *                               runs dry and is refilled, then passes its
 *                               high mark and drains, a batch (63 pages)
 *                               per zone-lock round trip.
 *   page_alloc_zone_lock        alloc_pages(order 1) + __free_pages(order 1):
 *                               orders > 0 skip the per-CPU lists, so both
 *                               calls take the zone lock. The block's buddy
 *                               is kept allocated, so there is no split
 *                               and no merge: the lock round trips and the
 *                               free-list pop/push alone.
 *   page_alloc_zone_lock_split_merge
 *                               the same pair in an otherwise free zone
 *                               (both order-1 tests drain this CPU's
 *                               lists first, so the zone is whole): each alloc
 *                               splits a max-order (4 MiB) block 9 times
 *                               and each free merges it back 9 times, the
 *                               buddy allocator's worst case.
 *   dma_map_unmap_direct        dma_map_page_attrs() + dma_unmap_page_attrs()
 *   dma_map_unmap_iommu         of one page, DMA_FROM_DEVICE, with the
 *                               attrs page_pool uses (SKIP_CPU_SYNC |
 *                               WEAK_ORDERING), on a PP_DMA_DIRECT device
 *                               (bus address = physical address) and on a
 *                               PP_DMA_IOMMU device (IOVA alloc + IO page
 *                               table update, then the reverse).
 *   dma_map_unmap_direct_debug  the same with PP_DMA_DEBUG on the device
 *   dma_map_unmap_iommu_debug   (the DMA-API debug layer's bookkeeping).
 *
 * Parameters: loops=N (pairs per Type, default 2000000), run_flags=M
 * (bitmask, bit n = the n-th Type above, default all), cpu=N (host CPU to
 * pin to, default 0; -1 = none).
 */
#include <stdint.h>
#include <stdio.h>

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <pagepool.h>

#include "bench_common.h"
#include "time_bench.h"

enum benchmark_bit {
	bit_pcp,
	bit_pcp_refill_drain,
	bit_zone_lock,
	bit_zone_lock_split_merge,
	bit_dma_direct,
	bit_dma_iommu,
	bit_dma_direct_debug,
	bit_dma_iommu_debug,
};

static unsigned long long loops = 2000000;
static unsigned long long run_flags = 0xffffffff;
static unsigned long long host_cpu = 0;
#define enabled(bit)	(run_flags & (1ULL << (bit)))

/* Pages per round of page_alloc_pcp_refill_drain: well above the per-CPU
 * high mark (6 * 63 = 378), so every round refills and drains. */
#define REFILL_DRAIN_PAGES	1024

static int time_page_alloc_pcp(struct time_bench_record *rec, void *data)
{
	uint64_t loops_cnt = 0;
	struct page *page;
	uint32_t i;

	(void)data;
	/* Warm the list: the first allocation refills it from the zone. */
	page = alloc_page(GFP_ATOMIC);
	if (!page)
		return 0;
	__free_page(page);

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		page = alloc_page(GFP_ATOMIC);
		if (unlikely(!page))
			break;
		loops_cnt++;
		barrier();
		__free_page(page);
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static int time_page_alloc_pcp_refill_drain(struct time_bench_record *rec, void *data)
{
	static struct page *pages[REFILL_DRAIN_PAGES];
	uint32_t rounds = (rec->loops + REFILL_DRAIN_PAGES - 1) / REFILL_DRAIN_PAGES, r;
	uint64_t loops_cnt = 0;
	int i, n;

	(void)data;
	time_bench_start(rec);
	for (r = 0; r < rounds; r++) {
		for (n = 0; n < REFILL_DRAIN_PAGES; n++) {
			pages[n] = alloc_page(GFP_ATOMIC);
			if (unlikely(!pages[n]))
				break;
		}
		for (i = 0; i < n; i++)
			__free_page(pages[i]);
		loops_cnt += (uint64_t)n;
		if (n < REFILL_DRAIN_PAGES)
			break;
	}
	time_bench_stop(rec, loops_cnt);
	return (int)loops_cnt;
}

static bool is_order1_buddy(struct page *a, struct page *b)
{
	/* The arena is aligned to its largest block, so address bits tell
	 * buddies apart. */
	return ((uintptr_t)page_address(a) ^ (2 * PAGE_SIZE)) == (uintptr_t)page_address(b);
}

/* @pin: keep the block's buddy allocated (no split, no merge). */
static int time_page_alloc_order1(struct time_bench_record *rec, bool pin)
{
	struct page *page, *x = NULL, *y = NULL;
	uint64_t loops_cnt = 0;
	uint32_t i;

	/* Every order-0 page parked on this CPU's lists goes back, so the
	 * zone is one run of free max-order blocks (nothing else is held). */
	pp_mem_drain_local();
	if (pin) {
		/* x comes from splitting a max-order block, and its buddy y
		 * is the last half put on the lists, at the head of the
		 * order-1 list: the next order-1 allocation. Holding y and
		 * freeing x leaves x at the head with nothing to merge with:
		 * the loop below reuses x. */
		x = alloc_pages(GFP_ATOMIC, 1);
		y = alloc_pages(GFP_ATOMIC, 1);
		if (!x || !y)
			return 0;
		if (!is_order1_buddy(x, y))
			pr_warn("%s(): could not pin a buddy: the figure includes merges\n",
				__func__);
		__free_pages(x, 1);
	}

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		page = alloc_pages(GFP_ATOMIC, 1);
		if (unlikely(!page))
			break;
		loops_cnt++;
		barrier();
		__free_pages(page, 1);
	}
	time_bench_stop(rec, loops_cnt);

	if (y)
		__free_pages(y, 1);
	return (int)loops_cnt;
}

static int time_page_alloc_zone_lock(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_page_alloc_order1(rec, true);
}

static int time_page_alloc_zone_lock_split_merge(struct time_bench_record *rec, void *data)
{
	(void)data;
	return time_page_alloc_order1(rec, false);
}

struct dma_bench {
	enum pp_dma_backend backend;
	unsigned int flags;
};

static int time_dma_map_unmap(struct time_bench_record *rec, void *data)
{
	const unsigned long attrs = DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING;
	const struct dma_bench *b = data;
	uint64_t loops_cnt = 0;
	struct device *dev;
	struct page *page;
	dma_addr_t addr;
	uint32_t i;

	dev = pp_device_create("bench_page_alloc", b->backend, b->flags);
	if (IS_ERR(dev))
		return 0;
	page = alloc_page(GFP_ATOMIC);
	if (!page) {
		pp_device_destroy(dev);
		return 0;
	}

	time_bench_start(rec);
	for (i = 0; i < rec->loops; i++) {
		addr = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE, attrs);
		if (unlikely(dma_mapping_error(dev, addr)))
			break;
		loops_cnt++;
		barrier();
		dma_unmap_page_attrs(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE, attrs);
	}
	time_bench_stop(rec, loops_cnt);

	if (pp_dma_violations(dev)) {
		pr_err("%s(): DMA-API violations: %lu\n", __func__, pp_dma_violations(dev));
		loops_cnt = 0;
	}
	__free_page(page);
	pp_device_destroy(dev);
	return (int)loops_cnt;
}

int main(int argc, char **argv)
{
	const struct bench_param params[] = {
		{ "loops", &loops, "alloc+free or map+unmap pairs per test" },
		{ "run_flags", &run_flags, "bitmask of tests to run" },
		{ "cpu", &host_cpu, "host CPU to pin to (-1: none)" },
	};
	static const struct dma_bench direct = { PP_DMA_DIRECT, 0 };
	static const struct dma_bench iommu = { PP_DMA_IOMMU, 0 };
	static const struct dma_bench direct_debug = { PP_DMA_DIRECT, PP_DMA_DEBUG };
	static const struct dma_bench iommu_debug = { PP_DMA_IOMMU, PP_DMA_DEBUG };
	uint32_t nr_loops;
	bool ok = true;

	bench_parse_params(argc, argv, params, 3);
	if (loops < 1000 || loops > 0xffffffffULL) {
		fprintf(stderr, "loops must be in [1000, %llu]\n", 0xffffffffULL);
		return 2;
	}
	nr_loops = (uint32_t)loops;
	bench_init((int)(long long)host_cpu, 0, 64);
	pr_info("bench_page_alloc: Loaded (TSC %llu Hz, time_bench_tsc_hz())\n",
		(unsigned long long)time_bench_tsc_hz());

	if (enabled(bit_pcp))
		ok &= time_bench_loop(nr_loops, 0, "page_alloc_pcp", NULL, time_page_alloc_pcp);
	if (enabled(bit_pcp_refill_drain))
		ok &= time_bench_loop(nr_loops, REFILL_DRAIN_PAGES, "page_alloc_pcp_refill_drain",
				      NULL, time_page_alloc_pcp_refill_drain);
	if (enabled(bit_zone_lock))
		ok &= time_bench_loop(nr_loops, 0, "page_alloc_zone_lock", NULL,
				      time_page_alloc_zone_lock);
	if (enabled(bit_zone_lock_split_merge))
		ok &= time_bench_loop(nr_loops, 0, "page_alloc_zone_lock_split_merge", NULL,
				      time_page_alloc_zone_lock_split_merge);
	if (enabled(bit_dma_direct))
		ok &= time_bench_loop(nr_loops, 0, "dma_map_unmap_direct", (void *)&direct,
				      time_dma_map_unmap);
	if (enabled(bit_dma_iommu))
		ok &= time_bench_loop(nr_loops, 0, "dma_map_unmap_iommu", (void *)&iommu,
				      time_dma_map_unmap);
	if (enabled(bit_dma_direct_debug))
		ok &= time_bench_loop(nr_loops, 0, "dma_map_unmap_direct_debug",
				      (void *)&direct_debug, time_dma_map_unmap);
	if (enabled(bit_dma_iommu_debug))
		ok &= time_bench_loop(nr_loops, 0, "dma_map_unmap_iommu_debug",
				      (void *)&iommu_debug, time_dma_map_unmap);
	return ok ? 0 : 1;
}
