/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Fault injection at PP_FAULT_PAGE_ALLOC: every page handed out is one
 * call of the fault point, so single allocations fail whole and bulk ones
 * stop exactly at the injected fault. Failures are clean: NULL or a short
 * count, the failure counted (and warned about unless __GFP_NOWARN), and
 * nothing leaks.
 */
#include "mm_test.h"

static int setup(void **state)
{
	mm_arena(2, 1, 0, 0);
	return 0;
}

static int teardown(void **state)
{
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
	return 0;
}

static void test_next_n(void **state)
{
	unsigned long faults = pp_fault_count(PP_FAULT_PAGE_ALLOC);
	unsigned long free0 = mm_free_pages();
	struct pp_mem_counters c0, c1;
	struct page *page;
	int i;

	pp_mem_get_counters(&c0);
	assert_int_equal(pp_fault_inject(PP_FAULT_PAGE_ALLOC,
					 &(struct pp_fault_config){ .next_n = 3 }), 0);
	pp_test_log_clear();
	for (i = 0; i < 3; i++)
		assert_null(alloc_page(GFP_KERNEL));
	assert_true(pp_test_log_contains("page allocation failure"));
	page = alloc_page(GFP_KERNEL);
	assert_non_null(page);
	assert_int_equal(pp_fault_count(PP_FAULT_PAGE_ALLOC), faults + 3);
	pp_mem_get_counters(&c1);
	assert_int_equal(c1.alloc_failed, c0.alloc_failed + 3);
	__free_page(page);
	assert_int_equal(mm_free_pages(), free0);
	mm_assert_all_free();
}

static void test_nowarn_is_quiet(void **state)
{
	unsigned long warns = pp_warn_count();

	pp_fault_inject(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .next_n = 2 });
	pp_test_log_clear();
	assert_null(alloc_page(GFP_KERNEL | __GFP_NOWARN));
	assert_null(alloc_pages(GFP_KERNEL | __GFP_NOWARN | __GFP_COMP, 3));
	assert_false(pp_test_log_contains("page allocation failure"));
	/* An injected failure is not bad input: no WARN. */
	assert_int_equal(pp_warn_count(), warns);
	mm_assert_all_free();
}

/* A high-order failure leaves every list as it was. */
static void test_high_order_clean(void **state)
{
	struct mm_snap before, after;

	mm_snap_take(&before);
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .next_n = 1 });
	assert_null(alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, 5));
	mm_snap_take(&after);
	mm_snap_assert_equal(&before, &after);
}

/* Bulk: one fault-point call per page, so the bulk stops at the fault. */
static void test_bulk_stops_at_fault(void **state)
{
	struct page *pages[64] = { NULL };
	unsigned long n, i;

	pp_fault_inject(PP_FAULT_PAGE_ALLOC,
			&(struct pp_fault_config){ .skip = 10, .next_n = 1 });
	n = alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 64, pages);
	assert_int_equal(n, 10);
	for (i = 10; i < 64; i++)
		assert_null(pages[i]);
	/* The fault is spent: the rest comes now. */
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL, 64, pages), 64);
	for (i = 0; i < 64; i++)
		__free_page(pages[i]);

	pp_fault_inject(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .every_nth = 2 });
	memset(pages, 0, sizeof(pages));
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 64, pages), 1);
	__free_page(pages[0]);

	pp_fault_inject(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .next_n = 1 });
	pages[0] = NULL;
	assert_int_equal(alloc_pages_bulk(GFP_KERNEL | __GFP_NOWARN, 64, pages), 0);
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
	mm_assert_all_free();
}

/* Random failures over many allocations: every successful page comes
 * back, the failures match the injected count. */
static void test_probability_no_leak(void **state)
{
	static struct page *pages[1500];
	unsigned long faults = pp_fault_count(PP_FAULT_PAGE_ALLOC);
	unsigned long got = 0, failed = 0, i;

	pp_fault_inject(PP_FAULT_PAGE_ALLOC,
			&(struct pp_fault_config){ .probability = 0.3, .seed = 42 });
	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, i % 7 == 0 ? 1 : 0);

		if (p)
			pages[got++] = p;
		else
			failed++;
	}
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
	assert_true(failed > 300 && failed < 600);
	assert_int_equal(pp_fault_count(PP_FAULT_PAGE_ALLOC), faults + failed);
	for (i = 0; i < got; i++)
		put_page(pages[i]);
	mm_assert_all_free();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_next_n, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nowarn_is_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_high_order_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bulk_stops_at_fault, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probability_no_leak, setup, teardown),
	};

	pp_test_capture_log();
	if (pp_thread_register(0) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
