/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The DMA tracking contract (src/core/dma_track.h), for each design this
 * build has: a page is mapped if and only if it is recorded, at every step
 * of a pool's life (map, recycle, release, destroy with pages out); destroy
 * unmaps every recorded page while the device is bound, and the pages that
 * come back later are not unmapped again; a record that cannot be had
 * drops the page without leaking its mapping. A design the build does not
 * have is skipped (the setter says -EOPNOTSUPP).
 */
#include "core_test.h"

#define NR_HELD		500

/* Make @design the one of new pools; false (and a skip) if not built. */
static bool use_design(int design, int *old)
{
	*old = pp_page_pool_set_dma_tracking(design);
	if (*old == -EOPNOTSUPP) {
		print_message("design %d is not compiled into this build: skipped\n", design);
		return false;
	}
	assert_true(*old >= 0);
	return true;
}

static struct page_pool *small_pool(struct device *dev)
{
	struct page_pool_params pp = {
		.pool_size = 64,	/* a small ring: returns past it release */
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.flags = PP_FLAG_DMA_MAP,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR(pool));
	return pool;
}

/* Mapped iff recorded: the device's live mappings are the pool's records. */
static struct pp_dma_stats assert_tracked_is_mapped(struct page_pool *pool, struct device *dev,
						   int design)
{
	struct pp_page_pool_track_stats ts;
	struct pp_dma_stats ds;

	assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
	assert_int_equal(pp_dma_get_stats(dev, &ds), 0);
	assert_int_equal(ts.mode, design);
	assert_int_equal(ts.tracked, ds.live_mappings);
	return ds;
}

