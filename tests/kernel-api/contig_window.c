/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A UMEM the way a userspace driver builds one, from the installed headers
 * alone (run.sh): a run of physically contiguous pages from
 * alloc_contig_pages() (the kernel's semantics: order-0 pages, refcount 1
 * each, one zone; free_contig_range() puts each and WARNs about pages
 * still in use), and a window device over it (pp_device_create_window())
 * whose bus addresses are offsets into the run, as an AF_XDP descriptor's
 * address is. Every 2 KiB chunk is mapped at its offset, written by the
 * device through its bus address, synced and read by the CPU; a page
 * outside the window does not map. Afterwards: no DMA-API violation,
 * every page home.
 */
#include "kapi.h"

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/nodemask.h>

#define NR_PAGES	1500	/* not a power of two: a split and a tail */
#define CHUNK		2048

static void test_umem_window(void **state)
{
	nodemask_t all = NODE_MASK_ALL;
	struct pp_mem_stats st0, st;
	struct page *run, *other;
	struct device *dev;
	unsigned long i;
	char frame[64];
	char *umem;

	(void)state;
	assert_int_equal(pp_mem_init(NULL), 0);		/* the default arena */
	pp_mem_get_stats(&st0);
	run = alloc_contig_pages(NR_PAGES, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE, &all);
	assert_non_null(run);
	umem = page_address(run);
	for (i = 0; i < NR_PAGES; i++) {
		assert_ptr_equal(page_address(run + i), umem + i * PAGE_SIZE);
		assert_int_equal(page_ref_count(run + i), 1);
		assert_false(PageCompound(run + i));
	}
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st0.free_pages - NR_PAGES);

	dev = pp_device_create_window("umem0", umem, NR_PAGES * PAGE_SIZE, PP_DMA_DEBUG);
	assert_false(IS_ERR_OR_NULL(dev));
	for (i = 0; i < NR_PAGES * PAGE_SIZE / CHUNK; i++) {
		struct page *page = run + i * CHUNK / PAGE_SIZE;
		size_t off = (i * CHUNK) % PAGE_SIZE;
		dma_addr_t addr = dma_map_page(dev, page, off, CHUNK, DMA_BIDIRECTIONAL);

		assert_int_equal(addr, i * CHUNK);
		snprintf(frame, sizeof(frame), "frame %lu", i);
		assert_int_equal(pp_dma_device_write(dev, addr + 14, frame, sizeof(frame)), 0);
		dma_sync_single_for_cpu(dev, addr, CHUNK, DMA_BIDIRECTIONAL);
		assert_string_equal(umem + i * CHUNK + 14, frame);
		dma_unmap_page(dev, addr, CHUNK, DMA_BIDIRECTIONAL);
	}
	assert_int_equal(pp_dma_device_write(dev, NR_PAGES * PAGE_SIZE, frame, 1), -EFAULT);
	other = alloc_page(GFP_KERNEL);
	assert_non_null(other);
	assert_true(dma_mapping_error(dev, dma_map_page(dev, other, 0, 64, DMA_FROM_DEVICE)));
	__free_page(other);
	assert_int_equal(pp_dma_violations(dev), 0);
	pp_device_destroy(dev);

	/* A page still held elsewhere outlives the free, as in the kernel. */
	get_page(run + 7);
	i = pp_warn_count();
	free_contig_range(page_to_pfn(run), NR_PAGES);
	assert_int_equal(pp_warn_count(), i + 1);
	assert_true(kapi_logged("1 of 1500 pages are still in use"));
	assert_int_equal(page_ref_count(run + 7), 1);
	put_page(run + 7);
	assert_int_equal(pp_dma_violations(NULL), 0);
	kapi_assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_umem_window),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
