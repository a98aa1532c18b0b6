/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Finding 2: pp_device_destroy() while a DMA-mapping pool (or a mapping
 * made with dma_map_*()) still used the device freed the struct device
 * under it: the pool's next recycle read freed memory in
 * dma_dev_need_sync(), and with DMA tracking off a late return unmapped
 * through the freed device. Now the pool holds a device reference until it
 * is freed, and a device whose mappings were not all unmapped is kept, so
 * every later call on it is a use-after-unbind report, never a use after
 * free (ASan checks the "never" in the sanitizer build).
 *
 * Every case runs on each backend (direct, IOMMU; with and without
 * PP_DMA_DEBUG) and, where a pool is involved, in each DMA tracking
 * design (index, items, off) and each ring design. Each asserts the report
 * (the destroy's WARN, the exact violations by kind) and the end state
 * (the pool freed, every page home, no page handed out twice, no violation
 * of any other kind).
 */
#include "hard.h"

#include <linux/dma-mapping.h>
#include <linux/rcupdate.h>

#define N	16

struct dev_kind {
	const char *name;
	enum pp_dma_backend backend;
	unsigned int flags;
};

static const struct dev_kind kinds[] = {
	{ "direct", PP_DMA_DIRECT, 0 },
	{ "direct-debug", PP_DMA_DIRECT, PP_DMA_DEBUG },
	{ "iommu", PP_DMA_IOMMU, 0 },
	{ "iommu-debug", PP_DMA_IOMMU, PP_DMA_DEBUG },
};

static const int trackings[] = { PP_DMA_TRACK_INDEX, PP_DMA_TRACK_ITEMS, PP_DMA_TRACK_OFF };

/* Violations on all devices, by kind, since the last snap(). */
struct vsnap {
	unsigned long kind[PP_DMA_V_NR];
};

static void snap(struct vsnap *v)
{
	int k;

	for (k = 0; k < PP_DMA_V_NR; k++)
		v->kind[k] = pp_dma_violation_count(NULL, (enum pp_dma_violation)k);
}

/* Exactly @leaks leaks at unbind and @late uses after unbind since @v;
 * nothing else (no double or unknown unmap, no bad sync). */
static void assert_violations(const struct vsnap *v, unsigned long leaks, unsigned long late)
{
	int k;

	for (k = 0; k < PP_DMA_V_NR; k++) {
		unsigned long d = pp_dma_violation_count(NULL, (enum pp_dma_violation)k) - v->kind[k];
		unsigned long want = k == PP_DMA_V_LEAK_AT_UNBIND ? leaks :
				     k == PP_DMA_V_USE_AFTER_UNBIND ? late : 0;

		if (d != want)
			print_message("%s: %lu, expected %lu\n",
				      pp_dma_violation_name((enum pp_dma_violation)k), d, want);
		assert_int_equal(d, want);
	}
}

static struct device *make_dev(const struct dev_kind *k)
{
	struct device *dev = pp_device_create(k->name, k->backend, k->flags);

	assert_false(IS_ERR_OR_NULL(dev));
	return dev;
}

static struct page_pool *make_pool(struct device *dev, int tracking)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE,
	};
	struct pp_page_pool_track_stats ts;
	struct page_pool *pool;

	assert_true(pp_test_dma_tracking(tracking));
	pool = page_pool_create(&pp);
	pp_test_dma_tracking_restore();
	assert_false(IS_ERR_OR_NULL(pool));
	assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
	assert_int_equal(ts.mode, tracking);
	return pool;
}

/* Which of trackings[] this build has; one line for each it lacks. */
static void trackings_built(bool built[ARRAY_SIZE(trackings)])
{
	size_t t;

	for (t = 0; t < ARRAY_SIZE(trackings); t++)
		built[t] = pp_test_dma_tracking(trackings[t]);
	pp_test_dma_tracking_restore();
}

/* @n pages from @pool, none twice. */
static void alloc_distinct(struct page_pool *pool, struct page **p, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		assert_non_null(p[i] = page_pool_dev_alloc_pages(pool));
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(p[i], p[j]);
	}
}

static unsigned long live_mappings(struct device *dev)
{
	struct pp_dma_stats st;

	assert_int_equal(pp_dma_get_stats(dev, &st), 0);
	return st.live_mappings;
}

/* The pool is freed (its device reference dropped) and every page is
 * home. */
