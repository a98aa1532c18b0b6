/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * DMA allocations: dma_alloc_coherent() on both backends (zeroed arena
 * memory, the bus address a physical address or an IOVA the device reaches
 * the memory through, coherent_dma_mask honoured and not the streaming
 * mask), the DMA-API debug layer's verdicts on frees (unknown address,
 * wrong size, double free, wrong CPU address, wrong function, leak and use
 * after unbind), clean failures under fault injection, managed (dmam_)
 * allocations released at unbind, dma_alloc_pages()/noncoherent,
 * dma_alloc_noncontiguous(), dma_get_sgtable() and the calls that have no
 * meaning in userspace.
 */
#include <stdio.h>

#include "dma_test.h"

/* A size that needs two pages, not a multiple of one: 5000 bytes at
 * 4 KiB pages. */
#define SZ_2P	(PAGE_SIZE + 904)

static unsigned long free_pages_now(void)
{
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	return st.free_pages;
}

static unsigned long mm_double_frees(void)
{
	struct pp_mem_counters c;

	pp_mem_get_counters(&c);
	return c.double_free + c.bad_free;
}

static bool all_zero(const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[i])
			return false;
	return true;
}

static void test_coherent_iommu(void **state)
{
	static const unsigned int flags[] = { 0, PP_DMA_DEBUG };
	unsigned int f;

	for (f = 0; f < 2; f++) {
		struct device *dev = dma_test_dev("ring", PP_DMA_IOMMU, flags[f]);
		const size_t size = 3 * PAGE_SIZE + 100;	/* 4 pages, order 2 */
		unsigned long free0 = free_pages_now();
		unsigned char buf[256], back[256];
		struct pp_dma_stats st;
		struct vsnap vs;
		dma_addr_t h, h2;
		unsigned char *cpu, *cpu2;

		vsnap_take(&vs, dev);
		cpu = dma_alloc_coherent(dev, size, &h, GFP_KERNEL);
		assert_non_null(cpu);
		assert_true(PAGE_ALIGNED(cpu));
		assert_true(virt_addr_valid(cpu));
		assert_true(all_zero(cpu, PAGE_SIZE << 2));
		assert_int_equal(free_pages_now(), free0 - 4);
		/* An IOVA, not the physical address: the IOMMU maps it. */
		assert_false(dma_mapping_error(dev, h));
		assert_int_not_equal(h, page_to_phys(virt_to_page(cpu)));
		assert_int_equal(h & ~PAGE_MASK, 0);
		assert_true(h + size - 1 <= DMA_BIT_MASK(32));
		assert_int_equal(dma_test_iommu(dev).iova_used, 4);

		/* The device reaches the memory at h, for reading and writing,
		 * across its pages. */
		memset(buf, 0x5a, sizeof(buf));
		assert_int_equal(pp_dma_device_write(dev, h + 3 * PAGE_SIZE - 128, buf,
						     sizeof(buf)), 0);
		assert_memory_equal(cpu + 3 * PAGE_SIZE - 128, buf, sizeof(buf));
		memset(cpu + 10, 0x33, sizeof(back));
		assert_int_equal(pp_dma_device_read(dev, h + 10, back, sizeof(back)), 0);
		assert_memory_equal(back, cpu + 10, sizeof(back));

		st = dma_test_stats(dev);
		assert_int_equal(st.maps, 1);
		assert_int_equal(st.live_mappings, 1);
		if (flags[f])
			assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 1);

		memset(cpu, 0xee, size);
		dma_free_coherent(dev, size, cpu, h);
		assert_int_equal(free_pages_now(), free0);
		assert_int_equal(dma_test_iommu(dev).iova_used, 0);
		assert_int_equal(pp_dma_device_write(dev, h, buf, 1), -EFAULT);
		st = dma_test_stats(dev);
		assert_int_equal(st.unmaps, 1);
		assert_int_equal(st.live_mappings, 0);

		/* Memory that comes back is zeroed again. */
		cpu2 = dma_alloc_coherent(dev, size, &h2, GFP_KERNEL);
		assert_non_null(cpu2);
		assert_true(all_zero(cpu2, PAGE_SIZE << 2));
		dma_free_coherent(dev, size, cpu2, h2);

		dma_free_coherent(dev, size, NULL, 0);		/* no-op */
		assert_no_violations(&vs, dev);
		pp_device_destroy(dev);
	}
}

