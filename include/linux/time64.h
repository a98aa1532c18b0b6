/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * time64_t, struct timespec64 and the unit constants (NSEC_PER_SEC ...),
 * with the helpers that convert between them. The system has no UAPI
 * header of this name. Layer: runtime.
 */
#ifndef _PP_LINUX_TIME64_H
#define _PP_LINUX_TIME64_H

#include <linux/math64.h>
#include <linux/types.h>

#define MSEC_PER_SEC	1000L
#define USEC_PER_MSEC	1000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L
#define FSEC_PER_SEC	1000000000000000LL

typedef s64 time64_t;
typedef u64 timeu64_t;

struct timespec64 {
	time64_t tv_sec;	/* seconds */
	long tv_nsec;		/* nanoseconds, 0 .. NSEC_PER_SEC - 1 */
};

#define TIME64_MAX	((s64)~((u64)1 << 63))
#define TIME64_MIN	(-TIME64_MAX - 1)
#define KTIME_MAX	((s64)~((u64)1 << 63))
#define KTIME_SEC_MAX	(KTIME_MAX / NSEC_PER_SEC)

static inline s64 timespec64_to_ns(const struct timespec64 *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

/* @nsec split into seconds and a non-negative nanosecond part. */
static inline struct timespec64 ns_to_timespec64(s64 nsec)
{
	struct timespec64 ts = { nsec / NSEC_PER_SEC, (long)(nsec % NSEC_PER_SEC) };

	if (ts.tv_nsec < 0) {
		ts.tv_sec--;
		ts.tv_nsec += NSEC_PER_SEC;
	}
	return ts;
}

static inline bool timespec64_equal(const struct timespec64 *a, const struct timespec64 *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* <0, 0 or >0 as @a is before, equal to or after @b. */
static inline int timespec64_compare(const struct timespec64 *a, const struct timespec64 *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	return a->tv_nsec < b->tv_nsec ? -1 : a->tv_nsec > b->tv_nsec;
}

static inline struct timespec64 timespec64_sub(struct timespec64 a, struct timespec64 b)
{
	return ns_to_timespec64(timespec64_to_ns(&a) - timespec64_to_ns(&b));
}

static inline struct timespec64 timespec64_add(struct timespec64 a, struct timespec64 b)
{
	return ns_to_timespec64(timespec64_to_ns(&a) + timespec64_to_ns(&b));
}

static inline bool timespec64_valid(const struct timespec64 *ts)
{
	return ts->tv_sec >= 0 && (unsigned long)ts->tv_nsec < NSEC_PER_SEC;
}

#endif /* _PP_LINUX_TIME64_H */
