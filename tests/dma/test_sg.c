/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Scatterlists: the entry helpers and walks (end marker, chains, counts),
 * tables (sg_alloc_table(), from page arrays with merging and segment
 * limits), copies, and their DMA: dma_map_sg() on the direct backend (one
 * segment per entry at its physical address) and through the IOMMU (one
 * IOVA range, entries merged into DMA segments under the kernel's rule and
 * the device's segment size and boundary, the device reaching every byte
 * in order), dma_map_sgtable()'s error codes, unmap and sync, the debug
 * layer's sg checks, and failures that leave nothing mapped.
 */
#include <stdio.h>

#include "dma_test.h"

#define NPAGES	6

/* Order-0 pages that are not physically consecutive (every other one of
 * an order-4 block), so nothing merges unless an IOMMU makes it so. */
struct scattered {
	struct page *block;
	struct page *pages[NPAGES];
};

static void scattered_get(struct scattered *s)
{
	int i;

	s->block = alloc_pages(GFP_KERNEL, 4);
	assert_non_null(s->block);
	for (i = 0; i < NPAGES; i++)
		s->pages[i] = s->block + 2 * i;
}

static void scattered_put(struct scattered *s)
{
	__free_pages(s->block, 4);
}

/*
 * An IOMMU device whose maximum segment is 16 pages. The PCI default of
 * 64 KiB is 16 pages at 4 KiB but a single page at 64 KiB, where no two
 * pages could merge; the merges here are counted in pages.
 */
static struct device *sg_iommu_dev(const char *name, unsigned int flags)
{
	struct device *dev = dma_test_dev(name, PP_DMA_IOMMU, flags);

	assert_int_equal(dma_get_max_seg_size(dev), SZ_64K);
	dma_set_max_seg_size(dev, 16 * PAGE_SIZE);
	return dev;
}

static void fill(void *p, int seed, size_t len)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		c[i] = (unsigned char)(seed + i * 13);
}

static void test_sg_layout(void **state)
{
	/* The kernel's x86-64 layout (NEED_SG_DMA_LENGTH and _FLAGS). */
	assert_int_equal(sizeof(struct scatterlist), 32);
	assert_int_equal(offsetof(struct scatterlist, dma_address), 16);
	assert_int_equal(offsetof(struct scatterlist, dma_length), 24);
	/* A page of 32-byte entries: 128 at 4 KiB pages, 2048 at 64 KiB. */
	assert_int_equal(SG_MAX_SINGLE_ALLOC, PAGE_SIZE / 32);
}

static void test_sg_helpers(void **state)
{
	struct page *page = dma_test_page(1);
	struct scatterlist a[3], b[2], *s, *last = NULL;
	char *va = page_address(page);
	int i, n = 0;

	sg_init_table(a, 3);
	assert_true(sg_is_last(&a[2]));
	assert_false(sg_is_last(&a[1]));
	assert_null(sg_next(&a[2]));
	sg_set_page(&a[0], page, 100, 10);
	assert_ptr_equal(sg_page(&a[0]), page);
	assert_ptr_equal(sg_virt(&a[0]), va + 10);
	assert_int_equal(sg_phys(&a[0]), page_to_phys(page) + 10);
	sg_set_buf(&a[1], va + PAGE_SIZE + 5, 200);	/* the block's second page */
	assert_ptr_equal(sg_page(&a[1]), page + 1);
	assert_int_equal(a[1].offset, 5);
	assert_true(sg_is_last(&a[2]));			/* marker kept by set */

	/* Chain a's last entry to b: a[0], a[1], b[0], b[1]. */
	sg_init_table(b, 2);
	sg_set_buf(&b[0], va + 300, 300);
	sg_set_buf(&b[1], va + 700, 400);
	sg_chain(a, 3, b);
	assert_true(sg_is_chain(&a[2]));
	assert_ptr_equal(sg_next(&a[1]), &b[0]);
	assert_int_equal(sg_nents(a), 4);
	for_each_sg(a, s, 4, i) {
		n += s->length;
		last = s;
	}
	assert_int_equal(n, 100 + 200 + 300 + 400);
	assert_ptr_equal(last, &b[1]);
	assert_ptr_equal(sg_last(a, 4), &b[1]);
	assert_int_equal(sg_nents_for_len(a, 0), 0);
	assert_int_equal(sg_nents_for_len(a, 300), 2);
	assert_int_equal(sg_nents_for_len(a, 301), 3);
	assert_int_equal(sg_nents_for_len(a, 1000), 4);
	assert_int_equal(sg_nents_for_len(a, 1001), -EINVAL);

	sg_mark_end(&b[0]);
	assert_int_equal(sg_nents(a), 3);
	sg_unmark_end(&b[0]);
	assert_int_equal(sg_nents(a), 4);

	sg_init_one(&b[0], va + 64, 128);
	assert_true(sg_is_last(&b[0]));
	assert_ptr_equal(sg_virt(&b[0]), va + 64);
	__free_pages(page, 1);
}

