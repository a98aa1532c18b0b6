/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * What the kernel-api programs share. They are built as a user outside the
 * tree builds (run.sh: installed headers, pkg-config only), so this header
 * uses nothing but the installed API: <pagepool.h> for threads, devices,
 * the WARN counter and the print callback, and the kernel headers.
 */
#ifndef PP_KAPI_H
#define PP_KAPI_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <linux/mm.h>
#include <net/page_pool/helpers.h>
#include <pagepool.h>

#include "../common/test_designs.h"

/* The library's messages, kept for assertions (and shown with
 * KAPI_VERBOSE=1 in the environment). */
static char kapi_log[64][256];
static int kapi_log_n;

static int kapi_print(int level, const char *fmt, va_list ap)
{
	char *line = kapi_log[kapi_log_n % 64];

	(void)level;
	vsnprintf(line, sizeof(kapi_log[0]), fmt, ap);
	kapi_log_n++;
	if (getenv("KAPI_VERBOSE"))
		fputs(line, stderr);
	return 0;
}

static inline bool kapi_logged(const char *needle)
{
	int i;

	for (i = 0; i < 64 && i < kapi_log_n; i++)
		if (strstr(kapi_log[i], needle))
			return true;
	return false;
}

/* This thread is CPU 0; the library's messages go to kapi_log. */
static inline void kapi_setup(void)
{
	pp_set_print(kapi_print);
	if (pp_thread_register(0) != 0)
		abort();
	/* The deferred release retries every 10 ms instead of every second. */
	pp_page_pool_set_defer_times(10, 0);
}

/* Every page is back in the page allocator, none still marked page_pool. */
static inline void kapi_assert_all_pages_home(void)
{
	struct pp_mem_stats st;

	pp_workqueue_run_all();
	pp_mem_get_stats(&st);
	assert_int_equal(st.free_pages, st.total_pages);
	assert_int_equal(st.pp_pages, 0);
}

/* Whether pool @id is still listed (alive, maybe destroyed and waiting). */
static inline bool kapi_pool_listed(u32 id)
{
	struct pp_page_pool_info info;

	return pp_page_pool_get_info(id, &info) == 0;
}

/* Run the deferred release until pool @id is freed, or 100 rounds. */
static inline void kapi_settle_pool(u32 id)
{
	int i;

	for (i = 0; i < 100 && kapi_pool_listed(id); i++)
		pp_workqueue_run_all();
}

static inline struct page_pool_stats kapi_stats(const struct page_pool *pool)
{
	struct page_pool_stats st;

	memset(&st, 0, sizeof(st));
	assert_true(page_pool_get_stats(pool, &st));
	return st;
}

/* cmocka set-ups that choose the return design of the pools a test makes:
 * EACH_RING(test) runs a test once per ring design (lanes, the kernel's
 * ptr_ring, llist, llist_batch, magazine). A
 * design this build lacks is not set up (cmocka reports a skip in a
 * set-up as an error): its test is kapi_skip_<design>, which says so and
 * skips. */
static inline int kapi_ring_set_up(int mode)
{
	if (!pp_test_ring_built(mode))
		return 0;
	return pp_test_ring_mode(mode) ? 0 : -1;
}

#define KAPI_RING_DESIGN(d, D)						\
	static inline int kapi_ring_##d(void **state)			\
	{								\
		(void)state;						\
		return kapi_ring_set_up(PP_RING_##D);			\
	}								\
	static inline void kapi_skip_##d(void **state)			\
	{								\
		(void)state;						\
		PP_TEST_NEEDS_RING(PP_RING_##D);			\
	}
KAPI_RING_DESIGN(lanes, LANES)
KAPI_RING_DESIGN(ptr_ring, PTR_RING)
KAPI_RING_DESIGN(llist, LLIST)
KAPI_RING_DESIGN(llist_batch, LLIST_BATCH)
KAPI_RING_DESIGN(magazine, MAGAZINE)

/* @fn on ring design @d (@D the same in capitals), or its skip where the
 * build lacks it, with @teardown (which cmocka runs after a skipped test
 * too). */
#define KAPI_ON_RING(fn, d, D, teardown)				\
	{ #fn " (" #d ")",						\
	  IS_ENABLED(CONFIG_PAGEPOOL_RING_##D) ? fn : kapi_skip_##d,	\
	  kapi_ring_##d, teardown, NULL }

/* @fn once per ring design (each of enum pp_ring_mode). */
#define EACH_RING(fn)							\
	KAPI_ON_RING(fn, lanes, LANES, NULL),				\
	KAPI_ON_RING(fn, ptr_ring, PTR_RING, NULL),			\
	KAPI_ON_RING(fn, llist, LLIST, NULL),				\
	KAPI_ON_RING(fn, llist_batch, LLIST_BATCH, NULL),		\
	KAPI_ON_RING(fn, magazine, MAGAZINE, NULL)

#endif /* PP_KAPI_H */
