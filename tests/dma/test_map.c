/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA map/unmap round trips on both backends: device creation and its
 * arguments, bus-address sanity, data written by the device seen by the
 * CPU and the other way round, IOMMU permissions by direction, faults
 * after unmap, mappings over several pages, dma_map_single(), bad
 * arguments, DMA masks, statistics, reference counting and rebinding.
 */
#include <stdio.h>

#include "dma_test.h"

/* Page granules below a 24-bit DMA mask. */
#define NG24	((1UL << 24) >> PAGE_SHIFT)

static void fill(void *p, int seed, size_t len)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		c[i] = (unsigned char)(seed + i * 7);
}

static void test_create_args(void **state)
{
	char name[16] = "eth0";
	struct device *dev;

	assert_ptr_equal(pp_device_create("x", (enum pp_dma_backend)7, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create("x", PP_DMA_DIRECT, 0x4), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create("x", PP_DMA_IOMMU, ~0u), ERR_PTR(-EINVAL));

	dev = dma_test_dev(name, PP_DMA_DIRECT, 0);
	strcpy(name, "changed");
	assert_string_equal(dev_name(dev), "eth0");	/* copied */
	assert_int_equal(dev->numa_node, NUMA_NO_NODE);
	assert_int_equal(dev_to_node(dev), NUMA_NO_NODE);
	assert_true(dev->dma_skip_sync);		/* coherent, no debug */
	assert_false(dma_dev_need_sync(dev));
	assert_true(pp_device_is_bound(dev));
	assert_string_equal(dev->dma_ops->name, "direct");
	assert_int_equal(*dev->dma_mask, DMA_BIT_MASK(32));
	pp_device_destroy(dev);

	dev = dma_test_dev("nc", PP_DMA_IOMMU, PP_DMA_NONCOHERENT);
	assert_false(dev->dma_skip_sync);
	assert_string_equal(dev->dma_ops->name, "iommu");
	pp_device_destroy(dev);

	dev = dma_test_dev("dbg", PP_DMA_DIRECT, PP_DMA_DEBUG);
	assert_true(dma_dev_need_sync(dev));	/* debug sees every sync */
	pp_device_destroy(dev);

	dev = dma_test_dev(NULL, PP_DMA_DIRECT, 0);
	assert_non_null(dev_name(dev));
	assert_int_equal(strncmp(dev_name(dev), "dma", 3), 0);
	pp_device_destroy(dev);

	pp_device_destroy(NULL);
	pp_device_destroy(ERR_PTR(-EINVAL));
}

static void test_direct_round_trip(void **state)
{
	struct device *dev = dma_test_dev("direct0", PP_DMA_DIRECT, 0);
	struct page *page = dma_test_page(0);
	unsigned char *cpu = page_address(page);
	unsigned char buf[1500], back[1500];
	struct pp_dma_stats st;
	struct vsnap vs;
	dma_addr_t addr;

	vsnap_take(&vs, dev);
	addr = dma_map_page(dev, page, 64, sizeof(buf), DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	assert_int_not_equal(addr, 0);
	assert_int_equal(addr, page_to_phys(page) + 64);

	fill(buf, 3, sizeof(buf));
	assert_int_equal(pp_dma_device_write(dev, addr, buf, sizeof(buf)), 0);
	assert_memory_equal(cpu + 64, buf, sizeof(buf));
	fill(cpu + 64, 9, sizeof(buf));
	assert_int_equal(pp_dma_device_read(dev, addr, back, sizeof(back)), 0);
	assert_memory_equal(cpu + 64, back, sizeof(back));

	st = dma_test_stats(dev);
	assert_int_equal(st.maps, 1);
	assert_int_equal(st.live_mappings, 1);
	dma_unmap_page(dev, addr, sizeof(buf), DMA_FROM_DEVICE);
	st = dma_test_stats(dev);
	assert_int_equal(st.unmaps, 1);
	assert_int_equal(st.live_mappings, 0);
	assert_int_equal(st.map_errors, 0);

	/* No IOMMU: the device still reaches the memory after the unmap
	 * (which is why one wants an IOMMU), but nothing outside the arena. */
	assert_int_equal(pp_dma_device_write(dev, addr, buf, 16), 0);
	assert_int_equal(pp_dma_device_write(dev, 0x10, buf, 16), -EFAULT);
	assert_no_violations(&vs, dev);

	__free_page(page);
	pp_device_destroy(dev);
}

static void test_iommu_round_trip(void **state)
{
	struct device *dev = dma_test_dev("iommu0", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	unsigned char *cpu = page_address(page);
	unsigned char buf[3000], back[3000];
	struct ppdma_iommu_info info;
	struct vsnap vs;
	dma_addr_t addr;

	vsnap_take(&vs, dev);
	addr = dma_map_page(dev, page, 100, sizeof(buf), DMA_BIDIRECTIONAL);
	assert_false(dma_mapping_error(dev, addr));
	assert_int_not_equal(addr >> PAGE_SHIFT, 0);		/* IOVA 0 is never used */
	assert_int_equal(addr & ~PAGE_MASK, 100);		/* the offset is kept */
	assert_true(addr < (1ULL << 32));
	info = dma_test_iommu(dev);
	assert_true(info.attached);
	assert_int_equal(info.iova_used, 1);

	fill(buf, 1, sizeof(buf));
	assert_int_equal(pp_dma_device_write(dev, addr, buf, sizeof(buf)), 0);
	assert_memory_equal(cpu + 100, buf, sizeof(buf));
	fill(cpu + 100, 5, sizeof(buf));
	assert_int_equal(pp_dma_device_read(dev, addr, back, sizeof(back)), 0);
	assert_memory_equal(back, cpu + 100, sizeof(back));

	dma_unmap_page(dev, addr, sizeof(buf), DMA_BIDIRECTIONAL);
	info = dma_test_iommu(dev);
	assert_int_equal(info.iova_used, 0);
	assert_int_equal(info.iotlb_flushes, 1);
	/* A freed IOVA parks in the thread's cache and is the next one
	 * handed out (the kernel's rcache does the same). */
	{
		dma_addr_t again = dma_map_page(dev, page, 100, sizeof(buf), DMA_BIDIRECTIONAL);

		assert_int_equal(again, addr);
		dma_unmap_page(dev, again, sizeof(buf), DMA_BIDIRECTIONAL);
	}

	/* The translation is gone: the device faults and writes nothing. */
	memset(cpu, 0xaa, PAGE_SIZE);
	assert_int_equal(pp_dma_device_write(dev, addr, buf, sizeof(buf)), -EFAULT);
	assert_int_equal(pp_dma_device_read(dev, addr, back, 1), -EFAULT);
	assert_int_equal(cpu[100], 0xaa);
	assert_int_equal(cpu[PAGE_SIZE - 1], 0xaa);
	/* A device fault is not DMA-API misuse by the driver. */
	assert_no_violations(&vs, dev);

	__free_page(page);
	pp_device_destroy(dev);
}

static void test_iommu_permissions(void **state)
{
	struct device *dev = dma_test_dev("perm", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	dma_addr_t to, from, bidi;
	char c = 'x';

	to = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_TO_DEVICE);
	from = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	bidi = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	assert_false(dma_mapping_error(dev, to) || dma_mapping_error(dev, from) ||
		     dma_mapping_error(dev, bidi));
	/* Three mappings of one page: three IOVAs. */
	assert_int_not_equal(to, from);
	assert_int_not_equal(from, bidi);
	assert_int_not_equal(to, bidi);

	/* TO_DEVICE: the device reads (transmits), may not write. */
	assert_int_equal(pp_dma_device_read(dev, to, &c, 1), 0);
	assert_int_equal(pp_dma_device_write(dev, to, &c, 1), -EFAULT);
	/* FROM_DEVICE: the device writes (receives), may not read. */
	assert_int_equal(pp_dma_device_write(dev, from, &c, 1), 0);
	assert_int_equal(pp_dma_device_read(dev, from, &c, 1), -EFAULT);
	assert_int_equal(pp_dma_device_write(dev, bidi, &c, 1), 0);
	assert_int_equal(pp_dma_device_read(dev, bidi, &c, 1), 0);

	dma_unmap_page(dev, to, PAGE_SIZE, DMA_TO_DEVICE);
	dma_unmap_page(dev, from, PAGE_SIZE, DMA_FROM_DEVICE);
	dma_unmap_page(dev, bidi, PAGE_SIZE, DMA_BIDIRECTIONAL);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	__free_page(page);
	pp_device_destroy(dev);
}

#define NPAGES	256

/* Live IOVAs never overlap: a marker written by the device through each
 * mapping lands in that mapping's page and nowhere else. */
static void test_iommu_distinct(void **state)
{
	struct device *dev = dma_test_dev("many", PP_DMA_IOMMU, 0);
	static struct page *pages[NPAGES];
	static dma_addr_t addr[NPAGES];
	unsigned int i, j;

	for (i = 0; i < NPAGES; i++) {
		pages[i] = dma_test_page(0);
		memset(page_address(pages[i]), 0, PAGE_SIZE);
		addr[i] = dma_map_page(dev, pages[i], 0, PAGE_SIZE, DMA_FROM_DEVICE);
		assert_false(dma_mapping_error(dev, addr[i]));
		assert_int_not_equal(addr[i], 0);
		for (j = 0; j < i; j++)
			assert_int_not_equal(addr[i] >> PAGE_SHIFT, addr[j] >> PAGE_SHIFT);
	}
	for (i = 0; i < NPAGES; i++)
		assert_int_equal(pp_dma_device_write(dev, addr[i] + 8, &i, sizeof(i)), 0);
	for (i = 0; i < NPAGES; i++) {
		unsigned int *p = page_address(pages[i]);

		assert_int_equal(p[0], 0);
		assert_int_equal(p[2], i);
		dma_unmap_page(dev, addr[i], PAGE_SIZE, DMA_FROM_DEVICE);
		__free_page(pages[i]);
	}
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);
	pp_device_destroy(dev);
}

/* A mapping over several pages of a compound page, device access crossing
 * page boundaries, and the end of the mapping. */
static void multi_page(enum pp_dma_backend backend)
{
	struct device *dev = dma_test_dev("multi", backend, 0);
	struct page *page = dma_test_page(2);	/* 4 pages */
	unsigned char *cpu = page_address(page);
	size_t len = 3 * PAGE_SIZE;
	static unsigned char buf[3 * PAGE_SIZE], back[3 * PAGE_SIZE];
	dma_addr_t addr, end;

	memset(cpu, 0, 4 * PAGE_SIZE);
	addr = dma_map_page(dev, page, 1000, len, DMA_BIDIRECTIONAL);
	assert_false(dma_mapping_error(dev, addr));
	if (backend == PP_DMA_DIRECT)
		assert_int_equal(addr, page_to_phys(page) + 1000);
	else
		assert_int_equal(dma_test_iommu(dev).iova_used, 4);

	fill(buf, 11, len);
	assert_int_equal(pp_dma_device_write(dev, addr, buf, len), 0);
	assert_memory_equal(cpu + 1000, buf, len);
	assert_int_equal(cpu[999], 0);
	assert_int_equal(cpu[1000 + len], 0);
	assert_int_equal(pp_dma_device_read(dev, addr, back, len), 0);
	assert_memory_equal(back, buf, len);

	/* A tail page of the mapping: offset 2 pages + 5 bytes. */
	assert_int_equal(pp_dma_device_read(dev, addr + 2 * PAGE_SIZE + 5, back, 100), 0);
	assert_memory_equal(back, buf + 2 * PAGE_SIZE + 5, 100);

	if (backend == PP_DMA_IOMMU) {
		/* The mapping covers pages 0..3 of the IOVA range; the page
		 * after it is not mapped, and a write straddling the end
		 * faults as a whole, writing nothing. */
		end = (addr & PAGE_MASK) + 4 * PAGE_SIZE;
		assert_int_equal(pp_dma_device_write(dev, end, buf, 1), -EFAULT);
		memset(cpu, 0x55, 4 * PAGE_SIZE);
		assert_int_equal(pp_dma_device_write(dev, end - 10, buf, 20), -EFAULT);
		assert_int_equal(cpu[4 * PAGE_SIZE - 10], 0x55);
	}
	dma_unmap_page(dev, addr, len, DMA_BIDIRECTIONAL);
	if (backend == PP_DMA_IOMMU) {
		assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		assert_int_equal(pp_dma_device_read(dev, addr + PAGE_SIZE, back, 1), -EFAULT);
	}
	put_page(page);
	pp_device_destroy(dev);
}

static void test_multi_page_direct(void **state)
{
	multi_page(PP_DMA_DIRECT);
}

static void test_multi_page_iommu(void **state)
{
	multi_page(PP_DMA_IOMMU);
}

static void test_map_single(void **state)
{
	struct device *dev = dma_test_dev("single", PP_DMA_DIRECT, 0);
	struct device *iommu = dma_test_dev("single-iommu", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	char *cpu = (char *)page_address(page) + 200;
	char stack_buf[64], c = 'q';
	unsigned long warns;
	dma_addr_t addr;

	addr = dma_map_single(dev, cpu, 100, DMA_TO_DEVICE);
	assert_int_equal(addr, page_to_phys(page) + 200);
	dma_unmap_single(dev, addr, 100, DMA_TO_DEVICE);

	addr = dma_map_single(iommu, cpu, 100, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(iommu, addr));
	assert_int_equal(addr & ~PAGE_MASK, 200);
	assert_int_equal(pp_dma_device_write(iommu, addr + 1, &c, 1), 0);
	assert_int_equal(cpu[1], 'q');
	dma_unmap_single(iommu, addr, 100, DMA_FROM_DEVICE);

	/* Memory outside the arena cannot be mapped. */
	warns = pp_warn_count();
	addr = dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE);
	assert_true(dma_mapping_error(dev, addr));
	assert_int_equal(dma_mapping_error(dev, addr), -ENOMEM);
	assert_int_equal(pp_warn_count() - warns, 1);
	assert_int_equal(dma_test_stats(dev).map_errors, 1);

	__free_page(page);
	pp_device_destroy(dev);
	pp_device_destroy(iommu);
}

static void test_bad_args(void **state)
{
	struct device *dev = dma_test_dev("bad", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	struct page *big = dma_test_page(1);
	struct pp_dma_stats st;
	unsigned long warns = pp_warn_count();
	struct vsnap vs;
	dma_addr_t addr;

	vsnap_take(&vs, dev);
	assert_true(dma_mapping_error(dev, dma_map_page(dev, page, 0, 0, DMA_TO_DEVICE)));
	assert_true(dma_mapping_error(dev, dma_map_page(dev, page, PAGE_SIZE - 96, 200, DMA_TO_DEVICE)));
	assert_true(dma_mapping_error(dev, dma_map_page(dev, page, PAGE_SIZE, 1, DMA_TO_DEVICE)));
	assert_true(dma_mapping_error(dev, dma_map_page(dev, NULL, 0, 64, DMA_TO_DEVICE)));
	assert_true(dma_mapping_error(dev, dma_map_page(dev, big, 0, 2 * PAGE_SIZE + 1,
							DMA_TO_DEVICE)));
	/* From the tail page of an order-1 compound page, only its rest. */
	assert_true(dma_mapping_error(dev, dma_map_page(dev, big + 1, 0, PAGE_SIZE + 1,
							DMA_TO_DEVICE)));
	assert_int_equal(pp_warn_count() - warns, 6);

	/* Within the compound page, across its two pages: fine. */
	addr = dma_map_page(dev, big, PAGE_SIZE - 96, 200, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	dma_unmap_page(dev, addr, 200, DMA_TO_DEVICE);
	addr = dma_map_page(dev, big + 1, 10, 100, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	dma_unmap_page(dev, addr, 100, DMA_TO_DEVICE);

	st = dma_test_stats(dev);
	assert_int_equal(st.map_errors, 6);
	assert_int_equal(st.maps, 2);
	assert_int_equal(st.live_mappings, 0);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	assert_no_violations(&vs, dev);

	__free_page(page);
	put_page(big);
	pp_device_destroy(dev);
}

/* DMA_NONE and garbage directions: the kernel BUG()s; we report a wrong
 * direction, with or without debug, and do nothing. */
static void test_invalid_direction(void **state)
{
	struct device *dev = dma_test_dev("nodir", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	struct vsnap vs;
	dma_addr_t addr;

	vsnap_take(&vs, dev);
	addr = dma_map_page(dev, page, 0, 64, DMA_NONE);
	assert_true(dma_mapping_error(dev, addr));
	assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
	assert_true(pp_test_log_contains("nodir: wrong-direction"));

	addr = dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE);
	vsnap_take(&vs, dev);
	dma_unmap_page(dev, addr, 64, (enum dma_data_direction)9);
	assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 1);
	/* Nothing was unmapped. */
	assert_int_equal(dma_test_iommu(dev).iova_used, 1);
	dma_unmap_page(dev, addr, 64, DMA_TO_DEVICE);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);

	__free_page(page);
	pp_device_destroy(dev);
}

static void test_dma_mask(void **state)
{
	struct device *dev = dma_test_dev("mask", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	dma_addr_t addr;
	unsigned int i;

	assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(16)), -EIO);
	assert_int_equal(*dev->dma_mask, DMA_BIT_MASK(32));
	assert_int_equal(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	assert_int_equal(*dev->dma_mask, DMA_BIT_MASK(64));
	assert_int_equal(dev->coherent_dma_mask, DMA_BIT_MASK(64));

	/* The IOMMU allocates below the mask: 24 bits = NG24 page granules
	 * (4096 at 4 KiB pages, 256 at 64 KiB), one of which (IOVA 0) is
	 * reserved. */
	assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(24)), 0);
	for (i = 0; i < NG24 - 1; i++) {
		addr = dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE);
		assert_false(dma_mapping_error(dev, addr));
		assert_true(addr + 63 <= DMA_BIT_MASK(24));
	}
	assert_true(dma_mapping_error(dev, dma_map_page(dev, page, 0, 64, DMA_TO_DEVICE)));
	assert_int_equal(dma_test_stats(dev).map_errors, 1);
	assert_int_equal(dma_test_iommu(dev).iova_used, NG24 - 1);
	/* Allocated in order: unmap 0x10..0x13, which park in this thread's
	 * IOVA cache. A two-page map needs the bitmap, which is full: it
	 * takes the cached granules back and finds the run. */
	for (i = 0x10; i < 0x14; i++)
		dma_unmap_page(dev, (dma_addr_t)i << PAGE_SHIFT, 64, DMA_TO_DEVICE);
	assert_int_equal(dma_test_iommu(dev).iova_used, NG24 - 5);
	addr = dma_map_page(dev, page, PAGE_SIZE - 64, 128, DMA_TO_DEVICE);
	assert_true(dma_mapping_error(dev, addr));	/* a page block is one page */
	{
		struct page *two = dma_test_page(1);

		addr = dma_map_page(dev, two, PAGE_SIZE - 64, 128, DMA_TO_DEVICE);
		assert_false(dma_mapping_error(dev, addr));
		assert_int_equal(addr >> PAGE_SHIFT, 0x10);
		assert_int_equal(dma_test_iommu(dev).iova_used, NG24 - 3);
		dma_unmap_page(dev, addr, 128, DMA_TO_DEVICE);
		put_page(two);
	}
	/* Unbind drops them all with the domain. */
	device_release_driver(dev);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);

	__free_page(page);
	pp_device_destroy(dev);
}

