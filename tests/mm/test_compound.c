/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Compound pages (__GFP_COMP): the head carries PG_head and the order,
 * tails point at it (compound_head = head | 1), the refcount lives on the
 * head whichever page is used, put_page() of a tail frees the whole block,
 * and a freed block leaves no tail marks behind.
 */
#include "mm_test.h"

static int setup(void **state)
{
	mm_arena(2, 1, 0, 0);
	return 0;
}

static void check_compound(struct page *head, unsigned int order)
{
	unsigned long i, n = 1UL << order;

	assert_true(PageHead(head));
	assert_false(PageTail(head));
	assert_true(PageCompound(head));
	assert_int_equal(compound_order(head), order);
	assert_int_equal(page_size(head), PAGE_SIZE << order);
	assert_ptr_equal(compound_head(head), head);
	for (i = 1; i < n; i++) {
		assert_true(PageTail(head + i));
		assert_false(PageHead(head + i));
		assert_true(PageCompound(head + i));
		assert_ptr_equal(compound_head(head + i), head);
		assert_int_equal(head[i].compound_head, (unsigned long)head | 1);
		assert_false(page_pool_page_is_pp(head + i));
		assert_ptr_equal(virt_to_head_page((char *)page_address(head + i) + 123), head);
	}
}

static void check_no_tails(struct page *head, unsigned int order)
{
	unsigned long i;

	for (i = 0; i < (1UL << order); i++) {
		assert_false(PageTail(head + i));
		assert_false(PageHead(head + i));
	}
}

static void test_layout_all_orders(void **state)
{
	unsigned int order;

	for (order = 1; order <= MAX_PAGE_ORDER; order++) {
		struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, order);

		assert_non_null(head);
		check_compound(head, order);
		assert_int_equal(page_count(head + (1UL << order) - 1), 1);
		put_page(head);
		check_no_tails(head, order);
	}
	mm_assert_all_free();
}

static void test_refcount_through_tails(void **state)
{
	unsigned long free0 = mm_free_pages();
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);

	get_page(head + 5);
	assert_int_equal(page_ref_count(head), 2);
	assert_int_equal(page_ref_count(head + 5), 0);
	assert_int_equal(page_count(head + 7), 2);
	put_page(head + 2);
	assert_int_equal(page_ref_count(head), 1);
	assert_int_equal(mm_free_pages(), free0 - 8);
	/* The last reference, dropped through a tail: all 8 pages go. */
	put_page(head + 7);
	assert_int_equal(mm_free_pages(), free0);
	check_no_tails(head, 3);
	assert_int_equal(pp_mem_pcp_count(0, 0), 0);	/* compound: buddy, not pcp */
	mm_assert_all_free();
}

static void test_free_pages_compound(void **state)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);

	get_page(head);
	/* Compound: no "free the rest" split, the block lives on. */
	__free_pages(head, 2);
	check_compound(head, 2);
	assert_int_equal(page_ref_count(head), 1);
	__free_pages(head, 2);
	check_no_tails(head, 2);
	mm_assert_all_free();
}

static void test_zeroed_compound(void **state)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 4);
	unsigned long i;
	unsigned char *p;

	memset(page_address(head), 0xee, PAGE_SIZE << 4);
	put_page(head);
	head = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_ZERO, 4);
	p = page_address(head);
	for (i = 0; i < (PAGE_SIZE << 4); i++)
		assert_int_equal(p[i], 0);
	put_page(head);
	mm_assert_all_free();
}

/* Pages that were tails come back as order-0 pages with nothing left of
 * the compound page in them. */
static void test_former_tails_reused(void **state)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 6);
	struct page *pages[64] = { NULL };
	unsigned long i;

	put_page(head);
	pp_mem_drain_local();
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 64, pages), 64);
	for (i = 0; i < 64; i++) {
		assert_false(PageTail(pages[i]));
		assert_false(PageHead(pages[i]));
		assert_int_equal(pages[i]->pp_magic, 0);
		assert_ptr_equal(compound_head(pages[i]), pages[i]);
	}
	for (i = 0; i < 64; i++)
		put_page(pages[i]);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_layout_all_orders, setup),
		cmocka_unit_test_setup(test_refcount_through_tails, setup),
		cmocka_unit_test_setup(test_free_pages_compound, setup),
		cmocka_unit_test_setup(test_zeroed_compound, setup),
		cmocka_unit_test_setup(test_former_tails_reused, setup),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
