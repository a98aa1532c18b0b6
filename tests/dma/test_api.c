/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The rest of <linux/dma-mapping.h>: what a device reports (required mask,
 * addressing limits, mapping sizes, merge boundary, whether syncs matter),
 * segment parameters, the mask helpers' kernel semantics, resource and
 * phys maps on both backends (with the debug layer telling a resource
 * from a page mapping), the cache alignment of the target, the unmap-state
 * macros, and the P2P and mmap answers.
 */
#include <stdio.h>

#include "dma_test.h"

/* A driver's per-buffer state, as drivers declare it. */
struct tx_buf {
	void *data;
	DEFINE_DMA_UNMAP_ADDR(dma);
	DEFINE_DMA_UNMAP_LEN(len);
};

static void test_cache_alignment(void **state)
{
#if defined(__aarch64__)
	assert_int_equal(dma_get_cache_alignment(), 128);
#elif defined(__x86_64__)
	assert_int_equal(dma_get_cache_alignment(), 1);
#endif
	assert_true(is_power_of_2((unsigned long)dma_get_cache_alignment()));
}

static void test_unmap_state(void **state)
{
	struct tx_buf b = { 0 };

	dma_unmap_addr_set(&b, dma, 0x1234000);
	dma_unmap_len_set(&b, len, 1500);
	assert_int_equal(dma_unmap_addr(&b, dma), 0x1234000);
	assert_int_equal(dma_unmap_len(&b, len), 1500);
	assert_int_equal(sizeof(b), sizeof(void *) + sizeof(dma_addr_t) + 8);
}

static void test_device_info(void **state)
{
	struct device *dir = dma_test_dev("infod", PP_DMA_DIRECT, 0);
	struct device *iom = dma_test_dev("infoi", PP_DMA_IOMMU, 0);
	u64 top = ((u64)(PP_PFN_OFFSET + pp_mem_map.nr_pages) << PAGE_SHIFT) - 1;
	u64 req = dma_get_required_mask(dir);

	/* Direct: just enough bits for the arena's last byte. */
	assert_true(req >= top);
	assert_true((req >> 1) < top);
	assert_true(is_power_of_2((unsigned long)(req + 1)));
	assert_int_equal(dma_get_required_mask(iom), DMA_BIT_MASK(32));

	assert_false(dma_addressing_limited(dir));
	assert_int_equal(dma_set_mask(dir, DMA_BIT_MASK(24)), 0);
	assert_true(dma_addressing_limited(dir));
	assert_int_equal(dma_set_mask(iom, DMA_BIT_MASK(32)), 0);
	assert_false(dma_addressing_limited(iom));

	assert_int_equal(dma_max_mapping_size(dir), SIZE_MAX);
	assert_int_equal(dma_opt_mapping_size(dir), SIZE_MAX);
	/* Twice the largest block: 8 MiB at 4 KiB pages. */
	assert_int_equal(dma_max_mapping_size(iom), 2 * (PAGE_SIZE << MAX_PAGE_ORDER));
	assert_int_equal(dma_opt_mapping_size(iom), PAGE_SIZE);
	assert_int_equal(dma_get_merge_boundary(dir), 0);
	assert_int_equal(dma_get_merge_boundary(iom), PAGE_SIZE - 1);
	assert_false(dma_pci_p2pdma_supported(dir));
	assert_false(dma_can_mmap(iom));
	pp_device_destroy(dir);
	pp_device_destroy(iom);
}

/* Skipping syncs is page_pool's question: only a coherent direct device
 * without debug may skip them all. */
