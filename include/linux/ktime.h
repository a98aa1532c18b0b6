/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* Kernel time helpers over clock_gettime(). Layer: runtime. */
#ifndef _PP_LINUX_KTIME_H
#define _PP_LINUX_KTIME_H

#include <linux/time64.h>
#include <linux/types.h>
#include <time.h>

static inline u64 __pp_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static inline ktime_t ktime_get(void)
{
	return (ktime_t)__pp_clock_ns(CLOCK_MONOTONIC);
}

static inline u64 ktime_get_ns(void)
{
	return __pp_clock_ns(CLOCK_MONOTONIC);
}

/* The kernel's: CLOCK_MONOTONIC at the last tick's resolution, cheaper
 * than ktime_get_ns() (no clock read: a quarter of the cost in a VM). */
static inline u64 ktime_get_coarse_ns(void)
{
	return __pp_clock_ns(CLOCK_MONOTONIC_COARSE);
}

static inline u64 ktime_get_real_ns(void)
{
	return __pp_clock_ns(CLOCK_REALTIME);
}

static inline s64 ktime_to_ns(ktime_t kt)
{
	return kt;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

static inline void ktime_get_real_ts64(struct timespec64 *ts)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	ts->tv_sec = t.tv_sec;
	ts->tv_nsec = t.tv_nsec;
}

static inline time64_t ktime_get_boottime_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_BOOTTIME, &t);
	return t.tv_sec;
}

static inline time64_t ktime_get_real_seconds(void)
{
	return (time64_t)time(NULL);
}

#endif