static void test_sg_table(void **state)
{
	struct sg_table t;
	struct scatterlist *s;
	unsigned int i, n = 0;

	assert_int_equal(sg_alloc_table(&t, 0, GFP_KERNEL), -EINVAL);
	assert_int_equal(sg_alloc_table(&t, 300, GFP_KERNEL), 0);
	assert_int_equal(t.orig_nents, 300);
	assert_int_equal(t.nents, 300);
	for_each_sgtable_sg(&t, s, i) {
		assert_null(sg_page(s));
		assert_int_equal(s->length, 0);
		n++;
	}
	assert_int_equal(n, 300);
	assert_int_equal(sg_nents(t.sgl), 300);
	sg_free_table(&t);
	assert_null(t.sgl);
	sg_free_table(&t);			/* twice is fine */

	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
	assert_int_equal(sg_alloc_table(&t, 4, GFP_KERNEL), -ENOMEM);
	pp_fault_inject(PP_FAULT_KMALLOC, NULL);
	assert_null(t.sgl);
}

static void test_sg_from_pages(void **state)
{
	struct page *blk = dma_test_page(3);	/* 8 consecutive frames */
	struct page *pages[8];
	struct scatterlist *s;
	struct sg_table t;
	unsigned int i;

	/* 0-2 consecutive, 3 = 5 (a gap), 4-6 = 6, 7 (consecutive again). */
	for (i = 0; i < 3; i++)
		pages[i] = blk + i;
	pages[3] = blk + 5;
	pages[4] = blk + 6;
	pages[5] = blk + 7;

	assert_int_equal(sg_alloc_table_from_pages(&t, pages, 6, 100,
						   6 * PAGE_SIZE - 100 - 50, GFP_KERNEL), 0);
	assert_int_equal(t.orig_nents, 2);
	s = t.sgl;
	assert_ptr_equal(sg_page(s), blk);
	assert_int_equal(s->offset, 100);
	assert_int_equal(s->length, 3 * PAGE_SIZE - 100);
	s = sg_next(s);
	assert_ptr_equal(sg_page(s), blk + 5);
	assert_int_equal(s->offset, 0);
	assert_int_equal(s->length, 3 * PAGE_SIZE - 50);
	assert_true(sg_is_last(s));
	sg_free_table(&t);

	/* A segment limit of two pages splits the runs. */
	assert_int_equal(sg_alloc_table_from_pages_segment(&t, pages, 6, 0, 6 * PAGE_SIZE,
							   2 * PAGE_SIZE + 10, GFP_KERNEL), 0);
	assert_int_equal(t.orig_nents, 4);	/* 2 + 1 | 2 + 1 */
	for_each_sgtable_sg(&t, s, i)
		assert_true(s->length <= 2 * PAGE_SIZE);
	sg_free_table(&t);

	/* Only the pages the data needs get entries. */
	assert_int_equal(sg_alloc_table_from_pages(&t, pages, 6, 0, 10, GFP_KERNEL), 0);
	assert_int_equal(t.orig_nents, 1);
	assert_int_equal(t.sgl->length, 10);
	sg_free_table(&t);

	assert_int_equal(sg_alloc_table_from_pages(&t, pages, 6, 0, 6 * PAGE_SIZE + 1,
						   GFP_KERNEL), -EINVAL);
	assert_int_equal(sg_alloc_table_from_pages_segment(&t, pages, 6, 0, PAGE_SIZE,
							   100, GFP_KERNEL), -EINVAL);
	__free_pages(blk, 3);
}

