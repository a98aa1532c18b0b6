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

#endif