/* Direct: memory above the mask cannot be reached (no swiotlb). The arena
 * starts at PP_PFN_OFFSET pages of physical space (1 MiB at 4 KiB pages),
 * so its last largest block ends above the 24-bit (16 MiB) limit. */
static void test_direct_mask(void **state)
{
	struct device *dev = dma_test_dev("mask-direct", PP_DMA_DIRECT, 0);
	struct page *blocks[8], *high = NULL;
	unsigned int n = 0, i;
	dma_addr_t addr;

	while (n < 8 && (blocks[n] = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN,
						  MAX_PAGE_ORDER)))
		n++;
	for (i = 0; i < n; i++)
		if (page_to_phys(blocks[i]) + (PAGE_SIZE << MAX_PAGE_ORDER) > (1UL << 24))
			high = blocks[i];
	if (high) {
		size_t off = (PAGE_SIZE << MAX_PAGE_ORDER) - PAGE_SIZE;

		assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(24)), 0);
		addr = dma_map_page(dev, high, off, PAGE_SIZE, DMA_TO_DEVICE);
		assert_true(dma_mapping_error(dev, addr));
		assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
		addr = dma_map_page(dev, high, off, PAGE_SIZE, DMA_TO_DEVICE);
		assert_false(dma_mapping_error(dev, addr));
		dma_unmap_page(dev, addr, PAGE_SIZE, DMA_TO_DEVICE);
	}
	for (i = 0; i < n; i++)
		put_page(blocks[i]);
	pp_device_destroy(dev);
	if (!high)
		skip();
}