static void test_sg_copy(void **state)
{
	struct page *page = dma_test_page(1);
	char *va = page_address(page);
	struct scatterlist sg[3];
	char in[600], out[600];

	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], va, 100);
	sg_set_buf(&sg[1], va + 1000, 200);
	sg_set_buf(&sg[2], va + 4000, 300);	/* crosses into the second page */
	fill(in, 1, sizeof(in));
	assert_int_equal(sg_copy_from_buffer(sg, 3, in, sizeof(in)), 600);
	assert_memory_equal(va, in, 100);
	assert_memory_equal(va + 1000, in + 100, 200);
	assert_memory_equal(va + 4000, in + 300, 300);
	memset(out, 0, sizeof(out));
	assert_int_equal(sg_copy_to_buffer(sg, 3, out, sizeof(out)), 600);
	assert_memory_equal(out, in, 600);
	/* Skip 150 bytes: from the middle of the second entry. */
	assert_int_equal(sg_pcopy_to_buffer(sg, 3, out, 100, 150), 100);
	assert_memory_equal(out, in + 150, 100);
	assert_int_equal(sg_pcopy_from_buffer(sg, 3, in, 20, 590), 10);	/* list ends */
	assert_int_equal(sg_zero_buffer(sg, 3, 50, 80), 50);
	assert_int_equal(va[79], in[79]);
	assert_int_equal(va[80], 0);
	assert_int_equal(va[99], 0);
	assert_int_equal(va[1000 + 29], 0);
	assert_int_equal(va[1000 + 30], in[130]);
	__free_pages(page, 1);
}

