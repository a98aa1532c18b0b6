/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fragment layout as Linux 6.12.117 gives it: a fragment takes
 * ALIGN(size, unit) bytes, unit = max(dma_get_cache_alignment(),
 * __alignof__(struct skb_shared_info)) - 8 on x86-64, 128 on arm64 - so on
 * x86-64 100-byte fragments start at 0, 104, 208, ... (39 in a 4 KiB page)
 * and 1000-byte ones at 0, 1000, 2000; page_pool_alloc() gives a whole page
 * above half a page and hands the tail to the last fragment that fits;
 * fragment statistics count as 6.12's (every fragment from the current page
 * is a fast allocation); and the XDP frame's 40 bytes at the head of the
 * buffer. How many fragments a page holds follows from the unit and
 * PAGE_SIZE (the build's page size: 4, 16 or 64 KiB); the x86-64 4 KiB
 * figures are written beside each computation. Built as an outside user
 * builds (run.sh).
 */
#include "kapi.h"

#include <linux/dma-mapping.h>
#include <linux/skbuff.h>
#include <net/xdp.h>
#include <stdlib.h>

/* The fragment unit: the larger of the DMA and the shared-info alignment. */
static unsigned int frag_unit(void)
{
	unsigned int dma = dma_get_cache_alignment();
	unsigned int shinfo = __alignof__(struct skb_shared_info);

	return dma > shinfo ? dma : shinfo;
}

static struct page_pool *make_pool(unsigned int order)
{
	struct page_pool_params pp = { .order = order, .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static void test_arch_constants(void **state)
{
	(void)state;
#if defined(__x86_64__)
	/* x86-64 defines no ARCH_DMA_MINALIGN: the kernel returns 1. */
	assert_int_equal(dma_get_cache_alignment(), 1);
	assert_int_equal(frag_unit(), 8);
#elif defined(__aarch64__)
	/* arm64: ARCH_DMA_MINALIGN, 128. */
	assert_int_equal(dma_get_cache_alignment(), 128);
	assert_int_equal(frag_unit(), 128);
#endif
	assert_int_equal(__alignof__(struct skb_shared_info), 8);
	assert_int_equal(sizeof(struct skb_shared_info), 320);
	assert_int_equal(SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), 320);
}

/* Carve fragments of @size until a new page starts; check each offset:
 * each takes ALIGN(size, unit), (PAGE_SIZE << order) / that fit. */
static void carve(unsigned int order, unsigned int size)
{
	struct page_pool *pool = make_pool(order);
	unsigned int step = ALIGN(size, frag_unit());
	unsigned int per_page = (PAGE_SIZE << order) / step;
	struct page *first, *p, **pages;
	unsigned int off, i;

	pages = calloc(per_page, sizeof(*pages));
	assert_non_null(pages);
	first = page_pool_dev_alloc_frag(pool, &off, size);
	assert_non_null(first);
	assert_int_equal(off, 0);
	pages[0] = first;
	for (i = 1; i < per_page; i++) {
		p = page_pool_dev_alloc_frag(pool, &off, size);
		assert_ptr_equal(p, first);
		assert_int_equal(off, i * step);
		pages[i] = p;
	}
	/* The next one does not fit: a new page, at offset 0. */
	p = page_pool_dev_alloc_frag(pool, &off, size);
	assert_non_null(p);
	assert_ptr_not_equal(p, first);
	assert_int_equal(off, 0);
	/* Stats as 6.12: every fragment after a page's first is fast. Order
	 * 0: the first page came from the slow path, the second from the
	 * cache (fast); order 1 has no bulk: both pages are high-order
	 * allocations. */
	if (!order) {
		assert_int_equal(kapi_stats(pool).alloc_stats.slow, 1);
		assert_int_equal(kapi_stats(pool).alloc_stats.fast, per_page);
	} else {
		assert_int_equal(kapi_stats(pool).alloc_stats.slow_high_order, 2);
		assert_int_equal(kapi_stats(pool).alloc_stats.fast, per_page - 1);
	}

	for (i = 0; i < per_page; i++)
		page_pool_put_page(pool, pages[i], -1, false);
	page_pool_put_page(pool, p, -1, false);
	free(pages);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

static void test_100_bytes(void **state)
{
	(void)state;
	/* x86-64, 4 KiB: 39 * 104 = 4056, a 40th would end at 4160. */
	if (frag_unit() == 8 && PAGE_SIZE == 4096)
		assert_int_equal(PAGE_SIZE / ALIGN(100, frag_unit()), 39);
	carve(0, 100);
}

static void test_1000_bytes(void **state)
{
	(void)state;
	carve(0, 1000);			/* x86-64, 4 KiB: 4 at 0, 1000, 2000, 3000 */
}

static void test_small_and_aligned(void **state)
{
	(void)state;
	carve(0, 1);			/* even 1 byte takes the unit (8 on x86-64) */
	carve(0, 64);			/* x86-64, 4 KiB: 64 of them */
	carve(1, 100);			/* order 1: x86-64, 8 KiB: 78 * 104 = 8112 */
}

/* page_pool_alloc(): a whole page above half a page; otherwise a fragment,
 * and the last one that fits gets the page's tail added to its size. */
static void test_page_pool_alloc_sizes(void **state)
{
	struct page_pool *pool = make_pool(0);
	/* Between a third and a half of a page: two fit, a third does not.
	 * 1500 at 4 KiB, which takes ALIGN(1500, 8) = 1504 on x86-64. */
	unsigned int frag = PAGE_SIZE / 2 - 548, step = ALIGN(frag, frag_unit());
	unsigned int off, size;
	struct page *p, *q;

	(void)state;
	assert_true(2 * step <= PAGE_SIZE && 2 * step + frag > PAGE_SIZE);
	size = PAGE_SIZE / 2 + 1;	/* 2049 at 4 KiB */
	p = page_pool_dev_alloc(pool, &off, &size);
	assert_non_null(p);
	assert_int_equal(off, 0);
	assert_int_equal(size, PAGE_SIZE);
	page_pool_put_full_page(pool, p, false);

	size = frag;
	p = page_pool_dev_alloc(pool, &off, &size);
	assert_non_null(p);
	assert_int_equal(off, 0);
	assert_int_equal(size, frag);
	size = frag;
	q = page_pool_dev_alloc(pool, &off, &size);
	assert_ptr_equal(q, p);
	assert_int_equal(off, step);
	/* 3008 + 1500 > 4096 at 4 KiB: this one takes the tail. */
	assert_int_equal(size, PAGE_SIZE - step);
	page_pool_put_page(pool, p, -1, false);
	page_pool_put_page(pool, q, -1, false);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

/* page_pool_dev_alloc_va(): the same layout, as virtual addresses. */
static void test_alloc_va(void **state)
{
	struct page_pool *pool = make_pool(0);
	unsigned int size = 100;
	char *a, *b, *c;

	(void)state;
	a = page_pool_dev_alloc_va(pool, &size);
	assert_non_null(a);
	size = 100;
	b = page_pool_dev_alloc_va(pool, &size);
	size = 100;
	c = page_pool_dev_alloc_va(pool, &size);
	assert_int_equal(((unsigned long)a) % PAGE_SIZE, 0);
	assert_int_equal(b - a, ALIGN(100, frag_unit()));	/* 104 on x86-64 */
	assert_int_equal(c - a, 2 * ALIGN(100, frag_unit()));
	page_pool_free_va(pool, a, false);
	page_pool_free_va(pool, b, false);
	page_pool_free_va(pool, c, false);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

/* xdp_convert_buff_to_frame() puts the 40-byte frame (6.12's and v6.14+'s
 * size) in the headroom: it needs headroom - metasize >= 40 and leaves
 * headroom - 40 (include/net/xdp.h of 6.12, xdp_update_frame_from_buff()). */
static void test_xdp_frame_headroom(void **state)
{
	struct xdp_rxq_info rxq = { .mem = { .type = MEM_TYPE_PAGE_ORDER0 } };
	struct page *page = alloc_page(GFP_KERNEL);
	struct xdp_frame *frame;
	struct xdp_buff xdp;
	unsigned char *hard_start;

	(void)state;
	assert_non_null(page);
	hard_start = page_address(page);
	assert_int_equal(sizeof(struct xdp_frame), 40);

	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, hard_start, 40, 100, false);
	frame = xdp_convert_buff_to_frame(&xdp);
	assert_ptr_equal(frame, hard_start);
	assert_int_equal(frame->headroom, 0);
	assert_int_equal(frame->len, 100);

	xdp_prepare_buff(&xdp, hard_start, 39, 100, false);
	assert_null(xdp_convert_buff_to_frame(&xdp));

	/* 256 bytes of headroom, 8 of them metadata: 216 left. */
	xdp_prepare_buff(&xdp, hard_start, XDP_PACKET_HEADROOM, 100, true);
	xdp.data_meta = (unsigned char *)xdp.data - 8;
	frame = xdp_convert_buff_to_frame(&xdp);
	assert_non_null(frame);
	assert_int_equal(frame->headroom, XDP_PACKET_HEADROOM - 40);
	assert_int_equal(frame->metasize, 8);
	__free_page(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_constants),
		cmocka_unit_test(test_100_bytes),
		cmocka_unit_test(test_1000_bytes),
		cmocka_unit_test(test_small_and_aligned),
		cmocka_unit_test(test_page_pool_alloc_sizes),
		cmocka_unit_test(test_alloc_va),
		cmocka_unit_test(test_xdp_frame_headroom),
	};

	kapi_setup();
	return cmocka_run_group_tests_name("kernel-api/frag", tests, NULL, NULL);
}