static void test_coherent_direct(void **state)
{
	struct device *dev = dma_test_dev("ring", PP_DMA_DIRECT, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now();
	unsigned char c = 7;
	struct vsnap vs;
	dma_addr_t h;
	void *cpu;

	vsnap_take(&vs, dev);
	cpu = dma_alloc_coherent(dev, 100, &h, GFP_ATOMIC);
	assert_non_null(cpu);
	assert_int_equal(h, page_to_phys(virt_to_page(cpu)));
	assert_true(all_zero(cpu, PAGE_SIZE));
	assert_int_equal(free_pages_now(), free0 - 1);
	assert_int_equal(pp_dma_device_write(dev, h + 99, &c, 1), 0);
	assert_int_equal(((unsigned char *)cpu)[99], 7);
	dma_free_coherent(dev, 100, cpu, h);
	assert_int_equal(free_pages_now(), free0);

	/* write-combined memory is coherent memory here */
	cpu = dma_alloc_wc(dev, PAGE_SIZE, &h, GFP_KERNEL);
	assert_non_null(cpu);
	dma_free_wc(dev, PAGE_SIZE, cpu, h);
	assert_no_violations(&vs, dev);
	assert_int_equal(free_pages_now(), free0);
	pp_device_destroy(dev);
}

/* The IOVA comes from below coherent_dma_mask, not dma_mask: with the
 * allocator's next-fit hint above 16 MiB, a 24-bit coherent mask must
 * still find room at the bottom. */
static void test_coherent_mask_iommu(void **state)
{
	struct device *dev = dma_test_dev("cmask", PP_DMA_IOMMU, 0);
	struct page *big = dma_test_page(MAX_PAGE_ORDER);
	const size_t blk = PAGE_SIZE << MAX_PAGE_ORDER;
	dma_addr_t a[5], h, s;
	void *cpu;
	int i;

	assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	assert_int_equal(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)), 0);
	for (i = 0; i < 5; i++) {
		a[i] = dma_map_page(dev, big, 0, blk, DMA_TO_DEVICE);
		assert_false(dma_mapping_error(dev, a[i]));
	}
	for (i = 0; i < 4; i++)
		dma_unmap_page(dev, a[i], blk, DMA_TO_DEVICE);

	/* A streaming map follows dma_mask: above 16 MiB. */
	s = dma_map_page(dev, big, 0, PAGE_SIZE, DMA_TO_DEVICE);
	assert_true(s > DMA_BIT_MASK(24));
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	assert_non_null(cpu);
	assert_true(h + 2 * PAGE_SIZE - 1 <= DMA_BIT_MASK(24));
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);

	/* A coherent mask of 0 (a device nobody set up) reaches nothing. */
	dev->coherent_dma_mask = 0;
	{
		unsigned long warns = pp_warn_count();

		assert_null(dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL));
		assert_true(pp_warn_count() > warns);
	}
	dev->coherent_dma_mask = DMA_BIT_MASK(32);

	dma_unmap_page(dev, s, PAGE_SIZE, DMA_TO_DEVICE);
	dma_unmap_page(dev, a[4], blk, DMA_TO_DEVICE);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	__free_pages(big, MAX_PAGE_ORDER);
	pp_device_destroy(dev);
}

/*
 * Direct: the memory itself must lie below the coherent mask. The arena's
 * physical frames start at PP_PFN_OFFSET pages (1 MiB at 4 KiB pages), so
 * of the arena's four largest blocks at least the last crosses 16 MiB (at
 * 4 KiB pages only the last; at 16/64 KiB all do). With that block the
 * only one free, a 24-bit coherent mask cannot be met (there are no zones
 * to retry from);
 * a 24-bit streaming mask does not matter to coherent memory.
 */
