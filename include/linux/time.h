/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * The kernel's <linux/time.h>: struct timespec64 and time64_t
 * (<linux/time64.h>), the 64-bit division helpers, jiffies conversions,
 * over the system's UAPI <linux/time.h>.
 *
 * The UAPI file defines struct timeval, itimerspec, itimerval and timezone,
 * which glibc defines too, so including it next to <time.h> or
 * <sys/time.h> is a redefinition error. We keep it visible anyway (its
 * CLOCK_* and MAX_CLOCKS constants, and <linux/time_types.h> with the
 * __kernel_* time types): glibc's headers come first, so their struct
 * timespec guard (_STRUCT_TIMESPEC) holds and the glibc macros the UAPI file
 * spells differently are out of the way; the four clashing UAPI struct tags
 * are renamed while it is read, to __pp_uapi_* tags nobody uses. Code keeps
 * glibc's struct timeval and friends, which have the same layout on every
 * 64-bit target. Layer: runtime.
 */
#ifndef _PP_LINUX_TIME_H
#define _PP_LINUX_TIME_H

#include <sys/time.h>
#include <time.h>

/* glibc spells these as enum constants behind same-named macros
 * (<sys/time.h>) or as "1" (TIMER_ABSTIME); the UAPI values are equal. */
#undef ITIMER_REAL
#undef ITIMER_VIRTUAL
#undef ITIMER_PROF
#undef TIMER_ABSTIME

#define timeval		__pp_uapi_timeval
#define itimerspec	__pp_uapi_itimerspec
#define itimerval	__pp_uapi_itimerval
#define timezone	__pp_uapi_timezone
#include_next <linux/time.h>
#undef timeval
#undef itimerspec
#undef itimerval
#undef timezone

#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/time64.h>

#endif /* _PP_LINUX_TIME_H */
