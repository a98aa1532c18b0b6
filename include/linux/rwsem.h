/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * struct rw_semaphore on a pthread rwlock (a sleeping lock, as the
 * kernel's): many readers or one writer. Like mutex_lock(), a down that
 * has to wait first does what sleeping in the kernel requires
 * (__pp_before_sleep(): a thread must not sleep with bottom halves off).
 * Writers are preferred, as the kernel's rwsem hands the lock to a waiting
 * writer before new readers.
 * Layer: runtime.
 */
#ifndef _PP_LINUX_RWSEM_H
#define _PP_LINUX_RWSEM_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/bottom_half.h>

struct rw_semaphore {
	pthread_rwlock_t rw;
};

/* glibc's PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP, spelled out:
 * that macro is declared only with _GNU_SOURCE, the kind and the lock's
 * __flags word (the same on x86-64 and arm64) without it. */
#define __RWSEM_INITIALIZER(name)					\
	{ .rw = { .__data = { .__flags = PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP } } }
#define DECLARE_RWSEM(name)		struct rw_semaphore name = __RWSEM_INITIALIZER(name)

static inline void init_rwsem(struct rw_semaphore *sem)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&sem->rw, &attr);
	pthread_rwlockattr_destroy(&attr);
}

static inline void down_read(struct rw_semaphore *sem)
{
	if (pthread_rwlock_tryrdlock(&sem->rw) == 0)
		return;
	__pp_before_sleep();
	pthread_rwlock_rdlock(&sem->rw);
}

/* Return: 1 if the lock was taken, 0 if not (the kernel's convention). */
static inline int down_read_trylock(struct rw_semaphore *sem)
{
	return pthread_rwlock_tryrdlock(&sem->rw) == 0;
}

static inline void up_read(struct rw_semaphore *sem)
{
	pthread_rwlock_unlock(&sem->rw);
}

static inline void down_write(struct rw_semaphore *sem)
{
	if (pthread_rwlock_trywrlock(&sem->rw) == 0)
		return;
	__pp_before_sleep();
	pthread_rwlock_wrlock(&sem->rw);
}

static inline int down_write_trylock(struct rw_semaphore *sem)
{
	return pthread_rwlock_trywrlock(&sem->rw) == 0;
}

static inline void up_write(struct rw_semaphore *sem)
{
	pthread_rwlock_unlock(&sem->rw);
}

#endif /* _PP_LINUX_RWSEM_H */