static void run_lifecycle(int design)
{
	struct device *dev;
	struct page_pool *pool;
	struct page *held[NR_HELD];
	struct pp_dma_stats ds;
	unsigned long unmaps;
	int old, i;

	if (!use_design(design, &old))
		skip();
	dev = pp_device_create("track0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	pool = small_pool(dev);

	for (i = 0; i < NR_HELD; i++)
		assert_non_null(held[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	ds = assert_tracked_is_mapped(pool, dev, design);
	assert_true(ds.live_mappings >= NR_HELD);

	/* Half back: the ring takes some, the rest is released (claimed). */
	for (i = 0; i < NR_HELD / 2; i++)
		page_pool_put_full_page(pool, held[i], false);
	ds = assert_tracked_is_mapped(pool, dev, design);
	assert_true(ds.unmaps >= NR_HELD / 4);

	/* Mapped again: slots and items given back are taken anew. */
	for (i = 0; i < NR_HELD / 2; i++)
		assert_non_null(held[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	assert_tracked_is_mapped(pool, dev, design);

	/* Destroy with every page out: all unmapped now, device bound. */
	page_pool_destroy(pool);
	ds = assert_tracked_is_mapped(pool, dev, design);
	assert_int_equal(ds.live_mappings, 0);
	unmaps = ds.unmaps;

	/* The late returns are not unmapped again. */
	for (i = 0; i < NR_HELD; i++)
		page_pool_put_full_page(pool, held[i], false);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.unmaps, unmaps);
	assert_int_equal(ds.maps, ds.unmaps);
	assert_int_equal(pp_dma_violations(dev), 0);

	pp_workqueue_run_all();
	assert_all_pages_home();
	pp_device_destroy(dev);
	pp_page_pool_set_dma_tracking(old);
}

static void test_lifecycle_index(void **state)
{
	(void)state;
	run_lifecycle(PP_DMA_TRACK_INDEX);
}

static void test_lifecycle_items(void **state)
{
	(void)state;
	run_lifecycle(PP_DMA_TRACK_ITEMS);
}

/* No record to be had (index: no slot; items: no item, no block): the
 * page is dropped, its mapping undone once, and nothing is recorded. */
static void run_no_record(int design)
{
	const struct pp_fault_config fail = { .next_n = 1000000 };
	struct page *held[2000];
	struct pp_page_pool_track_stats ts;
	unsigned long faults = pp_fault_count(PP_FAULT_TRACKING);
	struct pp_dma_stats ds;
	struct page_pool *pool;
	struct device *dev;
	int old, n, i;

	if (!use_design(design, &old))
		skip();
	dev = pp_device_create("track1", PP_DMA_IOMMU, PP_DMA_DEBUG);
	pool = small_pool(dev);

	/* Index: the first map fails. Items: once the preallocated items
	 * are all in use. */
	assert_int_equal(pp_fault_inject(PP_FAULT_TRACKING, &fail), 0);
	for (n = 0; n < 2000; n++) {
		held[n] = page_pool_alloc_pages(pool, GFP_ATOMIC);
		if (!held[n])
			break;
	}
	pp_fault_inject(PP_FAULT_TRACKING, NULL);
	assert_true(n < 2000);
	if (design == PP_DMA_TRACK_INDEX)
		assert_int_equal(n, 0);
	assert_true(pp_fault_count(PP_FAULT_TRACKING) > faults);
	assert_tracked_is_mapped(pool, dev, design);
	pp_page_pool_get_track_stats(pool, &ts);
	if (design == PP_DMA_TRACK_ITEMS)
		assert_true(ts.item_full > 0);

	/* And the pool works again once records can be had. */
	assert_non_null(held[n] = page_pool_alloc_pages(pool, GFP_ATOMIC));
	assert_tracked_is_mapped(pool, dev, design);
	for (i = 0; i <= n; i++)
		page_pool_put_full_page(pool, held[i], false);
	destroy_and_settle(pool);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.maps, ds.unmaps);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_all_pages_home();
	pp_device_destroy(dev);
	pp_page_pool_set_dma_tracking(old);
}

static void test_no_record_index(void **state)
{
	(void)state;
	run_no_record(PP_DMA_TRACK_INDEX);
}

static void test_no_record_items(void **state)
{
	(void)state;
	run_no_record(PP_DMA_TRACK_ITEMS);
}

/* The index table stays sparse: pages mapped and released over and over
 * reuse their slots: the table grows only when the probe from the cursor
 * finds none free, so it stays bounded. */
static void test_index_slots_reused(void **state)
{
	struct page *held[NR_HELD];
	struct pp_page_pool_track_stats ts;
	struct page_pool *pool;
	struct device *dev;
	int old, round, i;

	(void)state;
	if (!use_design(PP_DMA_TRACK_INDEX, &old))
		skip();
	dev = pp_device_create("track2", PP_DMA_DIRECT, 0);
	pool = small_pool(dev);
	for (round = 0; round < 200; round++) {
		for (i = 0; i < NR_HELD; i++)
			assert_non_null(held[i] = page_pool_alloc_pages(pool, GFP_ATOMIC));
		for (i = 0; i < NR_HELD; i++)
			page_pool_put_full_page(pool, held[i], false);
	}
	/* At most ~760 pages are mapped at once (held, cache, ring, a
	 * refill); the next-fit table settles at 6 chunks of 512 slots for
	 * them (from round 50 on, to round 2000). Growth on every busy
	 * cursor would add a chunk every round or so. */
	pp_page_pool_get_track_stats(pool, &ts);
	print_message("index table: %llu slots, %llu pages mapped now\n", ts.capacity, ts.tracked);
	assert_true(ts.capacity <= 8 * 512);
	destroy_and_settle(pool);
	assert_all_pages_home();
	pp_device_destroy(dev);
	pp_page_pool_set_dma_tracking(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lifecycle_index),
		cmocka_unit_test(test_lifecycle_items),
		cmocka_unit_test(test_no_record_index),
		cmocka_unit_test(test_no_record_items),
		cmocka_unit_test(test_index_slots_reused),
	};

	core_test_init(64, 1);
	pp_thread_register(0);
	pp_page_pool_set_defer_times(10, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
