/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool_create() errors as Linux 6.12.117's page_pool_init() returns
 * them (ERR_PTR, with the kernel's "gave up with errno" message), ring
 * sizes as it chooses them, and the two checks pagepool adds where the
 * kernel would oops or fail later (a DMA-mapping pool without a device,
 * an order above MAX_PAGE_ORDER). Built as an outside user builds (run.sh).
 */
#include "kapi.h"

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/page_pool/memory_provider.h>

static struct device *dev;

static long create_err(struct page_pool_params pp)
{
	struct page_pool *pool = page_pool_create(&pp);

	if (!IS_ERR(pool)) {
		page_pool_destroy(pool);
		return 0;
	}
	return PTR_ERR(pool);
}

static void test_kernel_errors(void **state)
{
	struct page_pool_params dma = {
		.flags = PP_FLAG_DMA_MAP, .dev = dev, .nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool_params pp;

	(void)state;
	/* Only known flags. */
	pp = (struct page_pool_params){ .flags = BIT(8), .nid = NUMA_NO_NODE };
	assert_int_equal(create_err(pp), -EINVAL);
	assert_true(kapi_logged("page_pool_create_percpu() gave up with errno -22"));

	/* DMA mapping: from the device, or both ways (XDP_TX). */
	assert_int_equal(create_err(dma), 0);
	pp = dma;
	pp.dma_dir = DMA_BIDIRECTIONAL;
	assert_int_equal(create_err(pp), 0);
	pp.dma_dir = DMA_TO_DEVICE;
	assert_int_equal(create_err(pp), -EINVAL);
	pp.dma_dir = DMA_NONE;
	assert_int_equal(create_err(pp), -EINVAL);

	/* Syncing for the device needs a mapping and a length. */
	pp = dma;
	pp.flags = PP_FLAG_DMA_SYNC_DEV;
	pp.max_len = PAGE_SIZE;
	assert_int_equal(create_err(pp), -EINVAL);
	pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
	pp.max_len = 0;
	assert_int_equal(create_err(pp), -EINVAL);
	pp.max_len = PAGE_SIZE;
	assert_int_equal(create_err(pp), 0);
}

/* A memory provider needs a pool that maps and syncs: -EOPNOTSUPP. */
static void test_memory_provider_needs_dma(void **state)
{
	struct net_device *ndev = alloc_etherdev(0);
	struct pp_memory_provider_params mpp;
	struct pp_region_provider *rp;
	struct page_pool_params pp = {
		.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM, .nid = NUMA_NO_NODE,
		.dev = dev, .dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
	};

	(void)state;
	assert_non_null(ndev);
	assert_int_equal(register_netdev(ndev), 0);
	rp = pp_region_provider_create(dev, 16);
	assert_false(IS_ERR(rp));
	pp_region_provider_params(rp, &mpp);
	assert_int_equal(net_mp_open_rxq(ndev, 0, &mpp), 0);
	pp.netdev = ndev;
	pp.queue_idx = 0;

	assert_int_equal(create_err(pp), -EOPNOTSUPP);
	pp.flags |= PP_FLAG_DMA_MAP;
	assert_int_equal(create_err(pp), -EOPNOTSUPP);
	pp.flags |= PP_FLAG_DMA_SYNC_DEV;
	assert_int_equal(create_err(pp), 0);

	net_mp_close_rxq(ndev, 0, &mpp);
	assert_int_equal(pp_region_provider_destroy(rp), 0);
	unregister_netdev(ndev);
	free_netdev(ndev);
}

/* The ring: pool_size slots, 1024 for 0, at most 16384. */
static void test_ring_size(void **state)
{
	static const struct { unsigned int pool_size; int ring; } cases[] = {
		{ 0, 1024 }, { 1, 1 }, { 4, 4 }, { 256, 256 }, { 16384, 16384 },
		{ 16385, 16384 }, { 1u << 30, 16384 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct page_pool_params pp = { .pool_size = cases[i].pool_size,
					       .nid = NUMA_NO_NODE };
		struct page_pool *pool = page_pool_create(&pp);

		assert_false(IS_ERR_OR_NULL(pool));
		assert_int_equal(pool->ring.size, cases[i].ring);
		page_pool_destroy(pool);
	}
}

/* pagepool's own checks, where the kernel would crash (no device to map
 * through) or fail every allocation (an order the page allocator lacks). */
static void test_pagepool_checks(void **state)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP, .nid = NUMA_NO_NODE, .dma_dir = DMA_FROM_DEVICE,
	};

	(void)state;
	assert_int_equal(create_err(pp), -EINVAL);
	pp = (struct page_pool_params){ .order = MAX_PAGE_ORDER + 1, .nid = NUMA_NO_NODE };
	assert_int_equal(create_err(pp), -EINVAL);
	pp.order = MAX_PAGE_ORDER;
	assert_int_equal(create_err(pp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_errors),
		cmocka_unit_test(test_memory_provider_needs_dma),
		cmocka_unit_test(test_ring_size),
		cmocka_unit_test(test_pagepool_checks),
	};
	int rc;

	kapi_setup();
	dev = pp_device_create("kapi0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dev))
		return 1;
	rc = cmocka_run_group_tests_name("kernel-api/create", tests, NULL, NULL);
	kapi_assert_all_pages_home();
	if (pp_dma_violations(NULL))
		rc = 1;
	pp_device_destroy(dev);
	return rc;
}
