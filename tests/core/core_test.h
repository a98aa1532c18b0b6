/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Shared set-up for the page_pool suites. */
#ifndef PP_CORE_TEST_H
#define PP_CORE_TEST_H

#include <linux/bottom_half.h>
#include <linux/etherdevice.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <pagepool.h>

#include "pool_test.h"
#include "test_common.h"

/* A small arena: the suites need a few thousand pages at most. */
static inline void core_test_init(size_t mb, int nr_nodes)
{
	struct pp_mem_config cfg = { .size = mb << 20, .nr_nodes = nr_nodes };

	pp_test_capture_log();
	if (pp_mem_init(&cfg))
		abort();
}

/* Every page taken from the page allocator came back, none is marked as a
 * page_pool page: the "nothing lost" check. */
static inline void assert_all_pages_home(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 0);
	assert_int_equal(st.free_pages, st.total_pages);
}

static inline struct page_pool *make_pool(unsigned int flags, struct device *dev,
					  unsigned int max_len)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = 1024,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.max_len = max_len,
		.flags = flags,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR(pool));
	return pool;
}


/* Destroy and wait for the deferred release to finish (no pages out). */
static inline void destroy_and_settle(struct page_pool *pool)
{
	page_pool_destroy(pool);
	pp_workqueue_run_all();
}

/* The pool is still in the registry (not yet freed). */
static inline bool pool_alive(u32 id)
{
	struct pp_page_pool_info info;

	return pp_page_pool_get_info(id, &info) == 0;
}

/*
 * A put's publishing store must be its last access to the pool: a test
 * hook at PP_HOOK_LANE_PUBLISHED (which the lanes and magazine designs
 * call at that store) runs the release retry and the pool's RCU-deferred
 * free right there, once, and records whether the pool was gone; any
 * access after the publish is then a use after free (ASan).
 */
struct publish_race {
	struct page_pool *pool;
	struct page *page;
	u32 id;
	int hooked;
	bool gone_in_hook;
};

static inline void publish_hook(enum pp_page_pool_hook point, struct page_pool *pool, void *arg)
{
	struct publish_race *r = arg;

	if (point != PP_HOOK_LANE_PUBLISHED || pool != r->pool || r->hooked++)
		return;
	pp_workqueue_run_all();		/* the release retry: drain, free */
	rcu_barrier();			/* the pool's RCU-deferred kfree */
	r->gone_in_hook = !pool_alive(r->id);
}

#endif