static void assert_pool_gone(u32 id)
{
	struct pp_page_pool_info info;

	pp_workqueue_run_all();
	rcu_barrier();
	assert_int_equal(pp_page_pool_get_info(id, &info), -ENOENT);
	kapi_assert_all_pages_home();
}

/*
 * The driver destroys the device while its pool lives and pages are out,
 * then returns the pages and destroys the pool. The recycles sync through
 * the dead device (debug devices need their syncs), the pool's destroy
 * unmaps every page it mapped: one use after unbind each, never a read of
 * freed memory.
 */
static void destroy_under_live_pool(const struct dev_kind *k, int tracking)
{
	struct device *dev = make_dev(k);
	struct page_pool *pool = make_pool(dev, tracking);
	u32 id = pp_page_pool_id(pool);
	bool debug = k->flags & PP_DMA_DEBUG;
	struct page *p[N];
	unsigned long live;
	struct vsnap v;
	int i;

	alloc_distinct(pool, p, N);
	/* The pages out and the ones the slow path left in the cache. */
	live = live_mappings(dev);
	assert_true(live >= N);

	hard_warns();
	snap(&v);
	pp_device_destroy(dev);
	assert_int_equal(hard_warns(), 1);
	assert_true(kapi_logged("pp_device_destroy() with"));
	assert_violations(&v, debug ? live : 0, 0);
	assert_false(pp_device_is_bound(dev));	/* the pool's reference */

	for (i = 0; i < N; i++)
		page_pool_put_full_page(pool, p[i], false);
	page_pool_destroy(pool);
	assert_pool_gone(id);
	/* N syncs for the device on debug devices, one unmap per mapping. */
	assert_violations(&v, debug ? live : 0, live + (debug ? N : 0));
	assert_int_equal(hard_warns(), 0);
}

/*
 * The kernel's order (driver remove: pool destroyed with pages out, then
 * the device goes), the pages coming back later. With tracking on the
 * destroy unmapped them while the device was bound: nothing to report.
 * With tracking off (the bug DMA tracking fixes) each late return unmaps
 * through the destroyed device: reported, on every backend.
 */
static void destroy_after_pool(const struct dev_kind *k, int tracking)
{
	struct device *dev = make_dev(k);
	struct page_pool *pool = make_pool(dev, tracking);
	u32 id = pp_page_pool_id(pool);
	bool debug = k->flags & PP_DMA_DEBUG;
	bool off = tracking == PP_DMA_TRACK_OFF;
	struct page *p[N];
	unsigned long live;
	struct vsnap v;
	int i;

	alloc_distinct(pool, p, N);
	hard_warns();
	page_pool_destroy(pool);
	assert_int_equal(hard_warns(), 0);
	live = live_mappings(dev);
	assert_int_equal(live, off ? N : 0);

	snap(&v);
	pp_device_destroy(dev);
	assert_int_equal(hard_warns(), off ? 1 : 0);
	assert_violations(&v, debug ? live : 0, 0);

	for (i = 0; i < N; i++)
		page_pool_put_full_page(pool, p[i], false);
	assert_pool_gone(id);
	assert_violations(&v, debug ? live : 0, off ? N : 0);
	assert_int_equal(hard_warns(), 0);
}

static void test_destroy_under_live_pool(void **state)
{
	bool built[ARRAY_SIZE(trackings)];
	size_t k, t;

	(void)state;
	trackings_built(built);
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		for (t = 0; t < ARRAY_SIZE(trackings); t++) {
			if (!built[t])
				continue;
			print_message("%s, tracking %s\n", kinds[k].name,
				      pp_test_tracking_name(trackings[t]));
			destroy_under_live_pool(&kinds[k], trackings[t]);
		}
}

static void test_destroy_after_pool(void **state)
{
	bool built[ARRAY_SIZE(trackings)];
	size_t k, t;

	(void)state;
	trackings_built(built);
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		for (t = 0; t < ARRAY_SIZE(trackings); t++) {
			if (!built[t])
				continue;
			print_message("%s, tracking %s\n", kinds[k].name,
				      pp_test_tracking_name(trackings[t]));
			destroy_after_pool(&kinds[k], trackings[t]);
		}
}

/*
 * A driver's own mappings, live when the device is destroyed: a streaming
 * map and a coherent allocation. The late sync (debug devices need it),
 * unmap and free are reported; the coherent memory still comes home.
 */
