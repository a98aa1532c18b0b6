/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * alloc_pages_bulk_node(): only NULL slots are filled, the return value is
 * the populated prefix, 64 pages cost one zone-lock round trip at most,
 * memory running out gives a partial result and leaks nothing,
 * __GFP_THISNODE keeps to the node.
 */
#include <stdlib.h>

#include "mm_test.h"
#include "mm/mm_internal.h"

static int setup(void **state)
{
	mm_arena(2, 1, 0, 0);
	return 0;
}

static int setup_2nodes(void **state)
{
	mm_arena(4, 2, 0, 0);
	return 0;
}

static void free_array(struct page **pages, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (pages[i]) {
			__free_page(pages[i]);
			pages[i] = NULL;
		}
}

static void assert_distinct(struct page **pages, unsigned long n)
{
	unsigned long i, j;

	for (i = 0; i < n; i++) {
		assert_non_null(pages[i]);
		assert_int_equal(page_ref_count(pages[i]), 1);
		for (j = i + 1; j < n; j++)
			assert_ptr_not_equal(pages[i], pages[j]);
	}
}

static void test_fills_only_null_slots(void **state)
{
	struct page *pages[16] = { NULL };
	struct page *keep[3];

	keep[0] = pages[0] = alloc_page(GFP_KERNEL);
	keep[1] = pages[5] = alloc_page(GFP_KERNEL);
	keep[2] = pages[15] = alloc_page(GFP_KERNEL);
	assert_int_equal(alloc_pages_bulk_node(GFP_KERNEL, NUMA_NO_NODE, 16, pages), 16);
	assert_ptr_equal(pages[0], keep[0]);
	assert_ptr_equal(pages[5], keep[1]);
	assert_ptr_equal(pages[15], keep[2]);
	assert_distinct(pages, 16);
	assert_int_equal(mm_free_pages(), mm_total_pages() - 16);

	/* All populated: nothing to do. */
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 16, pages), 16);
	assert_int_equal(mm_free_pages(), mm_total_pages() - 16);
	free_array(pages, 16);
	mm_assert_all_free();
}

static void test_64_pages_one_lock_round_trip(void **state)
{
	struct page *pages[64] = { NULL };
	unsigned long rounds;
	int i;

	rounds = ppmm_zone_lock_rounds(0);
	assert_int_equal(alloc_pages_bulk_node(GFP_KERNEL, 0, 64, pages), 64);
	assert_int_equal(ppmm_zone_lock_rounds(0), rounds + 1);
	assert_distinct(pages, 64);
	free_array(pages, 64);

	/* With some pages on the list already: still one round trip. */
	pp_mem_drain_local();
	for (i = 0; i < 10; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	free_array(pages, 10);
	assert_true(pp_mem_pcp_count(0, 0) > 10);
	for (i = 0; i < 3; i++) {
		rounds = ppmm_zone_lock_rounds(0);
		assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 64, pages), 64);
		assert_true(ppmm_zone_lock_rounds(0) <= rounds + 1);
		assert_distinct(pages, 64);
		free_array(pages, 64);
	}
	mm_assert_all_free();
}

static void test_zeroed(void **state)
{
	struct page *pages[8] = { NULL };
	unsigned long i, j;

	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 8, pages), 8);
	for (i = 0; i < 8; i++)
		memset(page_address(pages[i]), 0x5a, PAGE_SIZE);
	free_array(pages, 8);
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL | __GFP_ZERO, 8, pages), 8);
	for (i = 0; i < 8; i++)
		for (j = 0; j < PAGE_SIZE; j++)
			assert_int_equal(((unsigned char *)page_address(pages[i]))[j], 0);
	free_array(pages, 8);
	mm_assert_all_free();
}

/* Leave @left pages free, in high-order blocks; returns them. */
static struct page **take_all_but(unsigned long left, unsigned long *nr)
{
	unsigned long free_now = mm_free_pages(), n = 0;
	struct page **held = calloc(free_now, sizeof(*held));
	int o;

	pp_mem_drain_local();
	for (o = MAX_PAGE_ORDER; o >= 0; o--)
		while (mm_free_pages() - (1UL << o) >= left && mm_free_pages() >= (1UL << o)) {
			held[n] = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, o);
			assert_non_null(held[n]);
			n++;
			pp_mem_drain_local();
		}
	assert_int_equal(mm_free_pages(), left);
	*nr = n;
	return held;
}

static void test_partial_when_memory_runs_out(void **state)
{
	struct page *pages[256] = { NULL };
	struct pp_mem_counters c0, c1;
	unsigned long nr_held, i;
	struct page **held = take_all_but(100, &nr_held);

	pp_mem_get_counters(&c0);
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 256, pages), 100);
	assert_distinct(pages, 100);
	for (i = 100; i < 256; i++)
		assert_null(pages[i]);
	assert_int_equal(mm_free_pages(), 0);
	/* A partial result is not a failed allocation. */
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed);

	/* Nothing left: 0, counted as a failure, warned about. */
	pp_test_log_clear();
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 156, pages + 100), 0);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 1);
	assert_true(pp_test_log_contains("page allocation failure"));
	pp_test_log_clear();
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 16, pages + 100), 0);
	assert_false(pp_test_log_contains("page allocation failure"));

	free_array(pages, 256);
	for (i = 0; i < nr_held; i++)
		put_page(held[i]);
	free(held);
	mm_assert_all_free();
}

/* A hole: the populated prefix stops at the first slot that could not be
 * filled, as in the kernel. */
static void test_return_is_populated_prefix(void **state)
{
	struct page *pages[8] = { NULL };
	unsigned long nr_held, i;
	struct page **held = take_all_but(2, &nr_held);
	struct page *extra;

	/* Slot 3 is pre-populated from the two free pages; one is left
	 * for slots 0..2. */
	extra = alloc_page(GFP_KERNEL);
	pages[3] = extra;
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 8, pages), 1);
	assert_non_null(pages[0]);
	assert_null(pages[1]);
	assert_ptr_equal(pages[3], extra);
	free_array(pages, 8);
	for (i = 0; i < nr_held; i++)
		put_page(held[i]);
	free(held);
	mm_assert_all_free();
}

static void test_thisnode(void **state)
{
	struct page *pages[64] = { NULL };
	struct page *blocks[4];
	unsigned long i, n;

	/* Node 0 (two largest blocks) taken. */
	for (i = 0; i < 2; i++) {
		blocks[i] = alloc_pages_node(0, GFP_KERNEL | __GFP_THISNODE, MAX_PAGE_ORDER);
		assert_non_null(blocks[i]);
		assert_int_equal(page_to_nid(blocks[i]), 0);
	}
	assert_int_equal(alloc_pages_bulk_node(GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN,
					       0, 64, pages), 0);
	/* Without __GFP_THISNODE the bulk falls back to node 1. */
	n = alloc_pages_bulk_node(GFP_KERNEL, 0, 64, pages);
	assert_int_equal(n, 64);
	for (i = 0; i < n; i++)
		assert_int_equal(page_to_nid(pages[i]), 1);
	free_array(pages, 64);
	for (i = 0; i < 2; i++)
		__free_pages(blocks[i], MAX_PAGE_ORDER);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fills_only_null_slots, setup),
		cmocka_unit_test_setup(test_64_pages_one_lock_round_trip, setup),
		cmocka_unit_test_setup(test_zeroed, setup),
		cmocka_unit_test_setup(test_partial_when_memory_runs_out, setup),
		cmocka_unit_test_setup(test_return_is_populated_prefix, setup),
		cmocka_unit_test_setup(test_thisnode, setup_2nodes),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
