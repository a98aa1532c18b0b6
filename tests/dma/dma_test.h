/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Helpers shared by the dma test suites: a small arena, device creation
 * that must succeed, page allocation, and violation snapshots that a test
 * takes before an operation and compares after, to show that exactly the
 * expected counters moved (on the device, over all devices, per kind).
 */
#ifndef PP_DMA_TEST_H
#define PP_DMA_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <pagepool/dma.h>
#include <pagepool/mm.h>
#include <pagepool/runtime.h>

#include "dma/dma_internal.h"
#include "test_common.h"

#define MiB	(1UL << 20)

/* Bytes in the largest block (4 MiB at 4 KiB pages, 512 MiB at 64 KiB). */
#define DMA_TEST_BLOCK	(PAGE_SIZE << MAX_PAGE_ORDER)

/* Every executable: an arena of 4 largest blocks (16 MiB at 4 KiB pages,
 * quick to pre-fault; a test may take a whole block and still allocate)
 * and the log captured, so tests can look for the violation messages. */
static inline int dma_test_setup_group(void **state)
{
	int err = pp_mem_init(&(struct pp_mem_config){ .size = 4 * DMA_TEST_BLOCK });

	pp_test_capture_log();
	return err == 0 || err == -EBUSY ? 0 : -1;
}

/* Each test starts with an empty log (it holds a limited number of lines). */
static inline int dma_test_setup(void **state)
{
	pp_test_log_clear();
	return 0;
}

#define dma_test(fn)	cmocka_unit_test_setup(fn, dma_test_setup)

static inline struct device *dma_test_dev(const char *name,
					  enum pp_dma_backend backend,
					  unsigned int flags)
{
	struct device *dev = pp_device_create(name, backend, flags);

	assert_false(IS_ERR_OR_NULL(dev));
	return dev;
}

static inline struct page *dma_test_page(unsigned int order)
{
	struct page *page = alloc_pages(GFP_KERNEL | (order ? __GFP_COMP : 0), order);

	assert_non_null(page);
	return page;
}

struct vsnap {
	unsigned long dev_kind[PP_DMA_V_NR];
	unsigned long all_kind[PP_DMA_V_NR];
	unsigned long dev_total;
	unsigned long all_total;
};

static inline void vsnap_take(struct vsnap *s, const struct device *dev)
{
	int k;

	for (k = 0; k < PP_DMA_V_NR; k++) {
		s->dev_kind[k] = pp_dma_violation_count(dev, (enum pp_dma_violation)k);
		s->all_kind[k] = pp_dma_violation_count(NULL, (enum pp_dma_violation)k);
	}
	s->dev_total = pp_dma_violations(dev);
	s->all_total = pp_dma_violations(NULL);
}

/* Exactly @n violations of @kind on @dev since @s, and none of any other
 * kind anywhere (the suites run single-threaded unless they say so). */
#define assert_violations(s, dev, kind, n)					\
do {									\
	struct vsnap __now;						\
	int __k;							\
									\
	vsnap_take(&__now, (dev));					\
	for (__k = 0; __k < PP_DMA_V_NR; __k++) {			\
		unsigned long __want = __k == (int)(kind) ? (unsigned long)(n) : 0;\
									\
		assert_int_equal(__now.dev_kind[__k] - (s)->dev_kind[__k], __want);\
		assert_int_equal(__now.all_kind[__k] - (s)->all_kind[__k], __want);\
	}								\
	assert_int_equal(__now.dev_total - (s)->dev_total, (n));	\
	assert_int_equal(__now.all_total - (s)->all_total, (n));	\
} while (0)

#define assert_no_violations(s, dev)	assert_violations(s, dev, 0, 0)

static inline struct pp_dma_stats dma_test_stats(const struct device *dev)
{
	struct pp_dma_stats st;

	pp_dma_get_stats(dev, &st);
	return st;
}

static inline struct ppdma_iommu_info dma_test_iommu(struct device *dev)
{
	struct ppdma_iommu_info info;

	assert_int_equal(ppdma_iommu_get_info(dev, &info), 0);
	return info;
}

#endif /* PP_DMA_TEST_H */
