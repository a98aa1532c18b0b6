/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The walker and statistics: every page visited once in address order, an
 * early stop returns the callback's value, a page marked PP_SIGNATURE (with
 * or without DMA index bits) is found — the leak detector — and the stats
 * count free pages on the per-CPU lists as free.
 */
#include "mm_test.h"

static int setup(void **state)
{
	mm_arena(2, 1, 0, 0);
	return 0;
}

struct visit {
	struct page *expect_next;
	unsigned long n;
	bool in_order;
};

static int visit_all(struct page *page, void *arg)
{
	struct visit *v = arg;

	if (page != v->expect_next)
		v->in_order = false;
	v->expect_next = page + 1;
	v->n++;
	return 0;
}

static void test_visits_every_page_in_order(void **state)
{
	struct visit v = { pp_mem_map.map, 0, true };

	assert_int_equal(pp_mem_walk(visit_all, &v), 0);
	assert_true(v.in_order);
	assert_int_equal(v.n, pp_mem_map.nr_pages);
}

static int stop_at(struct page *page, void *arg)
{
	unsigned long *left = arg;

	return --*left == 0 ? 42 : 0;
}

static void test_early_stop(void **state)
{
	unsigned long left = 10;

	assert_int_equal(pp_mem_walk(stop_at, &left), 42);
	assert_int_equal(left, 0);
}

struct found {
	struct page *pages[8];
	int n;
};

static int find_pp(struct page *page, void *arg)
{
	struct found *f = arg;

	if (page_pool_page_is_pp(page) && f->n < 8)
		f->pages[f->n++] = page;
	return 0;
}

static void test_finds_page_pool_pages(void **state)
{
	struct page *a = alloc_page(GFP_KERNEL);
	struct page *b = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	struct page *c = alloc_page(GFP_KERNEL);
	struct found f = { .n = 0 };
	struct pp_mem_stats st;

	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 0);
	assert_int_equal(pp_mem_walk(find_pp, &f), 0);
	assert_int_equal(f.n, 0);

	/* What page_pool writes: the signature, plus a DMA index. */
	a->pp_magic = PP_SIGNATURE;
	b->pp_magic = PP_SIGNATURE | (0xabcdUL << PP_DMA_INDEX_SHIFT);
	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 2);
	assert_int_equal(pp_mem_walk(find_pp, &f), 0);
	assert_int_equal(f.n, 2);
	assert_ptr_equal(f.pages[0], a < b ? a : b);
	assert_ptr_equal(f.pages[1], a < b ? b : a);
	/* The tails of b are not page_pool pages by themselves. */
	assert_false(page_pool_page_is_pp(b + 1));

	/* Released by page_pool: no longer found, frees cleanly. */
	a->pp_magic = 0;
	b->pp_magic = 0;
	pp_mem_get_stats(&st);
	assert_int_equal(st.pp_pages, 0);
	put_page(a);
	put_page(b);
	put_page(c);
	mm_assert_all_free();
}

static void test_stats(void **state)
{
	unsigned long total = 2 * PPMM_TEST_BLOCK;
	struct pp_mem_stats st;
	struct page *p;

	pp_mem_get_stats(&st);
	assert_int_equal(st.total_pages, total);
	assert_int_equal(st.free_pages, total);
	p = alloc_page(GFP_KERNEL);
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, total - 1);
	assert_int_equal(pp_mem_pcp_count(0, 0), PPMM_TEST_BATCH - 1);
	__free_page(p);
	/* On the per-CPU list, and counted free. */
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, total);
	assert_int_equal(pp_mem_pcp_count(0, 0), PPMM_TEST_BATCH);
	/* Out-of-range queries are 0, not a crash. */
	assert_int_equal(pp_mem_pcp_count(-1, 0), 0);
	assert_int_equal(pp_mem_pcp_count(NR_CPUS, 0), 0);
	assert_int_equal(pp_mem_pcp_count(0, 1), 0);
	assert_int_equal(pp_mem_free_blocks(0, MAX_PAGE_ORDER + 1), 0);
	assert_int_equal(pp_mem_free_blocks(-1, 0), 0);
	mm_assert_all_free();
}

static int count_pages(struct page *page, void *arg)
{
	(*(unsigned long *)arg)++;
	return 0;
}

static void test_no_arena(void **state)
{
	struct pp_mem_stats st;
	unsigned long n = 0;

	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(pp_mem_walk(count_pages, &n), 0);
	assert_int_equal(n, 0);
	pp_mem_get_stats(&st);
	assert_int_equal(st.total_pages, 0);
	assert_int_equal(pp_mem_free_blocks(0, MAX_PAGE_ORDER), 0);
	pp_mem_drain_local();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_visits_every_page_in_order, setup),
		cmocka_unit_test_setup(test_early_stop, setup),
		cmocka_unit_test_setup(test_finds_page_pool_pages, setup),
		cmocka_unit_test_setup(test_stats, setup),
		cmocka_unit_test_setup(test_no_arena, setup),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
