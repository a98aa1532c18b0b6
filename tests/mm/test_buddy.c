/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Buddy allocator: splitting and merging (all memory taken in mixed orders
 * and given back leaves the free lists exactly as they started), blocks
 * never overlap, the kernel's __free_pages() semantics for a non-compound
 * block, and what a new page looks like (__GFP_ZERO, zeroed union,
 * pfmemalloc, refcount 1).
 */
#include <stdlib.h>

#include "mm_test.h"

#define ARENA_BLOCKS	4

struct blk {
	struct page *page;
	unsigned int order;
};

static unsigned long rnd_state = 0x9e3779b97f4a7c15UL;

static unsigned long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static int setup(void **state)
{
	mm_arena(ARENA_BLOCKS, 1, 0, 0);
	return 0;
}

static void test_initial_state(void **state)
{
	unsigned long total = ARENA_BLOCKS * PPMM_TEST_BLOCK;
	unsigned int o;

	assert_int_equal(mm_total_pages(), total);
	assert_int_equal(mm_free_pages(), total);
	assert_int_equal(pp_mem_free_blocks(0, MAX_PAGE_ORDER), total >> MAX_PAGE_ORDER);
	for (o = 0; o < MAX_PAGE_ORDER; o++)
		assert_int_equal(pp_mem_free_blocks(0, o), 0);
}

/* Take everything in a mix of orders, check no two blocks overlap, give
 * everything back in random order: the free lists are back to the start. */
static void test_split_merge_restores_free_lists(void **state)
{
	static const unsigned int mix[] = { 0, 3, 1, 10, 2, 5, 0, 7, 4, 0, 9, 6, 1, 8, 0, 2 };
	unsigned long total = mm_total_pages(), taken = 0, n = 0, i, j, k;
	struct mm_snap before, after;
	struct blk *blk, t;
	unsigned int o;
	bool progress;

	mm_snap_take(&before);
	blk = calloc(total, sizeof(*blk));
	assert_non_null(blk);

	/* Cycle through the mix; an order that no longer fits is skipped
	 * until even order 0 fails. */
	do {
		progress = false;
		for (k = 0; k < ARRAY_SIZE(mix); k++) {
			o = mix[k];
			struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, o);

			if (!page)
				continue;
			assert_int_equal(page_ref_count(page), 1);
			assert_int_equal(page->order, o);
			/* Blocks are naturally aligned. */
			assert_int_equal(page_to_pfn(page) % (1UL << o), PP_PFN_OFFSET % (1UL << o));
			blk[n].page = page;
			blk[n++].order = o;
			taken += 1UL << o;
			progress = true;
		}
	} while (progress);
	assert_int_equal(taken, total);
	assert_int_equal(mm_free_pages(), 0);
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));

	/* Stamp every page with its block; a stamp overwritten by another
	 * block would show an overlap. */
	for (i = 0; i < n; i++)
		for (j = 0; j < (1UL << blk[i].order); j++)
			*(unsigned long *)page_address(blk[i].page + j) = i;
	for (i = 0; i < n; i++)
		for (j = 0; j < (1UL << blk[i].order); j++)
			assert_int_equal(*(unsigned long *)page_address(blk[i].page + j), i);

	for (i = n - 1; i > 0; i--) {
		j = rnd() % (i + 1);
		t = blk[i];
		blk[i] = blk[j];
		blk[j] = t;
	}
	for (i = 0; i < n; i++)
		__free_pages(blk[i].page, blk[i].order);
	free(blk);

	pp_mem_drain_local();
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
}

/* Splitting hands out the lower half and keeps the upper halves on the
 * lists, one block per order below the split one. */
static void test_split_leaves_one_block_per_order(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 3);
	unsigned int o;

	assert_non_null(page);
	for (o = 3; o < MAX_PAGE_ORDER; o++)
		assert_int_equal(pp_mem_free_blocks(0, o), 1);
	assert_int_equal(pp_mem_free_blocks(0, MAX_PAGE_ORDER),
			 mm_total_pages() / PPMM_TEST_BLOCK - 1);
	__free_pages(page, 3);
	for (o = 3; o < MAX_PAGE_ORDER; o++)
		assert_int_equal(pp_mem_free_blocks(0, o), 0);
	mm_assert_all_free();
}

/* The kernel's __free_pages() on a non-compound block whose first page
 * someone still references: the rest goes now, the first page with the
 * last put_page(). */
static void test_free_pages_non_compound_elevated_head(void **state)
{
	unsigned long free0 = mm_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	assert_non_null(page);
	assert_false(PageHead(page));
	assert_int_equal(mm_free_pages(), free0 - 4);
	get_page(page);
	__free_pages(page, 2);
	assert_int_equal(page_ref_count(page), 1);
	assert_int_equal(mm_free_pages(), free0 - 1);
	/* What is left is an order-0 page. */
	put_page(page);
	assert_int_equal(mm_free_pages(), free0);
	mm_assert_all_free();
}

