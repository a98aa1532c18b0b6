/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Compiler attributes and the once-access helpers, with the kernel's names.
 *
 * READ_ONCE()/WRITE_ONCE() are relaxed atomic accesses: they compile to a
 * plain load/store on every architecture we build for, and ThreadSanitizer
 * understands them (a volatile access would be reported as a data race).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_COMPILER_H
#define _PP_LINUX_COMPILER_H

#include <linux/kconfig.h>

#ifndef likely
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif

#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define __cold			__attribute__((__cold__))
#define __hot			__attribute__((__hot__))
#define __pure			__attribute__((__pure__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __noreturn		__attribute__((__noreturn__))
#define __weak			__attribute__((__weak__))
#define __read_mostly
#define __percpu
/* 1 if @x is an integer constant expression, 0 if not, without evaluating
 * it: a null pointer constant only when @x is one, which picks the type of
 * the conditional. What _Static_assert and array sizes need. */
#define __is_constexpr(x)						\
	(sizeof(int) == sizeof(*(8 ? ((void *)((long)(x) * 0l)) : (int *)8)))
#define __rcu
#define __iomem
#define __user
#define __force
#define __bitwise
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __init
#define __exit
#define __initdata
#define notrace
#define __randomize_layout
#define __counted_by(m)

#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif

#define barrier()		__asm__ __volatile__("" ::: "memory")

/* Is this an expression the compiler can evaluate at build time? */
#define __builtin_constant(x)	__builtin_constant_p(x)

/* C++ (the pp_* headers declare extern "C" and use READ_ONCE()) spells
 * it static_assert. */
#ifdef __cplusplus
#define __pp_static_assert	static_assert
#else
#define __pp_static_assert	_Static_assert
#endif
#define __scalar_once_ok(x)						\
	__pp_static_assert(sizeof(x) == 1 || sizeof(x) == 2 ||		\
		       sizeof(x) == 4 || sizeof(x) == 8,		\
		       "READ_ONCE/WRITE_ONCE need a scalar of 1, 2, 4 or 8 bytes")

#define READ_ONCE(x)							\
({									\
	__scalar_once_ok(x);						\
	__atomic_load_n(&(x), __ATOMIC_RELAXED);			\
})

#define WRITE_ONCE(x, val)						\
do {									\
	__scalar_once_ok(x);						\
	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED);		\
} while (0)

/* Reads that are allowed to race (statistics snapshots). */
#define data_race(expr)		(expr)

/* Detect sanitizers, for annotations in the runtime. */
#if defined(__SANITIZE_THREAD__)
#define PP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PP_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PP_ASAN 1
#endif
#endif

#endif /* _PP_LINUX_COMPILER_H */
