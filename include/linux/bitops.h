/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * Bit operations. set_bit() and friends are atomic (sequentially consistent
 * read-modify-writes, as the kernel's); the __ versions are not.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_BITOPS_H
#define _PP_LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or((unsigned long *)addr + BIT_WORD(nr), BIT_MASK(nr),
			  __ATOMIC_SEQ_CST);
}

static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and((unsigned long *)addr + BIT_WORD(nr), ~BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline bool test_bit(long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n((const unsigned long *)addr + BIT_WORD(nr),
				__ATOMIC_RELAXED) & BIT_MASK(nr)) != 0;
}

static inline bool test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_or((unsigned long *)addr + BIT_WORD(nr),
				  BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr)) != 0;
}

static inline bool test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return (__atomic_fetch_and((unsigned long *)addr + BIT_WORD(nr),
				   ~BIT_MASK(nr), __ATOMIC_SEQ_CST) & BIT_MASK(nr)) != 0;
}

static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	((unsigned long *)addr)[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* Index of the lowest set bit; undefined for 0, as the kernel's. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* Index of the highest set bit; undefined for 0. */
static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - (unsigned long)__builtin_clzl(word);
}

/* 1-based index of the highest set bit, 0 for 0. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* ffs() is the C library's (<strings.h>), with the same meaning. */

static inline unsigned int hweight_long(unsigned long w)
{
	return (unsigned int)__builtin_popcountl(w);
}

#define ilog2(n)	((int)__fls((unsigned long)(n)))
#define order_base_2(n)	((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif
