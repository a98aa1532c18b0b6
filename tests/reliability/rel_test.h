/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Set-up shared by the reliability suites: an arena, an IOMMU device with
 * DMA-API debug, a registered net_device whose RX queue 0 carries a region
 * provider, and the pools each test needs, by kind.
 */
#ifndef PP_REL_TEST_H
#define PP_REL_TEST_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/memory_provider.h>
#include <net/page_pool/types.h>
#include <pagepool.h>

#include "invariants.h"
#include "test_common.h"

#define REL_MP_NIOVS	256

/*
 * The arena: 32 MiB, and never less than two of the largest blocks
 * (PAGE_SIZE << MAX_PAGE_ORDER: 4 MiB at 4 KiB pages, 32 MiB at 16 KiB,
 * 512 MiB at 64 KiB). The region provider takes its niovs in chunks of
 * up to one largest block (a whole one at 58cb504), so with one block it
 * could hold the whole arena and leave no page for the pools; two leave
 * at least one block for them whatever the chunk order.
 */
#define REL_BLOCK_SIZE	((size_t)PAGE_SIZE << MAX_PAGE_ORDER)
#define REL_ARENA_SIZE	max_t(size_t, (size_t)32 << 20, 2 * REL_BLOCK_SIZE)

enum rel_pool_kind {
	REL_DMA,	/* order 0, PP_FLAG_DMA_MAP | SYNC_DEV, index tracking */
	REL_ITEMS,	/* the same with the seeds' item tracking */
	REL_PLAIN,	/* no DMA */
	REL_ORDER2,	/* DMA, order 2: one page allocation per refill */
	REL_FRAG,	/* DMA, order 1, used through page_pool_alloc_frag() */
	REL_MP,		/* net_iovs from the region provider */
};

struct rel_env {
	struct device *dev;
	struct net_device *netdev;
	struct pp_region_provider *rp;
	struct pp_memory_provider_params mpp;
	unsigned long resident_pages;	/* the provider's region */
};

extern struct rel_env rel;

static inline void rel_setup(void)
{
	struct pp_mem_config cfg = { .size = REL_ARENA_SIZE };
	struct pp_mem_stats a, b;

	pp_test_capture_log();
	if (pp_mem_init(&cfg) || pp_thread_register(0) != 0)
		abort();
	pp_page_pool_set_defer_times(5, 0);
	rel.dev = pp_device_create("rel-iommu", PP_DMA_IOMMU, PP_DMA_DEBUG);
	rel.netdev = alloc_etherdev(0);
	if (IS_ERR_OR_NULL(rel.dev) || !rel.netdev || register_netdev(rel.netdev))
		abort();
	pp_mem_get_stats(&a);
	rel.rp = pp_region_provider_create(rel.dev, REL_MP_NIOVS);
	if (IS_ERR(rel.rp))
		abort();
	pp_region_provider_params(rel.rp, &rel.mpp);
	if (net_mp_open_rxq(rel.netdev, 0, &rel.mpp))
		abort();
	pp_mem_get_stats(&b);
	rel.resident_pages = a.free_pages - b.free_pages;
}

/* A checker for one test: quiet, watching the device, knowing the
 * provider's region is kept on purpose. */
static inline void rel_checker(struct ppinv *c)
{
	ppinv_init(c);
	c->quiet = true;
	c->resident_pages = rel.resident_pages;
	ppinv_track_device(c, rel.dev);
	ppinv_device_resident(c, rel.dev, 1);
}

static inline struct page_pool *rel_pool(enum rel_pool_kind kind)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = rel.dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool;

	switch (kind) {
	case REL_ITEMS:
		/* (A test of this kind skips where the build lacks it.) */
		assert_true(pp_test_dma_tracking(PP_DMA_TRACK_ITEMS));
		break;
	case REL_PLAIN:
		pp.flags = 0;
		pp.dev = NULL;
		break;
	case REL_ORDER2:
		pp.order = 2;
		break;
	case REL_FRAG:
		pp.order = 1;
		break;
	case REL_MP:
		pp.flags |= PP_FLAG_ALLOW_UNREADABLE_NETMEM;
		pp.netdev = rel.netdev;
		pp.queue_idx = 0;
		break;
	case REL_DMA:
		break;
	}
	pool = page_pool_create(&pp);
	pp_test_dma_tracking_restore();
	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

/* One allocation of the kind's flavour: 0 on failure. */
static inline netmem_ref rel_alloc(struct page_pool *pool, enum rel_pool_kind kind)
{
	unsigned int offset;

	if (kind == REL_FRAG)
		return page_to_netmem(page_pool_alloc_frag(pool, &offset, 2048,
							   GFP_ATOMIC | __GFP_NOWARN));
	return page_pool_alloc_netmems(pool, GFP_ATOMIC | __GFP_NOWARN);
}

/* Run the deferred release until pool @id is freed, and check it is. */
static inline void rel_destroy_wait(struct ppinv *c, u32 id)
{
	struct pp_page_pool_info info;
	int i;

	for (i = 0; i < 100 && pp_page_pool_get_info(id, &info) != -ENOENT; i++)
		pp_workqueue_run_all();
	assert_int_equal(ppinv_check_pool_gone(c, id), 0);
}

/* Destroy with nothing in flight and check the pool is gone. */
static inline void rel_destroy(struct ppinv *c, struct page_pool *pool)
{
	u32 id = pp_page_pool_id(pool);

	page_pool_destroy(pool);
	rel_destroy_wait(c, id);
}

#endif
