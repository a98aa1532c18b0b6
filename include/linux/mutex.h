/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* struct mutex on a pthread mutex (sleeping lock). A mutex_lock() that
 * has to wait runs this CPU's raised softirqs first (<linux/bottom_half.h>,
 * __pp_before_sleep()). Layer: runtime. */
#ifndef _PP_LINUX_MUTEX_H
#define _PP_LINUX_MUTEX_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/bottom_half.h>

struct mutex {
	pthread_mutex_t m;
};

#define __MUTEX_INITIALIZER(name)	{ .m = PTHREAD_MUTEX_INITIALIZER }
#define DEFINE_MUTEX(name)		struct mutex name = __MUTEX_INITIALIZER(name)

static inline void mutex_init(struct mutex *lock)
{
	pthread_mutex_init(&lock->m, NULL);
}

static inline void mutex_destroy(struct mutex *lock)
{
	pthread_mutex_destroy(&lock->m);
}

static inline void mutex_lock(struct mutex *lock)
{
	if (pthread_mutex_trylock(&lock->m) == 0)
		return;
	__pp_before_sleep();
	pthread_mutex_lock(&lock->m);
}

static inline bool mutex_trylock(struct mutex *lock)
{
	return pthread_mutex_trylock(&lock->m) == 0;
}

static inline void mutex_unlock(struct mutex *lock)
{
	pthread_mutex_unlock(&lock->m);
}

#endif
