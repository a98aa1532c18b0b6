/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Asking the checker whether memory is poisoned (meson -Dpoison), without
 * touching it: ASan's shadow in an ASan-poisoning build, memcheck's
 * addressability bits in a valgrind-poisoning build run under valgrind.
 * An invalid access would fail the valgrind suite, so the valgrind side
 * uses the client check request with error reporting off around it: the
 * answer without an error in the report.
 *
 * PP_POISON_TEST_FORCE=1 in the environment runs the checks in an ASan
 * build without poisoning (-Dpoison=none) too, asking ASan's shadow: that
 * is how the tests are shown to fail when poisoning is switched off.
 *
 * Uses only <generated/autoconf.h> (through <linux/kconfig.h>) and the
 * checkers' own headers, so both the unit tests and the programs built
 * from the installed headers (tests/hardening) include it.
 * Layer: tests.
 */
#ifndef PP_TEST_POISON_CHECK_H
#define PP_TEST_POISON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include <linux/kconfig.h>

/* The checker to ask: ASan's shadow in every ASan build (poisoning or
 * not), memcheck in the valgrind-poisoning build. */
#if defined(CONFIG_PAGEPOOL_POISON_ASAN) || defined(__SANITIZE_ADDRESS__)
#define PP_TEST_ASK_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PP_TEST_ASK_ASAN	1
#endif
#endif
#if defined(PP_TEST_ASK_ASAN)
#include <sanitizer/asan_interface.h>
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
#include <valgrind/memcheck.h>
#endif

/* PP_POISON_TEST_FORCE=1: run the checks although the build does not
 * poison (to show that they fail then). */
static inline bool pp_test_poison_forced(void)
{
	const char *e = getenv("PP_POISON_TEST_FORCE");

	return e && *e == '1';
}

/* Whether this build and run can answer: ASan poisoning, or valgrind
 * poisoning under valgrind (or an ASan build, forced). */
static inline bool pp_test_poison_checkable(void)
{
#if defined(CONFIG_PAGEPOOL_POISON_ASAN)
	return true;
#elif defined(PP_TEST_ASK_ASAN)
	return pp_test_poison_forced();
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
	return RUNNING_ON_VALGRIND;
#else
	return false;
#endif
}

/* Is the byte at @p inaccessible? */
static inline bool pp_test_byte_poisoned(const void *p)
{
#if defined(PP_TEST_ASK_ASAN)
	return __asan_address_is_poisoned(p);
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
	unsigned long bad;

	VALGRIND_DISABLE_ERROR_REPORTING;
	bad = VALGRIND_CHECK_MEM_IS_ADDRESSABLE(p, 1);
	VALGRIND_ENABLE_ERROR_REPORTING;
	return bad != 0;
#else
	(void)p;
	return false;
#endif
}

/* Every byte of [@p, @p + @len) accessible? */
static inline bool pp_test_addressable(const void *p, size_t len)
{
#if defined(PP_TEST_ASK_ASAN)
	return __asan_region_is_poisoned((void *)p, len) == NULL;
#elif defined(CONFIG_PAGEPOOL_POISON_VALGRIND)
	unsigned long bad;

	VALGRIND_DISABLE_ERROR_REPORTING;
	bad = VALGRIND_CHECK_MEM_IS_ADDRESSABLE(p, len);
	VALGRIND_ENABLE_ERROR_REPORTING;
	return bad == 0;
#else
	(void)p;
	(void)len;
	return true;
#endif
}

/* Every byte of [@p, @p + @len) inaccessible? Checked per 8 bytes (ASan's
 * granule) and at the last byte. */
static inline bool pp_test_poisoned(const void *p, size_t len)
{
	const char *c = p;
	size_t off;

	if (!len)
		return false;
	for (off = 0; off < len; off += 8)
		if (!pp_test_byte_poisoned(c + off))
			return false;
	return pp_test_byte_poisoned(c + len - 1);
}

#endif /* PP_TEST_POISON_CHECK_H */