static void test_map_sg_direct(void **state)
{
	struct device *dev = dma_test_dev("sgd", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct scatterlist sg[NPAGES], *s;
	struct scattered sc;
	struct vsnap vs;
	unsigned int n;
	int i;

	scattered_get(&sc);
	sg_init_table(sg, NPAGES);
	for (i = 0; i < NPAGES; i++)
		sg_set_page(&sg[i], sc.pages[i], PAGE_SIZE, 0);
	vsnap_take(&vs, dev);
	n = dma_map_sg(dev, sg, NPAGES, DMA_TO_DEVICE);
	assert_int_equal(n, NPAGES);		/* dma-direct never merges */
	for_each_sg(sg, s, NPAGES, i) {
		assert_int_equal(sg_dma_address(s), sg_phys(s));
		assert_int_equal(sg_dma_len(s), PAGE_SIZE);
	}
	assert_int_equal(dma_test_stats(dev).maps, NPAGES);
	assert_int_equal(ppdma_debug_live(to_ppdma(dev)), NPAGES);
	dma_sync_sg_for_cpu(dev, sg, NPAGES, DMA_TO_DEVICE);
	dma_sync_sg_for_device(dev, sg, NPAGES, DMA_TO_DEVICE);
	assert_int_equal(dma_test_stats(dev).syncs_for_cpu, NPAGES);
	dma_unmap_sg(dev, sg, NPAGES, DMA_TO_DEVICE);
	assert_int_equal(dma_test_stats(dev).unmaps, NPAGES);
	assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
	assert_no_violations(&vs, dev);
	scattered_put(&sc);
	pp_device_destroy(dev);
}

/*
 * Through the IOMMU, six scattered full pages become one DMA segment: the
 * device writes NPAGES pages at one bus address and each page receives its
 * own, in list order. After the unmap the device faults.
 */
static void test_map_sg_iommu_merge(void **state)
{
	static const unsigned int flags[] = { 0, PP_DMA_DEBUG };
	unsigned int f;

	for (f = 0; f < 2; f++) {
		struct device *dev = sg_iommu_dev("sgi", flags[f]);
		static unsigned char buf[NPAGES * PAGE_SIZE];
		struct scatterlist sg[NPAGES];
		struct sg_table t = { .sgl = sg, .orig_nents = NPAGES };
		struct scattered sc;
		struct vsnap vs;
		int i;

		scattered_get(&sc);
		sg_init_table(sg, NPAGES);
		for (i = 0; i < NPAGES; i++)
			sg_set_page(&sg[i], sc.pages[i], PAGE_SIZE, 0);
		vsnap_take(&vs, dev);
		assert_int_equal(dma_map_sgtable(dev, &t, DMA_FROM_DEVICE, 0), 0);
		assert_int_equal(t.nents, 1);
		assert_int_equal(sg_dma_len(&sg[0]), NPAGES * PAGE_SIZE);
		for (i = 1; i < NPAGES; i++)
			assert_int_equal(sg_dma_len(&sg[i]), 0);
		assert_int_equal(dma_test_iommu(dev).iova_used, NPAGES);

		fill(buf, 9, sizeof(buf));
		assert_int_equal(pp_dma_device_write(dev, sg_dma_address(&sg[0]), buf,
						     sizeof(buf)), 0);
		for (i = 0; i < NPAGES; i++)
			assert_memory_equal(page_address(sc.pages[i]), buf + i * PAGE_SIZE,
					    PAGE_SIZE);
		dma_sync_sgtable_for_cpu(dev, &t, DMA_FROM_DEVICE);
		dma_unmap_sgtable(dev, &t, DMA_FROM_DEVICE, 0);
		assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		assert_int_equal(pp_dma_device_write(dev, sg_dma_address(&sg[0]), buf, 1),
				 -EFAULT);
		assert_int_equal(dma_test_stats(dev).maps, 1);
		assert_int_equal(dma_test_stats(dev).unmaps, 1);
		assert_no_violations(&vs, dev);
		scattered_put(&sc);
		pp_device_destroy(dev);
	}
}

/* The merge rule, entry by entry, and the device's limits. */
static void test_map_sg_iommu_rules(void **state)
{
	struct device *dev = sg_iommu_dev("rules", PP_DMA_DEBUG);
	struct scatterlist sg[4];
	struct scattered sc;
	unsigned char c;
	struct vsnap vs;
	unsigned int n;
	int i;

	scattered_get(&sc);
	vsnap_take(&vs, dev);
	/* [0] full page; [1] starts at 100: new segment, offset kept;
	 * [2] full page after [1] ended mid-page: new segment; [3] full page
	 * after a full page: merged into [2]'s. */
	sg_init_table(sg, 4);
	sg_set_page(&sg[0], sc.pages[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], sc.pages[1], 500, 100);
	sg_set_page(&sg[2], sc.pages[2], PAGE_SIZE, 0);
	sg_set_page(&sg[3], sc.pages[3], 700, 0);
	n = dma_map_sg(dev, sg, 4, DMA_BIDIRECTIONAL);
	assert_int_equal(n, 3);
	assert_int_equal(sg_dma_len(&sg[0]), PAGE_SIZE);
	assert_int_equal(sg_dma_address(&sg[1]) & ~PAGE_MASK, 100);
	assert_int_equal(sg_dma_len(&sg[1]), 500);
	assert_int_equal(sg_dma_address(&sg[1]), sg_dma_address(&sg[0]) + PAGE_SIZE + 100);
	assert_int_equal(sg_dma_len(&sg[2]), PAGE_SIZE + 700);
	assert_int_equal(sg_dma_len(&sg[3]), 0);
	/* Each segment reaches its bytes. */
	c = 0x11;
	assert_int_equal(pp_dma_device_write(dev, sg_dma_address(&sg[1]) + 499, &c, 1), 0);
	assert_int_equal(((unsigned char *)page_address(sc.pages[1]))[599], 0x11);
	c = 0x22;
	assert_int_equal(pp_dma_device_write(dev, sg_dma_address(&sg[2]) + PAGE_SIZE + 3,
					     &c, 1), 0);
	assert_int_equal(((unsigned char *)page_address(sc.pages[3]))[3], 0x22);
	dma_unmap_sg(dev, sg, 4, DMA_BIDIRECTIONAL);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);

	/* A maximum segment size of two pages: four full pages, two
	 * segments. */
	dma_set_max_seg_size(dev, 2 * PAGE_SIZE);
	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_page(&sg[i], sc.pages[i], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 4, DMA_BIDIRECTIONAL);
	assert_int_equal(n, 2);
	assert_int_equal(sg_dma_len(&sg[0]), 2 * PAGE_SIZE);
	assert_int_equal(sg_dma_len(&sg[1]), 2 * PAGE_SIZE);
	dma_unmap_sg(dev, sg, 4, DMA_BIDIRECTIONAL);

	/* A segment boundary every 2 pages: no segment starts over one. */
	dma_set_max_seg_size(dev, 16 * PAGE_SIZE);
	dma_set_seg_boundary(dev, 2 * PAGE_SIZE - 1);
	n = dma_map_sg(dev, sg, 4, DMA_BIDIRECTIONAL);
	assert_true(n >= 2);
	for (i = 0; i < (int)n; i++) {
		dma_addr_t a = sg_dma_address(&sg[i]);

		assert_true((a & ~(dma_addr_t)(2 * PAGE_SIZE - 1)) ==
			    ((a + sg_dma_len(&sg[i]) - 1) & ~(dma_addr_t)(2 * PAGE_SIZE - 1)));
	}
	dma_unmap_sg(dev, sg, 4, DMA_BIDIRECTIONAL);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	assert_no_violations(&vs, dev);
	scattered_put(&sc);
	pp_device_destroy(dev);
}