static void test_stats_and_syncs(void **state)
{
	struct device *coh = dma_test_dev("coherent", PP_DMA_DIRECT, 0);
	struct device *nc = dma_test_dev("noncoherent", PP_DMA_DIRECT, PP_DMA_NONCOHERENT);
	struct page *page = dma_test_page(0);
	struct pp_dma_stats st;
	dma_addr_t a, b;

	a = dma_map_page_attrs(coh, page, 0, 256, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_WEAK_ORDERING);
	b = dma_map_page(nc, page, 0, 256, DMA_FROM_DEVICE);
	/* A coherent device without debug: the inline wrappers skip the call. */
	dma_sync_single_for_device(coh, a, 256, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(coh, a, 256, DMA_FROM_DEVICE);
	assert_int_equal(dma_test_stats(coh).syncs_for_device, 0);
	__dma_sync_single_for_device(coh, a, 256, DMA_FROM_DEVICE);
	assert_int_equal(dma_test_stats(coh).syncs_for_device, 1);

	dma_sync_single_for_device(nc, b, 256, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(nc, b, 16, 64, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(nc, b, 32, 64, DMA_FROM_DEVICE);
	st = dma_test_stats(nc);
	assert_int_equal(st.syncs_for_device, 1);
	assert_int_equal(st.syncs_for_cpu, 2);
	assert_int_equal(st.maps, 1);
	assert_int_equal(st.live_mappings, 1);

	dma_unmap_page(coh, a, 256, DMA_FROM_DEVICE);
	dma_unmap_page(nc, b, 256, DMA_FROM_DEVICE);
	st = dma_test_stats(nc);
	assert_int_equal(st.unmaps, 1);
	assert_int_equal(st.live_mappings, 0);

	__free_page(page);
	pp_device_destroy(coh);
	pp_device_destroy(nc);
}

/* dev->dma_ops takes the same checked, counted path as the API. */
static void test_dma_ops_table(void **state)
{
	struct device *dev = dma_test_dev("ops", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	dma_addr_t addr;

	addr = dev->dma_ops->map_page(dev, page, 0, 128, DMA_TO_DEVICE, 0);
	assert_false(dma_mapping_error(dev, addr));
	dev->dma_ops->sync_single_for_device(dev, addr, 128, DMA_TO_DEVICE);
	dev->dma_ops->unmap_page(dev, addr, 128, DMA_TO_DEVICE, 0);
	assert_int_equal(dma_test_stats(dev).maps, 1);
	assert_int_equal(dma_test_stats(dev).unmaps, 1);
	assert_int_equal(dma_test_stats(dev).syncs_for_device, 1);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	__free_page(page);
	pp_device_destroy(dev);
}

static void test_refcount(void **state)
{
	struct device *dev = dma_test_dev("ref", PP_DMA_IOMMU, 0);

	assert_ptr_equal(get_device(dev), dev);
	assert_ptr_equal(get_device(dev), dev);
	pp_device_destroy(dev);		/* unbinds, drops the creator's */
	/* Still allocated: two references left. */
	assert_false(pp_device_is_bound(dev));
	assert_string_equal(dev_name(dev), "ref");
	assert_false(dma_test_iommu(dev).attached);
	put_device(dev);
	assert_string_equal(dev_name(dev), "ref");
	put_device(dev);		/* freed here (ASan checks) */
	assert_null(get_device(NULL));
	put_device(NULL);
	device_release_driver(NULL);
}

static void test_bind_rebind(void **state)
{
	struct device *dev = dma_test_dev("rebind", PP_DMA_IOMMU, 0);
	struct page *page = dma_test_page(0);
	unsigned long tables = ppdma_iommu_live_tables();
	dma_addr_t addr;
	char c = 1;

	assert_int_equal(pp_device_bind(dev), -EBUSY);
	addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	assert_true(ppdma_iommu_live_tables() > tables);	/* tables on demand */

	device_release_driver(dev);
	assert_false(pp_device_is_bound(dev));
	/* The domain and every page table are gone. */
	assert_int_equal(ppdma_iommu_live_tables(), tables - 1);	/* minus the root */
	device_release_driver(dev);	/* unbinding twice is a no-op */

	assert_int_equal(pp_device_bind(dev), 0);
	assert_true(pp_device_is_bound(dev));
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	/* A fresh domain: the old address means nothing. */
	assert_int_equal(pp_dma_device_write(dev, addr, &c, 1), -EFAULT);
	addr = dma_map_page(dev, page, 0, 64, DMA_FROM_DEVICE);
	assert_false(dma_mapping_error(dev, addr));
	assert_int_equal(pp_dma_device_write(dev, addr, &c, 1), 0);
	dma_unmap_page(dev, addr, 64, DMA_FROM_DEVICE);

	__free_page(page);
	pp_device_destroy(dev);
	assert_int_equal(ppdma_iommu_live_tables(), tables - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_create_args),
		dma_test(test_direct_mask),
		dma_test(test_direct_round_trip),
		dma_test(test_iommu_round_trip),
		dma_test(test_iommu_permissions),
		dma_test(test_iommu_distinct),
		dma_test(test_multi_page_direct),
		dma_test(test_multi_page_iommu),
		dma_test(test_map_single),
		dma_test(test_bad_args),
		dma_test(test_invalid_direction),
		dma_test(test_dma_mask),
		dma_test(test_stats_and_syncs),
		dma_test(test_dma_ops_table),
		dma_test(test_refcount),
		dma_test(test_bind_rebind),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
