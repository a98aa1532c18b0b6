/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * fail_function on page_pool_alloc_pages() (<linux/error-injection.h>)
 * while another thread arms and disarms it: the inline fast path reads the
 * "some function armed" bit, the exported body reads the function's own
 * bit and rules, and the arming thread rewrites both. Every NULL the
 * allocating thread sees must be an injected failure (the pool never runs
 * out here) and every injected failure a NULL it saw; nothing is lost.
 * The sanitizer builds run it too (TSan: the arming protocol's atomics).
 * The kernel-API behaviour itself, on both cores, is
 * tests/kernel-api/error_injection.c.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include <linux/error-injection.h>
#include <linux/ktime.h>

#include "core_test.h"

static const char *const fn = "page_pool_alloc_pages";
static bool stop;

static unsigned long armings;	/* arm + disarm cycles done; atomic */
static unsigned long nulls_seen;	/* the allocator's NULLs so far; atomic */

/*
 * Arm, keep it armed until the allocating thread has seen a failure (or
 * 100 ms went by), disarm, and again: every window is one the allocator
 * ran in, however the two threads are scheduled, and the arming state
 * changes under its feet at every cycle.
 */
static void *armer(void *arg)
{
	const struct pp_fault_config rules = { .every_nth = 3 };

	(void)arg;
	while (!smp_load_acquire(&stop)) {
		unsigned long seen = __atomic_load_n(&nulls_seen, __ATOMIC_RELAXED);
		u64 until = ktime_get_ns() + 100 * NSEC_PER_MSEC;
		unsigned int spins = 0;

		assert_int_equal(pp_fail_function_inject(fn, &rules), 0);
		while (__atomic_load_n(&nulls_seen, __ATOMIC_RELAXED) == seen &&
		       !smp_load_acquire(&stop) && ktime_get_ns() < until)
			pp_test_relax_or_yield(&spins);
		assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
		__atomic_fetch_add(&armings, 1, __ATOMIC_RELAXED);
		sched_yield();
	}
	return NULL;
}

static void test_arm_while_allocating(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	unsigned long before = pp_fail_function_count(fn), nulls = 0, pages = 0;
	struct page *page;
	pthread_t t;
	int i;

	(void)state;
	pthread_create(&t, NULL, armer, NULL);
	/* At least 200000 allocations and 100 arming cycles, however the two
	 * threads are scheduled (on a loaded machine the armer may start late). */
	for (i = 0; i < 200000 || __atomic_load_n(&armings, __ATOMIC_RELAXED) < 100; i++) {
		page = page_pool_dev_alloc_pages(pool);
		if (!page) {
			nulls++;
			__atomic_store_n(&nulls_seen, nulls, __ATOMIC_RELAXED);
			continue;
		}
		pages++;
		page_pool_put_full_page(pool, page, false);
	}
	smp_store_release(&stop, true);
	pthread_join(t, NULL);

	print_message("%lu pages, %lu injected failures, %lu armings\n", pages, nulls, armings);
	assert_int_equal(nulls, pp_fail_function_count(fn) - before);
	assert_true(nulls > 0);
	assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
	/* Disarmed: the summary bit is clear, the fast path is inline again. */
	assert_int_equal(READ_ONCE(__pp_fault_armed) & __PP_FAULT_ARMED_FUNCTION, 0);
	page = page_pool_dev_alloc_pages(pool);
	assert_non_null(page);
	page_pool_put_full_page(pool, page, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/* A configuration pp_fault_inject() refuses is refused here too, and the
 * function keeps the rules it had. */
static void test_bad_rules_keep_old(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page *page;

	(void)state;
	assert_int_equal(pp_fail_function_inject(fn, &(struct pp_fault_config){ .every_nth = 1 }), 0);
	assert_int_equal(pp_fail_function_inject(fn, &(struct pp_fault_config){ .skip = 3 }),
			 -EINVAL);
	assert_null(page_pool_dev_alloc_pages(pool));
	assert_int_equal(pp_fail_function_inject(fn, NULL), 0);
	page = page_pool_dev_alloc_pages(pool);
	assert_non_null(page);
	page_pool_put_full_page(pool, page, false);
	destroy_and_settle(pool);
	assert_all_pages_home();
}

/*
 * A program's own mark (this test links the static archive, so the
 * library's section and the program's would be one): checked at compile
 * time, never listed, never injectable.
 */
static noinline struct page *test_marked_helper(struct page_pool *pool)
{
	return page_pool_dev_alloc_pages(pool);
}
ALLOW_ERROR_INJECTION(test_marked_helper, NULL);

static void test_program_mark_not_listed(void **state)
{
	struct page_pool *pool = make_pool(0, NULL, 0);
	struct page *page;
	unsigned int i;

	(void)state;
	for (i = 0; pp_fail_function_name(i); i++)
		assert_string_equal(pp_fail_function_name(i), fn);
	assert_int_equal(i, 1);
	assert_int_equal(pp_fail_function_inject("test_marked_helper",
						 &(struct pp_fault_config){ .every_nth = 1 }),
			 -ENOENT);
	page = test_marked_helper(pool);
	assert_non_null(page);
	page_pool_put_full_page(pool, page, false);
	destroy_and_settle(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm_while_allocating),
		cmocka_unit_test(test_bad_rules_keep_old),
		cmocka_unit_test(test_program_mark_not_listed),
	};
	core_test_init(64, 1);
	pp_thread_register(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
