/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* struct completion on a pthread mutex and condition variable. A wait that
 * has to block runs this CPU's raised softirqs first (__pp_before_sleep()).
 * Layer: runtime. */
#ifndef _PP_LINUX_COMPLETION_H
#define _PP_LINUX_COMPLETION_H

#include <pthread.h>
#include <linux/bottom_half.h>

struct completion {
	unsigned int done;
	pthread_mutex_t lock;
	pthread_cond_t wait;
};

#define COMPLETION_INITIALIZER(work) \
	{ 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER }
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->wait, NULL);
}

static inline void reinit_completion(struct completion *x)
{
	pthread_mutex_lock(&x->lock);
	x->done = 0;
	pthread_mutex_unlock(&x->lock);
}

static inline void complete(struct completion *x)
{
	pthread_mutex_lock(&x->lock);
	if (x->done != ~0U)
		x->done++;
	pthread_cond_signal(&x->wait);
	pthread_mutex_unlock(&x->lock);
}

static inline void complete_all(struct completion *x)
{
	pthread_mutex_lock(&x->lock);
	x->done = ~0U;
	pthread_cond_broadcast(&x->wait);
	pthread_mutex_unlock(&x->lock);
}

static inline void wait_for_completion(struct completion *x)
{
	pthread_mutex_lock(&x->lock);
	/* About to block: let this CPU's softirqs run first, unlocked (one
	 * of them may be what completes @x). */
	if (!x->done && __pp_softirqs_due_before_sleep()) {
		pthread_mutex_unlock(&x->lock);
		__pp_softirq_before_sleep();
		pthread_mutex_lock(&x->lock);
	}
	while (!x->done)
		pthread_cond_wait(&x->wait, &x->lock);
	if (x->done != ~0U)
		x->done--;
	pthread_mutex_unlock(&x->lock);
}

#endif
