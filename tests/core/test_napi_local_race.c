/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The seeds' napi_local race ("page_pool: fix timing for checking and
 * disabling napi_local"), reproduced deterministically with test hooks:
 *
 *   CPU 1 (NAPI polled there)            CPU 0
 *   put(allow_direct = false)
 *   napi_local() -> true  [hook: wait]
 *                                        page_pool_destroy()
 *                                          disable direct recycling
 *                                          empty the alloc cache (once)
 *   recycle into the cache  <- too late: nobody empties it again
 *
 * Without the fix the page is lost: the pool never reaches inflight 0 and
 * the page never goes back to the page allocator. With the fix (an RCU
 * section around decide+recycle; in destroy, when pages are still out after
 * the cache was emptied, a grace period and a second emptying - the seeds'
 * fix in its last form, which waits for nothing when no page is out) destroy
 * waits for CPU 1, empties the cache again with the page in it, and
 * everything comes home.
 *
 * Ordering is by hooks only: CPU 1 waits inside its decision until destroy
 * reports "cache emptied" (the bug's order); with the fix destroy then
 * waits for CPU 1 in its grace period. No sleeps.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/processor.h>

#include "core_test.h"

struct race {
	struct page_pool *pool;
	struct napi_struct napi;
	struct page *page;
	int decided;	/* CPU 1 is inside napi_local == true */
	int go;		/* destroy reached the point CPU 1 waits for */
};

static struct race R;

static void hook(enum pp_page_pool_hook point, struct page_pool *pool, void *arg)
{
	struct race *r = arg;

	if (pool != r->pool)
		return;
	switch (point) {
	case PP_HOOK_NAPI_LOCAL_DECIDED:
		__atomic_store_n(&r->decided, 1, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
			cpu_relax();
		break;
	case PP_HOOK_DESTROY_SYNC_BEGIN:	/* fix on: destroy will wait for us */
	case PP_HOOK_DESTROY_CACHE_EMPTIED:	/* the cache is empty now */
		__atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
		break;
	default:
		break;
	}
}

static int poll_complete(struct napi_struct *n, int budget)
{
	(void)budget;
	napi_complete_done(n, 0);
	return 0;
}

static void *cpu1_fn(void *arg)
{
	struct race *r = arg;

	/* Any free CPU id (the workqueue may hold one): "CPU 1". */
	if (pp_thread_register(-1) <= 0)
		abort();
	local_bh_disable();
	napi_schedule(&r->napi);		/* polled here: list_owner = this CPU */
	page_pool_put_full_page(r->pool, r->page, false);
	local_bh_enable();
	return NULL;
}

/* Returns true if the page was lost. */
static bool run_race(bool fix)
{
	struct page_pool_params pp = { .pool_size = 64, .nid = NUMA_NO_NODE, .napi = &R.napi };
	struct pp_page_pool_info info;
	unsigned long warns;
	struct pp_mem_stats ms;
	pthread_t t;
	bool lost;
	u32 id;

	memset(&R, 0, sizeof(R));
	netif_napi_add(NULL, &R.napi, poll_complete);
	napi_enable(&R.napi);
	pp.napi = &R.napi;
	R.pool = page_pool_create(&pp);
	id = pp_page_pool_id(R.pool);
	R.page = page_pool_alloc_pages(R.pool, GFP_ATOMIC);
	/* (The caller checked that the fix can be turned off.) */
	assert_true(pp_test_fixes(fix ? PP_FIX_NAPI_LOCAL_RCU : 0));
	pp_page_pool_set_test_hook(hook, &R);

	pthread_create(&t, NULL, cpu1_fn, &R);
	while (!__atomic_load_n(&R.decided, __ATOMIC_ACQUIRE))
		cpu_relax();
	/* The driver tears down while its NAPI still runs on CPU 1: the
	 * contract check of upstream (napi_assert_will_not_race) WARNs. */
	warns = pp_warn_count();
	page_pool_destroy(R.pool);
	assert_true(pp_warn_count() > warns);
	pthread_join(t, NULL);
	pp_page_pool_set_test_hook(NULL, NULL);
	pp_workqueue_run_all();
	pp_workqueue_run_all();

	pp_mem_get_stats(&ms);
	lost = pp_page_pool_get_info(id, &info) == 0;
	if (lost) {
		/* The page sits in a cache nobody will empty: the pool waits
		 * for it forever, and the page is not home. */
		assert_int_equal(info.inflight, 1);
		assert_int_equal(ms.pp_pages, 1);
		assert_int_equal(R.pool->alloc.count, 1);
		assert_ptr_equal(R.pool->alloc.cache[0], page_to_netmem(R.page));
		/* Clean up by hand so the next case starts whole. */
		R.pool->alloc.count = 0;
		/* Out of the pool again, as an allocation leaves it. */
		__page_pool_home_leave(page_to_netmem(R.page));
		page_pool_put_full_page(R.pool, R.page, false);
		pp_workqueue_run_all();
		assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	}
	napi_disable(&R.napi);
	netif_napi_del(&R.napi);
	pp_page_pool_set_fixes(PP_FIX_NAPI_LOCAL_RCU);
	return lost;
}

static void test_race_loses_a_page_without_fix(void **state)
{
	(void)state;
	PP_TEST_NEEDS_FIX_SWITCHES();
	assert_true(run_race(false));
	assert_all_pages_home();
}

static void test_race_fixed(void **state)
{
	(void)state;
	assert_false(run_race(true));
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race_loses_a_page_without_fix),
		cmocka_unit_test(test_race_fixed),
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(10, 0);
	if (pp_page_pool_set_test_hook(NULL, NULL)) {
		print_message("built without test hooks (-Dtest_hooks=false): skipped\n");
		return 77;
	}
	return pp_test_run_group(tests, NULL, NULL);
}
