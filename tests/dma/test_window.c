/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The window backend (pp_device_create_window(), PP_DMA_WINDOW): creation
 * checks; a map inside the window is its offset from the base (0 at the
 * base), a map outside or across either edge is DMA_MAPPING_ERROR counted
 * as a map error with nothing recorded by the debug layer and no
 * violation; the debug layer's verdicts (double, unknown and wrong-size
 * unmap, sync outside, wrong direction) as on the other backends;
 * dma_map_sg() merging contiguous entries within the segment limit and
 * refusing a list with an entry outside; device-side writes and reads
 * through the translation, all of the window and nothing past it;
 * coherent allocations outside the window fail cleanly; unbind.
 * Layer: tests.
 */
#include <stdlib.h>

#include "dma_test.h"

#define WIN_PAGES	64

/* A window over a fresh run of WIN_PAGES arena pages. */
struct win {
	struct page *run;
	char *base;
	struct device *dev;
};

static void win_open(struct win *w, const char *name, unsigned int flags)
{
	w->run = alloc_contig_pages(WIN_PAGES, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE, NULL);
	assert_non_null(w->run);
	w->base = page_address(w->run);
	w->dev = pp_device_create_window(name, w->base, WIN_PAGES * PAGE_SIZE, flags);
	assert_false(IS_ERR_OR_NULL(w->dev));
}

static void win_close(struct win *w)
{
	pp_device_destroy(w->dev);
	free_contig_range(page_to_pfn(w->run), WIN_PAGES);
}

