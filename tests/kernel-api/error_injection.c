/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * fail_function on page_pool_alloc_pages(), the function Linux 6.12's
 * net/core/page_pool.c marks ALLOW_ERROR_INJECTION(page_pool_alloc_pages,
 * NULL). In the kernel an armed fail_function puts a kprobe on the
 * function's entry that returns NULL without running the body: no page
 * leaves the pool, no counter moves, and the callers that reach the
 * function (page_pool_dev_alloc_pages(), a call through its address) see
 * the failure, while the allocators that do not call it
 * (page_pool_alloc_netmems(), page_pool_alloc_frag()) do not. Which
 * helpers call it depends on the version: 6.12's page_pool_alloc() (and
 * page_pool_dev_alloc(), page_pool_dev_alloc_va()) of more than half a
 * page does, v6.13's and pagepool's go to page_pool_alloc_netmems(), so
 * those are left out here (docs/KERNEL_CORE.md). Here pp_fail_function_inject() arms it
 * (<pagepool/runtime.h>), with the fault rules of pp_fault_inject().
 * Built as an outside user builds (run.sh); the same program runs against
 * the kernel's own page_pool.c in a kernel core build, where the wrapper
 * of src/kcore/glue.c asks the tree's mark.
 */
#include "kapi.h"

#include <errno.h>
#include <linux/error-injection.h>

static const char *const fn = "page_pool_alloc_pages";

static struct page_pool *make_pool(void)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
	};
	struct page_pool *pool = page_pool_create(&pp);

	assert_false(IS_ERR_OR_NULL(pool));
	return pool;
}

static void release_pool(struct page_pool *pool, struct page **pages, int n)
{
	while (n--)
		if (pages[n])
			page_pool_put_full_page(pool, pages[n], false);
	page_pool_destroy(pool);
	kapi_assert_all_pages_home();
}

/* The library lists the marked function, and refuses what it cannot arm. */
static void test_injectable_list(void **state)
{
	struct pp_fault_config bad = { .probability = 2.0 };
	struct pp_fault_config one = { .next_n = 1 };
	bool listed = false;
	unsigned int i;

	(void)state;
	for (i = 0; pp_fail_function_name(i); i++)
		if (!strcmp(pp_fail_function_name(i), fn))
			listed = true;
	assert_true(listed);
	assert_null(pp_fail_function_name(i));
	assert_int_equal(pp_fail_function_inject("no_such_function", &one), -ENOENT);
	assert_int_equal(pp_fail_function_inject(NULL, &one), -ENOENT);
	assert_int_equal(pp_fail_function_inject(fn, &bad), -EINVAL);
	assert_int_equal(pp_fail_function_count("no_such_function"), 0);
	/* Not a marked function: the page allocator's own point is separate. */
	assert_int_equal(pp_fail_function_inject("page_pool_alloc_netmems", &one), -ENOENT);
}

/*
 * Armed for the next 3 calls, with pages in the alloc cache that the fast
 * path would serve: those 3 calls get NULL, and since the body never ran
 * no stats counter moves and no page leaves the pool; the 4th gets a page
 * from the cache ("fast").
 */
static void test_next_n_with_warm_cache(void **state)
{
	struct page_pool *pool = make_pool();
	struct page *pages[4] = { NULL };
	struct page_pool_stats before, after;
	unsigned long injected = pp_fail_function_count(fn);
	int i;

	(void)state;
	/* The first allocation refills the cache from the page allocator. */
	pages[0] = page_pool_dev_alloc_pages(pool);
	assert_non_null(pages[0]);
	before = kapi_stats(pool);

	assert_int_equal(pp_fail_function_inject(fn, &(struct pp_fault_config){ .next_n = 3 }), 0);
	for (i = 0; i < 3; i++)
		assert_null(page_pool_dev_alloc_pages(pool));
	after = kapi_stats(pool);
	assert_int_equal(after.alloc_stats.fast, before.alloc_stats.fast);
	assert_int_equal(after.alloc_stats.slow, before.alloc_stats.slow);
	assert_int_equal(pp_fail_function_count(fn), injected + 3);

	/* The budget is spent: the next call runs the function. */
	pages[1] = page_pool_dev_alloc_pages(pool);
	assert_non_null(pages[1]);
	after = kapi_stats(pool);
	assert_int_equal(after.alloc_stats.fast, before.alloc_stats.fast + 1);
	assert_int_equal(pp_fail_function_count(fn), injected + 3);

	assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
	release_pool(pool, pages, 4);
}

/*
 * Only what calls the marked function fails: page_pool_dev_alloc_pages()
 * and a call through the function's address do; page_pool_alloc_netmems()
 * and fragments (page_pool_alloc_frag() calls page_pool_alloc_netmems())
 * do not. (page_pool_alloc() of more than half a page is left out: 6.12's
 * helper calls page_pool_alloc_pages(), v6.13's goes through
 * page_pool_alloc_netmem() to page_pool_alloc_netmems(), as pagepool's.)
 */
static void test_which_callers_fail(void **state)
{
	struct page *(*alloc_pages)(struct page_pool *, gfp_t) = page_pool_alloc_pages;
	struct page_pool *pool = make_pool();
	struct page *pages[4] = { NULL };
	unsigned int offset = 0;
	netmem_ref netmem;

	(void)state;
	assert_int_equal(pp_fail_function_inject(fn, &(struct pp_fault_config){ .every_nth = 1 }), 0);
	assert_null(page_pool_dev_alloc_pages(pool));
	assert_null(alloc_pages(pool, GFP_ATOMIC));

	netmem = page_pool_alloc_netmems(pool, GFP_ATOMIC);
	assert_true(netmem != 0);
	pages[0] = netmem_to_page(netmem);
	pages[1] = page_pool_dev_alloc_frag(pool, &offset, 1024);
	assert_non_null(pages[1]);
	pages[2] = page_pool_dev_alloc_frag(pool, &offset, 1024);
	assert_non_null(pages[2]);

	/* Disarmed, the same call succeeds. */
	assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
	pages[3] = alloc_pages(pool, GFP_ATOMIC);
	assert_non_null(pages[3]);
	release_pool(pool, pages, 4);
}

/* every_nth = 3 over 30 calls: calls 3, 6, ... 30 fail, 20 pages. */
static void test_every_nth(void **state)
{
	struct page_pool *pool = make_pool();
	struct page *pages[30] = { NULL };
	unsigned long injected = pp_fail_function_count(fn);
	int i, got = 0;

	(void)state;
	assert_int_equal(pp_fail_function_inject(fn, &(struct pp_fault_config){ .every_nth = 3 }), 0);
	for (i = 0; i < 30; i++) {
		pages[i] = page_pool_dev_alloc_pages(pool);
		if ((i + 1) % 3 == 0)
			assert_null(pages[i]);
		else
			assert_non_null(pages[i]);
		got += pages[i] != NULL;
	}
	assert_int_equal(got, 20);
	assert_int_equal(pp_fail_function_count(fn), injected + 10);
	assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
	release_pool(pool, pages, 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_injectable_list),
		cmocka_unit_test(test_next_n_with_warm_cache),
		cmocka_unit_test(test_which_callers_fail),
		cmocka_unit_test(test_every_nth),
	};

	kapi_setup();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