static void test_coherent_mask_direct(void **state)
{
	struct device *dev = dma_test_dev("cmask", PP_DMA_DIRECT, 0);
	const size_t blk = PAGE_SIZE << MAX_PAGE_ORDER;
	struct page *b[8];
	int n = 0, i, high = -1;
	dma_addr_t h;
	void *cpu;

	pp_mem_drain_local();
	while (n < 8 && (b[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_PAGE_ORDER)))
		n++;
	for (i = 0; i < n; i++)
		if (page_to_phys(b[i]) + blk - 1 > DMA_BIT_MASK(24))
			high = i;
	assert_true(high >= 0);
	__free_pages(b[high], MAX_PAGE_ORDER);

	assert_int_equal(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)), 0);
	assert_null(dma_alloc_coherent(dev, blk, &h, GFP_KERNEL | __GFP_NOWARN));
	assert_int_equal(dma_test_stats(dev).map_errors, 1);

	assert_int_equal(dma_set_mask(dev, DMA_BIT_MASK(24)), 0);
	assert_int_equal(dma_set_coherent_mask(dev, DMA_BIT_MASK(32)), 0);
	cpu = dma_alloc_coherent(dev, blk, &h, GFP_KERNEL);
	assert_non_null(cpu);
	assert_ptr_equal(virt_to_page(cpu), b[high]);
	assert_true(h + blk - 1 > DMA_BIT_MASK(24));
	assert_true(dma_coherent_ok(dev, h, blk));
	dma_free_coherent(dev, blk, cpu, h);

	for (i = 0; i < n; i++)
		if (i != high)
			__free_pages(b[i], MAX_PAGE_ORDER);
	pp_device_destroy(dev);
}

static void test_coherent_bad_args(void **state)
{
	struct device *dev = dma_test_dev("args", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now(), warns = pp_warn_count();
	char stack_buf[64];
	struct vsnap vs;
	dma_addr_t h = 0;

	vsnap_take(&vs, dev);
	assert_null(dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL | __GFP_COMP));
	assert_int_equal(pp_warn_count() - warns, 1);
	assert_null(dma_alloc_coherent(dev, 0, &h, GFP_KERNEL));
	/* Larger than the largest block. */
	assert_null(dma_alloc_coherent(dev, (PAGE_SIZE << MAX_PAGE_ORDER) + 1, &h,
				       GFP_KERNEL | __GFP_NOWARN));
	/* A pointer that cannot be an allocation is refused, not freed. */
	warns = pp_warn_count();
	dma_free_coherent(dev, sizeof(stack_buf), stack_buf, 0x1000);
	assert_int_equal(pp_warn_count() - warns, 1);
	assert_int_equal(free_pages_now(), free0);
	assert_no_violations(&vs, dev);
	assert_int_equal(dma_test_iommu(dev).iova_used, 0);
	pp_device_destroy(dev);
}

/* The debug layer on frees: each misuse reported as the kernel's
 * CONFIG_DMA_API_DEBUG would, and the arena never corrupted by it. */
