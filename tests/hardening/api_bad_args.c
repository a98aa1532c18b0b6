/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pagepool's own API: pp_page_pool_get_info(id, NULL),
 * pp_page_pool_dump_json(NULL), pp_page_pool_get_track_stats(NULL, ...)
 * and others crashed on a NULL argument. Every exported pp_* function of
 * <pagepool/core.h> and <pagepool/dma.h> is called here with each NULL,
 * ERR_PTR() (an unchecked create) and out-of-range argument it takes: the
 * error its header lists, never a crash, no WARN, nothing leaked, no
 * DMA-API violation. page_pool_get_stats() answers false for NULL, as the
 * kernel's.
 */
#include "hard.h"

#include <linux/err.h>
#include <net/netdev_rx_queue.h>

#define BAD_PTR(type)	((type *)ERR_PTR(-ENOMEM))

static struct page_pool *make_pool(struct device *dev)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static int count_cb(const struct pp_page_pool_info *info, void *arg)
{
	(void)info;
	++*(int *)arg;
	return 0;
}

/* The end state every test checks: no WARN, no violation, pages home. */
static unsigned long v0;

static int start(void **state)
{
	(void)state;
	hard_warns();
	v0 = pp_dma_violations(NULL);
	return 0;
}

static int finish(void **state)
{
	(void)state;
	assert_int_equal(hard_warns(), 0);
	assert_int_equal(pp_dma_violations(NULL), v0);
	kapi_assert_all_pages_home();
	return 0;
}

/*
 * A design setter's contract: -EINVAL for no design, -EOPNOTSUPP for one
 * this build does not compile in (meson -Ddesigns, -Dring, -Ddma_tracking;
 * <generated/autoconf.h> says which), else the previous design - and the
 * next pool has the design set. A refusal changes nothing.
 */
static void test_core_knobs(void **state)
{
	static const int rings[] = { PP_RING_LANES, PP_RING_PTR_RING };
	static const int trackings[] = { PP_DMA_TRACK_INDEX, PP_DMA_TRACK_ITEMS,
					 PP_DMA_TRACK_OFF };
	struct device *dev = pp_device_create("bad-args-knobs", PP_DMA_DIRECT, 0);
	struct pp_page_pool_track_stats ts;
	struct page_pool *pool;
	int prev, r;
	size_t i;

	(void)state;
	assert_false(IS_ERR_OR_NULL(dev));
	/* The build's selected designs are always in. */
	prev = CONFIG_PAGEPOOL_RING_DEFAULT;
	assert_true(pp_page_pool_set_ring_mode(prev) >= 0);
	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		r = pp_page_pool_set_ring_mode(rings[i]);
		print_message("ring %s: %d\n", pp_test_ring_name(rings[i]), r);
		if (!pp_test_ring_built(rings[i])) {
			assert_int_equal(r, -EOPNOTSUPP);
			continue;
		}
		assert_int_equal(r, prev);
		prev = rings[i];
		pool = make_pool(dev);
		/* A lanes pool has its lanes; a ptr_ring pool none. */
		assert_int_equal(pool->lanes != NULL, rings[i] == PP_RING_LANES);
		page_pool_destroy(pool);
	}
	assert_int_equal(pp_page_pool_set_ring_mode(-1), -EINVAL);
	assert_int_equal(pp_page_pool_set_ring_mode(99), -EINVAL);
	/* Unchanged by the refusals. */
	assert_int_equal(pp_page_pool_set_ring_mode(CONFIG_PAGEPOOL_RING_DEFAULT), prev);

	prev = CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT;
	assert_true(pp_page_pool_set_dma_tracking(prev) >= 0);
	for (i = 0; i < ARRAY_SIZE(trackings); i++) {
		r = pp_page_pool_set_dma_tracking(trackings[i]);
		print_message("tracking %s: %d\n", pp_test_tracking_name(trackings[i]), r);
		if (!pp_test_tracking_built(trackings[i])) {
			assert_int_equal(r, -EOPNOTSUPP);
			continue;
		}
		assert_int_equal(r, prev);
		prev = trackings[i];
		pool = make_pool(dev);
		assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
		assert_int_equal(ts.mode, trackings[i]);
		page_pool_destroy(pool);
	}
	assert_int_equal(pp_page_pool_set_dma_tracking(-1), -EINVAL);
	assert_int_equal(pp_page_pool_set_dma_tracking(99), -EINVAL);
	assert_int_equal(pp_page_pool_set_dma_tracking(CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT), prev);

	/* The fixes: switchable in an all-designs build only; elsewhere
	 * always on, whatever is asked. */
	assert_int_equal(pp_page_pool_set_fixes(0), PP_FIX_NAPI_LOCAL_RCU);
	assert_int_equal(pp_page_pool_set_fixes(PP_FIX_NAPI_LOCAL_RCU),
			 IS_ENABLED(CONFIG_PAGEPOOL_FIX_SWITCHES) ? 0 : PP_FIX_NAPI_LOCAL_RCU);

	/* 0 keeps a value. */
	pp_page_pool_set_defer_times(0, 0);
	r = pp_page_pool_set_test_hook(NULL, NULL);	/* removes none */
	assert_true(r == 0 || r == -EOPNOTSUPP);
	pp_workqueue_run_all();
	pp_device_destroy(dev);
}

