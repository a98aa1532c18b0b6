/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The designs a test runs on. A default build compiles one design per
 * axis (meson -Dring=lanes|ptr_ring, -Ddma_tracking=index|items) and the
 * setters refuse the others with -EOPNOTSUPP; an all-designs build
 * (meson -Ddesigns=all) has every design, and only there can the fixes
 * of the napi_local race and of the unmap after unbind be turned off
 * (CONFIG_PAGEPOOL_FIX_SWITCHES: pp_page_pool_set_fixes(0),
 * PP_DMA_TRACK_OFF) to show the bugs they fix.
 *
 * A test that needs a design selects it with pp_test_ring_mode(),
 * pp_test_dma_tracking() or pp_test_fixes(): when the build lacks it they
 * print one line naming the meson option that builds it and return false,
 * and the test skips (PP_TEST_NEEDS_*(), pp_test_skip()). A setter that
 * refuses a design the build has, or accepts one it lacks, aborts the
 * test program: the configuration and the library disagree.
 *
 * Only the installed API is used, so the programs built outside the tree
 * (kernel-api/, hardening/: run.sh) share this header with the suites.
 * The skip macros and pp_test_run_group() need <cmocka.h> first.
 */
#ifndef PP_TEST_DESIGNS_H
#define PP_TEST_DESIGNS_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/kconfig.h>
#include <net/page_pool/types.h>
#include <pagepool/core.h>

static inline const char *pp_test_ring_name(int mode)
{
	return mode == PP_RING_LANES ? "lanes" : mode == PP_RING_PTR_RING ? "ptr_ring" :
	       mode == PP_RING_LLIST ? "llist" : mode == PP_RING_LLIST_BATCH ? "llist_batch" :
	       mode == PP_RING_MAGAZINE ? "magazine" : "?";
}

static inline const char *pp_test_tracking_name(int mode)
{
	return mode == PP_DMA_TRACK_INDEX ? "index" :
	       mode == PP_DMA_TRACK_ITEMS ? "items" :
	       mode == PP_DMA_TRACK_OFF ? "off" : "?";
}

/* What <generated/autoconf.h> says this build has. */
static inline bool pp_test_ring_built(int mode)
{
	return (mode == PP_RING_LANES && IS_ENABLED(CONFIG_PAGEPOOL_RING_LANES)) ||
	       (mode == PP_RING_PTR_RING && IS_ENABLED(CONFIG_PAGEPOOL_RING_PTR_RING)) ||
	       (mode == PP_RING_LLIST && IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST)) ||
	       (mode == PP_RING_LLIST_BATCH && IS_ENABLED(CONFIG_PAGEPOOL_RING_LLIST_BATCH)) ||
	       (mode == PP_RING_MAGAZINE && IS_ENABLED(CONFIG_PAGEPOOL_RING_MAGAZINE));
}

static inline bool pp_test_tracking_built(int mode)
{
	return (mode == PP_DMA_TRACK_INDEX && IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_INDEX)) ||
	       (mode == PP_DMA_TRACK_ITEMS && IS_ENABLED(CONFIG_PAGEPOOL_DMA_TRACK_ITEMS)) ||
	       (mode == PP_DMA_TRACK_OFF && IS_ENABLED(CONFIG_PAGEPOOL_FIX_SWITCHES));
}

static inline bool pp_test_fixes_switchable(void)
{
	return IS_ENABLED(CONFIG_PAGEPOOL_FIX_SWITCHES);
}

/* The setter's answer against the build's: -EOPNOTSUPP exactly for the
 * designs not compiled in. Returns whether the design is in. */
static inline bool pp_test__design_result(const char *setter, const char *name,
					  const char *option, bool built, int ret)
{
	if (built ? ret < 0 : ret != -EOPNOTSUPP) {
		fprintf(stderr, "%s(%s) = %d in a build %s it\n", setter, name, ret,
			built ? "with" : "without");
		abort();
	}
	if (!built)
		printf("%s: not in this build (meson %s-Ddesigns=all)\n", name, option);
	return built;
}

/* The design new pools get now (set to itself: the setters return the
 * previous design, and the build's selection is always in). */
static inline int pp_test_ring_current(void)
{
	int cur = pp_page_pool_set_ring_mode(CONFIG_PAGEPOOL_RING_DEFAULT);

	pp_page_pool_set_ring_mode(cur);
	return cur;
}

static inline int pp_test_dma_tracking_current(void)
{
	int cur = pp_page_pool_set_dma_tracking(CONFIG_PAGEPOOL_DMA_TRACK_DEFAULT);

	pp_page_pool_set_dma_tracking(cur);
	return cur;
}

/* The design new pools got when the program started (the build's, or the
 * environment's in an all-designs build), kept at the first switch so
 * that pp_test_designs_restore() can go back to it. */
static inline int *pp_test__start_mode(int axis)
{
	static int start[2] = { -1, -1 };

	return &start[axis];
}

static inline void pp_test__keep_start(int axis, int ret)
{
	if (ret >= 0 && *pp_test__start_mode(axis) < 0)
		*pp_test__start_mode(axis) = ret;
}

/* Pools created from now on get ring design @mode: true, or false (and a
 * line saying how to build it) when this build does not have it. */
