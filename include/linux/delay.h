/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Busy-wait delays (ndelay/udelay/mdelay) and sleeps. Layer: runtime. */
#ifndef _PP_LINUX_DELAY_H
#define _PP_LINUX_DELAY_H

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

	while (nanosleep(&ts, &ts) != 0)
		;
}

#define msleep(ms)		__pp_sleep_ns((u64)(ms) * NSEC_PER_MSEC)
#define usleep_range(lo, hi)	__pp_sleep_ns((u64)(lo) * NSEC_PER_USEC)
#define fsleep(us)		__pp_sleep_ns((u64)(us) * NSEC_PER_USEC)

#endif
