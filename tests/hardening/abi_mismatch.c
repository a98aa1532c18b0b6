/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * A program built against the headers of another pagepool build. The
 * design options change what the inline code does - with the items DMA
 * tracking page->pp is a tagged item pointer, which a program built
 * without that design does not decode, so every put of it was refused
 * as misdirected and every page leaked - and CONFIG_NR_CPUS and
 * CONFIG_DEBUG_NET change struct page_pool's layout. page_pool_create()
 * passes what its headers were built for (__PP_INLINE_ABI), and the
 * library refuses a mismatch up front: ERR_PTR(-ENOEXEC) and one WARN,
 * nothing allocated. Headers that decode item pointers are fine with a
 * library that never makes them.
 *
 * The other build's headers are played by changing the value passed, the
 * one thing they would change.
 */
#include "hard.h"

#include <linux/err.h>

static const struct page_pool_params params = {
	.pool_size = 64,
	.nid = NUMA_NO_NODE,
};

/* Create with @abi as the program's headers; the pool, or the error. */
static struct page_pool *create_as(unsigned long abi, bool percpu)
{
	return percpu ? __page_pool_create_percpu_checked(abi, &params, 1)
		      : __page_pool_create_checked(abi, &params);
}

static void assert_refused(unsigned long abi, const char *what)
{
	int percpu;

	for (percpu = 0; percpu < 2; percpu++) {
		struct page_pool *pool;

		print_message("%s%s\n", what, percpu ? " (per-CPU)" : "");
		hard_warns();
		pool = create_as(abi, percpu);
		assert_true(IS_ERR(pool));
		assert_int_equal(PTR_ERR(pool), -ENOEXEC);
		assert_int_equal(hard_warns(), 1);
	}
}

static void assert_accepted(unsigned long abi)
{
	int percpu;

	for (percpu = 0; percpu < 2; percpu++) {
		struct page_pool *pool;

		hard_warns();
		pool = create_as(abi, percpu);
		assert_false(IS_ERR_OR_NULL(pool));
		/* It works: a page out and back. */
		page_pool_put_full_page(pool, page_pool_dev_alloc_pages(pool), false);
		page_pool_destroy(pool);
		assert_int_equal(hard_warns(), 0);
	}
}

static void test_same_build(void **state)
{
	(void)state;
	assert_accepted(__PP_INLINE_ABI);
	/* And the macros pass that value. */
	hard_warns();
	page_pool_destroy(page_pool_create(&params));
	assert_int_equal(hard_warns(), 0);
}

static void test_layout_differs(void **state)
{
	(void)state;
	assert_refused(__PP_INLINE_ABI ^ __PP_INLINE_ABI_DEBUG_NET, "CONFIG_DEBUG_NET differs");
	assert_refused(__PP_INLINE_ABI ^ __PP_INLINE_ABI_STATS, "CONFIG_PAGE_POOL_STATS differs");
	assert_refused((__PP_INLINE_ABI & 0xff) | ((unsigned long)(CONFIG_NR_CPUS * 2) << 8),
		       "CONFIG_NR_CPUS differs");
	kapi_assert_all_pages_home();
}

static void test_item_pointers(void **state)
{
	(void)state;
	if (IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)) {
		/* This library may tag page->pp: headers that do not decode
		 * it would have every put refused. */
		assert_refused(__PP_INLINE_ABI & ~__PP_INLINE_ABI_ITEMS,
			       "the program does not decode item pointers");
	} else {
		/* Never tagged here: decoding headers are harmless. */
		assert_accepted(__PP_INLINE_ABI | __PP_INLINE_ABI_ITEMS);
	}
	kapi_assert_all_pages_home();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_build),
		cmocka_unit_test(test_layout_differs),
		cmocka_unit_test(test_item_pointers),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