static void test_coherent_debug(void **state)
{
	static const enum pp_dma_backend backends[] = { PP_DMA_DIRECT, PP_DMA_IOMMU };
	unsigned int b;

	for (b = 0; b < 2; b++) {
		struct device *dev = dma_test_dev("dbg", backends[b], PP_DMA_DEBUG);
		unsigned long free0 = free_pages_now(), bad0 = mm_double_frees();
		struct page *page = dma_test_page(0);
		struct vsnap vs;
		dma_addr_t h, h2, s;
		char *cpu, *cpu2;

		/* Unknown address: reported, nothing freed. */
		cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
		assert_non_null(cpu);
		vsnap_take(&vs, dev);
		dma_free_coherent(dev, PAGE_SIZE, cpu, h + 2 * PAGE_SIZE);
		assert_violations(&vs, dev, PP_DMA_V_UNKNOWN_UNMAP, 1);
		assert_true(pp_test_log_contains("device driver tries to free DMA memory it has not allocated"));
		assert_int_equal(free_pages_now(), free0 - 2);

		/* Wrong size: reported; what was allocated is freed. */
		vsnap_take(&vs, dev);
		dma_free_coherent(dev, 4 * PAGE_SIZE, cpu, h);
		assert_violations(&vs, dev, PP_DMA_V_BAD_UNMAP, 1);
		assert_int_equal(free_pages_now(), free0 - 1);
		assert_int_equal(mm_double_frees(), bad0);

		/* Double free: reported, nothing freed twice. */
		vsnap_take(&vs, dev);
		dma_free_coherent(dev, PAGE_SIZE, cpu, h);
		assert_violations(&vs, dev, PP_DMA_V_DOUBLE_UNMAP, 1);
		assert_true(pp_test_log_contains("[mapped as coherent]"));
		assert_int_equal(free_pages_now(), free0 - 1);
		assert_int_equal(mm_double_frees(), bad0);

		/* Another allocation's CPU address: reported, the right
		 * memory freed. */
		cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
		cpu2 = dma_alloc_coherent(dev, PAGE_SIZE, &h2, GFP_KERNEL);
		vsnap_take(&vs, dev);
		dma_free_coherent(dev, PAGE_SIZE, cpu2, h);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_CPU_ADDR, 1);
		assert_int_equal(free_pages_now(), free0 - 2);
		dma_free_coherent(dev, PAGE_SIZE, cpu2, h2);
		assert_int_equal(free_pages_now(), free0 - 1);

		/* Wrong function, both ways: the mapping is undone, memory
		 * that is not a coherent allocation is left alone. */
		cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
		vsnap_take(&vs, dev);
		dma_unmap_page(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_FUNCTION, 1);
		assert_true(pp_test_log_contains("[mapped as coherent] [unmapped as single]"));
		assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
		dma_free_coherent(dev, PAGE_SIZE, cpu, h);	/* now a double free */
		free_page((unsigned long)cpu);			/* the memory, by hand */

		s = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
		vsnap_take(&vs, dev);
		dma_free_coherent(dev, PAGE_SIZE, page_address(page), s);
		assert_violations(&vs, dev, PP_DMA_V_WRONG_FUNCTION, 1);
		assert_true(pp_test_log_contains("[mapped as single] [unmapped as coherent]"));
		assert_int_equal(page_ref_count(page), 1);	/* not freed */
		assert_int_equal(free_pages_now(), free0 - 1);

		__free_page(page);
		assert_int_equal(free_pages_now(), free0);
		assert_int_equal(mm_double_frees(), bad0);
		pp_device_destroy(dev);
	}
}

/* Leaked at unbind: reported with its kind; freed later: use after unbind,
 * and the memory still goes home. */
static void test_coherent_unbind(void **state)
{
	struct device *dev = dma_test_dev("leaky", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now();
	struct vsnap vs;
	dma_addr_t h;
	void *cpu;

	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	assert_non_null(cpu);
	vsnap_take(&vs, dev);
	device_release_driver(dev);
	assert_violations(&vs, dev, PP_DMA_V_LEAK_AT_UNBIND, 1);
	assert_true(pp_test_log_contains("[mapped with DMA_BIDIRECTIONAL] [mapped as coherent]"));

	vsnap_take(&vs, dev);
	assert_null(dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL));
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	vsnap_take(&vs, dev);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	assert_violations(&vs, dev, PP_DMA_V_USE_AFTER_UNBIND, 1);
	assert_int_equal(free_pages_now(), free0);
	pp_device_destroy(dev);
}

/* Every way an allocation can fail leaves nothing behind: no pages, no
 * IOVA, no debug record, no violation. */