static void test_map_sg_errors(void **state)
{
	struct device *dev = sg_iommu_dev("sgerr", PP_DMA_DEBUG);
	struct scatterlist sg[3];
	struct sg_table t = { .sgl = sg, .orig_nents = 3 };
	struct scattered sc;
	struct vsnap vs;
	unsigned long warns;

	scattered_get(&sc);
	sg_init_table(sg, 3);
	sg_set_page(&sg[0], sc.pages[0], PAGE_SIZE, 0);
	sg_set_page(&sg[1], sc.pages[1], PAGE_SIZE, 0);
	sg_set_page(&sg[2], sc.pages[2], PAGE_SIZE, 0);
	vsnap_take(&vs, dev);

	/* A bad entry (length 0): -EINVAL, dma_map_sg() 0, nothing mapped. */
	sg[1].length = 0;
	warns = pp_warn_count();
	assert_int_equal(dma_map_sgtable(dev, &t, DMA_TO_DEVICE, 0), -EINVAL);
	assert_int_equal(dma_map_sg(dev, sg, 3, DMA_TO_DEVICE), 0);
	assert_true(pp_warn_count() > warns);
	sg[1].length = PAGE_SIZE;
	assert_int_equal(dma_map_sgtable(dev, &t, DMA_TO_DEVICE, 0), 0);
	assert_int_equal(t.nents, 1);		/* three full pages, merged */
	dma_unmap_sgtable(dev, &t, DMA_TO_DEVICE, 0);

	/* An IO page table that cannot be allocated: -ENOMEM, unwound.
	 * A fresh device has none below the first table's reach. */
	{
		struct device *fresh = sg_iommu_dev("fresh", 0);

		assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
						 &(struct pp_fault_config){ .next_n = 1 }), 0);
		assert_int_equal(dma_map_sgtable(fresh, &t, DMA_TO_DEVICE, 0), -ENOMEM);
		pp_fault_inject(PP_FAULT_KMALLOC, NULL);
		assert_int_equal(dma_test_iommu(fresh).iova_used, 0);
		assert_int_equal(dma_test_stats(fresh).map_errors, 1);
		assert_int_equal(dma_map_sgtable(fresh, &t, DMA_TO_DEVICE, 0), 0);
		dma_unmap_sgtable(fresh, &t, DMA_TO_DEVICE, 0);
		assert_int_equal(dma_test_iommu(fresh).iova_used, 0);
		pp_device_destroy(fresh);
	}

	/* Injected fault and unbound device: -EIO. A debug record that
	 * cannot be allocated: -ENOMEM, the IOVAs given back. */
	assert_int_equal(pp_fault_inject(PP_FAULT_DMA_MAP,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
	assert_int_equal(dma_map_sgtable(dev, &t, DMA_TO_DEVICE, 0), -EIO);
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .every_nth = 1 }), 0);
	assert_int_equal(dma_map_sgtable(dev, &t, DMA_TO_DEVICE, 0), -ENOMEM);
	pp_fault_inject(PP_FAULT_KMALLOC, NULL);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
	assert_no_violations(&vs, dev);

	device_release_driver(dev);
	vsnap_take(&vs, dev);
	assert_int_equal(dma_map_sgtable(dev, &t, DMA_TO_DEVICE, 0), -EIO);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	scattered_put(&sc);
	pp_device_destroy(dev);
}

