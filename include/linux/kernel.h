/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The system's UAPI <linux/kernel.h> plus the kernel's everyday helpers:
 * container_of(), ARRAY_SIZE(), min()/max() and friends, ALIGN(), the
 * U32_MAX family (<linux/limits.h>) and kstrto*() (<linux/kstrtox.h>).
 * Layer: runtime.
 */
#ifndef _PP_LINUX_KERNEL_H
#define _PP_LINUX_KERNEL_H

#include_next <linux/kernel.h>

#include <limits.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/minmax.h>
#include <linux/export.h>
#include <linux/build_bug.h>
#include <linux/kstrtox.h>
#include <linux/limits.h>
#include <asm/sections.h>	/* is_kernel_rodata(), reached through the kernel's */

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif
#define container_of_const(ptr, type, member) container_of(ptr, type, member)

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

#define __ALIGN_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_MASK(x, (__typeof__(x))(a) - 1)
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define PTR_ALIGN(p, a)		((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))

#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

/* Process-context hints; nothing to do in userspace. */
#define might_sleep()		do { } while (0)
#define cond_resched()		do { } while (0)

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

#endif /* _PP_LINUX_KERNEL_H */
