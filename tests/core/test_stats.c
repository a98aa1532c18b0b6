/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Statistics with the kernel's exact semantics, scripted event by event:
 * the first allocation is one `slow` and leaves 63 pages in the cache; 64
 * non-direct puts are `ring` 64; the allocation after the cache runs dry is
 * one `refill` (plus 63 `fast` before it); an empty ring counts `empty`; a
 * NUMA mismatch counts `waive`; an extra page reference `released_refcnt`;
 * direct recycles `cached` / `cache_full`; a full ring `ring_full`;
 * high-order pages `slow_high_order`. And the ethtool export.
 */
#include <string.h>

#include <linux/ethtool.h>

#include "core_test.h"

static void test_slow_fast_ring_refill(void **state)
{
	struct page *pages[64];
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page_pool_stats st;
	int i;

	(void)state;
	pages[0] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(pages[0]);
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.slow, 1);
	assert_int_equal(st.alloc_stats.fast, 0);
	assert_int_equal(st.alloc_stats.empty, 1);	/* ring was empty */
	assert_int_equal(pool->alloc.count, 63);
	assert_int_equal(pool->pages_state_hold_cnt, 64);

	for (i = 1; i < 64; i++)
		pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.fast, 63);
	assert_int_equal(pool->alloc.count, 0);

	/* Not in softirq, no napi: non-direct puts go to the ring. */
	for (i = 0; i < 64; i++)
		page_pool_put_full_page(pool, pages[i], false);
	st = pool_stats(pool);
	assert_int_equal(st.recycle_stats.ring, 64);
	assert_int_equal(st.recycle_stats.cached, 0);

	/* The cache is dry: one refill moves 64 from the ring, returns one. */
	pages[0] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.refill, 1);
	assert_int_equal(st.alloc_stats.slow, 1);
	assert_int_equal(pool->alloc.count, 63);
	assert_int_equal(pool->pages_state_hold_cnt, 64);	/* nothing new */

	page_pool_recycle_direct(pool, pages[0]);
	st = pool_stats(pool);
	assert_int_equal(st.recycle_stats.cached, 1);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_cache_full_and_ring_full(void **state)
{
	struct page_pool_params pp = { .pool_size = 16, .nid = NUMA_NO_NODE };
	struct page *pages[200];
	struct page_pool *pool;
	struct page_pool_stats st;
	int i, parked;

	(void)state;
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	assert_int_equal(pool->ring.size, 16);
	for (i = 0; i < 200; i++)
		pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	/* 200 = 4 slow calls (64 each, 56 left in the cache) */
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.slow, 4);
	assert_int_equal(pool->alloc.count, 56);

	/* Direct recycling fills the cache to 128, then overflows to the ring
	 * (16 slots; with lanes, this CPU's lane, within the same budget of
	 * 16 ring credits), then to the page allocator - as the kernel's. */
	local_bh_disable();
	for (i = 0; i < 200; i++)
		page_pool_recycle_direct(pool, pages[i]);
	local_bh_enable();
	st = pool_stats(pool);
	parked = 16;
	assert_int_equal(st.recycle_stats.cached, 128 - 56);
	assert_int_equal(st.recycle_stats.cache_full, 200 - 72);
	assert_int_equal(st.recycle_stats.ring, parked);
	assert_int_equal(st.recycle_stats.ring_full, 200 - 72 - parked);
	assert_int_equal(pool->alloc.count, 128);
	assert_int_equal(pool_inflight(pool), 128 + parked);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_released_refcnt(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page *page;
	struct page_pool_stats st;

	(void)state;
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	/* The slow benchmark's idiom: an extra reference makes it unrecyclable. */
	get_page(page);
	page_pool_put_full_page(pool, page, true);
	st = pool_stats(pool);
	assert_int_equal(st.recycle_stats.released_refcnt, 1);
	assert_int_equal(st.recycle_stats.cached, 0);
	assert_false(page_pool_page_is_pp(page));	/* no longer the pool's */
	assert_int_equal(pool_inflight(pool), 63);
	put_page(page);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_numa_waive(void **state)
{
	struct page_pool_params pp = { .pool_size = 1024, .nid = 0 };
	struct page *pages[64];
	struct page_pool *pool;
	struct page_pool_stats st;
	int i;

	(void)state;
	pool = page_pool_create(&pp);
	for (i = 0; i < 64; i++) {
		pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);
		assert_int_equal(page_to_nid(pages[i]), 0);
	}
	for (i = 0; i < 64; i++)
		page_pool_put_full_page(pool, pages[i], false);	/* ring */

	/* The NAPI moved to node 1: ring pages of node 0 are waived. */
	page_pool_nid_changed(pool, 1);
	pages[0] = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(pages[0]);
	assert_int_equal(page_to_nid(pages[0]), 1);	/* slow path, node 1 */
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.waive, 1);
	assert_int_equal(st.alloc_stats.refill, 0);
	assert_int_equal(st.alloc_stats.slow, 2);
	page_pool_put_full_page(pool, pages[0], false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_high_order(void **state)
{
	struct page_pool_params pp = { .order = 2, .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);
	struct page_pool_stats st;
	struct page *page;

	(void)state;
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(page);
	assert_true(PageHead(page));
	assert_int_equal(compound_order(page), 2);
	st = pool_stats(pool);
	assert_int_equal(st.alloc_stats.slow_high_order, 1);
	assert_int_equal(st.alloc_stats.slow, 0);
	assert_int_equal(pool->alloc.count, 0);		/* no bulk for order > 0 */
	page_pool_put_full_page(pool, page, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_ethtool(void **state)
{
	u8 strings[11 * ETH_GSTRING_LEN];
	struct page_pool_stats st;
	u64 values[11];
	int i;

	(void)state;
	assert_int_equal(page_pool_ethtool_stats_get_count(), 11);
	assert_ptr_equal(page_pool_ethtool_stats_get_strings(strings),
			 strings + sizeof(strings));
	assert_string_equal((char *)strings, "rx_pp_alloc_fast");
	assert_string_equal((char *)strings + 2 * ETH_GSTRING_LEN, "rx_pp_alloc_slow_ho");
	assert_string_equal((char *)strings + 10 * ETH_GSTRING_LEN, "rx_pp_recycle_released_ref");
	for (i = 0; i < 11; i++)
		((u64 *)&st)[i] = (u64)i + 100;
	assert_ptr_equal(page_pool_ethtool_stats_get(values, &st), values + 11);
	for (i = 0; i < 11; i++)
		assert_int_equal(values[i], i + 100);
}

static void test_get_stats_accumulates(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page_pool_stats st;
	struct page *page;

	(void)state;
	page = page_pool_alloc_pages(pool, GFP_ATOMIC);
	memset(&st, 0, sizeof(st));
	st.alloc_stats.slow = 10;
	page_pool_get_stats(pool, &st);
	assert_int_equal(st.alloc_stats.slow, 11);	/* +=, as the kernel */
	page_pool_put_full_page(pool, page, false);
	destroy_and_settle(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_fast_ring_refill),
		cmocka_unit_test(test_cache_full_and_ring_full),
		cmocka_unit_test(test_released_refcnt),
		cmocka_unit_test(test_numa_waive),
		cmocka_unit_test(test_high_order),
		cmocka_unit_test(test_ethtool),
		cmocka_unit_test(test_get_stats_accumulates),
	};

	int ret;

	core_test_init(32, 2);
	assert_int_equal(pp_thread_register(0), 0);	/* node 0 */
	/* The same semantics under both ring designs. */
	ret = pp_test_run_on_each_ring(tests, ARRAY_SIZE(tests));
	return ret;
}
