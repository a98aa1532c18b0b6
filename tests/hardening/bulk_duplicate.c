/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The same page twice in one page_pool_put_netmem_bulk() (and
 * in page_pool_put_page_bulk()) passed as "last reference" both times, so
 * the pool held it twice and later handed it out twice. Now the second
 * occurrence is a double put the pool's owner drops (home state): reported
 * (WARN, misuse counter double_put), and the page is in the pool once.
 */
#include "hard.h"

#define N	8

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static void check_dup(bool netmem_api, bool in_softirq)
{
	struct page_pool *pool = make_pool();
	struct pp_page_pool_misuse m0, m1;
	struct page *p[N];
	void *data[N + 1];
	netmem_ref nm[N + 1];
	int i;

	for (i = 0; i < N; i++)
		assert_non_null(p[i] = page_pool_dev_alloc_pages(pool));
	for (i = 0; i < N; i++) {
		nm[i] = page_to_netmem(p[i]);
		data[i] = page_address(p[i]);
	}
	/* p[3] a second time, at the end. */
	nm[N] = page_to_netmem(p[3]);
	data[N] = page_address(p[3]);

	hard_warns();
	pp_page_pool_get_misuse(&m0);
	if (in_softirq)
		local_bh_disable();
	if (netmem_api)
		page_pool_put_netmem_bulk(nm, N + 1);
	else
		page_pool_put_page_bulk(pool, data, N + 1);
	if (in_softirq)
		local_bh_enable();
	/* Every page in the pool once: 256 allocations, all distinct; the
	 * duplicate was reported where the pool found it - at the put for a
	 * direct (napi-local) bulk, at the refill for the ring - once. */
	hard_assert_distinct_allocs(pool, 256);
	pp_page_pool_get_misuse(&m1);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(m1.double_put - m0.double_put, 1);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

static void test_netmem_bulk_dup(void **state) { (void)state; check_dup(true, false); }
static void test_netmem_bulk_dup_softirq(void **state) { (void)state; check_dup(true, true); }
static void test_page_bulk_dup(void **state) { (void)state; check_dup(false, false); }
static void test_page_bulk_dup_softirq(void **state) { (void)state; check_dup(false, true); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_netmem_bulk_dup),
		EACH_RING(test_netmem_bulk_dup_softirq),
		EACH_RING(test_page_bulk_dup),
		EACH_RING(test_page_bulk_dup_softirq),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
