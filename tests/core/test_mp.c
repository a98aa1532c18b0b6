/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A page_pool over a memory provider (the region provider): it hands out
 * net_iovs (NET_IOV bit, no struct page, no CPU address through netmem),
 * they recycle like pages, syncs go to the provider's mapping, everything
 * returns to the provider at destroy, and a provider fault fails the
 * allocation cleanly.
 */
#include <string.h>

#include <net/page_pool/memory_provider.h>

#include "core_test.h"

static struct device *dev;
static struct net_device *netdev;

static struct page_pool *make_mp_pool(struct pp_region_provider *rp,
				      struct pp_memory_provider_params *mp)
{
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE, .netdev = netdev,
		.queue_idx = 0,
		.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool;

	pp_region_provider_params(rp, mp);
	assert_int_equal(net_mp_open_rxq(netdev, 0, mp), 0);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	assert_true(page_pool_is_unreadable(pool));
	return pool;
}

static void test_net_iov_lifecycle(void **state)
{
	struct pp_memory_provider_params mp;
	struct pp_region_provider *rp = pp_region_provider_create(dev, 100);
	struct page_pool *pool;
	netmem_ref n[70];
	struct pp_dma_stats ds0, ds;
	int i;

	(void)state;
	assert_false(IS_ERR(rp));
	assert_int_equal(pp_region_provider_free(rp), 100);
	pool = make_mp_pool(rp, &mp);
	pp_dma_get_stats(dev, &ds0);

	for (i = 0; i < 70; i++) {
		n[i] = page_pool_alloc_netmems(pool, GFP_ATOMIC);
		assert_true(netmem_is_net_iov(n[i]));
		assert_null(netmem_to_page(n[i]));
		assert_null(netmem_address(n[i]));
		assert_ptr_equal(netmem_get_pp(n[i]), pool);
		assert_true(page_pool_get_dma_addr_netmem(n[i]) != 0);
		assert_non_null(pp_region_provider_addr(rp, n[i]));
	}
	assert_int_equal(pp_region_provider_free(rp), 100 - 64 - 36);
	assert_int_equal(pool_inflight(pool), 100);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.maps, ds0.maps);		/* the provider mapped once, earlier */

	/* Device writes through the provider's mapping; the CPU sees it. */
	assert_int_equal(pp_dma_device_write(dev, page_pool_get_dma_addr_netmem(n[0]),
					     "hello", 6), 0);
	assert_string_equal((char *)pp_region_provider_addr(rp, n[0]), "hello");

	local_bh_disable();
	for (i = 0; i < 70; i++)
		page_pool_put_full_netmem(pool, n[i], true);	/* syncs, then cache */
	local_bh_enable();
	/* 30 were still cached, so all 70 fit (100 <= 128) */
	assert_int_equal(pool->alloc.count, 100);
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 70);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.syncs_for_device - ds0.syncs_for_device, 70);

	destroy_and_settle(pool);
	assert_int_equal(pp_region_provider_free(rp), 100);	/* all home */
	net_mp_close_rxq(netdev, 0, &mp);
	assert_int_equal(pp_region_provider_destroy(rp), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
}

static void test_provider_fault_and_busy(void **state)
{
	struct pp_memory_provider_params mp;
	struct pp_region_provider *rp = pp_region_provider_create(dev, 8);
	struct page_pool *pool = make_mp_pool(rp, &mp);
	netmem_ref n;

	(void)state;
	pp_fault_inject(PP_FAULT_MP_ALLOC, &(struct pp_fault_config){ .next_n = 1 });
	assert_int_equal(page_pool_alloc_netmems(pool, GFP_ATOMIC), 0);
	assert_int_equal(pp_fault_count(PP_FAULT_MP_ALLOC), 1);
	assert_int_equal(pool_inflight(pool), 0);
	n = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	assert_true(netmem_is_net_iov(n));
	assert_int_equal(pp_region_provider_destroy(rp), -EBUSY);	/* in use */
	page_pool_put_full_netmem(pool, n, false);
	destroy_and_settle(pool);
	net_mp_close_rxq(netdev, 0, &mp);
	assert_int_equal(pp_region_provider_destroy(rp), 0);
}

static unsigned long free_pages_now(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

/*
 * The region takes what its net_iovs need, in chunks of at most 1024
 * pages (an order-10 block, the largest at 4 KiB pages): a provider of 8
 * net_iovs takes 8 pages, not a maximal block - that is 512 MiB with
 * 64 KiB pages, which a small arena cannot give at all.
 */
static void test_region_size(void **state)
{
	unsigned long chunk_max = 1024;
	const struct {
		unsigned int nr;
		unsigned long taken;
	} c[] = {
		{ 8, 8 },
		{ 100, 128 },				/* one order-7 chunk */
		{ chunk_max + 1, 2 * chunk_max },	/* two order-10 chunks */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		unsigned long free0 = free_pages_now();
		struct pp_region_provider *rp = pp_region_provider_create(dev, c[i].nr);

		assert_false(IS_ERR_OR_NULL(rp));
		assert_int_equal(free0 - free_pages_now(), c[i].taken);
		assert_int_equal(pp_region_provider_free(rp), c[i].nr);
		assert_int_equal(pp_region_provider_destroy(rp), 0);
		assert_int_equal(free_pages_now(), free0);
	}
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_net_iov_lifecycle),
		cmocka_unit_test(test_provider_fault_and_busy),
		cmocka_unit_test(test_region_size),
	};
	int ret;

	/* 32 MiB, and at least 4096 pages: test_region_size takes 2048. */
	core_test_init(max_t(size_t, 32, (4096UL << PAGE_SHIFT) >> 20), 1);
	pp_thread_register(0);
	dev = pp_device_create("mp0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	netdev = alloc_etherdev(0);
	register_netdev(netdev);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unregister_netdev(netdev);
	free_netdev(netdev);
	pp_device_destroy(dev);
	return ret;
}
