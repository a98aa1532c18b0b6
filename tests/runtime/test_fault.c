/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Fault injection rules: next_n, every_nth, skip, probability, disarm,
 * counters, and that kmalloc honours PP_FAULT_KMALLOC. */
#include <errno.h>
#include <linux/slab.h>
#include <pagepool/runtime.h>

#include "test_common.h"

static int count_fails(enum pp_fault_point p, int calls)
{
	int i, n = 0;

	for (i = 0; i < calls; i++)
		n += pp_should_fail(p);
	return n;
}

static void test_unarmed_never_fails(void **state)
{
	(void)state;
	assert_int_equal(count_fails(PP_FAULT_DMA_MAP, 1000), 0);
}

static void test_next_n(void **state)
{
	unsigned long before = pp_fault_count(PP_FAULT_PAGE_ALLOC);

	(void)state;
	assert_int_equal(pp_fault_inject(PP_FAULT_PAGE_ALLOC,
					 &(struct pp_fault_config){ .next_n = 3 }), 0);
	assert_true(pp_should_fail(PP_FAULT_PAGE_ALLOC));
	assert_true(pp_should_fail(PP_FAULT_PAGE_ALLOC));
	assert_true(pp_should_fail(PP_FAULT_PAGE_ALLOC));
	assert_int_equal(count_fails(PP_FAULT_PAGE_ALLOC, 100), 0);
	assert_int_equal(pp_fault_count(PP_FAULT_PAGE_ALLOC), before + 3);
	assert_int_equal(count_fails(PP_FAULT_DMA_MAP, 100), 0);	/* other points */
	pp_fault_inject(PP_FAULT_PAGE_ALLOC, NULL);
}

static void test_every_nth_with_skip(void **state)
{
	int i;

	(void)state;
	pp_fault_inject(PP_FAULT_DMA_MAP, &(struct pp_fault_config){ .every_nth = 4, .skip = 2 });
	for (i = 1; i <= 20; i++) {
		bool f = pp_should_fail(PP_FAULT_DMA_MAP);

		/* calls 1-2 skipped; then calls 6, 10, 14, 18 fail */
		assert_int_equal(f, i > 2 && (i - 2) % 4 == 0);
	}
	pp_fault_inject(PP_FAULT_DMA_MAP, NULL);
	assert_int_equal(count_fails(PP_FAULT_DMA_MAP, 100), 0);
}

static void test_probability(void **state)
{
	int n;

	(void)state;
	pp_fault_inject(PP_FAULT_TRACKING, &(struct pp_fault_config){ .probability = 0.25, .seed = 42 });
	n = count_fails(PP_FAULT_TRACKING, 100000);
	assert_in_range(n, 23500, 26500);
	pp_fault_inject(PP_FAULT_TRACKING, &(struct pp_fault_config){ .probability = 1.0 });
	assert_int_equal(count_fails(PP_FAULT_TRACKING, 100), 100);
	pp_fault_inject(PP_FAULT_TRACKING, NULL);
	assert_int_equal(pp_fault_inject(PP_FAULT_TRACKING,
					 &(struct pp_fault_config){ .probability = 1.5 }), -EINVAL);
	assert_int_equal(pp_fault_inject(PP_FAULT_NR, NULL), -EINVAL);
}

static void test_kmalloc_fault(void **state)
{
	void *p;

	(void)state;
	pp_fault_inject(PP_FAULT_KMALLOC, &(struct pp_fault_config){ .next_n = 1 });
	assert_null(kmalloc(64, GFP_KERNEL));
	p = kzalloc(64, GFP_KERNEL);
	assert_non_null(p);
	assert_true(((unsigned long)p & 63) == 0);
	kfree(p);
	pp_fault_inject(PP_FAULT_KMALLOC, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unarmed_never_fails),
		cmocka_unit_test(test_next_n),
		cmocka_unit_test(test_every_nth_with_skip),
		cmocka_unit_test(test_probability),
		cmocka_unit_test(test_kmalloc_fault),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
