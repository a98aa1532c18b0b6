/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * ALLOW_ERROR_INJECTION(): the kernel marks a function whose return value
 * fail_function (or bpf_override_return()) may replace with an error; the
 * kernel overrides it with a kprobe on the function's entry. Here the mark
 * puts the function's name and error type in the pp_error_inject section,
 * the list <pagepool/runtime.h>'s pp_fail_function_inject() arms by name,
 * and the function itself (or, for a kernel tree's function in kernel core
 * mode, the wrapper src/kcore/glue.c puts in its place) asks
 * pp_error_inject_should_fail() on entry: the kprobe's part. A mark needs
 * that check to be injectable, so only the library's own marked functions
 * are (the library is compiled with PAGEPOOL_BUILD defined). A mark in a
 * program's code compiles to a static record of the function's address
 * and error type, as the kernel's does - a name that is no function, or
 * an unknown type, does not compile; two files may each mark a static
 * function of the same name - that nothing reads: it is never listed nor
 * injectable, statically linked or not, as in a kernel built without
 * CONFIG_FUNCTION_ERROR_INJECTION.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_ERROR_INJECTION_H
#define _PP_LINUX_ERROR_INJECTION_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <pagepool/runtime.h>

#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

enum {
	EI_ETYPE_NULL,		/* return NULL on error */
	EI_ETYPE_ERRNO,		/* return -ERRNO on error */
	EI_ETYPE_ERRNO_NULL,	/* return -ERRNO or NULL on error */
	EI_ETYPE_TRUE,		/* return true on error */
};

struct pp_error_inject_entry {
	const char *name;
	unsigned long addr;	/* the function's */
	int etype;
};

#ifdef PAGEPOOL_BUILD
/*
 * The library's mark: one entry per function in section pp_error_inject,
 * named after the function so that the check in its body (which may be in
 * another file: kernel core mode's wrapper) can name it; hidden, so it is
 * this library's alone.
 */
#define ALLOW_ERROR_INJECTION(fname, _etype)					\
	__attribute__((visibility("hidden"))) const struct pp_error_inject_entry \
	__used __attribute__((section("pp_error_inject"), aligned(sizeof(void *)))) \
	__pp_eil_##fname = { #fname, (unsigned long)(fname), EI_ETYPE_##_etype }
#else
/* A program's mark: checked, kept, never listed (above). */
#define ALLOW_ERROR_INJECTION(fname, _etype)					\
	static const struct pp_error_inject_entry __used			\
	__pp_eil_user_##fname = { #fname, (unsigned long)(fname), EI_ETYPE_##_etype }
#endif

/* The mark of @fname, for a check in a file other than the one marking it. */
#define PP_ERROR_INJECT_MARK(fname)						\
	extern __attribute__((visibility("hidden")))				\
	const struct pp_error_inject_entry __pp_eil_##fname

/**
 * __pp_error_inject_should_fail_slow() - pp_error_inject_should_fail() past
 * its "nothing armed" test
 * @mark: the function's mark (&__pp_eil_<function>)
 *
 * Context: any context.
 * Return: true if this call of the function is to fail.
 */
bool __pp_error_inject_should_fail_slow(const struct pp_error_inject_entry *mark);

#pragma GCC visibility pop

/*
 * Is this call of a marked function to return its error value? For the
 * function's entry: one load and a predicted branch while no function is
 * armed (pp_fail_function_inject()).
 */
static inline bool pp_error_inject_should_fail(const struct pp_error_inject_entry *mark)
{
	if (__builtin_expect(!(READ_ONCE(__pp_fault_armed) & __PP_FAULT_ARMED_FUNCTION), 1))
		return false;
	return __pp_error_inject_should_fail_slow(mark);
}

#endif /* _PP_LINUX_ERROR_INJECTION_H */