static void test_destroy_under_user_mappings(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct device *dev = make_dev(&kinds[k]);
		bool debug = kinds[k].flags & PP_DMA_DEBUG;
		struct page *page = alloc_page(GFP_KERNEL);
		dma_addr_t addr, caddr;
		struct vsnap v;
		void *cpu;

		print_message("%s\n", kinds[k].name);
		assert_non_null(page);
		addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
		assert_false(dma_mapping_error(dev, addr));
		cpu = dma_alloc_coherent(dev, PAGE_SIZE, &caddr, GFP_KERNEL);
		assert_non_null(cpu);

		hard_warns();
		snap(&v);
		pp_device_destroy(dev);
		assert_int_equal(hard_warns(), 1);
		assert_violations(&v, debug ? 2 : 0, 0);

		dma_sync_single_for_cpu(dev, addr, 64, DMA_FROM_DEVICE);
		dma_unmap_page(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE);
		dma_free_coherent(dev, PAGE_SIZE, cpu, caddr);
		assert_violations(&v, debug ? 2 : 0, 2 + (debug ? 1 : 0));
		__free_page(page);
		assert_int_equal(hard_warns(), 0);
		kapi_assert_all_pages_home();
	}
}

/*
 * While the pool's reference keeps the device, the creator cannot bind it
 * again, and destroying it a second time is a WARN that drops no reference
 * (it would be the pool's, and the pool's own put would then free it
 * twice).
 */
static void test_destroy_twice_bind_after(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct device *dev = make_dev(&kinds[k]);
		struct page_pool *pool = make_pool(dev, pp_test_dma_tracking_current());
		u32 id = pp_page_pool_id(pool);
		struct vsnap v;

		print_message("%s\n", kinds[k].name);
		hard_warns();
		snap(&v);
		pp_device_destroy(dev);
		assert_int_equal(hard_warns(), 0);	/* nothing was mapped */
		assert_int_equal(pp_device_bind(dev), -ENODEV);
		assert_false(pp_device_is_bound(dev));
		pp_device_destroy(dev);
		assert_int_equal(hard_warns(), 1);
		assert_true(kapi_logged("already destroyed"));
		/* The pool cannot map through the dead device: each map of
		 * the slow path's bulk is reported, and the allocation fails
		 * cleanly. */
		assert_null(page_pool_dev_alloc_pages(pool));
		page_pool_destroy(pool);
		assert_pool_gone(id);
		assert_violations(&v, 0, PP_ALLOC_CACHE_REFILL);
		assert_int_equal(hard_warns(), 0);
	}
}

/*
 * A region provider maps its buffers on its device and holds it as a pool
 * does: the device destroyed under a live provider is the unbind case
 * (WARN, with PP_DMA_DEBUG a leak per chunk), and the provider's destroy
 * later unmaps through a device that is still there (use-after-unbind
 * reports, never a use after free).
 */
static void test_destroy_under_region_provider(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct device *dev = make_dev(&kinds[k]);
		struct pp_region_provider *rp = pp_region_provider_create(dev, 64);
		struct vsnap v;

		print_message("%s\n", kinds[k].name);
		assert_false(IS_ERR_OR_NULL(rp));
		hard_warns();
		snap(&v);
		pp_device_destroy(dev);
		assert_int_equal(hard_warns(), 1);
		assert_int_equal(pp_region_provider_destroy(rp), 0);
		assert_int_equal(hard_warns(), 0);
		kapi_assert_all_pages_home();
	}
}

/* More unmaps than maps on a device without PP_DMA_DEBUG (not reported
 * one by one there, as in the kernel): the last reference says so, with
 * the right sign, and keeps the memory (the count cannot tell which
 * mappings still live). */
static void test_more_unmaps_than_maps(void **state)
{
	struct device *dev = make_dev(&kinds[0]);
	struct page *page = alloc_page(GFP_KERNEL);
	dma_addr_t addr;

	(void)state;
	assert_non_null(page);
	addr = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE);
	dma_unmap_page(dev, addr, PAGE_SIZE, DMA_FROM_DEVICE);	/* twice */
	hard_warns();
	pp_device_destroy(dev);
	assert_true(kapi_logged("1 more DMA unmaps than maps"));
	assert_false(kapi_logged("-1 DMA mappings"));
	__free_page(page);
	kapi_assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_destroy_under_live_pool),
		EACH_RING(test_destroy_after_pool),
		cmocka_unit_test(test_destroy_under_user_mappings),
		cmocka_unit_test(test_destroy_twice_bind_after),
		cmocka_unit_test(test_destroy_under_region_provider),
		cmocka_unit_test(test_more_unmaps_than_maps),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
