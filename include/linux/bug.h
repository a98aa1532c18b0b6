/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * WARN_ON() and friends. A WARN prints "WARNING: at file:line" and the
 * condition through the print callback and bumps the counter that
 * pp_warn_count() reads. The counter moves every time a WARN condition holds
 * (WARN_ON_ONCE() prints only the first time, but still counts), so tests
 * can assert on it whatever ran before them.
 *
 * BUG() is for states we cannot continue from: it prints and aborts.
 * Set PAGEPOOL_WARN_ABORT=1 in the environment to abort on any WARN.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_BUG_H
#define _PP_LINUX_BUG_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/build_bug.h>

/**
 * __pp_warn() - the body of WARN_ON(), WARN_ON_ONCE() and WARN()
 * @file: the source file
 * @line: the source line
 * @print: whether to print (false once a _ONCE warning has printed)
 * @fmt: printf format of the message, or NULL
 * @...: the format's arguments
 *
 * Counts the warning (pp_warn_count()) and prints it with a backtrace
 * through the print callback.
 *
 * Context: any context.
 */
__cold __printf(4, 5)
void __pp_warn(const char *file, int line, bool print, const char *fmt, ...);
__cold __noreturn void __pp_bug(const char *file, int line, const char *what);

#define WARN(condition, format, ...)					\
({									\
	int __ret_warn_on = !!(condition);				\
	if (unlikely(__ret_warn_on))					\
		__pp_warn(__FILE__, __LINE__, true, format, ##__VA_ARGS__);\
	unlikely(__ret_warn_on);					\
})

#define WARN_ON(condition)						\
	WARN(condition, "WARN_ON(%s)", #condition)

#define WARN_ONCE(condition, format, ...)				\
({									\
	static bool __warned;						\
	int __ret_warn_once = !!(condition);				\
	if (unlikely(__ret_warn_once))					\
		__pp_warn(__FILE__, __LINE__,				\
			  !__atomic_exchange_n(&__warned, true,		\
					       __ATOMIC_RELAXED),	\
			  format, ##__VA_ARGS__);			\
	unlikely(__ret_warn_once);					\
})

#define WARN_ON_ONCE(condition)						\
	WARN_ONCE(condition, "WARN_ON_ONCE(%s)", #condition)

#define BUG()		__pp_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(condition)						\
	do {								\
		if (unlikely(condition))				\
			__pp_bug(__FILE__, __LINE__, "BUG_ON(" #condition ")");\
	} while (0)

/* The kernel compiles these out without CONFIG_DEBUG_VM / DEBUG_NET; our
 * checks are cheap and userspace is where one debugs, so they stay on. */
#define VM_BUG_ON(cond)			BUG_ON(cond)
#define VM_WARN_ON(cond)		((void)WARN_ON(cond))
#define VM_WARN_ON_ONCE(cond)		((void)WARN_ON_ONCE(cond))
#define DEBUG_NET_WARN_ON_ONCE(cond)	((void)WARN_ON_ONCE(cond))

#pragma GCC visibility pop
#endif /* _PP_LINUX_BUG_H */