static void test_coherent_faults(void **state)
{
	static const enum pp_fault_point points[] = {
		PP_FAULT_DMA_MAP, PP_FAULT_PAGE_ALLOC, PP_FAULT_KMALLOC,
	};
	static const enum pp_dma_backend backends[] = { PP_DMA_DIRECT, PP_DMA_IOMMU };
	unsigned int p, b;

	for (b = 0; b < 2; b++) {
		for (p = 0; p < ARRAY_SIZE(points); p++) {
			struct device *dev = dma_test_dev("fault", backends[b], PP_DMA_DEBUG);
			unsigned long free0 = free_pages_now();
			unsigned long injected = pp_fault_count(points[p]);
			struct vsnap vs;
			dma_addr_t h = 0;
			void *cpu;

			vsnap_take(&vs, dev);
			assert_int_equal(pp_fault_inject(points[p],
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
			cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL | __GFP_NOWARN);
			pp_fault_inject(points[p], NULL);
			/* An IOMMU device with page tables for low IOVAs already
			 * makes no kmalloc() on a map: the debug record is the
			 * one that fails. Either way the allocation fails. */
			assert_null(cpu);
			assert_int_equal(pp_fault_count(points[p]) - injected, 1);
			assert_int_equal(free_pages_now(), free0);
			assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
			assert_int_equal(dma_test_stats(dev).map_errors, 1);
			assert_int_equal(dma_test_stats(dev).live_mappings, 0);
			if (backends[b] == PP_DMA_IOMMU)
				assert_int_equal(dma_test_iommu(dev).iova_used, 0);
			assert_no_violations(&vs, dev);

			/* And the next one works. */
			cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
			assert_non_null(cpu);
			dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
			assert_int_equal(free_pages_now(), free0);
			pp_device_destroy(dev);
		}
	}
}

/* dmam_: freed by the unbind, before the leak check; freed early by
 * dmam_free_coherent(); never freed twice. */
static void test_managed(void **state)
{
	struct device *dev = dma_test_dev("devres", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now(), bad0 = mm_double_frees();
	unsigned long warns;
	struct vsnap vs;
	dma_addr_t h1, h2, h3;
	void *a, *b, *c;

	vsnap_take(&vs, dev);
	a = dmam_alloc_coherent(dev, PAGE_SIZE, &h1, GFP_KERNEL);
	b = dmam_alloc_coherent(dev, 3 * PAGE_SIZE, &h2, GFP_KERNEL);
	c = dmam_alloc_coherent(dev, PAGE_SIZE, &h3, GFP_KERNEL);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(all_zero(b, 3 * PAGE_SIZE));
	assert_int_equal(free_pages_now(), free0 - 1 - 4 - 1);
	dmam_free_coherent(dev, PAGE_SIZE, c, h3);
	assert_int_equal(free_pages_now(), free0 - 5);

	/* Not a managed allocation: a WARN, nothing freed. */
	warns = pp_warn_count();
	dmam_free_coherent(dev, PAGE_SIZE, c, h3);
	assert_int_equal(pp_warn_count() - warns, 1);

	device_release_driver(dev);
	assert_no_violations(&vs, dev);		/* no leak reported */
	assert_int_equal(free_pages_now(), free0);
	assert_int_equal(dma_test_stats(dev).live_mappings, 0);

	/* After the unbind released them: a WARN, no double free. */
	warns = pp_warn_count();
	dmam_free_coherent(dev, PAGE_SIZE, a, h1);
	assert_int_equal(pp_warn_count() - warns, 1);
	assert_int_equal(mm_double_frees(), bad0);
	assert_int_equal(free_pages_now(), free0);

	assert_int_equal(pp_device_bind(dev), 0);
	a = dmam_alloc_coherent(dev, PAGE_SIZE, &h1, GFP_KERNEL);
	assert_non_null(a);
	warns = pp_dma_violations(NULL);
	pp_device_destroy(dev);			/* unbinds, freeing it */
	assert_int_equal(free_pages_now(), free0);
	assert_int_equal(pp_dma_violations(NULL), warns);
}

static void test_alloc_pages(void **state)
{
	struct device *dev = dma_test_dev("pages", PP_DMA_IOMMU, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now(), warns;
	unsigned char c = 0x42, out;
	struct vsnap vs;
	struct page *page;
	dma_addr_t h;
	void *va;

	vsnap_take(&vs, dev);
	page = dma_alloc_pages(dev, SZ_2P, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	assert_non_null(page);
	assert_true(all_zero(page_address(page), 2 * PAGE_SIZE));
	assert_int_equal(dma_test_iommu(dev).iova_used, 2);
	/* Mapped for the device to write, not to read. */
	assert_int_equal(pp_dma_device_write(dev, h + SZ_2P - 1, &c, 1), 0);
	assert_int_equal(((unsigned char *)page_address(page))[SZ_2P - 1], 0x42);
	assert_int_equal(pp_dma_device_read(dev, h, &out, 1), -EFAULT);
	dma_sync_single_for_cpu(dev, h, SZ_2P, DMA_FROM_DEVICE);
	dma_free_pages(dev, SZ_2P, page, h, DMA_FROM_DEVICE);
	assert_int_equal(free_pages_now(), free0);

	va = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL);
	assert_non_null(va);
	dma_free_noncoherent(dev, PAGE_SIZE, va, h, DMA_TO_DEVICE);
	assert_no_violations(&vs, dev);

	va = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	dma_free_coherent(dev, PAGE_SIZE, va, h);
	assert_violations(&vs, dev, PP_DMA_V_WRONG_FUNCTION, 1);
	assert_true(pp_test_log_contains("[mapped as noncoherent] [unmapped as coherent]"));
	free_page((unsigned long)va);
	assert_int_equal(free_pages_now(), free0);

	warns = pp_warn_count();
	assert_null(dma_alloc_pages(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL | GFP_DMA32));
	assert_null(dma_alloc_pages(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL | __GFP_COMP));
	assert_int_equal(pp_warn_count() - warns, 2);
	pp_device_destroy(dev);
}

static void test_noncontiguous(void **state)
{
	struct device *dev = dma_test_dev("nc", PP_DMA_DIRECT, PP_DMA_DEBUG);
	unsigned long free0 = free_pages_now();
	struct sg_table *sgt;
	struct vsnap vs;
	void *va;

	vsnap_take(&vs, dev);
	sgt = dma_alloc_noncontiguous(dev, 3 * PAGE_SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL, 0);
	assert_non_null(sgt);
	assert_int_equal(sgt->nents, 1);
	assert_int_equal(sgt->orig_nents, 1);
	assert_int_equal(sg_dma_len(sgt->sgl), 3 * PAGE_SIZE);
	assert_int_equal(sg_dma_address(sgt->sgl), sg_phys(sgt->sgl));
	va = dma_vmap_noncontiguous(dev, 3 * PAGE_SIZE, sgt);
	assert_ptr_equal(va, sg_virt(sgt->sgl));
	assert_true(all_zero(va, 3 * PAGE_SIZE));
	dma_sync_sgtable_for_cpu(dev, sgt, DMA_BIDIRECTIONAL);
	dma_vunmap_noncontiguous(dev, va);
	assert_int_equal(dma_mmap_noncontiguous(dev, NULL, 3 * PAGE_SIZE, sgt), -ENXIO);
	dma_free_noncontiguous(dev, 3 * PAGE_SIZE, sgt, DMA_BIDIRECTIONAL);
	assert_int_equal(free_pages_now(), free0);
	assert_no_violations(&vs, dev);
	assert_null(dma_alloc_noncontiguous(dev, PAGE_SIZE, DMA_BIDIRECTIONAL, GFP_KERNEL,
					    DMA_ATTR_WEAK_ORDERING));
	pp_device_destroy(dev);
}

static void test_sgtable_and_mmap(void **state)
{
	struct device *dev = dma_test_dev("sgt", PP_DMA_IOMMU, 0);
	struct sg_table sgt;
	dma_addr_t h;
	void *cpu;

	cpu = dma_alloc_coherent(dev, SZ_2P, &h, GFP_KERNEL);
	assert_non_null(cpu);
	assert_int_equal(dma_get_sgtable(dev, &sgt, cpu, h, SZ_2P), 0);
	assert_int_equal(sgt.orig_nents, 1);
	assert_ptr_equal(sg_page(sgt.sgl), virt_to_page(cpu));
	assert_int_equal(sgt.sgl->length, 2 * PAGE_SIZE);
	assert_int_equal(sgt.sgl->offset, 0);
	assert_true(sg_is_last(sgt.sgl));
	sg_free_table(&sgt);
	assert_int_equal(dma_get_sgtable(dev, &sgt, &sgt, h, SZ_2P), -ENXIO);

	/* No process address space to map into. */
	assert_false(dma_can_mmap(dev));
	assert_int_equal(dma_mmap_coherent(dev, NULL, cpu, h, SZ_2P), -ENXIO);
	assert_int_equal(dma_mmap_wc(dev, NULL, cpu, h, SZ_2P), -ENXIO);
	assert_int_equal(dma_mmap_pages(dev, NULL, SZ_2P, virt_to_page(cpu)), -ENXIO);
	dma_free_coherent(dev, SZ_2P, cpu, h);
	pp_device_destroy(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* First, while the arena's largest blocks are all free. */
		dma_test(test_coherent_mask_direct),
		dma_test(test_coherent_iommu),
		dma_test(test_coherent_direct),
		dma_test(test_coherent_mask_iommu),
		dma_test(test_coherent_bad_args),
		dma_test(test_coherent_debug),
		dma_test(test_coherent_unbind),
		dma_test(test_coherent_faults),
		dma_test(test_managed),
		dma_test(test_alloc_pages),
		dma_test(test_noncontiguous),
		dma_test(test_sgtable_and_mmap),
	};

	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
