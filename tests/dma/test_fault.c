/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Failures that must be clean: PP_FAULT_DMA_MAP makes a map fail
 * (dma_mapping_error() true, counted in map_errors, nothing left behind in
 * the IOMMU or the debug table, no violation), on every backend and debug
 * setting; an allocation failing inside a map (an IO page table, a debug
 * record) fails the map the same way; device creation fails with -ENOMEM
 * at every allocation it makes, leaking nothing (ASan checks).
 */
#include <stdio.h>

#include "dma_test.h"

static const unsigned int flag_sets[] = { 0, PP_DMA_DEBUG };

static void test_fault_dma_map(void **state)
{
	unsigned int b, f;

	for (b = PP_DMA_DIRECT; b <= PP_DMA_IOMMU; b++) {
		for (f = 0; f < 2; f++) {
			struct device *dev = dma_test_dev("fault", b, flag_sets[f]);
			struct page *page = dma_test_page(0);
			unsigned long injected = pp_fault_count(PP_FAULT_DMA_MAP);
			struct pp_dma_stats st;
			struct vsnap vs;
			dma_addr_t addr;

			vsnap_take(&vs, dev);
			assert_int_equal(pp_fault_inject(PP_FAULT_DMA_MAP,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
			addr = dma_map_page(dev, page, 0, 256, DMA_FROM_DEVICE);
			assert_true(dma_mapping_error(dev, addr));
			assert_int_equal(dma_mapping_error(dev, addr), -ENOMEM);
			assert_int_equal(pp_fault_count(PP_FAULT_DMA_MAP) - injected, 1);

			st = dma_test_stats(dev);
			assert_int_equal(st.map_errors, 1);
			assert_int_equal(st.maps, 0);
			assert_int_equal(st.live_mappings, 0);
			assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
			if (b == PP_DMA_IOMMU)
				assert_int_equal(dma_test_iommu(dev).iova_used, 0);
			assert_no_violations(&vs, dev);

			/* next_n = 1: the next map works. */
			addr = dma_map_page(dev, page, 0, 256, DMA_FROM_DEVICE);
			assert_false(dma_mapping_error(dev, addr));
			dma_unmap_page(dev, addr, 256, DMA_FROM_DEVICE);
			assert_int_equal(dma_test_stats(dev).live_mappings, 0);
			assert_no_violations(&vs, dev);

			pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
			__free_page(page);
			pp_device_destroy(dev);
		}
	}
}

/* Every third map fails; the others map, work and unmap. */
static void test_fault_every_nth(void **state)
{
	struct device *dev = dma_test_dev("nth", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	dma_addr_t addr[30];
	unsigned int i, failed = 0;
	struct pp_dma_stats st;
	struct vsnap vs;
	char c = 'z';

	vsnap_take(&vs, dev);
	assert_int_equal(pp_fault_inject(PP_FAULT_DMA_MAP,
					 &(struct pp_fault_config){ .every_nth = 3 }), 0);
	for (i = 0; i < 30; i++) {
		addr[i] = dma_map_page(dev, page, i * 64, 64, DMA_FROM_DEVICE);
		if (dma_mapping_error(dev, addr[i])) {
			failed++;
			continue;
		}
		assert_int_equal(pp_dma_device_write(dev, addr[i], &c, 1), 0);
	}
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
	assert_int_equal(failed, 10);
	st = dma_test_stats(dev);
	assert_int_equal(st.map_errors, 10);
	assert_int_equal(st.maps, 20);
	assert_int_equal(dma_test_iommu(dev).iova_used, 20);
	for (i = 0; i < 30; i++)
		if (!dma_mapping_error(dev, addr[i]))
			dma_unmap_page(dev, addr[i], 64, DMA_FROM_DEVICE);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);
	assert_no_violations(&vs, dev);

	__free_page(page);
	pp_device_destroy(dev);
}

/* An IO page table that cannot be allocated fails the map and gives the
 * IOVA back. A fresh domain has only its root table, so the first map
 * allocates three. */
static void test_fault_page_table(void **state)
{
	struct device *dev = dma_test_dev("pt", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	unsigned long tables = dma_test_iommu(dev).tables;
	unsigned int skip;
	dma_addr_t addr;

	assert_int_equal(tables, 1);
	/* Fail the first missing level, then (one allocation in) the next. */
	for (skip = 0; skip < 3; skip++) {
		assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
				 &(struct pp_fault_config){ .next_n = 1, .skip = !!skip }), 0);
		addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		assert_true(dma_mapping_error(dev, addr));
		assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		/* The tables allocated before the failure stay (as the
		 * kernel's do), the failed one is not there. */
		assert_int_equal(dma_test_iommu(dev).tables, 1 + skip);
	}
	addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	assert_int_equal(dma_test_iommu(dev).tables, 4);
	dma_unmap_page(dev, addr, 64, DMA_FROM_DEVICE);
	assert_int_equal(dma_test_stats(dev).map_errors, 3);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);

	__free_page(page);
	pp_device_destroy(dev);
}

/* A debug record that cannot be allocated fails the map: a mapping the
 * debug layer does not know would later look like an unknown unmap. */
static void test_fault_debug_record(void **state)
{
	unsigned int b;

	for (b = PP_DMA_DIRECT; b <= PP_DMA_IOMMU; b++) {
		struct device *dev = dma_test_dev("rec", b, PP_DMA_DEBUG);
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t addr;

		/* Warm the IOMMU's tables so the record is the only kmalloc. */
		addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		dma_unmap_page(dev, addr, 64, DMA_FROM_DEVICE);

		vsnap_take(&vs, dev);
		assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
				 &(struct pp_fault_config){ .next_n = 1 }), 0);
		addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		assert_true(dma_mapping_error(dev, addr));
		assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
		assert_int_equal(dma_test_stats(dev).live_mappings, 0);
		if (b == PP_DMA_IOMMU)
			assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		assert_no_violations(&vs, dev);

		__free_page(page);
		pp_device_destroy(dev);
	}
}

/* Each allocation pp_device_create() makes can fail; each failure is
 * -ENOMEM and frees what was allocated before it. */
static void test_fault_create(void **state)
{
	unsigned int b, f, skip;

	for (b = PP_DMA_DIRECT; b <= PP_DMA_IOMMU; b++) {
		for (f = 0; f < 2; f++) {
			for (skip = 0; skip < 16; skip++) {
				struct device *dev;

				pp_fault_inject(PP_FAULT_KMALLOC,
						&(struct pp_fault_config){ .next_n = 1,
									   .skip = skip });
				dev = pp_device_create("mk", b, flag_sets[f]);
				pp_fault_inject(PP_FAULT_KMALLOC, NULL);
				if (!IS_ERR(dev)) {
					/* Past the last allocation. */
					assert_true(skip >= 2);
					pp_device_destroy(dev);
					break;
				}
				assert_int_equal(PTR_ERR(dev), -ENOMEM);
			}
			assert_true(skip < 16);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_fault_dma_map),
		dma_test(test_fault_every_nth),
		dma_test(test_fault_page_table),
		dma_test(test_fault_debug_record),
		dma_test(test_fault_create),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
