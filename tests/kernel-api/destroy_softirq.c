/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * page_pool_destroy() from softirq, as the kernel's bench module does it
 * (tasklet_page_pool04_napi_aware destroys its pool inside the tasklet):
 * with no page out nothing needs waiting for, so it must not WARN and the
 * pool is gone at once - also for a NAPI-aware pool (the seeds' napi_local
 * fix waits only when pages are out) and a DMA-mapping one. With pages
 * out, waiting is impossible in atomic context (the kernel would report
 * sleeping there): one WARN, the grace periods and the DMA unmapping move
 * to the release work, and nothing is lost or unmapped twice. Built as an
 * outside user builds (run.sh).
 */
#include "kapi.h"

#include <linux/bottom_half.h>
#include <linux/dma-mapping.h>
#include <linux/netdevice.h>

static struct device *dev;

/* @napi: the NAPI instance the pool recycles directly for, given at
 * creation (page_pool_params.napi: every kernel since 6.5, where a later
 * page_pool_enable_direct_recycling() exists only since 6.17). */
static struct page_pool *make_pool(bool dma, struct napi_struct *napi)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE, .napi = napi };
	struct page_pool *pool;

	if (dma) {
		pp.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV;
		pp.dev = dev;
		pp.dma_dir = DMA_FROM_DEVICE;
		pp.max_len = PAGE_SIZE;
	}
	pool = page_pool_create(&pp);
	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

/* The bench module's tasklet04, in a softirq section on this CPU. */
static void test_napi_aware_destroyed_in_tasklet(void **state)
{
	struct napi_struct napi = { .list_owner = -1 };
	struct page_pool *pool = make_pool(false, &napi);
	unsigned long warns = pp_warn_count();
	u32 id = pp_page_pool_id(pool);
	int i;

	(void)state;
	local_bh_disable();
	napi.list_owner = smp_processor_id();
	for (i = 0; i < 1000; i++) {
		struct page *page = page_pool_alloc_pages(pool, GFP_ATOMIC);

		assert_non_null(page);
		page_pool_put_page(pool, page, -1, false);	/* napi-local */
	}
	assert_int_equal(kapi_stats(pool).recycle_stats.cached, 1000);
	page_pool_destroy(pool);
	local_bh_enable();
	assert_int_equal(pp_warn_count(), warns);
	assert_false(kapi_logged("synchronize_rcu() inside"));
	assert_false(kapi_pool_listed(id));		/* freed in destroy */
	kapi_assert_all_pages_home();
}

/* A DMA-mapping pool with pages in its cache and its ring, none out. */
static void test_dma_pool_destroyed_in_softirq(void **state)
{
	struct page_pool *pool = make_pool(true, NULL);
	unsigned long warns = pp_warn_count();
	u32 id = pp_page_pool_id(pool);
	struct page *p[8];
	struct pp_dma_stats ds;
	int i;

	(void)state;
	for (i = 0; i < 8; i++)
		p[i] = page_pool_dev_alloc_pages(pool);
	for (i = 0; i < 8; i++)
		page_pool_put_full_page(pool, p[i], false);	/* the ring */
	local_bh_disable();
	page_pool_destroy(pool);
	local_bh_enable();
	assert_int_equal(pp_warn_count(), warns);
	assert_false(kapi_pool_listed(id));
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.live_mappings, 0);
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

/* Pages out: one WARN; the release work unmaps them at once (before they
 * come back), and their late return touches no mapping. */
static void test_pages_out_destroyed_in_softirq(void **state)
{
	struct napi_struct napi = { .list_owner = -1 };
	struct page_pool *pool = make_pool(true, &napi);
	unsigned long warns = pp_warn_count();
	u32 id = pp_page_pool_id(pool);
	struct pp_dma_stats ds;
	struct page *p[4];
	int i;

	(void)state;
	napi.list_owner = smp_processor_id();
	for (i = 0; i < 4; i++)
		p[i] = page_pool_dev_alloc_pages(pool);
	napi.list_owner = -1;
	local_bh_disable();
	page_pool_destroy(pool);
	local_bh_enable();
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_true(kapi_logged("destroyed in atomic context with pages in flight"));
	assert_true(kapi_pool_listed(id));

	pp_workqueue_run_all();			/* the release work, process context */
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.live_mappings, 0);	/* unmapped while they are out */
	for (i = 0; i < 4; i++)
		page_pool_put_full_page(pool, p[i], false);
	pp_workqueue_run_all();
	assert_false(kapi_pool_listed(id));
	assert_int_equal(pp_warn_count(), warns + 1);
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

/* The same from process context: destroy waits, unmaps, no WARN. */
static void test_pages_out_destroyed_in_process_context(void **state)
{
	struct page_pool *pool = make_pool(true, NULL);
	unsigned long warns = pp_warn_count();
	u32 id = pp_page_pool_id(pool);
	struct pp_dma_stats ds;
	struct page *p[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		p[i] = page_pool_dev_alloc_pages(pool);
	page_pool_destroy(pool);
	pp_dma_get_stats(dev, &ds);
	assert_int_equal(ds.live_mappings, 0);
	assert_true(kapi_pool_listed(id));
	for (i = 0; i < 4; i++)
		page_pool_put_full_page(pool, p[i], false);
	pp_workqueue_run_all();
	assert_false(kapi_pool_listed(id));
	assert_int_equal(pp_warn_count(), warns);
	assert_int_equal(pp_dma_violations(dev), 0);
	kapi_assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_napi_aware_destroyed_in_tasklet),
		cmocka_unit_test(test_dma_pool_destroyed_in_softirq),
		cmocka_unit_test(test_pages_out_destroyed_in_softirq),
		cmocka_unit_test(test_pages_out_destroyed_in_process_context),
	};
	int rc;

	kapi_setup();
	dev = pp_device_create("kapi0", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dev))
		return 1;
	rc = cmocka_run_group_tests_name("kernel-api/destroy", tests, NULL, NULL);
	pp_device_destroy(dev);
	return rc;
}
