/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A struct device that pagepool did not create - zero-initialised, or
 * embedded in a driver's structure the way struct net_device embeds one -
 * behaves as the kernel's dma-direct for a coherent device: maps give the
 * physical address (below the DMA mask, 32 bits when none is set), syncs
 * and unmaps do nothing, coherent memory works once a coherent mask is set,
 * the pagepool calls answer without crashing, and page_pool maps its pages
 * through it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/rcupdate.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "dma_test.h"

/* What a driver structure embedding a device looks like. */
struct fake_netdev {
	char name[16];
	unsigned long state;
	struct device dev;
	int ifindex;
};

static void test_bare_maps(void **state)
{
	struct device dev = { 0 };
	struct page *page = dma_test_page(1);
	unsigned long warns = pp_warn_count();
	unsigned char buf[64], back[64];
	dma_addr_t a, b;

	assert_null(to_ppdma(&dev));
	a = dma_map_page(&dev, page, 100, 2000, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(&dev, a));
	assert_int_equal(a, page_to_phys(page) + 100);
	b = dma_map_single(&dev, (char *)page_address(page) + PAGE_SIZE + 8, 64,
			   DMA_TO_DEVICE);
	assert_int_equal(b, page_to_phys(page) + PAGE_SIZE + 8);
	assert_int_equal(dma_map_phys(&dev, page_to_phys(page) + 4, 8, DMA_TO_DEVICE, 0),
			 page_to_phys(page) + 4);

	/* Never set up: the kernel's dma_skip_sync is false, so the sync
	 * calls go through, and do nothing for a coherent device. */
	assert_true(dma_dev_need_sync(&dev));
	assert_false(dma_need_sync(&dev, a));
	dma_sync_single_for_cpu(&dev, a, 2000, DMA_FROM_DEVICE);
	dma_sync_single_for_device(&dev, a, 2000, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(&dev, a, 10, 20, DMA_FROM_DEVICE);

	/* The device reaches memory at its physical address. */
	memset(buf, 0x77, sizeof(buf));
	assert_int_equal(pp_dma_device_write(&dev, a, buf, sizeof(buf)), 0);
	assert_memory_equal((char *)page_address(page) + 100, buf, sizeof(buf));
	assert_int_equal(pp_dma_device_read(&dev, b, back, sizeof(back)), 0);
	assert_memory_equal((char *)page_address(page) + PAGE_SIZE + 8, back, sizeof(back));
	assert_int_equal(pp_dma_device_write(&dev, 0x10, buf, 1), -EFAULT);

	dma_unmap_page(&dev, a, 2000, DMA_FROM_DEVICE);
	dma_unmap_single(&dev, b, 64, DMA_TO_DEVICE);
	dma_unmap_page(&dev, 0xdead000, 1, DMA_TO_DEVICE);	/* nothing to check */

	/* Bad arguments still fail as for any device. */
	assert_true(dma_mapping_error(&dev, dma_map_single(&dev, buf, 8, DMA_TO_DEVICE)));
	assert_true(pp_warn_count() > warns);
	__free_pages(page, 1);
}

/* No dma_mask: dma_get_mask()'s 32 bits. A mask set through
 * dma_coerce_mask_and_coherent() is honoured: the arena's last page lies
 * above 16 MiB, out of a 24-bit device's reach. */
static void test_bare_masks(void **state)
{
	struct device dev = { 0 };
	struct page *last = pfn_to_page(PP_PFN_OFFSET + pp_mem_map.nr_pages - 1);
	dma_addr_t a;

	assert_true(page_to_phys(last) > DMA_BIT_MASK(24));
	assert_int_equal(dma_get_mask(&dev), DMA_BIT_MASK(32));
	assert_int_equal(dma_set_mask(&dev, DMA_BIT_MASK(64)), -EIO);	/* no dma_mask */
	a = dma_map_page(&dev, last, 0, 64, DMA_TO_DEVICE);
	assert_int_equal(a, page_to_phys(last));

	assert_int_equal(dma_coerce_mask_and_coherent(&dev, DMA_BIT_MASK(24)), 0);
	assert_ptr_equal(dev.dma_mask, &dev.coherent_dma_mask);
	assert_int_equal(dma_get_mask(&dev), DMA_BIT_MASK(24));
	assert_true(dma_mapping_error(&dev, dma_map_page(&dev, last, 0, 64, DMA_TO_DEVICE)));
	assert_true(dma_addressing_limited(&dev));

	/* A bus limit below the mask wins. */
	assert_int_equal(dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
	assert_false(dma_mapping_error(&dev, dma_map_page(&dev, last, 0, 64, DMA_TO_DEVICE)));
	assert_false(dma_addressing_limited(&dev));
	dev.bus_dma_limit = DMA_BIT_MASK(24);
	assert_true(dma_mapping_error(&dev, dma_map_page(&dev, last, 0, 64, DMA_TO_DEVICE)));
	assert_true(dma_addressing_limited(&dev));
}

static void test_bare_coherent(void **state)
{
	struct device dev = { 0 };
	unsigned long warns = pp_warn_count();
	struct pp_mem_stats st0, st;
	dma_addr_t h;
	void *cpu;

	pp_mem_get_stats(&st0);
	/* No coherent mask: the kernel WARNs and cannot find memory. */
	assert_null(dma_alloc_coherent(&dev, PAGE_SIZE, &h, GFP_KERNEL));
	assert_true(pp_warn_count() > warns);

	assert_int_equal(dma_coerce_mask_and_coherent(&dev, DMA_BIT_MASK(32)), 0);
	cpu = dma_alloc_coherent(&dev, 3000, &h, GFP_KERNEL);
	assert_non_null(cpu);
	assert_int_equal(h, page_to_phys(virt_to_page(cpu)));
	assert_int_equal(((unsigned char *)cpu)[2999], 0);
	dma_free_coherent(&dev, 3000, cpu, h);

	/* Fault injection fails it cleanly. */
	assert_int_equal(pp_fault_inject(PP_FAULT_DMA_MAP,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
	assert_null(dma_alloc_coherent(&dev, PAGE_SIZE, &h, GFP_KERNEL));
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);

	/* No driver binding to release managed memory at. */
	assert_null(dmam_alloc_coherent(&dev, PAGE_SIZE, &h, GFP_KERNEL));
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st0.free_pages);
}

static void test_bare_sg(void **state)
{
	struct device dev = { 0 };
	struct page *page = dma_test_page(2);
	struct scatterlist sg[3], *s;
	int i;

	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_page(&sg[i], page + i, PAGE_SIZE, 0);
	assert_int_equal(dma_map_sg(&dev, sg, 3, DMA_BIDIRECTIONAL), 3);
	for_each_sg(sg, s, 3, i) {
		assert_int_equal(sg_dma_address(s), sg_phys(s));
		assert_int_equal(sg_dma_len(s), PAGE_SIZE);
	}
	dma_sync_sg_for_cpu(&dev, sg, 3, DMA_BIDIRECTIONAL);
	dma_unmap_sg(&dev, sg, 3, DMA_BIDIRECTIONAL);
	assert_int_equal(dma_map_resource(&dev, 0xfe000000, 4096, DMA_TO_DEVICE, 0),
			 0xfe000000);
	dma_unmap_resource(&dev, 0xfe000000, 4096, DMA_TO_DEVICE, 0);
	__free_pages(page, 2);
}

/* Everything pagepool offers on a device answers for a bare one. */
static void test_bare_pagepool_calls(void **state)
{
	struct device dev = { 0 };
	struct pp_dma_stats st;
	struct ppdma_iommu_info info;
	int k;

	assert_int_equal(pp_dma_violations(&dev), 0);
	for (k = 0; k < PP_DMA_V_NR; k++)
		assert_int_equal(pp_dma_violation_count(&dev, (enum pp_dma_violation)k), 0);
	pp_dma_get_stats(&dev, &st);
	assert_int_equal(st.maps, 0);
	pp_dma_set_trace(&dev, NULL, NULL);
	assert_true(pp_device_is_bound(&dev));
	assert_int_equal(pp_device_bind(&dev), -EINVAL);
	assert_ptr_equal(get_device(&dev), &dev);
	put_device(&dev);
	device_release_driver(&dev);
	pp_device_destroy(&dev);
	assert_int_equal(ppdma_iommu_get_info(&dev, &info), -EINVAL);
	assert_int_equal(dma_get_max_seg_size(&dev), SZ_64K);
	assert_int_equal(dma_get_seg_boundary(&dev), ULONG_MAX);
	{
		unsigned long warns = pp_warn_count();

		dma_set_max_seg_size(&dev, 4096);		/* no dma_parms */
		assert_int_equal(pp_warn_count() - warns, 1);
		assert_int_equal(dma_get_max_seg_size(&dev), SZ_64K);
	}
	assert_int_equal(dma_max_mapping_size(&dev), SIZE_MAX);
	assert_int_equal(dma_get_merge_boundary(&dev), 0);
}

/* page_pool with PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV on the device
 * embedded in a zeroed driver structure: pages mapped at their physical
 * address, syncs harmless, destroy clean. */
static void test_bare_page_pool(void **state)
{
	struct fake_netdev nd = { .name = "eth9", .ifindex = 9 };
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 64, .nid = NUMA_NO_NODE, .dev = &nd.dev,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
	};
	struct page *pages[8];
	struct page_pool *pool;
	int i;

	pp_thread_register(0);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	for (i = 0; i < 8; i++) {
		pages[i] = page_pool_dev_alloc_pages(pool);
		assert_non_null(pages[i]);
		assert_int_equal(page_pool_get_dma_addr(pages[i]), page_to_phys(pages[i]));
		page_pool_dma_sync_for_cpu(pool, pages[i], 0, 256);
	}
	for (i = 0; i < 8; i++)
		page_pool_put_full_page(pool, pages[i], false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();
	assert_int_equal(nd.ifindex, 9);		/* the neighbours untouched */
	assert_string_equal(nd.name, "eth9");
}

/* Holds the RCU callback thread: callbacks run in queue order, so the
 * ones queued after this one wait until the test opens it. */
struct rcu_gate {
	struct rcu_head rcu;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;
};

static void rcu_gate_wait(struct rcu_head *head)
{
	struct rcu_gate *g = container_of(head, struct rcu_gate, rcu);

	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void rcu_gate_open(struct rcu_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* A bare device has no reference count, so a pool on it holds none:
 * once page_pool_destroy() returned with every page home, the device is
 * its owner's again, who may free it (a driver freeing the structure
 * that embeds it; test_bare_page_pool() returning from the frame that
 * holds it). The pool's memory goes a grace period later, on the RCU
 * callback thread, and must not read the device then. Here the callbacks
 * are held until the owner's memory is in use again - as what looks like
 * a device pagepool made, with a count a late put_device() would move -
 * so the late read shows every time, instead of as the crash at process
 * exit it was when the dead stack frame held garbage at the right time. */
static void test_bare_device_gone_after_destroy(void **state)
{
	struct fake_netdev *nd = calloc(1, sizeof(*nd));
	struct pp_dma_dev *reuse = calloc(1, sizeof(*reuse));
	struct rcu_gate gate = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 64, .nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE, .max_len = PAGE_SIZE,
	};
	struct page_pool *pool;
	struct page *page;
	unsigned int ref;

	assert_non_null(nd);
	assert_non_null(reuse);
	pp.dev = &nd->dev;
	pp_thread_register(0);
	call_rcu(&gate.rcu, rcu_gate_wait);

	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	page = page_pool_dev_alloc_pages(pool);
	assert_non_null(page);
	page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);
	pp_workqueue_run_all();		/* whatever release was deferred */

	/* The owner's memory, used again. */
	refcount_set(&reuse->ref, 100);
	nd->dev.pp = reuse;
	rcu_gate_open(&gate);
	rcu_barrier();			/* the pool's free has run */
	ref = refcount_read(&reuse->ref);
	free(reuse);
	free(nd);
	assert_int_equal(ref, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_bare_maps),
		dma_test(test_bare_masks),
		dma_test(test_bare_coherent),
		dma_test(test_bare_sg),
		dma_test(test_bare_pagepool_calls),
		dma_test(test_bare_device_gone_after_destroy),
		dma_test(test_bare_page_pool),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
