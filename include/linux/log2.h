/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* ilog2() and power-of-two helpers live in bitops.h. Layer: runtime. */
#ifndef _PP_LINUX_LOG2_H
#define _PP_LINUX_LOG2_H
#include <linux/bitops.h>
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1UL : 1UL << (__fls(n - 1) + 1);
}
static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << __fls(n);
}
#endif