static inline bool pp_test_ring_mode(int mode)
{
	char option[32];
	int ret = pp_page_pool_set_ring_mode(mode);

	pp_test__keep_start(0, ret);
	snprintf(option, sizeof(option), "-Dring=%s or ", pp_test_ring_name(mode));
	return pp_test__design_result("pp_page_pool_set_ring_mode", pp_test_ring_name(mode),
				      option, pp_test_ring_built(mode), ret);
}

/* The same for the DMA tracking design. PP_DMA_TRACK_OFF, the behaviour
 * before the fix, is only in an all-designs build. */
static inline bool pp_test_dma_tracking(int mode)
{
	char option[32];
	int ret = pp_page_pool_set_dma_tracking(mode);

	pp_test__keep_start(1, ret);
	if (mode == PP_DMA_TRACK_OFF)
		option[0] = '\0';
	else
		snprintf(option, sizeof(option), "-Ddma_tracking=%s or ",
			 pp_test_tracking_name(mode));
	return pp_test__design_result("pp_page_pool_set_dma_tracking",
				      mode == PP_DMA_TRACK_OFF ? "DMA tracking off" :
				      mode == PP_DMA_TRACK_ITEMS ? "items tracking" : "index tracking",
				      option, pp_test_tracking_built(mode), ret);
}

/* Whether the fixes can be turned off here (a line if not). */
static inline bool pp_test_fix_switches(void)
{
	if (!pp_test_fixes_switchable())
		printf("fixes off: not in this build (meson -Ddesigns=all)\n");
	return pp_test_fixes_switchable();
}

/* The fixes in effect from now on (PP_FIX_*): false, and a line,
 * when @mask turns one off in a build that cannot. */
static inline bool pp_test_fixes(unsigned int mask)
{
	unsigned int old = pp_page_pool_set_fixes(mask);

	if (pp_test_fixes_switchable())
		return true;
	if (old != PP_FIX_NAPI_LOCAL_RCU) {
		fprintf(stderr, "pp_page_pool_set_fixes() = %#x in a build whose fixes are always on\n",
			old);
		abort();
	}
	return mask == PP_FIX_NAPI_LOCAL_RCU || pp_test_fix_switches();
}

/* Back to the design of an axis the program started with, or to every
 * one and the fixes on. */
static inline void pp_test_ring_restore(void)
{
	if (*pp_test__start_mode(0) >= 0)
		pp_page_pool_set_ring_mode(*pp_test__start_mode(0));
}

static inline void pp_test_dma_tracking_restore(void)
{
	if (*pp_test__start_mode(1) >= 0)
		pp_page_pool_set_dma_tracking(*pp_test__start_mode(1));
}

static inline void pp_test_designs_restore(void)
{
	pp_test_ring_restore();
	pp_test_dma_tracking_restore();
	pp_page_pool_set_fixes(PP_FIX_NAPI_LOCAL_RCU);
}

/*
 * Skipping (cmocka). pp_test_skip() is cmocka's skip(), counted, so that
 * pp_test_run_group() can tell meson (exit status 77, SKIP) when every
 * test of the program skipped: a program that tested nothing must not
 * pass. The checks belong in the test function, not in a cmocka set-up:
 * cmocka reports a skip() there as an error.
 */
static inline int *pp_test__skipped(void)
{
	static int n;

	return &n;
}

#define pp_test_skip()							\
	do {								\
		++*pp_test__skipped();					\
		skip();							\
	} while (0)

#define PP_TEST_NEEDS_RING(mode)					\
	do {								\
		if (!pp_test_ring_mode(mode))				\
			pp_test_skip();					\
	} while (0)

#define PP_TEST_NEEDS_DMA_TRACKING(mode)				\
	do {								\
		if (!pp_test_dma_tracking(mode))			\
			pp_test_skip();					\
	} while (0)

/* For a test that turns a fix off (pp_test_fixes()). */
#define PP_TEST_NEEDS_FIX_SWITCHES()					\
	do {								\
		if (!pp_test_fix_switches())				\
			pp_test_skip();					\
	} while (0)

/* The exit status of a program that ran @ran tests and got @failed
 * failures (the sum of its cmocka_run_group_tests()). */
static inline int pp_test_exit_status(int failed, int ran)
{
	if (failed)
		return failed;
	if (*pp_test__skipped() >= ran) {
		printf("every test skipped in this build\n");
		return 77;
	}
	return 0;
}

#define pp_test_run_group(tests, setup, teardown)			\
	pp_test_exit_status(cmocka_run_group_tests(tests, setup, teardown),	\
			    (int)(sizeof(tests) / sizeof((tests)[0])))

#define pp_test_run_group_name(name, tests, setup, teardown)		\
	pp_test_exit_status(cmocka_run_group_tests_name(name, tests, setup, teardown), \
			    (int)(sizeof(tests) / sizeof((tests)[0])))

#ifdef cmocka_unit_test
/* @tests as one cmocka group per ring design the build has, named after
 * it, and a line for each it lacks; the program's exit status. */
static inline int pp_test_run_on_each_ring(const struct CMUnitTest *tests, size_t n)
{
	int failed = 0, ran = 0, mode;

	for (mode = 0; mode < __PP_RING_NR; mode++) {
		if (!pp_test_ring_mode(mode))
			continue;
		failed += _cmocka_run_group_tests(pp_test_ring_name(mode), tests, n, NULL, NULL);
		ran += (int)n;
	}
	pp_test_ring_restore();
	return pp_test_exit_status(failed, ran);
}
#endif

#endif /* PP_TEST_DESIGNS_H */
