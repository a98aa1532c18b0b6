/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * pp_symbolize(): a return address in a function of this program gives
 * "func+0x.. (test_symbolize.c:LINE)" with the line of the call (libdw
 * build), or "func+0x.. (module)" (dladdr() build, exported symbols
 * only); an address in the library names the library function; bad
 * arguments are -EINVAL, an unmapped address -ENOENT; a short buffer is
 * truncated and the full length returned; concurrent callers agree.
 * Context: any thread; the concurrency case runs four.
 * Layer: tests.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <generated/autoconf.h>
#include <pagepool/runtime.h>

#include "test_common.h"

/* Keep the test functions whole: no clone, no interprocedural change
 * (gcc's noipa; clang makes neither of those here). */
#if defined(__has_attribute) && __has_attribute(__noipa__)
#define __no_ipa	__attribute__((__noipa__))
#else
#define __no_ipa
#endif

static int call_line;

/* Returns its own return address into symbolize_site(). */
static noinline __no_ipa unsigned long callee(void)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);

	__asm__ volatile("" ::: "memory");
	return ip;
}

/* Exported, so that the dladdr() back end finds it too. */
__attribute__((visibility("default"))) noinline __no_ipa
unsigned long symbolize_site(void)
{
	unsigned long ip;

	call_line = __LINE__ + 1;
	ip = callee();
	__asm__ volatile("" ::: "memory");
	return ip;
}

static void test_own_function(void **state)
{
	unsigned long ip = symbolize_site();
	char buf[256], want[64];
	int n;

	(void)state;
	n = pp_symbolize(ip, buf, sizeof(buf));
	print_message("%#lx: %s\n", ip, buf);
	assert_int_equal(n, (int)strlen(buf));
	assert_true(strncmp(buf, "symbolize_site+0x", 17) == 0);
	/* The offset is the address's, as given. */
	snprintf(want, sizeof(want), "symbolize_site+%#lx ",
		 ip - (unsigned long)symbolize_site);
	assert_true(strncmp(buf, want, strlen(want)) == 0);
#ifdef CONFIG_PAGEPOOL_SYMBOLIZE_LIBDW
	snprintf(want, sizeof(want), "(test_symbolize.c:%d)", call_line);
	assert_string_equal(strchr(buf, '('), want);
#else
	assert_non_null(strstr(buf, "(test_runtime_symbolize)"));
#endif
}

static void test_library_function(void **state)
{
	char buf[256];

	(void)state;
	/* An address inside an exported library function. */
	assert_true(pp_symbolize((unsigned long)pp_thread_register + 8, buf, sizeof(buf)) > 0);
	print_message("%s\n", buf);
	assert_true(strncmp(buf, "pp_thread_register+0x8 (", 24) == 0);
}

static void test_bad_args(void **state)
{
	unsigned long ip = symbolize_site();
	char buf[32];
	void *map;
	int n;

	(void)state;
	assert_int_equal(pp_symbolize(0, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_symbolize(ip, NULL, sizeof(buf)), -EINVAL);
	assert_int_equal(pp_symbolize(ip, buf, 0), -EINVAL);
	/* Anonymous memory: no module maps it. */
	map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(pp_symbolize((unsigned long)map + 16, buf, sizeof(buf)), -ENOENT);
	munmap(map, 4096);
	/* Truncated, NUL-terminated, the full length returned. */
	n = pp_symbolize(ip, buf, 8);
	assert_true(n > 8);
	assert_int_equal(strlen(buf), 7);
	assert_memory_equal(buf, "symboli", 7);
}

static unsigned long conc_ip;

static void *conc_worker(void *arg)
{
	char ref[256], buf[256];
	int i;

	(void)arg;
	if (pp_symbolize(conc_ip, ref, sizeof(ref)) < 0)
		return (void *)1;
	for (i = 0; i < 200; i++)
		if (pp_symbolize(conc_ip, buf, sizeof(buf)) < 0 || strcmp(buf, ref))
			return (void *)1;
	return NULL;
}

static void test_concurrent(void **state)
{
	pthread_t t[4];
	void *ret;
	int i, bad = 0;

	(void)state;
	conc_ip = symbolize_site();
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, conc_worker, NULL), 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &ret);
		bad += ret != NULL;
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_function),
		cmocka_unit_test(test_library_function),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_concurrent),
	};

	pp_test_capture_log();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
