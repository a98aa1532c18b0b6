/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The seeds' IOMMU crash at driver unbind ("kernel crash at
 * iommu_get_dma_domain"), reproduced: a pool on an IOMMU device, "the
 * stack" (another thread) holds pages past page_pool_destroy(), the driver
 * unbinds (device_release_driver: the IOMMU domain goes away), and the
 * pages come back later. Without DMA tracking they are unmapped through
 * the detached domain: use-after-unbind violations (the crash). With
 * either tracking design, destroy unmapped them while the device was
 * bound; the late returns touch nothing: zero violations, every mapping
 * unmapped exactly once, every page home.
 */
#include <pthread.h>

#include "core_test.h"

#define HELD	40

struct stack_thread {
	struct page *pages[HELD];
	int n;
};

static void *stack_return(void *arg)
{
	struct stack_thread *s = arg;
	int i;

	for (i = 0; i < s->n; i++)
		page_pool_put_full_page(page_pool_to_pp(s->pages[i]), s->pages[i], false);
	return NULL;
}

/* Returns the DMA-API violations seen on the device. */
static unsigned long run_unbind(int tracking, unsigned int dev_flags)
{
	struct device *dev = pp_device_create("unbind0", PP_DMA_IOMMU, dev_flags);
	struct page_pool_params pp = {
		.pool_size = 256, .nid = NUMA_NO_NODE, .dev = dev, .dma_dir = DMA_FROM_DEVICE,
		.max_len = 2048, .flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
	};
	struct stack_thread s = { .n = HELD };
	struct pp_page_pool_info info;
	struct pp_dma_stats ds;
	struct page_pool *pool;
	unsigned long v;
	int i;
	u32 id;

	/* (The caller checked that the build has @tracking.) */
	assert_true(pp_test_dma_tracking(tracking));
	pool = page_pool_create(&pp);
	assert_false(IS_ERR(pool));
	id = pp_page_pool_id(pool);
	for (i = 0; i < HELD; i++)
		s.pages[i] = page_pool_alloc_pages(pool, GFP_ATOMIC);

	page_pool_destroy(pool);		/* the driver's remove() */
	device_release_driver(dev);		/* unbind: the domain is gone */
	assert_false(pp_device_is_bound(dev));
	pp_test_run_thread(stack_return, &s);	/* the stack lets go, later */
	for (i = 0; i < 100 && !pp_page_pool_get_info(id, &info); i++)
		pp_workqueue_run_all();
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);

	v = pp_dma_violations(dev);
	pp_dma_get_stats(dev, &ds);
	if (!v) {
		/* every mapping unmapped exactly once, before the unbind */
		assert_int_equal(ds.maps, ds.unmaps);
		assert_int_equal(ds.live_mappings, 0);
	}
	assert_all_pages_home();
	pp_device_destroy(dev);
	pp_test_dma_tracking_restore();
	return v;
}

static void test_crash_reproduced_without_tracking(void **state)
{
	(void)state;
	PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_OFF);
	/* The seed's configuration: no DMA debug, the IOMMU catches it. */
	assert_true(run_unbind(PP_DMA_TRACK_OFF, 0) >= HELD);
	/* With DMA-API debug: the leak at unbind is reported too. */
	assert_true(run_unbind(PP_DMA_TRACK_OFF, PP_DMA_DEBUG) >= HELD);
}

static void test_fixed_with_index_tracking(void **state)
{
	(void)state;
	PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_INDEX);
	assert_int_equal(run_unbind(PP_DMA_TRACK_INDEX, 0), 0);
	assert_int_equal(run_unbind(PP_DMA_TRACK_INDEX, PP_DMA_DEBUG), 0);
}

static void test_fixed_with_item_tracking(void **state)
{
	(void)state;
	PP_TEST_NEEDS_DMA_TRACKING(PP_DMA_TRACK_ITEMS);
	assert_int_equal(run_unbind(PP_DMA_TRACK_ITEMS, 0), 0);
	assert_int_equal(run_unbind(PP_DMA_TRACK_ITEMS, PP_DMA_DEBUG), 0);
}

/* page_pool_to_pp() works under every design. */
static void test_page_to_pool_every_design(void **state)
{
	int modes[] = { PP_DMA_TRACK_INDEX, PP_DMA_TRACK_ITEMS, PP_DMA_TRACK_OFF };
	struct device *dev = pp_device_create("p2p", PP_DMA_DIRECT, PP_DMA_DEBUG);
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct pp_page_pool_track_stats ts;
		struct page_pool *pool;
		struct page *p;

		if (!pp_test_dma_tracking(modes[i]))
			continue;
		pool = make_pool(PP_FLAG_DMA_MAP, dev, 0);
		assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
		assert_int_equal(ts.mode, modes[i]);
		p = page_pool_alloc_pages(pool, GFP_ATOMIC);
		assert_ptr_equal(page_pool_to_pp(p), pool);
		assert_true(page_pool_page_is_pp(p));
		page_pool_put_full_page(pool, p, false);
		destroy_and_settle(pool);
	}
	pp_test_dma_tracking_restore();
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
	pp_device_destroy(dev);
}

/* Tracking grows without limit (the seeds' slow items, the index table's
 * chunks) and its memory per page is what docs/DMA_SAFETY.md states. */
static void test_unlimited_inflight(void **state)
{
	int modes[] = { PP_DMA_TRACK_INDEX, PP_DMA_TRACK_ITEMS };
	struct device *dev = pp_device_create("many", PP_DMA_DIRECT, 0);
	unsigned int i;
	int k;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct pp_page_pool_track_stats ts;
		struct page *held[3000];
		struct page_pool *pool;

		if (!pp_test_dma_tracking(modes[i]))
			continue;
		pool = make_pool(PP_FLAG_DMA_MAP, dev, 0);	/* ring 1024 */
		for (k = 0; k < 3000; k++) {
			held[k] = page_pool_alloc_pages(pool, GFP_ATOMIC);
			assert_non_null(held[k]);
		}
		assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
		assert_int_equal(ts.mode, modes[i]);
		assert_true(ts.capacity >= 3000);
		if (modes[i] == PP_DMA_TRACK_INDEX) {
			assert_true(ts.tracked >= 3000);
			assert_int_equal(ts.bytes_per_slot, 8);
		} else {
			assert_true(ts.item_fast_empty > 0);	/* slow items were needed */
			assert_int_equal(ts.item_full, 0);
			assert_int_equal(ts.bytes_per_slot, 16);
		}
		print_message("%s: %llu slots, %llu bytes (%.2f per tracked page)\n",
			      pp_test_tracking_name(modes[i]),
			      ts.capacity, ts.bytes, (double)ts.bytes / 3064.0);
		for (k = 0; k < 3000; k++)
			page_pool_put_full_page(pool, held[k], false);
		destroy_and_settle(pool);
	}
	pp_test_dma_tracking_restore();
	assert_all_pages_home();
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crash_reproduced_without_tracking),
		cmocka_unit_test(test_fixed_with_index_tracking),
		cmocka_unit_test(test_fixed_with_item_tracking),
		cmocka_unit_test(test_page_to_pool_every_design),
		cmocka_unit_test(test_unlimited_inflight),
	};

	core_test_init(64, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(10, 0);
	return pp_test_run_group(tests, NULL, NULL);
}