static void test_core_introspection(void **state)
{
	struct device *dev = pp_device_create("bad-args", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct pp_page_pool_track_stats ts;
	struct pp_page_pool_misuse m;
	struct pp_page_pool_info info;
	struct page_pool_stats st;
	struct page_pool *pool;
	FILE *ro;
	u32 id;
	int n = 0;

	(void)state;
	assert_false(IS_ERR_OR_NULL(dev));
	pool = make_pool(dev);
	id = pp_page_pool_id(pool);
	assert_int_not_equal(id, 0);

	assert_int_equal(pp_page_pool_id(NULL), 0);
	assert_int_equal(pp_page_pool_id(BAD_PTR(struct page_pool)), 0);

	assert_int_equal(pp_page_pool_get_info(id, NULL), -EINVAL);
	assert_int_equal(pp_page_pool_get_info(0, &info), -ENOENT);
	assert_int_equal(pp_page_pool_get_info(id, &info), 0);
	assert_int_equal(info.id, id);

	memset(&st, 0, sizeof(st));
	assert_int_equal(pp_page_pool_get_stats_by_id(id, NULL), -EINVAL);
	assert_int_equal(pp_page_pool_get_stats_by_id(0, &st), -ENOENT);
	assert_int_equal(pp_page_pool_get_stats_by_id(id, &st), 0);
	/* The kernel's answer for NULL stats; a NULL pool likewise. */
	assert_false(page_pool_get_stats(pool, NULL));
	assert_false(page_pool_get_stats(NULL, &st));
	assert_true(page_pool_get_stats(pool, &st));

	assert_int_equal(pp_page_pool_for_each(NULL, NULL), -EINVAL);
	assert_int_equal(pp_page_pool_for_each(count_cb, &n), 0);
	assert_true(n >= 1);

	assert_int_equal(pp_page_pool_dump_json(NULL), -EINVAL);
	/* A stream that cannot be written: the dump says it is incomplete. */
	ro = fopen("/dev/null", "r");
	assert_non_null(ro);
	assert_int_equal(pp_page_pool_dump_json(ro), -EIO);
	fclose(ro);

	assert_int_equal(pp_page_pool_get_track_stats(NULL, &ts), -EINVAL);
	assert_int_equal(pp_page_pool_get_track_stats(BAD_PTR(struct page_pool), &ts), -EINVAL);
	assert_int_equal(pp_page_pool_get_track_stats(pool, NULL), -EINVAL);
	assert_int_equal(pp_page_pool_get_track_stats(pool, &ts), 0);
	assert_int_equal(ts.mode, CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT);

	assert_int_equal(pp_page_pool_get_misuse(NULL), -EINVAL);
	assert_int_equal(pp_page_pool_get_misuse(&m), 0);

	page_pool_destroy(pool);
	pp_device_destroy(dev);
}

static void test_region_provider(void **state)
{
	struct device *dev = pp_device_create("bad-args-mp", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct pp_memory_provider_params mpp;
	struct pp_region_provider *rp;
	struct page *page;

	(void)state;
	assert_false(IS_ERR_OR_NULL(dev));
	assert_int_equal(PTR_ERR(pp_region_provider_create(NULL, 8)), -EINVAL);
	assert_int_equal(PTR_ERR(pp_region_provider_create(BAD_PTR(struct device), 8)), -EINVAL);
	assert_int_equal(PTR_ERR(pp_region_provider_create(dev, 0)), -EINVAL);

	rp = pp_region_provider_create(dev, 8);
	assert_false(IS_ERR_OR_NULL(rp));
	assert_int_equal(pp_region_provider_params(NULL, &mpp), -EINVAL);
	assert_int_equal(pp_region_provider_params(BAD_PTR(struct pp_region_provider), &mpp),
			 -EINVAL);
	assert_int_equal(pp_region_provider_params(rp, NULL), -EINVAL);
	assert_int_equal(pp_region_provider_params(rp, &mpp), 0);

	assert_int_equal(pp_region_provider_free(NULL), 0);
	assert_int_equal(pp_region_provider_free(BAD_PTR(struct pp_region_provider)), 0);
	assert_int_equal(pp_region_provider_free(rp), 8);

	/* A page is none of the provider's buffers. */
	page = alloc_page(GFP_KERNEL);
	assert_non_null(page);
	assert_null(pp_region_provider_addr(NULL, page_to_netmem(page)));
	assert_null(pp_region_provider_addr(BAD_PTR(struct pp_region_provider),
					    page_to_netmem(page)));
	assert_null(pp_region_provider_addr(rp, page_to_netmem(page)));
	__free_page(page);

	assert_int_equal(pp_region_provider_destroy(NULL), -EINVAL);
	assert_int_equal(pp_region_provider_destroy(BAD_PTR(struct pp_region_provider)), -EINVAL);
	assert_int_equal(pp_region_provider_destroy(rp), 0);
	pp_device_destroy(dev);
}

static void trace_fn(struct device *dev, enum pp_dma_op op, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, void *arg)
{
	(void)dev; (void)op; (void)addr; (void)size; (void)dir;
	++*(int *)arg;
}

static void test_dma_devices(void **state)
{
	struct device *bad = BAD_PTR(struct device);
	struct device bare;
	struct pp_dma_stats st;
	struct device *dev;
	char buf[64] = { 0 };
	int traced = 0;

	(void)state;
	memset(&bare, 0, sizeof(bare));
	assert_int_equal(PTR_ERR(pp_device_create("x", (enum pp_dma_backend)99, 0)), -EINVAL);
	assert_int_equal(PTR_ERR(pp_device_create("x", PP_DMA_DIRECT, 0x100)), -EINVAL);
	dev = pp_device_create(NULL, PP_DMA_IOMMU, PP_DMA_DEBUG);	/* named "dmaN" */
	assert_false(IS_ERR_OR_NULL(dev));

	assert_int_equal(pp_device_bind(NULL), -EINVAL);
	assert_int_equal(pp_device_bind(bad), -EINVAL);
	assert_int_equal(pp_device_bind(&bare), -EINVAL);
	assert_int_equal(pp_device_bind(dev), -EBUSY);

	assert_false(pp_device_is_bound(NULL));
	assert_false(pp_device_is_bound(bad));
	assert_true(pp_device_is_bound(&bare));
	assert_true(pp_device_is_bound(dev));

	assert_int_equal(pp_dma_get_stats(dev, NULL), -EINVAL);
	assert_int_equal(pp_dma_get_stats(NULL, &st), -EINVAL);
	assert_int_equal(pp_dma_get_stats(bad, &st), -EINVAL);
	assert_int_equal(pp_dma_get_stats(&bare, &st), 0);
	assert_int_equal(st.maps, 0);
	assert_int_equal(pp_dma_get_stats(dev, &st), 0);

	pp_dma_set_trace(NULL, trace_fn, &traced);
	pp_dma_set_trace(bad, trace_fn, &traced);
	pp_dma_set_trace(&bare, trace_fn, &traced);

	assert_int_equal(pp_dma_device_write(NULL, 0x1000, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_write(bad, 0x1000, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_write(dev, 0x1000, NULL, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_write(&bare, 0x1000, NULL, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_read(NULL, 0x1000, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_read(bad, 0x1000, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_dma_device_read(dev, 0x1000, NULL, sizeof(buf)), -EINVAL);
	/* Nothing mapped there: a device fault, not DMA-API misuse. */
	assert_int_equal(pp_dma_device_read(dev, 0x1000, buf, sizeof(buf)), -EFAULT);
	assert_int_equal(traced, 0);

	pp_device_destroy(NULL);
	pp_device_destroy(bad);
	pp_device_destroy(&bare);
	pp_device_destroy(dev);
}

static void test_dma_counts(void **state)
{
	struct device *bad = BAD_PTR(struct device);
	struct device bare;
	struct device *dev = pp_device_create("bad-args-v", PP_DMA_DIRECT, PP_DMA_DEBUG);

	(void)state;
	memset(&bare, 0, sizeof(bare));
	assert_false(IS_ERR_OR_NULL(dev));
	assert_int_equal(pp_dma_violations(bad), 0);
	assert_int_equal(pp_dma_violations(&bare), 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	assert_int_equal(pp_dma_violation_count(NULL, PP_DMA_V_NR), 0);
	assert_int_equal(pp_dma_violation_count(dev, (enum pp_dma_violation)-1), 0);
	assert_int_equal(pp_dma_violation_count(bad, PP_DMA_V_DOUBLE_UNMAP), 0);
	assert_int_equal(pp_dma_violation_count(&bare, PP_DMA_V_DOUBLE_UNMAP), 0);
	assert_string_equal(pp_dma_violation_name(PP_DMA_V_NR), "unknown");
	assert_string_equal(pp_dma_violation_name((enum pp_dma_violation)-1), "unknown");
	assert_string_equal(pp_dma_violation_name(PP_DMA_V_DOUBLE_UNMAP), "double-unmap");
	pp_device_destroy(dev);
}

/* page_pool_create() with the unchecked result of a failed
 * pp_device_create() as its device: -EINVAL, as for NULL. */
static void test_create_err_ptr_dev(void **state)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP,
		.pool_size = 64,
		.nid = NUMA_NO_NODE,
		.dma_dir = DMA_FROM_DEVICE,
	};
	struct page_pool *pool;

	(void)state;
	pp.dev = ERR_PTR(-ENOMEM);
	pool = page_pool_create(&pp);
	assert_true(IS_ERR(pool));
	assert_int_equal(PTR_ERR(pool), -EINVAL);
	pp.dev = NULL;
	pool = page_pool_create(&pp);
	assert_int_equal(PTR_ERR(pool), -EINVAL);
	kapi_assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_core_knobs, start, finish),
		cmocka_unit_test_setup_teardown(test_core_introspection, start, finish),
		cmocka_unit_test_setup_teardown(test_region_provider, start, finish),
		cmocka_unit_test_setup_teardown(test_dma_devices, start, finish),
		cmocka_unit_test_setup_teardown(test_dma_counts, start, finish),
		cmocka_unit_test_setup_teardown(test_create_err_ptr_dev, start, finish),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
