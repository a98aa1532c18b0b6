/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp_mem_get_stats(NULL) and
 * pp_mem_get_counters(NULL) crashed (and pp_mem_walk(NULL, ...)), and
 * pp_mem_init() accepted fields out of range: .pcp_batch = 1 << 30
 * overflowed the default high mark (6 * batch, signed: UBSan) and made
 * an arena, as did a high mark below the batch. Now each is -EINVAL, and
 * a refused pp_mem_init() creates nothing: a good one still can.
 *
 * The end state: every page home, no DMA-API violation, no WARN.
 */
#include <errno.h>
#include <stdint.h>

#include <linux/numa.h>

#include "hard.h"

static int count_page(struct page *page, void *arg)
{
	(void)page;
	(*(unsigned long *)arg)++;
	return 0;
}

static void test_null_out_args(void **state)
{
	struct pp_mem_counters c;
	struct pp_mem_stats st;
	unsigned long n = 0;

	(void)state;
	hard_warns();
	assert_int_equal(pp_mem_get_stats(NULL), -EINVAL);
	assert_int_equal(pp_mem_get_counters(NULL), -EINVAL);
	assert_int_equal(pp_mem_walk(NULL, NULL), -EINVAL);
	/* Out-of-range queries answer 0, as documented. */
	assert_int_equal(pp_mem_free_blocks(-1, 0), 0);
	assert_int_equal(pp_mem_free_blocks(0, 1000), 0);
	assert_int_equal(pp_mem_pcp_count(-1, 0), 0);
	assert_int_equal(pp_mem_pcp_count(PP_NR_CPUS, 0), 0);
	assert_int_equal(pp_mem_pcp_count(0, MAX_NUMNODES), 0);
	/* And the good calls still work. */
	assert_int_equal(pp_mem_get_stats(&st), 0);
	assert_int_equal(pp_mem_get_counters(&c), 0);
	assert_int_equal(pp_mem_walk(count_page, &n), 0);
	assert_int_equal(n, st.total_pages + c.reserved_pages);
	assert_int_equal(hard_warns(), 0);
}

/* One node of one maximal block: 1 << MAX_PAGE_ORDER pages (1024 at 4 KiB
 * pages, 2048 at 16 KiB, 8192 at 64 KiB). The per-CPU list limits are
 * checked against the node's pages. */
#define ARENA_PAGES	(1UL << MAX_PAGE_ORDER)
#define ARENA		(PAGE_SIZE << MAX_PAGE_ORDER)

static void refused(struct pp_mem_config cfg)
{
	struct pp_mem_stats st;

	assert_int_equal(pp_mem_init(&cfg), -EINVAL);
	/* Nothing was created: another pp_mem_init() is not -EBUSY. */
	assert_int_equal(pp_mem_get_stats(&st), 0);
	assert_int_equal(st.total_pages, 0);
}

static void test_config_ranges(void **state)
{
	struct pp_mem_stats st;

	(void)state;
	assert_int_equal(pp_mem_exit(), 0);	/* the default arena, if any */
	hard_warns();
	refused((struct pp_mem_config){ .size = ARENA, .pcp_batch = 1 << 30 });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_batch = INT32_MAX });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_batch = ARENA_PAGES + 1 });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_batch = 64, .pcp_high = 63 });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_high = 62 }); /* < default 63 */
	refused((struct pp_mem_config){ .size = ARENA, .pcp_high = ARENA_PAGES + 1 });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_batch = -1 });
	refused((struct pp_mem_config){ .size = ARENA, .pcp_high = -1 });
	refused((struct pp_mem_config){ .size = ARENA, .backing = 3 });
	refused((struct pp_mem_config){ .size = ARENA, .backing = -1 });
	refused((struct pp_mem_config){ .size = ARENA, .nr_nodes = -1 });
	refused((struct pp_mem_config){ .size = ARENA, .nr_nodes = MAX_NUMNODES + 1 });
	refused((struct pp_mem_config){ .size = SIZE_MAX });
	assert_int_equal(hard_warns(), 0);

	/* The edges are accepted; the default high mark is kept within the
	 * node for a large batch. */
	assert_int_equal(pp_mem_init(&(struct pp_mem_config){ .size = ARENA,
				.backing = PP_MEM_4K, .pcp_batch = ARENA_PAGES }), 0);
	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(pp_mem_init(&(struct pp_mem_config){ .size = ARENA,
				.backing = PP_MEM_4K, .pcp_batch = 8, .pcp_high = 8 }), 0);
	/* The arena works: a page out and back. */
	{
		struct page *p = alloc_page(GFP_KERNEL);

		assert_non_null(p);
		__free_page(p);
	}
	assert_int_equal(pp_mem_get_stats(&st), 0);
	assert_int_equal(st.total_pages, ARENA_PAGES);
	kapi_assert_all_pages_home();
	assert_int_equal(pp_mem_exit(), 0);
	assert_int_equal(hard_warns(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_out_args),
		cmocka_unit_test(test_config_ranges),
	};
	struct device *dev;
	int rc;

	kapi_setup();
	dev = pp_device_create("mm_bad_args", PP_DMA_IOMMU, PP_DMA_DEBUG);
	if (IS_ERR(dev))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (pp_dma_violations(dev))
		rc = 1;
	pp_device_destroy(dev);
	return rc;
}
