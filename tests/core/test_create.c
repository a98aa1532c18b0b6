/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool_create() validation, one case each, with the kernel's error
 * codes, and what a valid pool looks like (ring size default and clamp,
 * flags mapped to fields, user reference, per-CPU pools).
 */
#include <errno.h>
#include <string.h>

#include <net/page_pool/memory_provider.h>

#include "core_test.h"

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

static void test_invalid_params(void **state)
{
	struct page_pool_params base = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
	};
	struct page_pool_params pp;

	(void)state;
	pp = base; pp.flags = BIT(7);				/* unknown flag */
	assert_int_equal(create_err(pp), -EINVAL);
	pp = base; pp.flags = PP_FLAG_ALL + 1;
	assert_int_equal(create_err(pp), -EINVAL);
	pp = base; pp.flags = PP_FLAG_DMA_MAP; pp.dma_dir = DMA_TO_DEVICE;
	assert_int_equal(create_err(pp), -EINVAL);		/* bad direction */
	pp = base; pp.flags = PP_FLAG_DMA_MAP; pp.dma_dir = DMA_NONE;
	assert_int_equal(create_err(pp), -EINVAL);
	pp = base; pp.flags = PP_FLAG_DMA_SYNC_DEV;		/* sync without map */
	assert_int_equal(create_err(pp), -EINVAL);
	pp = base; pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV; pp.max_len = 0;
	assert_int_equal(create_err(pp), -EINVAL);		/* sync of nothing */
	pp = base; pp.order = MAX_PAGE_ORDER + 1;
	assert_int_equal(create_err(pp), -EINVAL);		/* order too large */
	pp = base; pp.flags = PP_FLAG_DMA_MAP; pp.dev = NULL;
	assert_int_equal(create_err(pp), -EINVAL);		/* map with no device */
	pp = base; pp.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM;	/* no netdev */
	assert_int_equal(create_err(pp), -EINVAL);

	/* The valid ones next to them. */
	pp = base; pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
	assert_int_equal(create_err(pp), 0);
	pp = base; pp.flags = PP_FLAG_DMA_MAP; pp.dma_dir = DMA_BIDIRECTIONAL;
	assert_int_equal(create_err(pp), 0);
	pp = base; pp.order = MAX_PAGE_ORDER;
	assert_int_equal(create_err(pp), 0);
	assert_all_pages_home();
}

static void test_allocation_failure_is_enomem(void **state)
{
	struct page_pool_params pp = { .nid = NUMA_NO_NODE };

	(void)state;
	pp_fault_inject(PP_FAULT_KMALLOC, &(struct pp_fault_config){ .next_n = 1 });
	assert_int_equal(create_err(pp), -ENOMEM);	/* the pool struct */
	pp_fault_inject(PP_FAULT_KMALLOC, &(struct pp_fault_config){ .skip = 1, .next_n = 1 });
	assert_int_equal(create_err(pp), -ENOMEM);	/* the per-CPU stats */
	pp_fault_inject(PP_FAULT_KMALLOC, NULL);
	assert_int_equal(create_err(pp), 0);
}

static void test_ring_size(void **state)
{
	struct page_pool_params pp = { .nid = NUMA_NO_NODE };
	struct page_pool *pool;

	(void)state;
	pool = page_pool_create(&pp);
	assert_int_equal(pool->ring.size, 1024);		/* default */
	page_pool_destroy(pool);
	pp.pool_size = 100000;
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	assert_int_equal(pool->ring.size, 16384);		/* clamped */
	page_pool_destroy(pool);
	pp.pool_size = 300;
	pool = page_pool_create(&pp);
	assert_int_equal(pool->ring.size, 300);
	page_pool_destroy(pool);
}

static void test_fields(void **state)
{
	struct page_pool_params pp = {
		.pool_size = 64, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 2048, .offset = 256, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct page_pool *pool = page_pool_create(&pp);

	(void)state;
	assert_true(pool->dma_map);
	assert_true(pool->dma_sync);
	assert_true(pool->dma_sync_for_cpu);
	assert_int_equal(pool->cpuid, -1);
	assert_int_equal(refcount_read(&pool->user_cnt), 1);
	assert_int_equal(pool->p.max_len, 2048);
	assert_int_equal(pool->p.offset, 256);
	assert_int_equal(page_pool_get_dma_dir(pool), DMA_FROM_DEVICE);
	assert_true(pp_page_pool_id(pool) > 0);
	page_pool_destroy(pool);

	pool = page_pool_create_percpu(&(struct page_pool_params){ .nid = NUMA_NO_NODE,
								   .flags = PP_FLAG_SYSTEM_POOL }, 3);
	assert_false(IS_ERR(pool));
	assert_int_equal(pool->cpuid, 3);
	assert_true(pool->system);
	page_pool_destroy(pool);
	page_pool_destroy(NULL);				/* NULL-safe */
}

/* A provider whose ops live in writable memory is refused (-EFAULT);
 * one on a pool without DMA_MAP|SYNC_DEV (-EOPNOTSUPP). */
static struct memory_provider_ops writable_ops;

static void test_memory_provider_rules(void **state)
{
	struct net_device *netdev = alloc_etherdev(0);
	struct pp_region_provider *rp;
	struct pp_memory_provider_params mp = { 0 };
	struct page_pool_params pp = {
		.nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE, .netdev = netdev, .queue_idx = 0,
		.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	unsigned long warns;

	(void)state;
	assert_int_equal(register_netdev(netdev), 0);
	rp = pp_region_provider_create(dev, 16);
	assert_false(IS_ERR(rp));
	pp_region_provider_params(rp, &mp);
	assert_int_equal(net_mp_open_rxq(netdev, 0, &mp), 0);
	assert_int_equal(net_mp_open_rxq(netdev, 0, &mp), -EEXIST);
	assert_int_equal(net_mp_open_rxq(netdev, 1, &mp), -EINVAL);

	pp.flags = PP_FLAG_ALLOW_UNREADABLE_NETMEM | PP_FLAG_DMA_MAP;	/* no sync */
	assert_int_equal(create_err(pp), -EOPNOTSUPP);
	pp.flags |= PP_FLAG_DMA_SYNC_DEV;
	pp.queue_idx = 5;
	assert_int_equal(create_err(pp), -EINVAL);
	pp.queue_idx = 0;
	assert_int_equal(create_err(pp), 0);
	pp.order = 1;
	assert_int_equal(create_err(pp), -E2BIG);			/* provider's init */
	pp.order = 0;
	net_mp_close_rxq(netdev, 0, &mp);

	memcpy(&writable_ops, mp.mp_ops, sizeof(writable_ops));
	mp.mp_ops = &writable_ops;
	assert_int_equal(net_mp_open_rxq(netdev, 0, &mp), 0);
	warns = pp_warn_count();
	assert_int_equal(create_err(pp), -EFAULT);
	assert_int_equal(pp_warn_count(), warns + 1);
	net_mp_close_rxq(netdev, 0, &mp);

	assert_int_equal(pp_region_provider_destroy(rp), 0);
	unregister_netdev(netdev);
	free_netdev(netdev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_params),
		cmocka_unit_test(test_allocation_failure_is_enomem),
		cmocka_unit_test(test_ring_size),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_memory_provider_rules),
	};
	int ret;

	core_test_init(32, 1);
	dev = pp_device_create("create0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	if (pp_dma_violations(NULL)) {
		fprintf(stderr, "DMA-API violations: %lu\n", pp_dma_violations(NULL));
		ret = 1;
	}
	pp_device_destroy(dev);
	return ret;
}
