/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ABA: a stale put naming pool A, made after A let the page go
 * back to the page allocator and pool B allocated it for a user who still
 * holds it. The put used to WARN "foreign pool" and then hand the page to
 * B as if it were the last reference, so B gave it out a second time. Now
 * it is refused: one WARN, misuse counter foreign_pool, page untouched.
 */
#include "hard.h"

#define NALLOC	512

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = { .pool_size = 256, .nid = NUMA_NO_NODE };
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static void stale_put(bool direct)
{
	static struct page *got[NALLOC];
	struct page_pool *a = make_pool(), *b = make_pool();
	struct pp_page_pool_misuse m0, m1;
	struct page *p, *held = NULL;
	int i, n;

	/* A gives p back to the page allocator: an extra page reference
	 * makes A release it instead of recycling it. */
	p = page_pool_dev_alloc_pages(a);
	assert_non_null(p);
	get_page(p);
	page_pool_put_full_page(a, p, false);
	assert_false(page_pool_page_is_pp(p));
	put_page(p);

	/* B allocates until it hands out p: its user holds it now. */
	for (n = 0; n < NALLOC && !held; n++) {
		got[n] = page_pool_dev_alloc_pages(b);
		assert_non_null(got[n]);
		if (got[n] == p)
			held = p;
	}
	assert_ptr_equal(held, p);

	/* The stale put, naming A. */
	hard_warns();
	pp_page_pool_get_misuse(&m0);
	if (direct)
		local_bh_disable();
	page_pool_put_full_page(a, p, direct);
	if (direct)
		local_bh_enable();
	pp_page_pool_get_misuse(&m1);
	assert_int_equal(hard_warns(), 1);
	assert_int_equal(m1.foreign_pool - m0.foreign_pool, 1);
	assert_true(kapi_logged("refused"));

	/* B's other pages go back; then B must never hand out p while its
	 * user holds it. */
	for (i = 0; i < n; i++)
		if (got[i] != p)
			page_pool_put_full_page(b, got[i], false);
	for (i = 0; i < NALLOC; i++) {
		got[i] = page_pool_dev_alloc_pages(b);
		assert_non_null(got[i]);
		assert_ptr_not_equal(got[i], p);
	}
	for (i = 0; i < NALLOC; i++)
		page_pool_put_full_page(b, got[i], false);
	/* The real holder's put. */
	page_pool_put_full_page(b, p, false);
	assert_int_equal(hard_warns(), 0);

	page_pool_destroy(a);
	page_pool_destroy(b);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
}

static void test_stale_put(void **state) { (void)state; stale_put(false); }
static void test_stale_put_direct(void **state) { (void)state; stale_put(true); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_RING(test_stale_put),
		EACH_RING(test_stale_put_direct),
	};

	kapi_setup();
	return pp_test_run_group(tests, NULL, NULL);
}
