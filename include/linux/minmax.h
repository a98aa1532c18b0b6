/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* min()/max()/clamp() with the kernel's names. Layer: runtime. */
#ifndef _PP_LINUX_MINMAX_H
#define _PP_LINUX_MINMAX_H

#define __pp_cmp(a, b, op)	((a) op (b) ? (a) : (b))
#define min(a, b)							\
({ __typeof__(a) __a = (a); __typeof__(b) __b = (b);		\
   (void)(&__a == &__b); __pp_cmp(__a, __b, <); })
#define max(a, b)							\
({ __typeof__(a) __a = (a); __typeof__(b) __b = (b);		\
   (void)(&__a == &__b); __pp_cmp(__a, __b, >); })
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
