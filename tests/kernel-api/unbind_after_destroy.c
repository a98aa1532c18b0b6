/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The seeds' IOMMU crash at driver unbind, in the kernel's API only: a
 * pool maps its pages on an IOMMU device, "the stack" (another thread)
 * still holds pages when the driver calls page_pool_destroy() and the
 * device unbinds (device_release_driver(): the IOMMU domain is gone), and
 * the pages come back afterwards. A page_pool without DMA tracking unmaps
 * those late pages through the detached domain - the crash, which the
 * simulated IOMMU reports as use-after-unbind DMA-API violations. With
 * tracking (upstream v6.15's index in pp_magic, backported to 6.12.y in
 * 6.12.117's page_pool.c: pool->dma_mapped, page_pool_scrub() unmapping
 * what is still mapped), destroy unmaps them while the device is bound and
 * the late returns touch no mapping.
 *
 * Expected here: no violation, every mapping unmapped once before the
 * unbind, every page home, the pool gone - on pagepool's core and on a
 * kernel core whose tree has the tracking. On a tree without it (6.12.y
 * before the backport) this program is the reproduction: it fails with
 * one violation per late page.
 * Built as an outside user builds (run.sh).
 */
#include "kapi.h"

#include <pthread.h>

#define HELD	40

static struct page *held[HELD];

/* The stack lets go of the pages, from a CPU of its own. */
static void *stack_returns(void *arg)
{
	int i;

	(void)arg;
	if (pp_thread_register(-1) <= 0)
		abort();
	for (i = 0; i < HELD; i++)
		page_pool_put_full_page(held[i]->pp, held[i], false);
	pp_thread_unregister();
	return NULL;
}

static void unbind_with_pages_out(unsigned int dev_flags)
{
	struct device *dev = pp_device_create("unbind0", PP_DMA_IOMMU, dev_flags);
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 2048, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct pp_dma_stats ds;
	struct page_pool *pool;
	pthread_t t;
	int i;
	u32 id;

	assert_non_null(dev);
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	id = pp_page_pool_id(pool);
	for (i = 0; i < HELD; i++)
		assert_non_null(held[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));

	page_pool_destroy(pool);		/* the driver's remove() */
	device_release_driver(dev);		/* unbind: the domain is gone */
	assert_false(pp_device_is_bound(dev));
	assert_int_equal(pthread_create(&t, NULL, stack_returns, NULL), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* The deferred release runs (the kernel's retry: 1 s, run at once). */
	kapi_settle_pool(id);
	assert_false(kapi_pool_listed(id));

	pp_dma_get_stats(dev, &ds);
	print_message("%s: %lu maps, %lu unmaps, %lu live, %lu DMA-API violations\n",
		      dev_flags & PP_DMA_DEBUG ? "DMA-API debug" : "IOMMU only",
		      ds.maps, ds.unmaps, ds.live_mappings, pp_dma_violations(dev));
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_int_equal(ds.maps, ds.unmaps);
	assert_int_equal(ds.live_mappings, 0);
	kapi_assert_all_pages_home();
	pp_device_destroy(dev);
}

/* The seed's configuration: no DMA-API debug, the IOMMU catches it. */
static void test_iommu_only(void **state)
{
	(void)state;
	unbind_with_pages_out(0);
}

/* With DMA-API debug the leak at unbind would be reported too. */
static void test_dma_debug(void **state)
{
	(void)state;
	unbind_with_pages_out(PP_DMA_DEBUG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iommu_only),
		cmocka_unit_test(test_dma_debug),
	};

	kapi_setup();
	return pp_test_run_group_name("kernel-api/unbind_after_destroy", tests, NULL, NULL);
}
