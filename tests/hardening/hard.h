/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the hardening programs share (hostile and careless use
 * from outside). Like the kernel-api programs they are built by
 * ../kernel-api/run.sh against the installed headers with pkg-config
 * alone - in the ASan+UBSan build with the sanitizers too - so this header
 * uses only the installed API.
 *
 * Each program reproduces one finding and asserts the report (error code,
 * WARN, misuse counter) and the end state: every page home, no page handed
 * out twice, no DMA-API violation.
 */
#ifndef PP_HARD_H
#define PP_HARD_H

#include "../kernel-api/kapi.h"

#include <pagepool.h>

/* WARNs since the last call. */
static inline unsigned long hard_warns(void)
{
	static unsigned long seen;
	unsigned long now = pp_warn_count(), d = now - seen;

	seen = now;
	return d;
}

/* The pool's inflight pages as page-pool-get reports them. */
static inline u64 hard_inflight(const struct page_pool *pool)
{
	struct pp_page_pool_info info;

	assert_int_equal(pp_page_pool_get_info(pp_page_pool_id(pool), &info), 0);
	return info.inflight;
}

/* Allocate until @pool has handed out @n pages (at most 512); no page
 * twice. Then all go back. */
static inline void hard_assert_distinct_allocs(struct page_pool *pool, int n)
{
	static struct page *got[512];
	int i, j;

	assert_true(n <= 512);
	for (i = 0; i < n; i++) {
		got[i] = page_pool_dev_alloc_pages(pool);
		assert_non_null(got[i]);
		for (j = 0; j < i; j++)
			assert_ptr_not_equal(got[i], got[j]);
	}
	for (i = 0; i < n; i++)
		page_pool_put_full_page(pool, got[i], false);
}

/* No page handed out twice, across threads: each page's slot is claimed
 * by its holder (hard_claim()) and given up before it goes back
 * (hard_unclaim()); a claim of a taken slot is counted in hard_twice. */
#define HARD_OWNER_SLOTS	(1 << 16)
static void *hard_owner[HARD_OWNER_SLOTS];
static unsigned long hard_twice;

static inline void hard_claim(struct page *p, void *who)
{
	void *none = NULL;

	if (!__atomic_compare_exchange_n(&hard_owner[page_to_pfn(p) % HARD_OWNER_SLOTS], &none,
					 who, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		__atomic_fetch_add(&hard_twice, 1, __ATOMIC_RELAXED);
}

static inline void hard_unclaim(struct page *p)
{
	__atomic_store_n(&hard_owner[page_to_pfn(p) % HARD_OWNER_SLOTS], NULL, __ATOMIC_RELEASE);
}

/* A test that needs CONFIG_DEBUG_NET (meson -Ddebug_net; the ASan+UBSan
 * build): skipped, and said so, in the other builds. */
#define HARD_NEEDS_DEBUG_NET()						\
	do {								\
		if (!IS_ENABLED(CONFIG_DEBUG_NET)) {			\
			print_message("needs CONFIG_DEBUG_NET (meson -Ddebug_net)\n"); \
			skip();						\
		}							\
	} while (0)

#endif /* PP_HARD_H */
