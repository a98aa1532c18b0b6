/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fragments: page_pool_alloc_frag() carving, alignment to the larger of
 * dma_get_cache_alignment() and skb_shared_info's, the BIAS_MAX draining (one atomic per
 * fragment, the page reused in place when its last fragment came back,
 * released when someone still holds a page reference), page_pool_alloc()
 * picking whole pages vs fragments and the tail rule, page_pool_alloc_va()
 * / page_pool_free_va(), and the pp reference helpers.
 */
#include <string.h>

#include <linux/skbuff.h>

#include "core_test.h"

/* The fragment unit (src/core/frag.c, Linux 6.12): the larger of the DMA
 * cache alignment and skb_shared_info's alignment. It depends on the
 * target: 8 on x86-64 (its DMA alignment is 1), 128 on arm64 (its
 * ARCH_DMA_MINALIGN), so the expected offsets below are computed from it. */
#define FRAG_ALIGN	max_t(unsigned int, dma_get_cache_alignment(), \
			      __alignof__(struct skb_shared_info))

static void test_frag_carving(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned int off[8];
	struct page *p[8];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		p[i] = page_pool_alloc_frag(pool, &off[i], 1000, GFP_ATOMIC);
		assert_non_null(p[i]);
		assert_ptr_equal(p[i], p[0]);
		/* x86-64 Linux 6.12: aligned to 8 (skb_shared_info), so a
		 * 1000-byte fragment takes 1000 bytes; on arm64 1024. */
		assert_int_equal(off[i], i * ALIGN(1000, FRAG_ALIGN));
	}
	assert_int_equal(pool->frag_users, 4);
	/* The fifth does not fit: a new page; the old one is drained, and
	 * since fragments are still out it stays with their owners. */
	p[4] = page_pool_alloc_frag(pool, &off[4], 1000, GFP_ATOMIC);
	assert_ptr_not_equal(p[4], p[0]);
	assert_int_equal(off[4], 0);
	for (i = 0; i < 4; i++)
		page_pool_put_page(pool, p[i], -1, false);	/* last one recycles */
	assert_int_equal(pool_stats(pool).recycle_stats.ring, 1);
	page_pool_put_page(pool, p[4], -1, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_frag_reuse_in_place(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned int off;
	struct page *a, *b, *c;
	u64 fast0;

	(void)state;
	a = page_pool_alloc_frag(pool, &off, 2048, GFP_ATOMIC);
	b = page_pool_alloc_frag(pool, &off, 2048, GFP_ATOMIC);
	assert_ptr_equal(a, b);
	page_pool_put_page(pool, a, -1, true);
	page_pool_put_page(pool, b, -1, true);	/* both back: bias drained later */
	fast0 = pool_stats(pool).alloc_stats.fast;
	/* The page is full; its users are gone: reused in place. */
	c = page_pool_alloc_frag(pool, &off, 2048, GFP_ATOMIC);
	assert_ptr_equal(c, a);
	assert_int_equal(off, 0);
	/* Linux 6.12 counts the reuse as a fast allocation only (newer
	 * kernels also count it as cached). */
	assert_int_equal(pool_stats(pool).alloc_stats.fast, fast0 + 1);
	assert_int_equal(pool_stats(pool).recycle_stats.cached, 0);
	page_pool_put_page(pool, c, -1, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_page_pool_alloc_sizes(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned int off, size;
	struct page *p, *q;

	(void)state;
	size = 3000;				/* more than half: whole page */
	p = page_pool_alloc(pool, &off, &size, GFP_ATOMIC);
	assert_int_equal(off, 0);
	assert_int_equal(size, PAGE_SIZE);
	page_pool_put_full_page(pool, p, false);

	size = 1500;				/* fragment; 2 * ALIGN(1500) fit */
	p = page_pool_alloc(pool, &off, &size, GFP_ATOMIC);
	assert_int_equal(size, 1500);
	assert_int_equal(off, 0);
	size = 1500;
	q = page_pool_alloc(pool, &off, &size, GFP_ATOMIC);
	assert_ptr_equal(p, q);
	/* ALIGN(1500, 8) = 1504 on x86-64, ALIGN(1500, 128) = 1536 on arm64 */
	assert_int_equal(off, ALIGN(1500, FRAG_ALIGN));
	/* no third 1500 fits after the second: this one gets the tail */
	assert_int_equal(size, PAGE_SIZE - ALIGN(1500, FRAG_ALIGN));
	assert_int_equal(pool->frag_offset, PAGE_SIZE);
	page_pool_put_page(pool, p, -1, false);
	page_pool_put_page(pool, q, -1, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_alloc_va(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned int size = 512;
	char *va, *vb;

	(void)state;
	va = page_pool_alloc_va(pool, &size, GFP_ATOMIC);
	assert_non_null(va);
	size = 512;
	vb = page_pool_dev_alloc_va(pool, &size);
	assert_int_equal(vb - va, 512);
	memset(va, 0xab, 512);
	memset(vb, 0xcd, 512);
	assert_ptr_equal(virt_to_head_page(vb), virt_to_head_page(va));
	page_pool_free_va(pool, va, false);
	page_pool_free_va(pool, vb, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_ref_helpers(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	netmem_ref n;

	(void)state;
	n = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	page_pool_fragment_netmem(n, 3);
	assert_int_equal(page_pool_unref_netmem(n, 1), 2);
	page_pool_ref_netmem(n);
	assert_int_equal(page_pool_unref_netmem(n, 2), 1);
	assert_true(page_pool_is_last_ref(n));		/* count stays 1 */
	assert_int_equal(atomic_long_read(netmem_get_pp_ref_count_ref(n)), 1);
	page_pool_put_unrefed_netmem(pool, n, -1, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

static void test_destroy_frees_frag_page(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned int off;
	struct page *p;

	(void)state;
	p = page_pool_alloc_frag(pool, &off, 256, GFP_ATOMIC);
	page_pool_put_page(pool, p, -1, false);		/* bias still held */
	assert_int_equal(pool_inflight(pool), 64);
	destroy_and_settle(pool);			/* drains the frag page */
	assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frag_carving),
		cmocka_unit_test(test_frag_reuse_in_place),
		cmocka_unit_test(test_page_pool_alloc_sizes),
		cmocka_unit_test(test_alloc_va),
		cmocka_unit_test(test_ref_helpers),
		cmocka_unit_test(test_destroy_frees_frag_page),
	};

	core_test_init(16, 1);
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
