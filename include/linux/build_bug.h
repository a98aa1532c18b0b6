/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Compile-time assertions: BUILD_BUG_ON() and BUILD_BUG_ON_MSG() for
 * constant conditions, BUILD_BUG_ON_ZERO() as an expression,
 * BUILD_BUG_ON_INVALID() (type-checks without evaluating), and BUILD_BUG(),
 * which marks a statement the optimizer must prove unreachable.
 *
 * BUILD_BUG() is a call to a function with the warning attribute: the
 * compiler says "BUILD_BUG failed" only if the call survives optimization,
 * and at -O2, -O3 and -Os it is gone wherever the kernel's would be (the
 * kernel builds with -O2 and makes it an error). It is a warning, not the
 * kernel's error, because gcc's -O1 and -Og keep such calls where -O2
 * inlines them away (the kernel's bench_page_pool_simple.c has one), and
 * without optimization (__NO_INLINE__: -O0, the default of a plain cc
 * line) nothing is removed at all, so there it is not even a warning. A
 * call that remains is a BUG() at run time: reaching it aborts with the
 * file and line.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_BUILD_BUG_H
#define _PP_LINUX_BUILD_BUG_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/compiler.h>

#ifndef static_assert
#define static_assert(expr, ...)	_Static_assert(expr, "" __VA_ARGS__)
#endif

/* 0 as an int constant expression, or a compile error if @e is non-zero. */
#define BUILD_BUG_ON_ZERO(e)		((int)(sizeof(struct { int:(-!!(e)); })))
/* Type-check @e without generating code for it. */
#define BUILD_BUG_ON_INVALID(e)		((void)(sizeof((long)(e))))
#define BUILD_BUG_ON_NOT_POWER_OF_2(n)	BUILD_BUG_ON((n) == 0 || (((n) & ((n) - 1)) != 0))

/**
 * __pp_bug() - the body of BUG() and BUG_ON(): report and abort
 * @file: the source file
 * @line: the source line
 * @what: the condition or message
 *
 * The kernel's BUG() stops the machine; this aborts the program. The
 * library itself never calls it on bad input.
 *
 * Context: any context; does not return.
 */
__attribute__((__cold__, __noreturn__))
void __pp_bug(const char *file, int line, const char *what);

#if defined(__OPTIMIZE__) && !defined(__NO_INLINE__)
/**
 * __pp_build_bug_failed() - the call an optimizing build warns about for BUILD_BUG()
 * @file: the source file
 * @line: the source line
 *
 * Declared only when optimizing: a BUILD_BUG_ON() whose condition the
 * compiler cannot prove false leaves a call to it, and the compiler warns
 * "BUILD_BUG failed". Should one run, it aborts.
 *
 * Context: any context; does not return.
 */
__attribute__((__cold__, __noreturn__, __warning__("BUILD_BUG failed")))
void __pp_build_bug_failed(const char *file, int line);
#define __pp_compiletime_error(msg)	__pp_build_bug_failed(__FILE__, __LINE__)
#else
#define __pp_compiletime_error(msg)	__pp_bug(__FILE__, __LINE__, msg)
#endif

#define BUILD_BUG()		__pp_compiletime_error("BUILD_BUG failed")

/*
 * BUILD_BUG_ON(): a statement, as the kernel's. A condition that is an
 * integer constant expression is a _Static_assert (an error at any
 * optimization level); any other (the kernel's helpers write
 * BUILD_BUG_ON(__builtin_constant_p(nr) && nr != 1)) is left to the
 * optimizer as BUILD_BUG() is: the call must fold away.
 */
#define BUILD_BUG_ON_MSG(cond, msg)					\
	do {								\
		_Static_assert(!__builtin_choose_expr(__is_constexpr(cond), (cond), 0), msg); \
		if (__builtin_choose_expr(__is_constexpr(cond), 0, (cond)))	\
			__pp_compiletime_error(msg);			\
	} while (0)
#define BUILD_BUG_ON(cond)		BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON(" #cond ")")

#pragma GCC visibility pop
#endif /* _PP_LINUX_BUILD_BUG_H */
