/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * is_kernel_rodata() (<asm/sections.h>): a const table of function
 * pointers (RELRO in a position-independent program) and a string literal
 * are read-only data; writable globals, the heap and the stack are not -
 * as page_pool_init() needs to tell a const memory_provider_ops from one
 * that can be changed under it.
 */
#include <stdlib.h>

#include <asm/sections.h>

#include "test_common.h"

struct ops {
	int (*init)(void *);
	void (*destroy)(void *);
};

static int ops_init(void *p)
{
	return p != NULL;
}

static void ops_destroy(void *p)
{
	(void)p;
}

static const struct ops const_ops = { .init = ops_init, .destroy = ops_destroy };
static struct ops writable_ops = { .init = ops_init, .destroy = ops_destroy };
static const char literal[] = "read-only";

static void test_rodata(void **state)
{
	struct ops on_stack = writable_ops;
	struct ops *on_heap = malloc(sizeof(*on_heap));

	(void)state;
	assert_non_null(on_heap);
	assert_true(is_kernel_rodata((unsigned long)&const_ops));
	assert_true(is_kernel_rodata((unsigned long)literal));
	/* Code is read-only too (a non-writable PT_LOAD). */
	assert_true(is_kernel_rodata((unsigned long)ops_init));
	assert_false(is_kernel_rodata((unsigned long)&writable_ops));
	assert_false(is_kernel_rodata((unsigned long)&on_stack));
	assert_false(is_kernel_rodata((unsigned long)on_heap));
	assert_false(is_kernel_rodata(0));
	free(on_heap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rodata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
