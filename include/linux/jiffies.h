/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* jiffies: milliseconds of CLOCK_MONOTONIC (HZ = 1000). Layer: runtime. */
#ifndef _PP_LINUX_JIFFIES_H
#define _PP_LINUX_JIFFIES_H
#pragma GCC visibility push(default)	/* exported: <linux/export.h> */

#include <linux/types.h>

#define HZ	1000

/**
 * __pp_jiffies() - the jiffies counter
 *
 * HZ (1000) ticks a second from CLOCK_MONOTONIC; what jiffies reads.
 *
 * Context: any context.
 * Return: the jiffies now.
 */
unsigned long __pp_jiffies(void);
#define jiffies		__pp_jiffies()
#define jiffies_64	((u64)__pp_jiffies())

static inline unsigned long msecs_to_jiffies(unsigned int m)
{
	return m;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)j;
}

static inline unsigned long usecs_to_jiffies(unsigned int u)
{
	return (u + 999) / 1000;
}

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#pragma GCC visibility pop
#endif
