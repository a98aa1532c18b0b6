/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp_fault_inject() accepted a NaN probability - NaN
 * compares false with 0 and with 1, so it passed the range check and armed
 * a threshold that failed about half of all calls (509 of 1000 page
 * allocations). Now every field of struct pp_fault_config is checked for
 * its range: -EINVAL, and the point keeps the rules it had (here: none, so
 * nothing fails and every page comes home).
 */
#include <limits.h>
#include <math.h>

#include <linux/dma-mapping.h>

#include "hard.h"

#define CALLS	1000

static struct device *dev;

/* @point still unarmed: CALLS calls through it all succeed, and none
 * counts a fault. PP_FAULT_PAGE_ALLOC: page allocations; PP_FAULT_DMA_MAP:
 * DMA maps of one page (the device has DMA-API debug). */
static void assert_nothing_fails(enum pp_fault_point point)
{
	unsigned long faults = pp_fault_count(point);
	struct page *p, *keep = alloc_page(GFP_KERNEL);
	int i, failed = 0;
	dma_addr_t a;

	assert_non_null(keep);
	for (i = 0; i < CALLS; i++) {
		if (point == PP_FAULT_PAGE_ALLOC) {
			p = alloc_page(GFP_KERNEL | __GFP_NOWARN);
			if (p)
				__free_page(p);
			else
				failed++;
		} else {
			a = dma_map_page(dev, keep, 0, PAGE_SIZE, DMA_FROM_DEVICE);
			if (dma_mapping_error(dev, a))
				failed++;
			else
				dma_unmap_page(dev, a, PAGE_SIZE, DMA_FROM_DEVICE);
		}
	}
	__free_page(keep);
	assert_int_equal(failed, 0);
	assert_int_equal(pp_fault_count(point), faults);
}

static void check_refused(enum pp_fault_point point, const struct pp_fault_config *cfg)
{
	assert_int_equal(pp_fault_inject(point, cfg), -EINVAL);
	assert_int_equal(hard_warns(), 0);	/* an error code, not a WARN */
	assert_nothing_fails(point);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_dma_violations(NULL), 0);
}

static const enum pp_fault_point points[] = { PP_FAULT_PAGE_ALLOC, PP_FAULT_DMA_MAP };

static void test_nan_probability(void **state)
{
	unsigned int i;

	(void)state;
	hard_warns();
	for (i = 0; i < ARRAY_SIZE(points); i++) {
		check_refused(points[i], &(struct pp_fault_config){ .probability = NAN });
		check_refused(points[i], &(struct pp_fault_config){ .probability = -NAN });
		/* NaN next to a valid rule: refused all the same. */
		check_refused(points[i], &(struct pp_fault_config){ .probability = NAN,
								   .every_nth = 1000000 });
	}
}

static void test_probability_out_of_range(void **state)
{
	unsigned int i;

	(void)state;
	hard_warns();
	for (i = 0; i < ARRAY_SIZE(points); i++) {
		check_refused(points[i], &(struct pp_fault_config){ .probability = INFINITY });
		check_refused(points[i], &(struct pp_fault_config){ .probability = -INFINITY });
		check_refused(points[i], &(struct pp_fault_config){ .probability = -0.5 });
		check_refused(points[i], &(struct pp_fault_config){ .probability = 1.0000001 });
	}
}

/* The counts: a negative number converted to unsigned long is refused. */
static void test_counts_out_of_range(void **state)
{
	unsigned int i;

	(void)state;
	hard_warns();
	for (i = 0; i < ARRAY_SIZE(points); i++) {
		check_refused(points[i], &(struct pp_fault_config){ .every_nth = (unsigned long)-1 });
		check_refused(points[i], &(struct pp_fault_config){ .next_n = (unsigned long)-2 });
		check_refused(points[i], &(struct pp_fault_config){ .next_n = 1,
								   .skip = (unsigned long)LONG_MAX + 1 });
	}
}

/* skip / seed without a rule arm nothing: refused as a forgotten rule. */
static void test_no_rule(void **state)
{
	(void)state;
	hard_warns();
	check_refused(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .skip = 5 });
	check_refused(PP_FAULT_PAGE_ALLOC, &(struct pp_fault_config){ .seed = 42 });
}

/* A refused config leaves the rules the point had: still armed with them. */
static void test_refused_keeps_rules(void **state)
{
	unsigned long before = pp_fault_count(PP_FAULT_KMALLOC);

	(void)state;
	hard_warns();
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .next_n = 1 }), 0);
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .probability = NAN }), -EINVAL);
	assert_true(pp_should_fail(PP_FAULT_KMALLOC));
	assert_false(pp_should_fail(PP_FAULT_KMALLOC));
	assert_int_equal(pp_fault_count(PP_FAULT_KMALLOC), before + 1);
	/* The edges are valid, and an all-zero config disarms as NULL does. */
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .probability = 0.0 }), 0);
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .probability = 1.0 }), 0);
	assert_true(pp_should_fail(PP_FAULT_KMALLOC));
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC,
					 &(struct pp_fault_config){ .every_nth = LONG_MAX }), 0);
	assert_int_equal(pp_fault_inject(PP_FAULT_KMALLOC, NULL), 0);
	assert_false(pp_should_fail(PP_FAULT_KMALLOC));
	assert_int_equal(hard_warns(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nan_probability),
		cmocka_unit_test(test_probability_out_of_range),
		cmocka_unit_test(test_counts_out_of_range),
		cmocka_unit_test(test_no_rule),
		cmocka_unit_test(test_refused_keeps_rules),
	};
	int rc;

	kapi_setup();
	dev = pp_device_create("rt_fault", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dev))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pp_device_destroy(dev);
	return rc;
}
