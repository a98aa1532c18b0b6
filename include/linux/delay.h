/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Busy-wait delays (ndelay/udelay/mdelay) and sleeps; a sleep runs this
 * CPU's raised softirqs first (__pp_before_sleep()). Layer: runtime. */
#ifndef _PP_LINUX_DELAY_H
#define _PP_LINUX_DELAY_H

#include <linux/bottom_half.h>
#include <linux/ktime.h>
#include <linux/processor.h>

static inline void ndelay(unsigned long ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}

#define udelay(us)	ndelay((unsigned long)(us) * 1000UL)
#define mdelay(ms)	ndelay((unsigned long)(ms) * 1000000UL)

static inline void __pp_sleep_ns(u64 ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	__pp_before_sleep();
	while (nanosleep(&ts, &ts) != 0)
		;
}

#define msleep(ms)		__pp_sleep_ns((u64)(ms) * NSEC_PER_MSEC)
#define usleep_range(lo, hi)	__pp_sleep_ns((u64)(lo) * NSEC_PER_USEC)
#define fsleep(us)		__pp_sleep_ns((u64)(us) * NSEC_PER_USEC)
#define ssleep(s)		__pp_sleep_ns((u64)(s) * NSEC_PER_SEC)

/* No signals interrupt a sleep here: the whole time passes, 0 remains. */
static inline unsigned long msleep_interruptible(unsigned int ms)
{
	msleep(ms);
	return 0;
}

#endif
