/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Driver unbind: the seed's crash ("kernel crash at iommu_get_dma_domain",
 * a page unmapped through a device whose driver already unbound) reported
 * as a use-after-unbind violation instead. Covered: the IOMMU without
 * debug (where the kernel crashes), with debug, the direct backend with
 * and without debug (where nothing can tell without debug), device access
 * after unbind, leaks at unbind, rebinding to a fresh domain, and
 * destroying a device that still has mappings.
 */
#include <stdio.h>

#include "dma_test.h"

/* The seed scenario: page_pool_destroy() left pages in flight; the driver
 * unbinds; the pages come back later and are unmapped. */
static void test_seed_iommu_no_debug(void **state)
{
	struct device *dev = dma_test_dev("hns3vf", PP_DMA_IOMMU, 0);
	unsigned long tables = ppdma_iommu_live_tables();
	unsigned long warns;
	struct page *pages[16];
	dma_addr_t addr[16];
	struct vsnap vs;
	unsigned int i;
	char c = 0;

	for (i = 0; i < 16; i++) {
		pages[i] = dma_test_page(0);
		addr[i] = dma_map_page_attrs(dev, pages[i], 0, PAGE_SIZE, DMA_FROM_DEVICE,
					     DMA_ATTR_SKIP_CPU_SYNC);
		assert_false(dma_mapping_error(dev, addr[i]));
	}
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	/* No debug: leaks are not reported, but the domain is gone. */
	assert_no_violations(&vs, dev);
	assert_false(dma_test_iommu(dev).attached);
	assert_true(ppdma_iommu_live_tables() < tables);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);

	/* The in-flight pages return: each unmap is reported, none crashes
	 * or reaches a backend. */
	warns = pp_warn_count();
	for (i = 0; i < 16; i++) {
		dma_unmap_page_attrs(dev, addr[i], PAGE_SIZE, DMA_FROM_DEVICE,
				     DMA_ATTR_SKIP_CPU_SYNC);
		assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, i + 1);
	}
	assert_int_equal(pp_test_log_count("DMA-API: hns3vf: use-after-unbind: device driver unmaps"), 16);
	assert_int_equal(pp_warn_count(), warns);
	assert_int_equal(dma_test_stats(dev).unmaps, 0);

	vsnap_take(&vs, dev);
	__dma_sync_single_for_device(dev, addr[0], 64, DMA_FROM_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	__dma_sync_single_for_cpu(dev, addr[0], 64, DMA_FROM_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 2);
	assert_true(dma_mapping_error(dev, dma_map_page(dev, pages[0], 0, 64,
							DMA_FROM_DEVICE)));
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 3);
	assert_int_equal(dma_test_stats(dev).map_errors, 1);
	/* The device itself is dead too. */
	assert_int_equal(pp_dma_device_write(dev, addr[0], &c, 1), -ENODEV);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 4);
	assert_int_equal(pp_dma_device_read(dev, addr[0], &c, 1), -ENODEV);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 5);
	assert_true(pp_test_log_contains("DMA-API: hns3vf: use-after-unbind: device writes"));

	for (i = 0; i < 16; i++)
		__free_page(pages[i]);
	pp_device_destroy(dev);
}

static void test_iommu_debug(void **state)
{
	struct device *dev = dma_test_dev("iommu-dbg", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	dma_addr_t a, b;
	struct vsnap vs;

	a = dma_map_page(dev, page, 0, 100, DMA_TO_DEVICE);
	b = dma_map_page(dev, page, 200, 100, DMA_TO_DEVICE);
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 2);

	vsnap_take(&vs, dev);
	dma_unmap_page(dev, a, 100, DMA_TO_DEVICE);
	dma_unmap_page(dev, b, 100, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 2);

	__free_page(page);
	pp_device_destroy(dev);
}

/* Direct without debug: no state to tell a late unmap from a good one, so
 * nothing is reported (as in the kernel); a map still fails. Device access
 * is reported on every backend. */
static void test_direct_no_debug(void **state)
{
	struct device *dev = dma_test_dev("direct", PP_DMA_DIRECT, 0);
	struct page *page = dma_test_page(0);
	struct vsnap vs;
	dma_addr_t addr;
	char c = 0;

	addr = dma_map_page(dev, page, 0, 100, DMA_TO_DEVICE);
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	dma_unmap_page(dev, addr, 100, DMA_TO_DEVICE);
	__dma_sync_single_for_cpu(dev, addr, 100, DMA_TO_DEVICE);
	assert_no_violations(&vs, dev);
	assert_true(dma_mapping_error(dev, dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE)));
	assert_no_violations(&vs, dev);
	assert_int_equal(dma_test_stats(dev).map_errors, 1);
	assert_int_equal(dma_test_stats(dev).unmaps, 0);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);

	assert_int_equal(pp_dma_device_read(dev, addr, &c, 1), -ENODEV);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);

	__free_page(page);
	pp_device_destroy(dev);
}

