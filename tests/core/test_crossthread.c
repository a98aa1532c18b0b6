/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * One owner thread allocating (inside a softirq section, as a NAPI poll
 * does) and another thread returning every page with
 * page_pool_put_full_page(): 10 million pages (PP_TEST_PAGES overrides),
 * then destroy. Nothing may be lost: every page taken from the page
 * allocator comes back exactly once (hold == release, arena whole), and
 * the run is clean under ThreadSanitizer.
 */
#include <pthread.h>
#include <stdlib.h>

#include <linux/processor.h>
#include <linux/ptr_ring.h>

#include "core_test.h"

static struct page_pool *pool;
static struct ptr_ring handoff;		/* owner -> returner, SPSC */
static long total_pages = 10 * 1000 * 1000;
static int owner_done;

static void *returner(void *arg)
{
	unsigned int idle = 0;
	long returned = 0;

	(void)arg;
	assert_true(pp_thread_register(-1) > 0);
	while (returned < total_pages) {
		struct page *p = __ptr_ring_consume(&handoff);

		if (!p) {
			pp_test_relax_or_yield(&idle);
			continue;
		}
		idle = 0;
		page_pool_put_full_page(pool, p, false);
		returned++;
	}
	return (void *)returned;
}

static void test_owner_and_returner(void **state)
{
	struct page_pool_params pp = { .pool_size = 1024, .nid = NUMA_NO_NODE };
	struct page_pool_stats st = { 0 };
	long allocated = 0, stalls = 0;
	unsigned int full;
	pthread_t t;
	void *ret;
	u32 hold;

	(void)state;
	pool = page_pool_create(&pp);
	assert_int_equal(ptr_ring_init(&handoff, 512, GFP_KERNEL), 0);
	pthread_create(&t, NULL, returner, NULL);

	local_bh_disable();
	while (allocated < total_pages) {
		struct page *p = page_pool_alloc_pages(pool, GFP_ATOMIC);

		assert_non_null(p);
		for (full = 0; __ptr_ring_produce(&handoff, p); ) {
			stalls++;
			pp_test_relax_or_yield(&full);
		}
		allocated++;
	}
	local_bh_enable();
	owner_done = 1;
	pthread_join(t, &ret);
	assert_int_equal((long)ret, total_pages);

	page_pool_get_stats(pool, &st);
	assert_int_equal(st.alloc_stats.fast + st.alloc_stats.slow + st.alloc_stats.refill,
			 total_pages);
	assert_int_equal(st.recycle_stats.ring + st.recycle_stats.ring_full, total_pages);
	hold = pool->pages_state_hold_cnt;
	print_message("%ld pages: %llu fast, %llu refill, %llu slow, %llu ring_full, hold %u, %ld producer stalls\n",
		      total_pages, st.alloc_stats.fast, st.alloc_stats.refill,
		      st.alloc_stats.slow, st.recycle_stats.ring_full, hold, stalls);

	/* No page is out now: destroy frees the pool at once, and every page
	 * taken from the page allocator went back exactly once. */
	assert_int_equal(pool_inflight(pool), (long)hold - (long)atomic_read(&pool->pages_state_release_cnt));
	page_pool_destroy(pool);
	assert_all_pages_home();
	ptr_ring_cleanup(&handoff, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_and_returner),
	};
	const char *n = getenv("PP_TEST_PAGES");

	if (n)
		total_pages = atol(n);
	core_test_init(32, 1);
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
