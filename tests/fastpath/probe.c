/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The page_pool fast path in isolation: N iterations of
 * page_pool_alloc_pages() + page_pool_recycle_direct() on a warm pool, in
 * softirq on the owner thread. check_fast_path.py runs it under callgrind
 * and inspects every instruction executed N times or more;
 * check_fast_path_arm64.py does the same under qemu-user.
 *
 * PP_FASTPATH_PLANT (the planted variants) plants what the arm64
 * proof must catch in the loop: 1 an atomic add, 2 a full barrier.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/bottom_half.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#ifndef PP_FASTPATH_PLANT
#define PP_FASTPATH_PLANT 0
#endif

noinline void fast_path_loop(struct page_pool *pool, long n);

noinline void fast_path_loop(struct page_pool *pool, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		struct page *page = page_pool_alloc_pages(pool, GFP_ATOMIC);

		if (!page)
			abort();
		page_pool_recycle_direct(pool, page);
#if PP_FASTPATH_PLANT == 1
		__atomic_fetch_add(&pool->pages_state_release_cnt.counter, 0, __ATOMIC_RELAXED);
#elif PP_FASTPATH_PLANT == 2
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
	}
}

int main(int argc, char **argv)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct pp_mem_config cfg = { .size = 16 << 20 };
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct page_pool *pool;

	if (pp_mem_init(&cfg) || pp_thread_register(0) < 0)
		return 1;
	pool = page_pool_create(&pp);
	if (IS_ERR(pool))
		return 1;
	local_bh_disable();
	fast_path_loop(pool, 64);	/* warm: the slow path filled the cache */
	fast_path_loop(pool, n);
	local_bh_enable();
	page_pool_destroy(pool);
	return 0;
}