static void test_map_sg_debug(void **state)
{
	struct device *dev = sg_iommu_dev("sgdbg", PP_DMA_DEBUG);
	struct scatterlist sg[3];
	struct scattered sc;
	struct vsnap vs;
	int i;

	scattered_get(&sc);
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_page(&sg[i], sc.pages[i], 1000, 0);	/* three segments */
	assert_int_equal(dma_map_sg(dev, sg, 3, DMA_TO_DEVICE), 3);

	/* A sync with another direction, an unmap with another count. */
	vsnap_take(&vs, dev);
	dma_sync_sg_for_cpu(dev, sg, 3, DMA_FROM_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_WRONG_DIR, 3);
	vsnap_take(&vs, dev);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_SG_COUNT, 2);
	assert_true(pp_test_log_contains("[map count=3] [unmap count=2]"));
	assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 1);
	assert_int_equal(dma_test_iommu(dev).iova_used, 1);

	/* The rest, then the whole list again: a double unmap, stopped
	 * before the backend. */
	dma_unmap_sg(dev, &sg[2], 1, DMA_TO_DEVICE);
	vsnap_take(&vs, dev);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_DOUBLE_UNMAP, 1);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);

	/* Leaked at unbind: each DMA segment. */
	assert_int_equal(dma_map_sg(dev, sg, 3, DMA_TO_DEVICE), 3);
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 3);
	assert_true(pp_test_log_contains("[mapped as scatter-gather]"));
	vsnap_take(&vs, dev);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	scattered_put(&sc);
	pp_device_destroy(dev);
}

/* A list mapped through the sg path with entries that the debug table
 * knows: a sync inside them is clean, one past their end is not. */
static void test_sync_sg_outside(void **state)
{
	struct device *dev = dma_test_dev("sgsync", PP_DMA_DIRECT, PP_DMA_DEBUG);
	struct scatterlist sg[2];
	struct scattered sc;
	struct vsnap vs;

	scattered_get(&sc);
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], sc.pages[0], 256, 0);
	sg_set_page(&sg[1], sc.pages[1], 256, 0);
	assert_int_equal(dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE), 2);
	vsnap_take(&vs, dev);
	dma_sync_sg_for_device(dev, sg, 2, DMA_FROM_DEVICE);
	assert_no_violations(&vs, dev);
	dma_sync_single_for_cpu(dev, sg_dma_address(&sg[1]) + 200, 100, DMA_FROM_DEVICE);
	assert_violations(&vs, dev, PP_DMA_V_SYNC_OUTSIDE, 1);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	scattered_put(&sc);
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_sg_layout),
		dma_test(test_sg_helpers),
		dma_test(test_sg_table),
		dma_test(test_sg_from_pages),
		dma_test(test_sg_copy),
		dma_test(test_map_sg_direct),
		dma_test(test_map_sg_iommu_merge),
		dma_test(test_map_sg_iommu_rules),
		dma_test(test_map_sg_errors),
		dma_test(test_map_sg_debug),
		dma_test(test_sync_sg_outside),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
