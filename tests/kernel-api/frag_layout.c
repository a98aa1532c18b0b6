/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fragment layout as Linux 6.12.117 gives it (x86-64's numbers below; on
 * arm64 the unit is 128, its ARCH_DMA_MINALIGN): a fragment
 * takes ALIGN(size, max(dma_get_cache_alignment(), __alignof__(struct
 * skb_shared_info))) bytes = ALIGN(size, 8), so 100-byte fragments start at
 * 0, 104, 208, ... (39 a 4 KiB page) and 1000-byte ones at 0, 1000, 2000;
 * page_pool_alloc() gives a whole page above half a page and hands the
 * tail to the last fragment that fits; fragment statistics count as 6.12's
 * (every fragment from the current page is a fast allocation); and the
 * XDP frame's 40 bytes at the head of the buffer. Built as an outside user
 * builds (run.sh).
 */
#include "kapi.h"

#include <linux/dma-mapping.h>
#include <linux/skbuff.h>
#include <net/xdp.h>

static struct page_pool *make_pool(unsigned int order)
{
	struct page_pool_params pp = { .order = order, .pool_size = 64, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

/* The fragment unit, max(dma_get_cache_alignment(), 8), is the target's:
 * 8 on x86-64, 128 on arm64 (ARCH_DMA_MINALIGN); the layouts below are
 * computed from it. x86-64's numbers are in the comments. */
#if defined(__aarch64__)
#define FRAG_UNIT	128
#else
#define FRAG_UNIT	8
#endif

static void test_arch_constants(void **state)
{
	(void)state;
#if defined(__aarch64__)
	/* arm64 defines ARCH_DMA_MINALIGN 128 (asm/cache.h). */
	assert_int_equal(dma_get_cache_alignment(), 128);
#else
	/* x86-64 defines no ARCH_DMA_MINALIGN: the kernel returns 1. */
	assert_int_equal(dma_get_cache_alignment(), 1);
#endif
	assert_int_equal(__alignof__(struct skb_shared_info), 8);
	assert_int_equal(sizeof(struct skb_shared_info), 320);
	assert_int_equal(SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), 320);
}

/* Carve fragments of @size until a new page starts; check each offset.
 * Each takes ALIGN(size, FRAG_UNIT); as many fit as start inside the page
 * and end by its end. */
static void carve(unsigned int order, unsigned int size)
{
	struct page_pool *pool = make_pool(order);
	unsigned int step = ALIGN(size, FRAG_UNIT);
	unsigned int per_page = (PAGE_SIZE << order) / step;
	struct page *first, *p, *pages[512];
	unsigned int off, i;

	assert_true(per_page <= ARRAY_SIZE(pages));
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
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

static void test_100_bytes(void **state)
{
	(void)state;
	carve(0, 100);		/* x86-64: 39 * 104 = 4056, a 40th would end at 4160 */
}

static void test_1000_bytes(void **state)
{
	(void)state;
	carve(0, 1000);		/* x86-64: 0, 1000, 2000, 3000 */
}

static void test_small_and_aligned(void **state)
{
	(void)state;
	carve(0, 1);		/* even 1 byte takes 8 (x86-64: 512 a page) */
	carve(0, 64);		/* x86-64: 64 a page */
	carve(1, 100);		/* order 1: 8 KiB, x86-64: 78 * 104 = 8112 */
}

/* page_pool_alloc(): a whole page above half a page; otherwise a fragment,
 * and the last one that fits gets the page's tail added to its size. */
static void test_page_pool_alloc_sizes(void **state)
{
	struct page_pool *pool = make_pool(0);
	unsigned int off, size;
	struct page *p, *q;

	(void)state;
	size = 2049;
	p = page_pool_dev_alloc(pool, &off, &size);
	assert_int_equal(off, 0);
	assert_int_equal(size, PAGE_SIZE);
	page_pool_put_full_page(pool, p, false);

	size = 1500;
	p = page_pool_dev_alloc(pool, &off, &size);
	assert_int_equal(off, 0);
	assert_int_equal(size, 1500);
	size = 1500;
	q = page_pool_dev_alloc(pool, &off, &size);
	assert_ptr_equal(q, p);
	assert_int_equal(off, ALIGN(1500, FRAG_UNIT));	/* x86-64: 1504 */
	/* x86-64: 3008 + 1500 > 4096: this one takes the tail. */
	assert_int_equal(size, PAGE_SIZE - ALIGN(1500, FRAG_UNIT));
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
	size = 100;
	b = page_pool_dev_alloc_va(pool, &size);
	size = 100;
	c = page_pool_dev_alloc_va(pool, &size);
	assert_int_equal(((unsigned long)a) % PAGE_SIZE, 0);
	assert_int_equal(b - a, ALIGN(100, FRAG_UNIT));		/* x86-64: 104 */
	assert_int_equal(c - a, 2 * ALIGN(100, FRAG_UNIT));	/* 208 */
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
