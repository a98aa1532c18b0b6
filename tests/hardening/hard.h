/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the hardening programs share (issue 12: hostile and careless use
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