static void test_direct_debug(void **state)
{
	struct device *dev = dma_test_dev("direct-dbg", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	struct vsnap vs;
	dma_addr_t addr;

	addr = dma_map_page(dev, page, 0, 100, DMA_TO_DEVICE);
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 1);
	vsnap_take(&vs, dev);
	dma_unmap_page(dev, addr, 100, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	assert_true(pp_test_log_contains("DMA-API: direct-dbg: use-after-unbind: "));

	__free_page(page);
	pp_device_destroy(dev);
}

/* After a rebind, an address from the old binding means nothing: without
 * debug the IOMMU WARNs (the kernel's "unmapped != size") and changes
 * nothing; with debug it is an unknown unmap. */
static void test_rebind_stale_address(void **state)
{
	int debug;

	for (debug = 0; debug < 2; debug++) {
		struct device *dev = dma_test_dev("stale", PP_DMA_IOMMU,
						  debug ? PP_DMA_DEBUG : 0);
		struct page *page = dma_test_page(0);
		unsigned long warns;
		dma_addr_t old, fresh;
		struct vsnap vs;
		char c = 0;

		dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		old = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		device_release_driver(dev);
		assert_int_equal(pp_device_bind(dev), 0);
		fresh = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		assert_false(dma_mapping_error(dev, fresh));
		assert_int_not_equal(fresh, old);
		assert_int_equal(pp_dma_device_write(dev, old, &c, 1), -EFAULT);

		vsnap_take(&vs, dev);
		warns = pp_warn_count();
		dma_unmap_page(dev, old, 64, DMA_FROM_DEVICE);
		if (debug) {
			assert_violations(&vs, dev, PP_DMA_V_UNKNOWN_UNMAP, 1);
			assert_int_equal(pp_warn_count(), warns);
		} else {
			assert_no_violations(&vs, dev);
			assert_int_equal(pp_warn_count() - warns, 1);
		}
		/* The fresh mapping is untouched. */
		assert_int_equal(dma_test_iommu(dev).iova_used, 1);
		assert_int_equal(pp_dma_device_write(dev, fresh, &c, 1), 0);
		dma_unmap_page(dev, fresh, 64, DMA_FROM_DEVICE);
		assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		assert_int_equal(dma_test_stats(dev).unmaps, 1);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

/* Destroying a device with live mappings unbinds it first: leaks are
 * reported, the domain freed. */
static void test_destroy_with_mappings(void **state)
{
	struct device *dev = dma_test_dev("gone", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long tables = ppdma_iommu_live_tables();
	struct page *page = dma_test_page(0);
	struct vsnap vs;

	dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	dma_map_page(dev, page, 64, 64, DMA_FROM_DEVICE);
	dma_map_page(dev, page, 128, 64, DMA_FROM_DEVICE);
	vsnap_take(&vs, NULL);
	pp_device_destroy(dev);
	assert_violations(&vs, NULL, PP_DMA_V_LEAK_AT_UNBIND, 3);
	assert_int_equal(ppdma_iommu_live_tables(), tables - 1);
	__free_page(page);
}

/* A reference taken with get_device() keeps the struct device, not the
 * driver: this is exactly the state of the seed (page_pool held the
 * device, the IOMMU domain was gone). */
static void test_reference_outlives_driver(void **state)
{
	struct device *dev = dma_test_dev("held", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	struct device *held = get_device(dev);
	struct vsnap vs;
	dma_addr_t addr;

	addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	pp_device_destroy(dev);
	vsnap_take(&vs, held);
	dma_unmap_page(held, addr, 64, DMA_FROM_DEVICE);
	assert_violations(&vs, held, PP_DMA_V_USE_AFTER_UNBIND, 1);
	put_device(held);
	__free_page(page);
}

static void test_last_put_unbinds(void **state)
{
	struct device *dev = dma_test_dev("put", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	struct vsnap vs;

	dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	vsnap_take(&vs, NULL);
	put_device(dev);	/* the creator's reference, without destroy */
	assert_violations(&vs, NULL, PP_DMA_V_LEAK_AT_UNBIND, 1);
	__free_page(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_seed_iommu_no_debug),
		dma_test(test_iommu_debug),
		dma_test(test_direct_no_debug),
		dma_test(test_direct_debug),
		dma_test(test_rebind_stale_address),
		dma_test(test_destroy_with_mappings),
		dma_test(test_reference_outlives_driver),
		dma_test(test_last_put_unbinds),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
