/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the suites read back from a page_pool: its stats and the pages it
 * has out (through the introspection API, so they also work on a pool
 * that page_pool_destroy() has handed to the release worker).
 */
#ifndef PP_TEST_POOL_TEST_H
#define PP_TEST_POOL_TEST_H

#include <string.h>

#include <net/page_pool/helpers.h>
#include <pagepool.h>

static inline struct page_pool_stats pool_stats(struct page_pool *pool)
{
	struct page_pool_stats st;

	memset(&st, 0, sizeof(st));
	page_pool_get_stats(pool, &st);
	return st;
}

/* Pages allocated and not yet returned; -1 once the pool is freed. */
static inline long pool_inflight(struct page_pool *pool)
{
	struct pp_page_pool_info info;

	if (pp_page_pool_get_info(pp_page_pool_id(pool), &info))
		return -1;
	return (long)info.inflight;
}

#endif