/* A non-compound block freed by its last put_page() goes back whole. */
static void test_put_page_non_compound_block(void **state)
{
	unsigned long free0 = mm_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 4);

	assert_non_null(page);
	put_page(page);
	assert_int_equal(mm_free_pages(), free0);
	mm_assert_all_free();
}

static void test_new_page_contents(void **state)
{
	struct page *page, *again;
	unsigned char *p;
	unsigned long i;

	page = alloc_page(GFP_KERNEL);
	assert_non_null(page);
	memset(page_address(page), 0xaa, PAGE_SIZE);
	page->dma_addr = 0x1234;
	page->pp = (struct page_pool *)page;
	page->private = 77;
	__free_page(page);

	/* The per-CPU list is LIFO: the same page comes back, union zeroed,
	 * and its memory zeroed with __GFP_ZERO. */
	again = alloc_page(GFP_KERNEL | __GFP_ZERO);
	assert_ptr_equal(again, page);
	assert_int_equal(again->pp_magic, 0);
	assert_null(again->pp);
	assert_int_equal(again->dma_addr, 0);
	assert_int_equal(again->private, 0);
	assert_int_equal(page_ref_count(again), 1);
	assert_false(page_pool_page_is_pp(again));
	p = page_address(again);
	for (i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(p[i], 0);
	__free_page(again);
	mm_assert_all_free();
}

static void test_get_zeroed_page_and_free_pages(void **state)
{
	unsigned long addr, big;
	unsigned long i;

	addr = get_zeroed_page(GFP_KERNEL);
	assert_true(addr);
	assert_true(virt_addr_valid((void *)addr));
	assert_true(PAGE_ALIGNED(addr));
	for (i = 0; i < PAGE_SIZE; i++)
		assert_int_equal(((unsigned char *)addr)[i], 0);
	free_page(addr);

	big = __get_free_pages(GFP_KERNEL | __GFP_ZERO, 3);
	assert_true(big);
	assert_true(IS_ALIGNED(big - pp_mem_map.base, PAGE_SIZE << 3));
	for (i = 0; i < (PAGE_SIZE << 3); i++)
		assert_int_equal(((unsigned char *)big)[i], 0);
	free_pages(big, 3);
	free_pages(0, 3);	/* a no-op, as in the kernel */
	mm_assert_all_free();
}

static void test_pfmemalloc(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_MEMALLOC);

	assert_non_null(page);
	assert_true(page_is_pfmemalloc(page));
	__free_page(page);
	page = alloc_page(GFP_KERNEL);
	assert_false(page_is_pfmemalloc(page));
	__free_page(page);
}

static void test_order_too_large(void **state)
{
	struct pp_mem_counters c0, c1;
	unsigned long warns = pp_warn_count();

	pp_mem_get_counters(&c0);
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_PAGE_ORDER + 1));
	assert_int_equal(pp_warn_count(), warns);
	assert_null(alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1));
	assert_int_equal(pp_warn_count(), warns + 1);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 2);
	mm_assert_all_free();
}

/* The largest block works, and memory runs out cleanly. */
static void test_max_order_exhaustion(void **state)
{
	unsigned long blocks = mm_total_pages() >> MAX_PAGE_ORDER, i;
	struct page *pages[64];
	struct pp_mem_counters c0, c1;

	assert_true(blocks <= ARRAY_SIZE(pages));
	for (i = 0; i < blocks; i++) {
		pages[i] = alloc_pages(GFP_KERNEL | __GFP_COMP, MAX_PAGE_ORDER);
		assert_non_null(pages[i]);
	}
	pp_mem_get_counters(&c0);
	pp_test_log_clear();
	assert_null(alloc_pages(GFP_KERNEL, 0));
	assert_true(pp_test_log_contains("page allocation failure"));
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 1);
	for (i = 0; i < blocks; i++)
		put_page(pages[i]);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_initial_state, setup),
		cmocka_unit_test_setup(test_split_merge_restores_free_lists, setup),
		cmocka_unit_test_setup(test_split_leaves_one_block_per_order, setup),
		cmocka_unit_test_setup(test_free_pages_non_compound_elevated_head, setup),
		cmocka_unit_test_setup(test_put_page_non_compound_block, setup),
		cmocka_unit_test_setup(test_new_page_contents, setup),
		cmocka_unit_test_setup(test_get_zeroed_page_and_free_pages, setup),
		cmocka_unit_test_setup(test_pfmemalloc, setup),
		cmocka_unit_test_setup(test_order_too_large, setup),
		cmocka_unit_test_setup(test_max_order_exhaustion, setup),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