static void test_create_checks(void **state)
{
	struct page *run = alloc_contig_pages(4, GFP_KERNEL, NUMA_NO_NODE, NULL);
	char *base = page_address(run), *outside = malloc(3 * PAGE_SIZE);
	char *heap = (char *)PAGE_ALIGN((unsigned long)outside);
	struct device *dev;

	assert_ptr_equal(pp_device_create_window("w", NULL, PAGE_SIZE, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", base + 8, PAGE_SIZE, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", base, 0, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", base, PAGE_SIZE + 1, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", base, PAGE_SIZE, 0x100), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", heap, PAGE_SIZE, 0), ERR_PTR(-EINVAL));
	/* Past the arena's end, and one so long it wraps. */
	assert_ptr_equal(pp_device_create_window("w", (void *)(pp_mem_map.end - PAGE_SIZE),
						  2 * PAGE_SIZE, 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(pp_device_create_window("w", base, (size_t)0 - PAGE_SIZE, 0),
			 ERR_PTR(-EINVAL));
	/* The backend alone has no window. */
	assert_ptr_equal(pp_device_create("w", PP_DMA_WINDOW, 0), ERR_PTR(-EINVAL));
	/* The last page of the arena is a valid window. */
	dev = pp_device_create_window("w", (void *)(pp_mem_map.end - PAGE_SIZE), PAGE_SIZE, 0);
	assert_false(IS_ERR_OR_NULL(dev));
	assert_true(pp_device_is_bound(dev));
	pp_device_destroy(dev);
	dev = pp_device_create_window(NULL, base, 4 * PAGE_SIZE, PP_DMA_DEBUG | PP_DMA_NONCOHERENT);
	assert_false(IS_ERR_OR_NULL(dev));
	assert_true(dma_need_sync(dev, 0));
	pp_device_destroy(dev);
	free(outside);
	free_contig_range(page_to_pfn(run), 4);
}

static void test_map_inside_is_offset(void **state)
{
	struct win w;
	struct vsnap vs;
	struct pp_dma_stats st;
	dma_addr_t a;
	unsigned long i;

	win_open(&w, "win", PP_DMA_DEBUG);
	vsnap_take(&vs, w.dev);
	a = dma_map_page(w.dev, w.run, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	assert_int_equal(a, 0);
	assert_int_equal(dma_mapping_error(w.dev, a), 0);
	dma_unmap_page(w.dev, a, PAGE_SIZE, DMA_FROM_DEVICE);
	for (i = 1; i < WIN_PAGES; i += 7) {
		a = dma_map_page(w.dev, w.run + i, 100, 2000, DMA_BIDIRECTIONAL);
		assert_int_equal(a, i * PAGE_SIZE + 100);
		dma_sync_single_for_cpu(w.dev, a, 2000, DMA_BIDIRECTIONAL);
		dma_sync_single_for_device(w.dev, a + 1000, 1000, DMA_BIDIRECTIONAL);
		dma_unmap_page(w.dev, a, 2000, DMA_BIDIRECTIONAL);
	}
	a = dma_map_single(w.dev, w.base + 5 * PAGE_SIZE + 7, 9, DMA_TO_DEVICE);
	assert_int_equal(a, 5 * PAGE_SIZE + 7);
	assert_int_equal(ppdma_debug_live(to_ppdma(w.dev)), 1);
	dma_unmap_single(w.dev, a, 9, DMA_TO_DEVICE);
	st = dma_test_stats(w.dev);
	assert_int_equal(st.maps, 11);
	assert_int_equal(st.unmaps, 11);
	assert_int_equal(st.map_errors, 0);
	assert_int_equal(st.syncs_for_cpu, 9);
	assert_int_equal(st.syncs_for_device, 9);
	assert_int_equal(st.live_mappings, 0);
	assert_no_violations(&vs, w.dev);
	assert_int_equal(dma_get_required_mask(w.dev), DMA_BIT_MASK(32));
	win_close(&w);
}

/* Outside or across an edge: an error, counted, nothing recorded. */
static void test_map_outside_and_edges(void **state)
{
	struct page *comp = dma_test_page(2);		/* 4 pages, compound */
	struct page *other = dma_test_page(0);
	struct pp_dma_stats st;
	struct device *dev;
	unsigned long warns;
	struct vsnap vs;
	dma_addr_t a;

	/* The window: the compound page's pages 1 and 2. */
	dev = pp_device_create_window("edge", page_address(comp + 1), 2 * PAGE_SIZE,
				      PP_DMA_DEBUG);
	assert_false(IS_ERR_OR_NULL(dev));
	vsnap_take(&vs, dev);
	warns = pp_warn_count();

	assert_int_equal(dma_map_page(dev, other, 0, 64, DMA_FROM_DEVICE), DMA_MAPPING_ERROR);
	assert_int_equal(dma_map_page(dev, comp, 0, PAGE_SIZE, DMA_FROM_DEVICE),
			 DMA_MAPPING_ERROR);
	/* Across the start, across the end, the page after the end. */
	assert_int_equal(dma_map_page(dev, comp, PAGE_SIZE - 1, 2, DMA_FROM_DEVICE),
			 DMA_MAPPING_ERROR);
	assert_int_equal(dma_map_page(dev, comp + 2, PAGE_SIZE - 1, 2, DMA_FROM_DEVICE),
			 DMA_MAPPING_ERROR);
	assert_int_equal(dma_map_page(dev, comp + 1, 0, 2 * PAGE_SIZE + 1, DMA_FROM_DEVICE),
			 DMA_MAPPING_ERROR);
	assert_int_equal(dma_map_page(dev, comp + 3, 0, 1, DMA_FROM_DEVICE), DMA_MAPPING_ERROR);
	/* A resource is never in a window of RAM. */
	assert_int_equal(dma_map_resource(dev, page_to_phys(comp + 1), 64, DMA_FROM_DEVICE, 0),
			 DMA_MAPPING_ERROR);
	st = dma_test_stats(dev);
	assert_int_equal(st.map_errors, 7);
	assert_int_equal(st.maps, 0);
	assert_int_equal(ppdma_debug_live(to_ppdma(dev)), 0);
	assert_int_equal(pp_warn_count(), warns);
	assert_no_violations(&vs, dev);

	/* The edges from inside: first byte, whole window, last byte. */
	a = dma_map_page(dev, comp + 1, 0, 1, DMA_FROM_DEVICE);
	assert_int_equal(a, 0);
	dma_unmap_page(dev, a, 1, DMA_FROM_DEVICE);
	a = dma_map_page(dev, comp + 1, 0, 2 * PAGE_SIZE, DMA_FROM_DEVICE);
	assert_int_equal(a, 0);
	dma_unmap_page(dev, a, 2 * PAGE_SIZE, DMA_FROM_DEVICE);
	a = dma_map_page(dev, comp + 2, PAGE_SIZE - 1, 1, DMA_FROM_DEVICE);
	assert_int_equal(a, 2 * PAGE_SIZE - 1);
	dma_unmap_page(dev, a, 1, DMA_FROM_DEVICE);
	st = dma_test_stats(dev);
	assert_int_equal(st.maps, 3);
	assert_int_equal(st.unmaps, 3);
	assert_no_violations(&vs, dev);

	/* A made-up unmap past the window is not counted as one. */
	pp_device_destroy(dev);
	dev = pp_device_create_window("edge2", page_address(comp + 1), 2 * PAGE_SIZE, 0);
	assert_false(IS_ERR_OR_NULL(dev));
	dma_unmap_page(dev, 2 * PAGE_SIZE, 64, DMA_FROM_DEVICE);
	assert_int_equal(dma_test_stats(dev).unmaps, 0);
	dma_unmap_page(dev, PAGE_SIZE, 64, DMA_FROM_DEVICE);	/* inside: counted */
	assert_int_equal(dma_test_stats(dev).unmaps, 1);
	pp_device_destroy(dev);
	put_page(comp);
	put_page(other);
}

/* The debug layer's verdicts stand on a window device. */
static void test_debug_violations(void **state)
{
	struct win w;
	struct vsnap vs;
	dma_addr_t a;

	win_open(&w, "wdbg", PP_DMA_DEBUG);

	a = dma_map_page(w.dev, w.run + 3, 0, 512, DMA_FROM_DEVICE);
	assert_int_equal(a, 3 * PAGE_SIZE);
	dma_unmap_page(w.dev, a, 512, DMA_FROM_DEVICE);
	vsnap_take(&vs, w.dev);
	dma_unmap_page(w.dev, a, 512, DMA_FROM_DEVICE);
	assert_violations(&vs, w.dev, PP_DMA_V_DOUBLE_UNMAP, 1);
	assert_true(pp_test_log_contains("DMA-API: wdbg: double-unmap: "));

	vsnap_take(&vs, w.dev);
	dma_unmap_page(w.dev, 9 * PAGE_SIZE, 512, DMA_FROM_DEVICE);
	assert_violations(&vs, w.dev, PP_DMA_V_UNKNOWN_UNMAP, 1);

	/* Bus address 0 is a mapping like any other. */
	a = dma_map_page(w.dev, w.run, 0, 1024, DMA_TO_DEVICE);
	assert_int_equal(a, 0);
	vsnap_take(&vs, w.dev);
	dma_unmap_page(w.dev, a, 512, DMA_TO_DEVICE);
	assert_violations(&vs, w.dev, PP_DMA_V_BAD_UNMAP, 1);

	a = dma_map_page(w.dev, w.run + 1, 0, 1024, DMA_TO_DEVICE);
	vsnap_take(&vs, w.dev);
	dma_sync_single_for_cpu(w.dev, a + 1000, 100, DMA_TO_DEVICE);
	assert_violations(&vs, w.dev, PP_DMA_V_SYNC_OUTSIDE, 1);
	vsnap_take(&vs, w.dev);
	dma_sync_single_for_cpu(w.dev, a, 100, DMA_FROM_DEVICE);
	assert_violations(&vs, w.dev, PP_DMA_V_WRONG_DIR, 1);
	vsnap_take(&vs, w.dev);
	dma_unmap_page(w.dev, a, 1024, DMA_TO_DEVICE);
	assert_no_violations(&vs, w.dev);
	win_close(&w);
}

static void test_device_access(void **state)
{
	static char buf[3 * PAGE_SIZE], back[3 * PAGE_SIZE];
	struct win w;
	struct vsnap vs;
	unsigned long i;

	win_open(&w, "wrw", PP_DMA_DEBUG);
	vsnap_take(&vs, w.dev);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	/* At bus 0, and across two page boundaries. */
	assert_int_equal(pp_dma_device_write(w.dev, 0, buf, 100), 0);
	assert_memory_equal(w.base, buf, 100);
	assert_int_equal(pp_dma_device_write(w.dev, 10 * PAGE_SIZE - 50, buf, sizeof(buf)), 0);
	assert_memory_equal(w.base + 10 * PAGE_SIZE - 50, buf, sizeof(buf));
	assert_int_equal(pp_dma_device_read(w.dev, 10 * PAGE_SIZE - 50, back, sizeof(back)), 0);
	assert_memory_equal(back, buf, sizeof(buf));
	/* The last byte; nothing past the end, and nothing of a range that
	 * crosses it is written. */
	assert_int_equal(pp_dma_device_write(w.dev, WIN_PAGES * PAGE_SIZE - 1, buf, 1), 0);
	assert_int_equal(w.base[WIN_PAGES * PAGE_SIZE - 1], buf[0]);
	assert_int_equal(pp_dma_device_write(w.dev, WIN_PAGES * PAGE_SIZE, buf, 1), -EFAULT);
	memset(w.base + (WIN_PAGES - 1) * PAGE_SIZE, 0, PAGE_SIZE);
	assert_int_equal(pp_dma_device_write(w.dev, WIN_PAGES * PAGE_SIZE - 10, buf, 20),
			 -EFAULT);
	for (i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(w.base[(WIN_PAGES - 1) * PAGE_SIZE + i], 0);
	assert_int_equal(pp_dma_device_read(w.dev, ~0ULL - 4, back, 8), -EFAULT);
	assert_int_equal(pp_dma_device_read(w.dev, (dma_addr_t)1 << 40, back, 8), -EFAULT);
	/* Through a mapping, as a driver's RX: map, device writes, sync,
	 * the CPU reads. */
	{
		dma_addr_t a = dma_map_page(w.dev, w.run + 20, 256, 1500, DMA_FROM_DEVICE);

		assert_int_equal(pp_dma_device_write(w.dev, a, buf, 1500), 0);
		dma_sync_single_for_cpu(w.dev, a, 1500, DMA_FROM_DEVICE);
		assert_memory_equal((char *)page_address(w.run + 20) + 256, buf, 1500);
		dma_unmap_page(w.dev, a, 1500, DMA_FROM_DEVICE);
	}
	assert_no_violations(&vs, w.dev);
	win_close(&w);
}

/* @n entries, entry i over window page pg[i] at off[i], len[i]. */
static void sg_fill(struct scatterlist *sg, int n, struct page *run, const unsigned int *pg,
		    const unsigned int *off, const unsigned int *len)
{
	int i;

	sg_init_table(sg, (unsigned int)n);
	for (i = 0; i < n; i++)
		sg_set_page(&sg[i], run + pg[i], len[i], off[i]);
}

static void test_map_sg_merges(void **state)
{
	/* 0-2 contiguous whole pages; 5 alone; 6 at offset 100 does not
	 * continue 5; 7 continues 6 only if 6 ran to its end (it does not). */
	static const unsigned int pg[] = { 0, 1, 2, 5, 6, 7 };
	static const unsigned int off[] = { 0, 0, 0, 0, 100, 0 };
	static const unsigned int len[] = { PAGE_SIZE, PAGE_SIZE, PAGE_SIZE, PAGE_SIZE, 200,
					     PAGE_SIZE };
	struct scatterlist sg[6], big[20], bad[3];
	unsigned int bpg[20], boff[20], blen[20];
	struct pp_dma_stats st;
	struct vsnap vs;
	struct win w;
	int n, i;

	win_open(&w, "wsg", PP_DMA_DEBUG);
	/* The PCI default segment of 64 KiB is 16 pages at 4 KiB, one at
	 * 64 KiB; the merges below are counted in pages: 16 of them, at
	 * every page size. */
	assert_int_equal(dma_get_max_seg_size(w.dev), SZ_64K);
	dma_set_max_seg_size(w.dev, 16 * PAGE_SIZE);
	vsnap_take(&vs, w.dev);
	sg_fill(sg, 6, w.run, pg, off, len);
	n = dma_map_sg(w.dev, sg, 6, DMA_FROM_DEVICE);
	assert_int_equal(n, 4);
	assert_int_equal(sg_dma_address(&sg[0]), 0);
	assert_int_equal(sg_dma_len(&sg[0]), 3 * PAGE_SIZE);
	assert_int_equal(sg_dma_address(&sg[1]), 5 * PAGE_SIZE);
	assert_int_equal(sg_dma_len(&sg[1]), PAGE_SIZE);
	assert_int_equal(sg_dma_address(&sg[2]), 6 * PAGE_SIZE + 100);
	assert_int_equal(sg_dma_len(&sg[2]), 200);
	assert_int_equal(sg_dma_address(&sg[3]), 7 * PAGE_SIZE);
	assert_int_equal(sg_dma_len(&sg[3]), PAGE_SIZE);
	assert_int_equal(sg_dma_len(&sg[4]), 0);
	assert_int_equal(sg_dma_len(&sg[5]), 0);
	assert_int_equal(ppdma_debug_live(to_ppdma(w.dev)), 4);
	dma_sync_sg_for_cpu(w.dev, sg, 6, DMA_FROM_DEVICE);
	dma_unmap_sg(w.dev, sg, 6, DMA_FROM_DEVICE);
	assert_int_equal(ppdma_debug_live(to_ppdma(w.dev)), 0);
	st = dma_test_stats(w.dev);
	assert_int_equal(st.maps, 4);
	assert_int_equal(st.unmaps, 4);

	/* 20 contiguous pages: 16-page segments (the device's maximum). */
	for (i = 0; i < 20; i++) {
		bpg[i] = 30 + i;
		boff[i] = 0;
		blen[i] = PAGE_SIZE;
	}
	sg_fill(big, 20, w.run, bpg, boff, blen);
	assert_int_equal(dma_get_max_seg_size(w.dev), 16 * PAGE_SIZE);
	n = dma_map_sg(w.dev, big, 20, DMA_TO_DEVICE);
	assert_int_equal(n, 2);
	assert_int_equal(sg_dma_address(&big[0]), 30 * PAGE_SIZE);
	assert_int_equal(sg_dma_len(&big[0]), 16 * PAGE_SIZE);
	assert_int_equal(sg_dma_address(&big[1]), 46 * PAGE_SIZE);
	assert_int_equal(sg_dma_len(&big[1]), 4 * PAGE_SIZE);
	dma_unmap_sg(w.dev, big, 20, DMA_TO_DEVICE);
	assert_no_violations(&vs, w.dev);

	/* An entry outside the window: nothing mapped, an error. */
	{
		struct page *other = dma_test_page(0);

		sg_init_table(bad, 3);
		sg_set_page(&bad[0], w.run, PAGE_SIZE, 0);
		sg_set_page(&bad[1], w.run + 1, PAGE_SIZE, 0);
		sg_set_page(&bad[2], other, 64, 0);
		st = dma_test_stats(w.dev);
		assert_int_equal(dma_map_sg(w.dev, bad, 3, DMA_FROM_DEVICE), 0);
		assert_int_equal(dma_test_stats(w.dev).map_errors, st.map_errors + 1);
		assert_int_equal(dma_test_stats(w.dev).maps, st.maps);
		assert_int_equal(ppdma_debug_live(to_ppdma(w.dev)), 0);
		put_page(other);
	}
	assert_no_violations(&vs, w.dev);
	win_close(&w);
}

/* A coherent allocation lands outside the window (the window's pages are
 * allocated): it fails, the memory goes back, a map error is counted. */
static void test_coherent_outside(void **state)
{
	struct pp_mem_stats before, after;
	dma_addr_t h = 123;
	struct win w;
	void *p;

	win_open(&w, "wcoh", PP_DMA_DEBUG);
	pp_mem_drain_local();
	pp_mem_get_stats(&before);
	p = dma_alloc_coherent(w.dev, PAGE_SIZE, &h, GFP_KERNEL);
	assert_null(p);
	pp_mem_drain_local();
	pp_mem_get_stats(&after);
	assert_int_equal(after.free_pages, before.free_pages);
	assert_int_equal(dma_test_stats(w.dev).map_errors, 1);
	assert_int_equal(ppdma_debug_live(to_ppdma(w.dev)), 0);
	win_close(&w);
}

/* Unbind ends the binding as on the other backends: the leak is reported,
 * later calls are use after unbind, the device reads and writes nothing. */
static void test_unbind(void **state)
{
	char byte = 1;
	struct vsnap vs;
	struct win w;
	dma_addr_t a;

	win_open(&w, "wunb", PP_DMA_DEBUG);
	a = dma_map_page(w.dev, w.run + 2, 0, 256, DMA_FROM_DEVICE);
	assert_int_equal(a, 2 * PAGE_SIZE);
	vsnap_take(&vs, w.dev);
	device_release_driver(w.dev);
	assert_violations(&vs, w.dev, PP_DMA_V_LEAK_AT_UNBIND, 1);
	assert_false(pp_device_is_bound(w.dev));
	vsnap_take(&vs, w.dev);
	assert_int_equal(dma_map_page(w.dev, w.run, 0, 64, DMA_FROM_DEVICE), DMA_MAPPING_ERROR);
	dma_unmap_page(w.dev, a, 256, DMA_FROM_DEVICE);
	assert_int_equal(pp_dma_device_write(w.dev, 0, &byte, 1), -ENODEV);
	assert_violations(&vs, w.dev, PP_DMA_V_USE_AFTER_UNBIND, 3);
	assert_int_equal(w.base[0], 0);
	assert_int_equal(pp_device_bind(w.dev), 0);
	a = dma_map_page(w.dev, w.run + 2, 0, 256, DMA_FROM_DEVICE);
	assert_int_equal(a, 2 * PAGE_SIZE);
	dma_unmap_page(w.dev, a, 256, DMA_FROM_DEVICE);
	win_close(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		dma_test(test_create_checks),
		dma_test(test_map_inside_is_offset),
		dma_test(test_map_outside_and_edges),
		dma_test(test_debug_violations),
		dma_test(test_device_access),
		dma_test(test_map_sg_merges),
		dma_test(test_coherent_outside),
		dma_test(test_unbind),
	};

	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, dma_test_setup_group, NULL);
}