static void test_need_sync(void **state)
{
	struct device *plain = dma_test_dev("s0", PP_DMA_DIRECT, 0);
	struct device *dbg = dma_test_dev("s1", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct device *nc = dma_test_dev("s2", PP_DMA_DIRECT, PP_DMA_NONCOHERENT);
	struct device *iom = dma_test_dev("s3", PP_DMA_IOMMU, PP_DMA_DEBUG);

	assert_false(dma_dev_need_sync(plain));
	assert_false(dma_need_sync(plain, 0x100000));
	assert_true(dma_dev_need_sync(dbg));
	assert_false(dma_need_sync(dbg, 0x100000));	/* coherent: nothing to do */
	assert_true(dma_need_sync(nc, 0x100000));
	assert_true(dma_need_sync(iom, 0x100000));
	pp_device_destroy(plain);
	pp_device_destroy(dbg);
	pp_device_destroy(nc);
	pp_device_destroy(iom);
}

static void test_seg_params(void **state)
{
	struct device *dev = dma_test_dev("seg", PP_DMA_IOMMU, 0);

	/* A PCI device's defaults. */
	assert_non_null(dev->dma_parms);
	assert_int_equal(dma_get_max_seg_size(dev), SZ_64K);
	assert_int_equal(dma_get_seg_boundary(dev), 0xffffffffUL);
	/* A 4 GiB boundary: 2^20 pages of 4 KiB, 2^16 of 64 KiB. */
	assert_int_equal(dma_get_seg_boundary_nr_pages(dev, PAGE_SHIFT), 1UL << (32 - PAGE_SHIFT));
	assert_int_equal(dma_get_seg_boundary_nr_pages(NULL, PAGE_SHIFT), 1UL << (32 - PAGE_SHIFT));
	dma_set_max_seg_size(dev, SZ_1M);
	assert_int_equal(dma_get_max_seg_size(dev), SZ_1M);
	dma_set_seg_boundary(dev, SZ_64K - 1);
	assert_int_equal(dma_get_seg_boundary_nr_pages(dev, PAGE_SHIFT), SZ_64K >> PAGE_SHIFT);
	assert_int_equal(dma_get_min_align_mask(dev), 0);
	dma_set_min_align_mask(dev, PAGE_SIZE - 1);
	assert_int_equal(dma_get_min_align_mask(dev), PAGE_SIZE - 1);
	pp_device_destroy(dev);
}

/* dma_set_mask_and_coherent() returns dma_set_mask()'s result and leaves
 * the coherent mask alone when that failed; the coerce variant points
 * dma_mask at the coherent mask first, and the backends then follow it. */
static void test_mask_helpers(void **state)
{
	struct device *dev = dma_test_dev("masks", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	dma_addr_t a;

	assert_int_equal(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(16)), -EIO);
	assert_int_equal(dev->coherent_dma_mask, DMA_BIT_MASK(32));
	assert_int_equal(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(40)), 0);
	assert_int_equal(dma_get_mask(dev), DMA_BIT_MASK(40));
	assert_int_equal(dev->coherent_dma_mask, DMA_BIT_MASK(40));

	assert_int_equal(dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(28)), 0);
	assert_ptr_equal(dev->dma_mask, &dev->coherent_dma_mask);
	assert_int_equal(dma_get_mask(dev), DMA_BIT_MASK(28));
	a = dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(dev, a));
	assert_true(a <= DMA_BIT_MASK(28));
	dma_unmap_page(dev, a, 64, DMA_TO_DEVICE);
	assert_true(dma_coherent_ok(dev, DMA_BIT_MASK(28) - 63, 64));
	assert_false(dma_coherent_ok(dev, DMA_BIT_MASK(28) - 63, 65));
	__free_page(page);
	pp_device_destroy(dev);
}

/* A resource is another device's registers: the direct backend hands out
 * its address, the IOMMU an IOVA; neither lets the simulated device reach
 * anything there. */
static void test_resource(void **state)
{
	static const enum pp_dma_backend backends[] = { PP_DMA_DIRECT, PP_DMA_IOMMU };
	const phys_addr_t bar = 0xfe000000 + 0x40;
	unsigned int b;

	for (b = 0; b < 2; b++) {
		struct device *dev = dma_test_dev("res", backends[b], PP_DMA_DEBUG);
		struct vsnap vs;
		unsigned int v = 1;
		dma_addr_t a, p;

		vsnap_take(&vs, dev);
		a = dma_map_resource(dev, bar, 8, DMA_BIDIRECTIONAL, 0);
		assert_false(dma_mapping_error(dev, a));
		if (backends[b] == PP_DMA_DIRECT)
			assert_int_equal(a, bar);
		else
			assert_int_equal(a & ~PAGE_MASK, 0x40);
		assert_int_equal(pp_dma_device_write(dev, a, &v, sizeof(v)), -EFAULT);
		dma_unmap_resource(dev, a, 8, DMA_BIDIRECTIONAL, 0);

		/* v6.18's dma_map_phys(): MMIO is a resource, RAM a page. */
		p = dma_map_phys(dev, bar, 8, DMA_TO_DEVICE, DMA_ATTR_MMIO);
		assert_false(dma_mapping_error(dev, p));
		dma_unmap_phys(dev, p, 8, DMA_TO_DEVICE, DMA_ATTR_MMIO);
		assert_no_violations(&vs, dev);

		/* Undone with the page call: the kernel's wrong function. */
		a = dma_map_resource(dev, bar, 8, DMA_TO_DEVICE, 0);
		dma_unmap_page(dev, a, 8, DMA_TO_DEVICE);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_FUNCTION, 1);
		assert_true(pp_test_log_contains("[mapped as resource] [unmapped as single]"));
		if (backends[b] == PP_DMA_IOMMU)
			assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		pp_device_destroy(dev);
	}
}

static void test_map_phys_ram(void **state)
{
	struct device *dev = dma_test_dev("phys", PP_DMA_IOMMU, PP_DMA_DEBUG);
	struct page *page = dma_test_page(0);
	unsigned char c = 5;
	struct vsnap vs;
	dma_addr_t a;

	vsnap_take(&vs, dev);
	a = dma_map_phys(dev, page_to_phys(page) + 32, 100, DMA_FROM_DEVICE, 0);
	assert_false(dma_mapping_error(dev, a));
	assert_int_equal(a & ~PAGE_MASK, 32);
	assert_int_equal(pp_dma_device_write(dev, a + 99, &c, 1), 0);
	assert_int_equal(((unsigned char *)page_address(page))[131], 5);
	/* A page map and a phys map of RAM are the same kind. */
	dma_unmap_page(dev, a, 100, DMA_FROM_DEVICE);
	assert_no_violations(&vs, dev);
	/* RAM outside the arena has no struct page: a WARN and a failure. */
	assert_true(dma_mapping_error(dev, dma_map_phys(dev, 0x1000, 8, DMA_TO_DEVICE, 0)));
	__free_page(page);
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_cache_alignment),
		dma_test(test_unmap_state),
		dma_test(test_device_info),
		dma_test(test_need_sync),
		dma_test(test_seg_params),
		dma_test(test_mask_helpers),
		dma_test(test_resource),
		dma_test(test_map_phys_ram),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
