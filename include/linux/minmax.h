/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* min()/max()/clamp() with the kernel's names. Layer: runtime. */
#ifndef _PP_LINUX_MINMAX_H
#define _PP_LINUX_MINMAX_H

#include <linux/compiler.h>

#define __pp_cmp(a, b, op)	((a) op (b) ? (a) : (b))

/*
 * min() and max() accept the operands the kernel's (v6.12) accepts: both
 * signed or both unsigned (as declared, or after integer promotion), or
 * either one a non-negative integer constant expression, so
 * min(u32_var, 16384) compiles as it does in the kernel. Signed against
 * unsigned variables is a compile error, as there. Both are compared in
 * their common type, as C compares them; converting first keeps
 * -Wsign-compare quiet for the constant case, and the sign bit is tested
 * with a shift, not a comparison, so that -Wtype-limits is quiet too.
 */
#define __pp_signed_type(t)	(((t)-1) < (t)1)
#define __pp_same_sign(a, b)						\
	(__pp_signed_type(__typeof__(a)) == __pp_signed_type(__typeof__(b)) ||	\
	 __pp_signed_type(__typeof__((a) + 0)) == __pp_signed_type(__typeof__((b) + 0)))
#define __pp_nonneg_const(x)						\
	__builtin_choose_expr(__is_constexpr(x),			\
			      ((unsigned long long)(long long)(x) >> 63) == 0, 0)
#define __pp_minmax_ok(a, b)						\
	(__pp_same_sign(a, b) || __pp_nonneg_const(a) || __pp_nonneg_const(b))
#define __pp_minmax(a, b, op, name)					\
({ _Static_assert(__pp_minmax_ok(a, b),				\
		  name "(" #a ", " #b "): signed and unsigned operands"); \
   __typeof__(a) __a = (a); __typeof__(b) __b = (b);		\
   __pp_cmp((__typeof__(__a + __b))__a, (__typeof__(__a + __b))__b, op); })
#define min(a, b)		__pp_minmax(a, b, <, "min")
#define max(a, b)		__pp_minmax(a, b, >, "max")
#define min_t(type, a, b)						\
({ type __a = (a); type __b = (b); __pp_cmp(__a, __b, <); })
#define max_t(type, a, b)						\
({ type __a = (a); type __b = (b); __pp_cmp(__a, __b, >); })
#define min3(a, b, c)		min(min(a, b), c)
#define max3(a, b, c)		max(max(a, b), c)
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define swap(a, b)							\
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
